#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* Added by jacc-translate: a failing jacc call ends the program with jacc's message, as a failing
   OpenACC directive would. */
static inline void jacc_translated_check(jacc_status status, const char *where) {
  if (status != JACC_SUCCESS) {
    fprintf(stderr, "%s: %s\n", where, jacc_last_error());
    exit(1);
  }
}
/* no_create: 1 when [p, p+bytes) was absent and is now mapped for the construct (copied in;
   the construct's end copies it back). */
static inline int jacc_translated_no_create(void *p, size_t bytes, const char *where) {
  if (!p || !bytes || jacc_is_present(p, bytes))
    return 0;
  jacc_translated_check(jacc_copyin(p, bytes), where);
  return 1;
}
/* firstprivate(p[0:n]): what the private copies start from: the devices' copy when present,
   else a copy of the host's bytes mapped for the construct (the host's array stays unmapped). */
static inline void *jacc_translated_firstprivate(void *p, size_t bytes, const char *where) {
  if (!bytes || jacc_is_present(p, bytes))
    return p;
  unsigned char *copy = (unsigned char *)malloc(bytes);
  if (!copy) {
    fprintf(stderr, "%s: out of memory for a firstprivate section\n", where);
    exit(1);
  }
  for (size_t i = 0; i < bytes; i++)
    copy[i] = ((const unsigned char *)p)[i];
  jacc_translated_check(jacc_copyin(copy, bytes), where);
  return copy;
}
static inline void jacc_translated_firstprivate_end(void *copy, void *p, size_t bytes,
                                                    const char *where) {
  if (copy == p)
    return;
  jacc_translated_check(jacc_delete(copy, bytes), where);
  free(copy);
}
/* An implicit copy or copyin (NVHPC's, of a pointer no clause names) of the section its
   subscripts reach, [p, p + len * size): mapped for the construct unless p is present (a mapping
   around the construct wins); the bytes mapped, or 0. */
static inline size_t jacc_translated_implicit(void *p, long len, size_t size, const char *where) {
  if (!p || len <= 0 || jacc_is_present(p, 1))
    return 0;
  jacc_translated_check(jacc_copyin(p, (size_t)len * size), where);
  return (size_t)len * size;
}
static inline void jacc_translated_present(const void *p, size_t bytes, const char *where,
                                           const char *what) {
  if (!jacc_is_present(p, bytes)) {
    fprintf(stderr, "%s: '%s' in clause 'present' is not present on the devices\n", where, what);
    exit(1);
  }
}
/* Scalars with a copy on the devices: assigned in a kernels construct (implicit copy), in a copy
   or copyout clause, present from a data construct, and a reduction into a data construct's
   copy. A loop's private scalar in kernels stays private. */
void f(const float *a, int n, float *out) {
  float last = 0;
  int t;
{ /* #pragma acc kernels copyin(a[0:n]) */
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "device_scalars.c:7");
  jacc_translated_check(jacc_copyin(&last, sizeof last), "device_scalars.c:7");
  float *jacc_ref_last = &last;
  jacc_arg jacc_args[] = {{"int n", &n}, {"float *jacc_ref_last", &jacc_ref_last}, {"const float *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc kernels\n"
      "  {\n"
      "    for (int i = 0; i < n; i++) jacc_ref_last[0] = a[i];\n"
      "  }\n",
      3, jacc_args, JACC_DEFAULT), "device_scalars.c:7");
  jacc_translated_check(jacc_copyout(&last, sizeof last), "device_scalars.c:7");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "device_scalars.c:7");
}
  int count = 3, flag;
{ /* #pragma acc parallel copy(count) copyout(flag) */
  jacc_translated_check(jacc_copyin(&count, sizeof count), "device_scalars.c:12");
  jacc_translated_check(jacc_create(&flag, sizeof flag), "device_scalars.c:12");
  int *jacc_ref_count = &count;
  int *jacc_ref_flag = &flag;
  jacc_arg jacc_args[] = {{"int *jacc_ref_count", &jacc_ref_count}, {"int n", &n}, {"int *jacc_ref_flag", &jacc_ref_flag}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel\n"
      "  {\n"
      "    jacc_ref_count[0] += n;\n"
      "    jacc_ref_flag[0] = 1;\n"
      "  }\n",
      3, jacc_args, JACC_DEFAULT), "device_scalars.c:12");
  jacc_translated_check(jacc_copyout(&flag, sizeof flag), "device_scalars.c:12");
  jacc_translated_check(jacc_copyout(&count, sizeof count), "device_scalars.c:12");
}
  double total = 0;
{ /* #pragma acc data copy(total) copyin(a[0:n]) */
void *const jacc_section_1 = &total;
const size_t jacc_section_1_bytes = sizeof total;
void *const jacc_section_2 = (void *)&a[0];
const size_t jacc_section_2_bytes = n * sizeof a[0];
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "device_scalars.c:18");
jacc_translated_check(jacc_copyin(jacc_section_2, jacc_section_2_bytes), "device_scalars.c:18");
  {
{ /* #pragma acc parallel loop reduction(+:total) */
  jacc_translated_check(jacc_update_self(&total, sizeof total), "device_scalars.c:20");
  jacc_arg jacc_args[] = {{"int n", &n}, {"double total", &total}, {"const float *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:total)\n"
      "    for (int i = 0; i < n; i++) total += a[i];\n",
      3, jacc_args, JACC_DEFAULT), "device_scalars.c:20");
  jacc_translated_check(jacc_update_device(&total, sizeof total), "device_scalars.c:20");
}
{ /* #pragma acc serial */
  double *jacc_ref_total = &total;
  jacc_arg jacc_args[] = {{"double *jacc_ref_total", &jacc_ref_total}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc serial\n"
      "    jacc_ref_total[0] *= 2;\n",
      1, jacc_args, JACC_DEFAULT), "device_scalars.c:22");
}
  }
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "device_scalars.c:18");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "device_scalars.c:18");
}
{ /* #pragma acc kernels loop private(t) copyin(a[0:n]) copyout(out[0:n]) */
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "device_scalars.c:25");
  jacc_translated_check(jacc_create(&out[0], n * sizeof out[0]), "device_scalars.c:25");
  jacc_arg jacc_args[] = {{"int n", &n}, {"int t", &t}, {"float *out", &out}, {"const float *a", &a}, {"float last", &last}, {"int count", &count}, {"int flag", &flag}, {"double total", &total}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc kernels loop private(t)\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    t = i;\n"
      "    out[i] = a[t] + last + count + flag + total;\n"
      "  }\n",
      8, jacc_args, JACC_DEFAULT), "device_scalars.c:25");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "device_scalars.c:25");
  jacc_translated_check(jacc_copyout(&out[0], n * sizeof out[0]), "device_scalars.c:25");
}
}
