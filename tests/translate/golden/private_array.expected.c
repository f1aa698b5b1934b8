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
/* private arrays declared outside the construct: on a combined construct, and on a loop that is
   a top-level statement of a parallel construct. */
void f(int n, double *out) {
  double scratch[8];
  int hist[2][4];
{ /* #pragma acc parallel loop private(scratch, hist) present(out[0:n]) */
  jacc_translated_present(&out[0], n * sizeof out[0], "private_array.c:6", "out[0:n]");
  void *jacc_private_scratch = 0; (void)scratch;
  void *jacc_private_hist = 0; (void)hist;
  jacc_arg jacc_args[] = {{"int n", &n}, {"double scratch[8]", &jacc_private_scratch}, {"int hist[2][4]", &jacc_private_hist}, {"double *out", &out}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop private(scratch, hist)\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    for (int k = 0; k < 8; k++) scratch[k] = i + k;\n"
      "    hist[1][3] = i;\n"
      "    out[i] = scratch[n % 8] + hist[1][3];\n"
      "  }\n",
      4, jacc_args, JACC_DEFAULT), "private_array.c:6");
}
{ /* #pragma acc parallel present(out[0:n]) */
  jacc_translated_present(&out[0], n * sizeof out[0], "private_array.c:12", "out[0:n]");
  void *jacc_private_scratch = 0; (void)scratch;
  jacc_arg jacc_args[] = {{"int n", &n}, {"double scratch[8]", &jacc_private_scratch}, {"double *out", &out}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel\n"
      "  {\n"
      "#pragma acc loop private(scratch)\n"
      "    for (int i = 0; i < n; i++) {\n"
      "      scratch[0] = i;\n"
      "      out[i] += scratch[0];\n"
      "    }\n"
      "  }\n",
      3, jacc_args, JACC_DEFAULT), "private_array.c:12");
}
}
