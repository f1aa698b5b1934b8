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
/* enter data, exit data (finalize), update (self, host, device, if, if_present) and wait. */
void sync(double *x, int n, int flag) {
/* #pragma acc enter data copyin(x[0:n]) create(x[n:n]) async(1) */
jacc_translated_check(jacc_copyin(&x[0], n * sizeof x[0]), "standalone.c:3");
jacc_translated_check(jacc_create(&x[n], n * sizeof x[0]), "standalone.c:3");
/* #pragma acc update device(x[0:n]) if(flag) */
if (flag) {
  jacc_translated_check(jacc_update_device(&x[0], n * sizeof x[0]), "standalone.c:4");
}
/* #pragma acc update self(x[1:n-2]) host(x[n:1]) if_present wait(1) */
jacc_translated_check(jacc_wait(), "standalone.c:5");
if (jacc_is_present(&x[1], (n-2) * sizeof x[0])) jacc_translated_check(jacc_update_self(&x[1], (n-2) * sizeof x[0]), "standalone.c:5");
if (jacc_is_present(&x[n], 1 * sizeof x[0])) jacc_translated_check(jacc_update_self(&x[n], 1 * sizeof x[0]), "standalone.c:5");
/* #pragma acc wait */
jacc_translated_check(jacc_wait(), "standalone.c:6");
/* #pragma acc wait(1) async(2) */
jacc_translated_check(jacc_wait(), "standalone.c:7");
/* #pragma acc exit data copyout(x[0:n]) delete(x[n:n]) finalize */
jacc_translated_check(jacc_exit_data(&x[0], n * sizeof x[0], 1, 1), "standalone.c:8");
jacc_translated_check(jacc_exit_data(&x[n], n * sizeof x[0], 0, 1), "standalone.c:8");
}
