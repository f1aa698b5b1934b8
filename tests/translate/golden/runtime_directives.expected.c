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
#include <jacc/openacc.h>
/* init, shutdown and set: the OpenACC runtime routines, under their if clause. */
void devices(int num, int queue, int on) {
/* #pragma acc init */
acc_init(acc_device_default);
/* #pragma acc init device_type(host) device_num(num) if(on) */
if (on) {
  acc_init_device(num, acc_device_host);
}
/* #pragma acc set device_type(multicore) */
acc_set_device_type(acc_device_host);
/* #pragma acc set device_num(num) */
acc_set_device_num(num, acc_get_device_type());
/* #pragma acc set default_async(queue) */
acc_set_default_async(queue);
/* #pragma acc set device_type(nvidia) device_num(num + 1) default_async(queue) */
acc_set_device_type(acc_device_nvidia);
acc_set_device_num(num + 1, acc_device_nvidia);
acc_set_default_async(queue);
/* #pragma acc shutdown device_type(host, nvidia) if(on) */
if (on) {
  acc_shutdown(acc_device_host);
  acc_shutdown(acc_device_nvidia);
}
/* #pragma acc shutdown device_num(0) */
acc_shutdown_device(0, acc_get_device_type());
}
