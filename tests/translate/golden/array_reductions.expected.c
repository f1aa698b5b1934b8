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
/* Reductions on arrays: a bare C array becomes its whole section, a section and an element pass
   as written, a mapped element is brought to the host around the push, and an inner loop's
   reduction on a gang's private array stays in the kernel as written. */
void f(const double *a, int n, int *errors) {
  double h[8] = {0}, c[10];
  double t[4];
{ /* #pragma acc parallel loop copyin(a[0:n]) reduction(+:h) reduction(max: c[2:4]) */
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "array_reductions.c:7");
  if (jacc_is_present(&h[0], sizeof h)) jacc_translated_check(jacc_update_self(&h[0], sizeof h), "array_reductions.c:7");
  if (jacc_is_present(&c[2], (4) * sizeof c[0])) jacc_translated_check(jacc_update_self(&c[2], (4) * sizeof c[0]), "array_reductions.c:7");
  double *jacc_ptr_h = h;
  double *jacc_ptr_c = c;
  jacc_arg jacc_args[] = {{"int n", &n}, {"double *h", &jacc_ptr_h}, {"const double *a", &a}, {"double *c", &jacc_ptr_c}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:h[0:8]) reduction(max: c[2:4])\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    h[i % 8] += a[i];\n"
      "    c[2 + i % 4] = a[i] > c[2 + i % 4] ? a[i] : c[2 + i % 4];\n"
      "  }\n",
      4, jacc_args, JACC_DEFAULT), "array_reductions.c:7");
  if (jacc_is_present(&c[2], (4) * sizeof c[0])) jacc_translated_check(jacc_update_device(&c[2], (4) * sizeof c[0]), "array_reductions.c:7");
  if (jacc_is_present(&h[0], sizeof h)) jacc_translated_check(jacc_update_device(&h[0], sizeof h), "array_reductions.c:7");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "array_reductions.c:7");
}
{ /* #pragma acc data copy(errors[0:10]) */
void *const jacc_section_1 = &errors[0];
const size_t jacc_section_1_bytes = 10 * sizeof errors[0];
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "array_reductions.c:12");
  for (int x = 0; x < 10; x++) {
{ /* #pragma acc parallel loop copyin(a[0:n]) reduction(+:errors[x]) */
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "array_reductions.c:14");
  if (jacc_is_present(&errors[x], sizeof errors[x])) jacc_translated_check(jacc_update_self(&errors[x], sizeof errors[x]), "array_reductions.c:14");
  jacc_arg jacc_args[] = {{"int n", &n}, {"int *errors", &errors}, {"int x", &x}, {"const double *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:errors[x])\n"
      "    for (int i = 0; i < n; i++)\n"
      "      errors[x] += a[i] < 0;\n",
      4, jacc_args, JACC_DEFAULT), "array_reductions.c:14");
  if (jacc_is_present(&errors[x], sizeof errors[x])) jacc_translated_check(jacc_update_device(&errors[x], sizeof errors[x]), "array_reductions.c:14");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "array_reductions.c:14");
}
  }
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "array_reductions.c:12");
}
{ /* #pragma acc parallel loop copyin(a[0:n]) private(t) */
  jacc_translated_check(jacc_copyin((void *)&a[0], n * sizeof a[0]), "array_reductions.c:18");
  void *jacc_private_t = 0; (void)t;
  jacc_arg jacc_args[] = {{"int n", &n}, {"double t[4]", &jacc_private_t}, {"const double *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop private(t)\n"
      "  for (int r = 0; r < 4; r++) {\n"
      "#pragma acc loop vector reduction(+:t)\n"
      "    for (int i = 0; i < n; i++)\n"
      "      t[i % 4] += a[i];\n"
      "  }\n",
      3, jacc_args, JACC_DEFAULT), "array_reductions.c:18");
  jacc_translated_check(jacc_delete((void *)&a[0], n * sizeof a[0]), "array_reductions.c:18");
}
}
