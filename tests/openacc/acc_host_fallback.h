/* The OpenACC runtime routines the corpus calls, for the reference build: plain cc ignores the
 * pragmas and does not define _OPENACC, so the "device" is the host and its memory the program's.
 * Each routine does what OpenACC specifies for a shared-memory device. */
#ifndef ACC_HOST_FALLBACK_H
#define ACC_HOST_FALLBACK_H
#ifdef _OPENACC
#include <openacc.h>
#else
#include <stdlib.h>
#include <string.h>
typedef enum { acc_device_current = -1, acc_device_none = 0, acc_device_default = 1, acc_device_host = 2,
               acc_device_not_host = 3, acc_device_nvidia = 4 } acc_device_t;
static inline int acc_get_num_devices(acc_device_t t) { return t == acc_device_host; }
static inline void acc_set_device_type(acc_device_t t) { (void)t; }
static inline acc_device_t acc_get_device_type(void) { return acc_device_host; }
static inline void acc_set_device_num(int n, acc_device_t t) { (void)n; (void)t; }
static inline int acc_get_device_num(acc_device_t t) { (void)t; return 0; }
static inline void acc_init(acc_device_t t) { (void)t; }
static inline void acc_shutdown(acc_device_t t) { (void)t; }
static inline int acc_on_device(acc_device_t t) { return t == acc_device_host; }
static inline int acc_async_test(int q) { (void)q; return 1; }
static inline int acc_async_test_all(void) { return 1; }
enum { acc_async_noval = -1, acc_async_sync = -2 };
static inline void acc_wait(int q) { (void)q; }
static inline void acc_wait_all(void) {}
static inline void acc_wait_async(int q, int a) { (void)q; (void)a; }
static inline void acc_wait_all_async(int a) { (void)a; }
static inline void *acc_malloc(size_t n) { return malloc(n); }
static inline void acc_free(void *p) { free(p); }
static inline void *acc_copyin(void *p, size_t n) { (void)n; return p; }
static inline void acc_copyin_async(void *p, size_t n, int q) { (void)p; (void)n; (void)q; }
static inline void *acc_create(void *p, size_t n) { (void)n; return p; }
static inline void acc_copyout(void *p, size_t n) { (void)p; (void)n; }
static inline void acc_copyout_async(void *p, size_t n, int q) { (void)p; (void)n; (void)q; }
static inline void acc_create_async(void *p, size_t n, int q) { (void)p; (void)n; (void)q; }
static inline void acc_copyout_finalize(void *p, size_t n) { (void)p; (void)n; }
static inline void acc_copyout_finalize_async(void *p, size_t n, int q) {
  (void)p; (void)n; (void)q;
}
static inline void acc_delete(void *p, size_t n) { (void)p; (void)n; }
static inline void acc_delete_async(void *p, size_t n, int q) { (void)p; (void)n; (void)q; }
static inline void acc_delete_finalize(void *p, size_t n) { (void)p; (void)n; }
static inline void acc_delete_finalize_async(void *p, size_t n, int q) {
  (void)p; (void)n; (void)q;
}
static inline void acc_update_device(void *p, size_t n) { (void)p; (void)n; }
static inline void acc_update_device_async(void *p, size_t n, int q) { (void)p; (void)n; (void)q; }
static inline void acc_update_self(void *p, size_t n) { (void)p; (void)n; }
static inline void acc_update_self_async(void *p, size_t n, int q) { (void)p; (void)n; (void)q; }
static inline void acc_map_data(void *p, void *d, size_t n) { (void)p; (void)d; (void)n; }
static inline void acc_unmap_data(void *p) { (void)p; }
static inline void *acc_deviceptr(void *p) { return p; }
static inline void *acc_hostptr(void *d) { return d; }
static inline int acc_is_present(void *p, size_t n) { (void)p; (void)n; return 1; }
static inline void acc_memcpy_to_device(void *d, void *h, size_t n) { memmove(d, h, n); }
static inline void acc_memcpy_from_device(void *h, void *d, size_t n) { memmove(h, d, n); }
static inline void acc_memcpy_device(void *d, void *s, size_t n) { memmove(d, s, n); }
static inline void acc_memcpy_to_device_async(void *d, void *h, size_t n, int q) {
  (void)q; memmove(d, h, n);
}
static inline void acc_memcpy_from_device_async(void *h, void *d, size_t n, int q) {
  (void)q; memmove(h, d, n);
}
static inline void acc_init_device(int n, acc_device_t t) { (void)n; (void)t; }
static inline void acc_shutdown_device(int n, acc_device_t t) { (void)n; (void)t; }
static int acc_host_default_async = 0;
static inline void acc_set_default_async(int q) {
  acc_host_default_async = q == acc_async_noval ? 0 : q;
}
static inline int acc_get_default_async(void) { return acc_host_default_async; }
static inline int acc_wait_any(int count, int *q) {
  for (int i = 0; i < count; i++)
    if (q[i] != acc_async_sync)
      return i;
  return -1;
}
static inline void acc_attach(void **p) { (void)p; }
static inline void acc_detach(void **p) { (void)p; }
static inline void acc_detach_finalize(void **p) { (void)p; }
static inline void *acc_pcopyin(void *p, size_t n) { (void)n; return p; }
static inline void *acc_present_or_create(void *p, size_t n) { (void)n; return p; }
typedef enum { acc_property_memory = 1, acc_property_free_memory = 2,
               acc_property_shared_memory_support = 3, acc_property_name = 0x10001,
               acc_property_vendor = 0x10002, acc_property_driver = 0x10003 } acc_device_property_t;
/* The host's memory is not queried: 1 byte stands for "some"; the strings are the host's. */
static inline size_t acc_get_property(int n, acc_device_t t, acc_device_property_t p) {
  (void)n; (void)t;
  return p == acc_property_shared_memory_support ? 1 : p == acc_property_memory ? 1 : 0;
}
static inline const char *acc_get_property_string(int n, acc_device_t t,
                                                  acc_device_property_t p) {
  (void)n; (void)t;
  return p == acc_property_name ? "host" : p == acc_property_vendor ? "cc" : "none";
}
#endif
#endif
