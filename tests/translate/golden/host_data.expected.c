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
/* host_data use_device: the listed variables name the device copies inside the statement (an
   if_present one falls back to the host's address when absent). */
void library(float *device_a, double *device_b);

void f(float *a, int n) {
  double b[8];
{ /* #pragma acc data copy(a[0:n]) copyin(b) */
void *const jacc_section_1 = &a[0];
const size_t jacc_section_1_bytes = n * sizeof a[0];
void *const jacc_section_2 = b;
const size_t jacc_section_2_bytes = sizeof b;
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "host_data.c:7");
jacc_translated_check(jacc_copyin(jacc_section_2, jacc_section_2_bytes), "host_data.c:7");
  {
{ /* #pragma acc host_data use_device(a, b) */
  void *acc_deviceptr(void *);
  __typeof__(&*(a)) jacc_use_device_a = a;
  jacc_translated_present(jacc_use_device_a, 1, "host_data.c:9", "a");
  jacc_use_device_a = acc_deviceptr((void *)jacc_use_device_a);
  __typeof__(&*(b)) jacc_use_device_b = b;
  jacc_translated_present(jacc_use_device_b, 1, "host_data.c:9", "b");
  jacc_use_device_b = acc_deviceptr((void *)jacc_use_device_b);
  {
  __typeof__(jacc_use_device_a) a = jacc_use_device_a;
  __typeof__(jacc_use_device_b) b = jacc_use_device_b;
    library(a, b);
  }
}
  }
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "host_data.c:7");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "host_data.c:7");
}
{ /* #pragma acc host_data use_device(a) if_present */
  void *acc_deviceptr(void *);
  __typeof__(&*(a)) jacc_use_device_a = a;
  { void *jacc_p = acc_deviceptr((void *)jacc_use_device_a); if (jacc_p) jacc_use_device_a = jacc_p; }
  {
  __typeof__(jacc_use_device_a) a = jacc_use_device_a;
  { library(a, 0); }
  }
}
}
