implicit_pointers.c:22:1: warning: the size of the data pointer 'd' points to is unknown (a subscript is not an affine function of the iterators of the construct's for loops): unless it is present when the construct starts, the launch fails; add the section it uses to a data clause of the construct, e.g. copy(d[0:n])
implicit_pointers.c:22:1: warning: the size of the data pointer 'a' points to is unknown (it is used other than as 'a[index]'): unless it is present when the construct starts, the launch fails; add the section it uses to a data clause of the construct, e.g. copy(a[0:n])
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
/* Pointers no clause maps: NVHPC's implicit copy (written) or copyin (only read) of the section
   their subscripts reach in the construct's for loops, mapped unless present at the entry. */
#define W 16

void sections(int n, int m, const float *a, float *b, float *c, float *d, int *idx) {
{ /* #pragma acc parallel loop */
  size_t jacc_implicit_b = jacc_translated_implicit((void *)&b[0], (long)(n - 1), sizeof b[0], "implicit_pointers.c:6");
  size_t jacc_implicit_a = jacc_translated_implicit((void *)&a[0], (long)(n), sizeof a[0], "implicit_pointers.c:6");
  jacc_arg jacc_args[] = {{"int n", &n}, {"float *b", &b}, {"const float *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 1; i < n - 1; i++)\n"
      "    b[i] = a[i - 1] + a[i + 1];\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:6");
  if (jacc_implicit_a) jacc_translated_check(jacc_delete((void *)&a[0], jacc_implicit_a), "implicit_pointers.c:6");
  if (jacc_implicit_b) jacc_translated_check(jacc_copyout((void *)&b[0], jacc_implicit_b), "implicit_pointers.c:6");
}
{ /* #pragma acc serial */
  size_t jacc_implicit_c = jacc_translated_implicit((void *)&c[0], (long)(17 * m - 16), sizeof c[0], "implicit_pointers.c:9");
  size_t jacc_implicit_b = jacc_translated_implicit((void *)&b[0], (long)(m), sizeof b[0], "implicit_pointers.c:9");
  jacc_arg jacc_args[] = {{"int m", &m}, {"float *c", &c}, {"float *b", &b}};
  jacc_translated_check(jacc_kernel_push(
      "#define W 16\n"
      "#pragma acc serial\n"
      "  for (int i = 0; i < m; i++)\n"
      "    for (int j = 0; j <= i; j++)\n"
      "      c[i * W + j] += b[j];\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:9");
  if (jacc_implicit_b) jacc_translated_check(jacc_delete((void *)&b[0], jacc_implicit_b), "implicit_pointers.c:9");
  if (jacc_implicit_c) jacc_translated_check(jacc_copyout((void *)&c[0], jacc_implicit_c), "implicit_pointers.c:9");
}
{ /* #pragma acc kernels */
  size_t jacc_implicit_d = jacc_translated_implicit((void *)&d[0], (long)(n), sizeof d[0], "implicit_pointers.c:13");
  size_t jacc_implicit_a = jacc_translated_implicit((void *)&a[0], (long)(n), sizeof a[0], "implicit_pointers.c:13");
  jacc_arg jacc_args[] = {{"int n", &n}, {"float *d", &d}, {"const float *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc kernels\n"
      "  for (int i = n - 1; i >= 0; i--)\n"
      "    d[n - 1 - i] = a[i];\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:13");
  if (jacc_implicit_a) jacc_translated_check(jacc_delete((void *)&a[0], jacc_implicit_a), "implicit_pointers.c:13");
  if (jacc_implicit_d) jacc_translated_check(jacc_copyout((void *)&d[0], jacc_implicit_d), "implicit_pointers.c:13");
}
  /* A data region around maps b: only c is implicit; idx is named. */
{ /* #pragma acc data copy(b[0:n]) */
void *const jacc_section_1 = &b[0];
const size_t jacc_section_1_bytes = n * sizeof b[0];
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "implicit_pointers.c:17");
{ /* #pragma acc parallel loop copyin(idx[0:n]) */
  jacc_translated_check(jacc_copyin(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:18");
  size_t jacc_implicit_c = jacc_translated_implicit((void *)&c[0], (long)(n), sizeof c[0], "implicit_pointers.c:18");
  jacc_arg jacc_args[] = {{"int n", &n}, {"float *b", &b}, {"float *c", &c}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    b[i] += c[i];\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:18");
  if (jacc_implicit_c) jacc_translated_check(jacc_delete((void *)&c[0], jacc_implicit_c), "implicit_pointers.c:18");
  jacc_translated_check(jacc_delete(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:18");
}
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "implicit_pointers.c:17");
}
  /* Unknown sections: a warning, and the data must be present. */
{ /* #pragma acc parallel loop copyin(idx[0:n]) */
  jacc_translated_check(jacc_copyin(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:22");
  jacc_arg jacc_args[] = {{"int n", &n}, {"float *d", &d}, {"int *idx", &idx}, {"const float *a", &a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    d[idx[i]] = *a;\n",
      4, jacc_args, JACC_DEFAULT), "implicit_pointers.c:22");
  jacc_translated_check(jacc_delete(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:22");
}
}
