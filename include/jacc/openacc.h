/* The OpenACC 3.3 runtime library routines (OpenACC 3.3, chapter 3) on jacc's devices.
 *
 * #include <openacc.h> with -I<prefix>/include/jacc, or #include <jacc/openacc.h>; link with -ljacc.
 * C99; the same declarations from C++.
 *
 * jacc specifics (docs/design.md, "OpenACC runtime API"):
 *  - Kernels (jacc_kernel_push) still run on every device, each holding its own copy of the mapped
 *    data. The current device (acc_set_device_num, one per host thread) only selects which copy
 *    acc_deviceptr / acc_hostptr / acc_copyin's result name and where acc_malloc allocates and the
 *    acc_memcpy_* routines copy. acc_update_device writes every device's copy; acc_update_self and
 *    acc_copyout read the primary device's (device 0's). Data mapped at a location
 *    (jacc_set_data_location) has copies on its devices only: acc_deviceptr is NULL and
 *    acc_is_present 0 with another device current.
 *  - Device types: a jacc host device is acc_device_host, a CUDA device acc_device_nvidia (and
 *    acc_device_not_host); acc_device_default and acc_device_current stand for all devices. A
 *    device number counts the devices of the type given, in JACC_DEVICES order.
 *  - Data routines complete before they return; the *_async forms too. Every async queue maps
 *    onto the devices' one in-order queue: acc_wait(n) waits for every queued kernel.
 *  - Errors: print "OpenACC runtime error: <routine>: <message>" to stderr and abort(), unless a
 *    handler was set with jacc_set_acc_error_handler or JACC_ACC_ERRORS=return is in the
 *    environment; then the routine records jacc_last_error() and returns (NULL, 0 or nothing). */
#ifndef JACC_OPENACC_H
#define JACC_OPENACC_H

#include "jacc.h"

#include <stddef.h>

#ifndef _OPENACC
#define _OPENACC 202211 /* OpenACC 3.3 */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The specification's notation for host and device addresses. */
typedef void h_void;
typedef void d_void;

typedef enum acc_device_t {
  acc_device_current = -1, /* jacc: every device, like acc_device_default */
  acc_device_none = 0,
  acc_device_default = 1,
  acc_device_host = 2,     /* jacc host devices (JACC_DEVICES=host:N) */
  acc_device_not_host = 3, /* jacc CUDA devices */
  acc_device_nvidia = 4,   /* jacc CUDA devices */
  acc_device_radeon = 5    /* none in jacc */
} acc_device_t;

typedef enum acc_device_property_t {
  acc_property_memory = 1,                /* size_t: bytes of device memory */
  acc_property_free_memory = 2,           /* size_t: free bytes (0: unknown) */
  acc_property_shared_memory_support = 3, /* size_t: nonzero if it shares the host's memory: 0 */
  acc_property_name = 0x10001,            /* string: "host:0", or the GPU's model */
  acc_property_vendor = 0x10002,          /* string: "jacc", or "NVIDIA" */
  acc_property_driver = 0x10003           /* string: "jacc <version>..." */
} acc_device_property_t;

/* acc_async_default (OpenACC 3.x): the queue acc-default-async-var starts with (0). */
typedef enum acc_async_t {
  acc_async_noval = -1,
  acc_async_sync = -2,
  acc_async_default = -3
} acc_async_t;

/* Devices */
JACC_API int acc_get_num_devices(acc_device_t dev_type);
JACC_API void acc_set_device_type(acc_device_t dev_type);
JACC_API acc_device_t acc_get_device_type(void);
JACC_API void acc_set_device_num(int dev_num, acc_device_t dev_type);
JACC_API int acc_get_device_num(acc_device_t dev_type);
JACC_API size_t acc_get_property(int dev_num, acc_device_t dev_type,
                                 acc_device_property_t property);
JACC_API const char *acc_get_property_string(int dev_num, acc_device_t dev_type,
                                             acc_device_property_t property);
JACC_API void acc_init(acc_device_t dev_type);
JACC_API void acc_init_device(int dev_num, acc_device_t dev_type);
JACC_API void acc_shutdown(acc_device_t dev_type);
JACC_API void acc_shutdown_device(int dev_num, acc_device_t dev_type);
JACC_API int acc_on_device(acc_device_t dev_type);
/* The queue `async` without an argument uses (per host thread); 0 at first, as NVHPC's.
 * acc_async_noval restores that initial value. */
JACC_API void acc_set_default_async(int async_arg);
JACC_API int acc_get_default_async(void);

/* Asynchronous queues */
JACC_API int acc_async_test(int wait_arg);
JACC_API int acc_async_test_all(void);
JACC_API void acc_wait(int wait_arg);
JACC_API void acc_wait_async(int wait_arg, int async_arg);
JACC_API void acc_wait_all(void);
JACC_API void acc_wait_all_async(int async_arg);
/* Every queue is complete once acc_wait_any returns: the first index whose entry is a queue
 * (not acc_async_sync), or -1 when there is none. */
JACC_API int acc_wait_any(int count, int wait_arg[]);
/* The _device forms check dev_num (of the current device's type); jacc's queues are waited for
 * and tested on every device. */
JACC_API int acc_async_test_device(int wait_arg, int dev_num);
JACC_API int acc_async_test_all_device(int dev_num);
JACC_API void acc_wait_device(int wait_arg, int dev_num);
JACC_API void acc_wait_device_async(int wait_arg, int async_arg, int dev_num);
JACC_API void acc_wait_all_device(int dev_num);
JACC_API void acc_wait_all_device_async(int async_arg, int dev_num);
JACC_API int acc_wait_any_device(int count, int wait_arg[], int dev_num);

/* Device memory */
JACC_API d_void *acc_malloc(size_t bytes);
JACC_API void acc_free(d_void *data_dev);

/* Data: reference counted, on every device */
JACC_API d_void *acc_copyin(h_void *data_arg, size_t bytes);
JACC_API void acc_copyin_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API d_void *acc_create(h_void *data_arg, size_t bytes);
JACC_API void acc_create_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_copyout(h_void *data_arg, size_t bytes);
JACC_API void acc_copyout_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_copyout_finalize(h_void *data_arg, size_t bytes);
JACC_API void acc_copyout_finalize_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_delete(h_void *data_arg, size_t bytes);
JACC_API void acc_delete_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_delete_finalize(h_void *data_arg, size_t bytes);
JACC_API void acc_delete_finalize_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_update_device(h_void *data_arg, size_t bytes);
JACC_API void acc_update_device_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_update_self(h_void *data_arg, size_t bytes);
JACC_API void acc_update_self_async(h_void *data_arg, size_t bytes, int async_arg);
JACC_API void acc_map_data(h_void *data_arg, d_void *data_dev, size_t bytes);
JACC_API void acc_unmap_data(h_void *data_arg);
JACC_API d_void *acc_deviceptr(h_void *data_arg);
JACC_API h_void *acc_hostptr(d_void *data_dev);
JACC_API int acc_is_present(h_void *data_arg, size_t bytes);

/* Pointers in mapped data: acc_attach makes every device's copy of the pointer *ptr_addr hold
 * that device's address of its target (attachment counter + 1); acc_detach (counter - 1; the
 * _finalize forms: to 0) gives the copies the host's value back at 0. No action when ptr_addr
 * or its target is not mapped, or the pointer is NULL. Copying the pointer back to the host
 * (acc_copyout, acc_update_self) keeps the host's value. */
JACC_API void acc_attach(h_void **ptr_addr);
JACC_API void acc_attach_async(h_void **ptr_addr, int async_arg);
JACC_API void acc_detach(h_void **ptr_addr);
JACC_API void acc_detach_async(h_void **ptr_addr, int async_arg);
JACC_API void acc_detach_finalize(h_void **ptr_addr);
JACC_API void acc_detach_finalize_async(h_void **ptr_addr, int async_arg);

/* Deprecated names (OpenACC 3.3, section "Deprecated"): acc_copyin / acc_create, acc_wait /
 * acc_wait_all. */
JACC_API d_void *acc_present_or_copyin(h_void *data_arg, size_t bytes);
JACC_API d_void *acc_pcopyin(h_void *data_arg, size_t bytes);
JACC_API d_void *acc_present_or_create(h_void *data_arg, size_t bytes);
JACC_API d_void *acc_pcreate(h_void *data_arg, size_t bytes);
JACC_API void acc_async_wait(int wait_arg);
JACC_API void acc_async_wait_all(void);

/* Copies on the current device, and between two devices' copies of mapped data */
JACC_API void acc_memcpy_to_device(d_void *data_dev_dest, h_void *data_host_src, size_t bytes);
JACC_API void acc_memcpy_to_device_async(d_void *data_dev_dest, h_void *data_host_src,
                                         size_t bytes, int async_arg);
JACC_API void acc_memcpy_from_device(h_void *data_host_dest, d_void *data_dev_src, size_t bytes);
JACC_API void acc_memcpy_from_device_async(h_void *data_host_dest, d_void *data_dev_src,
                                           size_t bytes, int async_arg);
JACC_API void acc_memcpy_device(d_void *data_dev_dest, d_void *data_dev_src, size_t bytes);
JACC_API void acc_memcpy_device_async(d_void *data_dev_dest, d_void *data_dev_src, size_t bytes,
                                      int async_arg);
JACC_API void acc_memcpy_d2d(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes,
                             int dev_num_dest, int dev_num_src);
JACC_API void acc_memcpy_d2d_async(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes,
                                   int dev_num_dest, int dev_num_src, int async_arg_src);

/* jacc extension: what a failing acc_* routine does.
 *
 * routine: the routine's name ("acc_copyin"); status and message: as jacc_last_error() holds them.
 * With a handler set, a failing routine calls it and then returns (NULL, 0 or nothing): the handler
 * may also end the program. NULL restores the default: abort() after printing
 * "OpenACC runtime error: <routine>: <message>", or, with JACC_ACC_ERRORS=return in the
 * environment (read at each error; JACC_ACC_ERRORS=abort is the default), return silently.
 * Process-wide; returns the previous handler. */
typedef void (*jacc_acc_error_handler)(const char *routine, jacc_status status,
                                       const char *message);
JACC_API jacc_acc_error_handler jacc_set_acc_error_handler(jacc_acc_error_handler handler);

#ifdef __cplusplus
}
#endif

#endif /* JACC_OPENACC_H */
