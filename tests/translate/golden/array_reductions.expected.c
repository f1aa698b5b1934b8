#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "array_reductions.c"
/* Reductions on arrays: a bare C array becomes its whole section, a section and an element pass
   as written, a mapped element is brought to the host around the push, and an inner loop's
   reduction on a gang's private array stays in the kernel as written. */
void f(const double *a, int n, int *errors) {
  double h[8] = {0}, c[10];
  double t[4];
{ /* #pragma acc parallel loop copyin(a[0:n]) reduction(+:h) reduction(max: c[2:4]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "array_reductions.c", 7, "f");
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "array_reductions.c:7");
  if (jacc_is_present(&h[0], sizeof h)) jacc_translated_check(jacc_update_self(&h[0], sizeof h), "array_reductions.c:7");
  if (jacc_is_present(&c[2], (4) * sizeof c[0])) jacc_translated_check(jacc_update_self(&c[2], (4) * sizeof c[0]), "array_reductions.c:7");
  double *jacc_ptr_h = h;
  double *jacc_ptr_c = c;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *h", &jacc_ptr_h}, {"const double *a", (void *)&a}, {"double *c", &jacc_ptr_c}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:h[0:8]) reduction(max: c[2:4])\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    h[i % 8] += a[i];\n"
      "    c[2 + i % 4] = a[i] > c[2 + i % 4] ? a[i] : c[2 + i % 4];\n"
      "  }\n"
      "// jacc-site: array_reductions.c:7\n",
      4, jacc_args, JACC_DEFAULT), "array_reductions.c:7");
  if (jacc_is_present(&c[2], (4) * sizeof c[0])) jacc_translated_check(jacc_update_device(&c[2], (4) * sizeof c[0]), "array_reductions.c:7");
  if (jacc_is_present(&h[0], sizeof h)) jacc_translated_check(jacc_update_device(&h[0], sizeof h), "array_reductions.c:7");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "array_reductions.c:7");
  jacc_construct_end();
}
{ /* #pragma acc data copy(errors[0:10]) */
void *const jacc_section_1 = &errors[0];
const size_t jacc_section_1_bytes = 10 * sizeof errors[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "array_reductions.c", 12, "f");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "array_reductions.c:12");
jacc_construct_end();
#line 13 "array_reductions.c"
  for (int x = 0; x < 10; x++) {
{ /* #pragma acc parallel loop copyin(a[0:n]) reduction(+:errors[x]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "array_reductions.c", 14, "f");
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "array_reductions.c:14");
  if (jacc_is_present(&errors[x], sizeof errors[x])) jacc_translated_check(jacc_update_self(&errors[x], sizeof errors[x]), "array_reductions.c:14");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"int *errors", (void *)&errors}, {"int x", (void *)&x}, {"const double *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:errors[x])\n"
      "    for (int i = 0; i < n; i++)\n"
      "      errors[x] += a[i] < 0;\n"
      "// jacc-site: array_reductions.c:14\n",
      4, jacc_args, JACC_DEFAULT), "array_reductions.c:14");
  if (jacc_is_present(&errors[x], sizeof errors[x])) jacc_translated_check(jacc_update_device(&errors[x], sizeof errors[x]), "array_reductions.c:14");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "array_reductions.c:14");
  jacc_construct_end();
}
#line 17 "array_reductions.c"
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "array_reductions.c", 12, "f");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "array_reductions.c:12");
jacc_construct_end();
}
{ /* #pragma acc parallel loop copyin(a[0:n]) private(t) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "array_reductions.c", 18, "f");
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "array_reductions.c:18");
  void *jacc_private_t = 0; (void)t;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double t[4]", &jacc_private_t}, {"const double *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop private(t)\n"
      "  for (int r = 0; r < 4; r++) {\n"
      "#pragma acc loop vector reduction(+:t)\n"
      "    for (int i = 0; i < n; i++)\n"
      "      t[i % 4] += a[i];\n"
      "  }\n"
      "// jacc-site: array_reductions.c:18\n",
      3, jacc_args, JACC_DEFAULT), "array_reductions.c:18");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "array_reductions.c:18");
  jacc_construct_end();
}
#line 24 "array_reductions.c"
}
