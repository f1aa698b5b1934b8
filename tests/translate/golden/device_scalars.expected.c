#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "device_scalars.c"
/* Scalars with a copy on the devices: assigned in a kernels construct (implicit copy), in a copy
   or copyout clause, present from a data construct, and a reduction into a data construct's
   copy. A loop's private scalar in kernels stays private. */
void f(const float *a, int n, float *out) {
  float last = 0;
  int t;
{ /* #pragma acc kernels copyin(a[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_KERNELS, "device_scalars.c", 7, "f");
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "device_scalars.c:7");
  jacc_translated_check(jacc_copyin(&last, sizeof last), "device_scalars.c:7");
  float *jacc_ref_last = &last;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *jacc_ref_last", &jacc_ref_last}, {"const float *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc kernels\n"
      "  {\n"
      "    for (int i = 0; i < n; i++) jacc_ref_last[0] = a[i];\n"
      "  }\n"
      "// jacc-site: device_scalars.c:7\n",
      3, jacc_args, JACC_DEFAULT), "device_scalars.c:7");
  jacc_translated_check(jacc_copyout(&last, sizeof last), "device_scalars.c:7");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "device_scalars.c:7");
  jacc_construct_end();
}
#line 11 "device_scalars.c"
  int count = 3, flag;
{ /* #pragma acc parallel copy(count) copyout(flag) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "device_scalars.c", 12, "f");
  jacc_translated_check(jacc_copyin(&count, sizeof count), "device_scalars.c:12");
  jacc_translated_check(jacc_create(&flag, sizeof flag), "device_scalars.c:12");
  int *jacc_ref_count = &count;
  int *jacc_ref_flag = &flag;
  jacc_arg jacc_args[] = {{"int *jacc_ref_count", &jacc_ref_count}, {"int n", (void *)&n}, {"int *jacc_ref_flag", &jacc_ref_flag}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel\n"
      "  {\n"
      "    jacc_ref_count[0] += n;\n"
      "    jacc_ref_flag[0] = 1;\n"
      "  }\n"
      "// jacc-site: device_scalars.c:12\n",
      3, jacc_args, JACC_DEFAULT), "device_scalars.c:12");
  jacc_translated_check(jacc_copyout(&flag, sizeof flag), "device_scalars.c:12");
  jacc_translated_check(jacc_copyout(&count, sizeof count), "device_scalars.c:12");
  jacc_construct_end();
}
#line 17 "device_scalars.c"
  double total = 0;
{ /* #pragma acc data copy(total) copyin(a[0:n]) */
void *const jacc_section_1 = &total;
const size_t jacc_section_1_bytes = sizeof total;
void *const jacc_section_2 = (void *)&a[0];
const size_t jacc_section_2_bytes = n * sizeof a[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "device_scalars.c", 18, "f");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "device_scalars.c:18");
jacc_translated_check(jacc_copyin(jacc_section_2, jacc_section_2_bytes), "device_scalars.c:18");
jacc_construct_end();
#line 19 "device_scalars.c"
  {
{ /* #pragma acc parallel loop reduction(+:total) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "device_scalars.c", 20, "f");
  jacc_translated_check(jacc_update_self(&total, sizeof total), "device_scalars.c:20");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double total", (void *)&total}, {"const float *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:total)\n"
      "    for (int i = 0; i < n; i++) total += a[i];\n"
      "// jacc-site: device_scalars.c:20\n",
      3, jacc_args, JACC_DEFAULT), "device_scalars.c:20");
  jacc_translated_check(jacc_update_device(&total, sizeof total), "device_scalars.c:20");
  jacc_construct_end();
}
{ /* #pragma acc serial */
  jacc_construct_begin(JACC_CONSTRUCT_SERIAL, "device_scalars.c", 22, "f");
  double *jacc_ref_total = &total;
  jacc_arg jacc_args[] = {{"double *jacc_ref_total", &jacc_ref_total}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc serial\n"
      "    jacc_ref_total[0] *= 2;\n"
      "// jacc-site: device_scalars.c:22\n",
      1, jacc_args, JACC_DEFAULT), "device_scalars.c:22");
  jacc_construct_end();
}
#line 24 "device_scalars.c"
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "device_scalars.c", 18, "f");
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "device_scalars.c:18");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "device_scalars.c:18");
jacc_construct_end();
}
{ /* #pragma acc kernels loop private(t) copyin(a[0:n]) copyout(out[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_KERNELS, "device_scalars.c", 25, "f");
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "device_scalars.c:25");
  jacc_translated_check(jacc_create(&out[0], n * sizeof out[0]), "device_scalars.c:25");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"int t", (void *)&t}, {"float *out", (void *)&out}, {"const float *a", (void *)&a}, {"float last", (void *)&last}, {"int count", (void *)&count}, {"int flag", (void *)&flag}, {"double total", (void *)&total}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc kernels loop private(t)\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    t = i;\n"
      "    out[i] = a[t] + last + count + flag + total;\n"
      "  }\n"
      "// jacc-site: device_scalars.c:25\n",
      8, jacc_args, JACC_DEFAULT), "device_scalars.c:25");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "device_scalars.c:25");
  jacc_translated_check(jacc_copyout(&out[0], n * sizeof out[0]), "device_scalars.c:25");
  jacc_construct_end();
}
#line 30 "device_scalars.c"
}
