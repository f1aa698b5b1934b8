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
/* Variable-length arrays: a 1-D local, a 2-D local (present-or-copy), a pointer to VLA rows. */
void f(int n, int m, double (*b)[m]) {
  double a[n];
  double g[n][m + 1];
{ /* #pragma acc parallel loop */
  jacc_translated_check(jacc_copyin(a, sizeof a), "vla.c:5");
  void *jacc_ptr_a = (void *)a;
  jacc_arg jacc_args[] = {{"int n", &n}, {"double *a", &jacc_ptr_a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) a[i] = i;\n",
      2, jacc_args, JACC_DEFAULT), "vla.c:5");
  jacc_translated_check(jacc_copyout(a, sizeof a), "vla.c:5");
}
{ /* #pragma acc parallel loop collapse(2) copy(b[0:n][0:m]) */
  jacc_translated_check(jacc_copyin(&b[0], n * sizeof b[0]), "vla.c:7");
  jacc_translated_check(jacc_copyin(g, sizeof g), "vla.c:7");
  jacc_translated_check(jacc_copyin(a, sizeof a), "vla.c:7");
  long jacc_vla_g_1 = (long)(sizeof g[0] / sizeof g[0][0]); void *jacc_ptr_g = (void *)g;
  long jacc_vla_b_1 = (long)(sizeof b[0] / sizeof b[0][0]); void *jacc_ptr_b = (void *)b;
  void *jacc_ptr_a = (void *)a;
  jacc_arg jacc_args[] = {{"int n", &n}, {"int m", &m}, {"long jacc_vla_g_1", &jacc_vla_g_1}, {"double (*g)[jacc_vla_g_1]", &jacc_ptr_g}, {"long jacc_vla_b_1", &jacc_vla_b_1}, {"double (*b)[jacc_vla_b_1]", &jacc_ptr_b}, {"double *a", &jacc_ptr_a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop collapse(2)\n"
      "  for (int i = 0; i < n; i++)\n"
      "    for (int j = 0; j < m; j++) g[i][j] = b[i][j] + a[i];\n",
      7, jacc_args, JACC_DEFAULT), "vla.c:7");
  jacc_translated_check(jacc_copyout(a, sizeof a), "vla.c:7");
  jacc_translated_check(jacc_copyout(g, sizeof g), "vla.c:7");
  jacc_translated_check(jacc_copyout(&b[0], n * sizeof b[0]), "vla.c:7");
}
}
