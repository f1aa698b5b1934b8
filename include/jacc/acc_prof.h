/* The OpenACC 3.3 profiling interface (chapter 5) on jacc: the event types, the records a callback
 * receives, and the routines a tool registers its callbacks with.
 *
 * A tool is a shared library defining acc_register_library; jacc_init loads every library named
 * by ACC_PROFLIB (':'-separated) and calls it, and calls the program's own acc_register_library
 * if the program defines one. #include <acc_prof.h> with -I<prefix>/include/jacc (jaccc adds it),
 * or #include <jacc/acc_prof.h>. C99; the same declarations from C++.
 *
 * jacc specifics (docs/design.md, "OpenACC profiling interface"):
 *  - A compute construct runs on every device: its enqueue_launch events come once per device,
 *    each naming its device. Construct-level events name device 0.
 *  - A copy between two devices is an enqueue_upload to the receiving device with a NULL
 *    host_ptr (the chapter has no device-to-device event).
 *  - Callbacks run on the thread that caused the event and must not call jacc or OpenACC
 *    routines other than acc_prof_register and acc_prof_unregister; neither may
 *    acc_register_library (it runs inside jacc_init). */
#ifndef JACC_ACC_PROF_H
#define JACC_ACC_PROF_H

#include "openacc.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acc_event_t {
  acc_ev_none = 0,
  acc_ev_device_init_start = 1,
  acc_ev_device_init_end = 2,
  acc_ev_device_shutdown_start = 3,
  acc_ev_device_shutdown_end = 4,
  acc_ev_runtime_shutdown = 5,
  acc_ev_create = 6,
  acc_ev_delete = 7,
  acc_ev_alloc = 8,
  acc_ev_free = 9,
  acc_ev_enter_data_start = 10,
  acc_ev_enter_data_end = 11,
  acc_ev_exit_data_start = 12,
  acc_ev_exit_data_end = 13,
  acc_ev_update_start = 14,
  acc_ev_update_end = 15,
  acc_ev_compute_construct_start = 16,
  acc_ev_compute_construct_end = 17,
  acc_ev_enqueue_launch_start = 18,
  acc_ev_enqueue_launch_end = 19,
  acc_ev_enqueue_upload_start = 20,
  acc_ev_enqueue_upload_end = 21,
  acc_ev_enqueue_download_start = 22,
  acc_ev_enqueue_download_end = 23,
  acc_ev_wait_start = 24,
  acc_ev_wait_end = 25,
  acc_ev_last = 26
} acc_event_t;

/* Where and when an event happened; the first argument of every callback. */
typedef struct acc_prof_info {
  acc_event_t event_type;
  int valid_bytes; /* the bytes of this record that are filled in */
  int version;     /* _OPENACC */
  acc_device_t device_type;
  int device_number; /* among the devices of device_type, in JACC_DEVICES order */
  int thread_id;     /* jacc numbers the host threads 0, 1, ... in the order of their first event */
  intptr_t async;    /* acc_async_sync (jacc does not yet tell events of async work apart) */
  intptr_t async_queue;
  const char *src_file; /* NULL when unknown (a runtime routine called outside any construct) */
  const char *func_name;
  int line_no, end_line_no; /* 0 when unknown */
  int func_line_no, func_end_line_no;
} acc_prof_info;

typedef enum acc_construct_t {
  acc_construct_parallel = 0,
  acc_construct_kernels = 1,
  acc_construct_loop = 2,
  acc_construct_data = 3,
  acc_construct_enter_data = 4,
  acc_construct_exit_data = 5,
  acc_construct_host_data = 6,
  acc_construct_atomic = 7,
  acc_construct_declare = 8,
  acc_construct_init = 9,
  acc_construct_shutdown = 10,
  acc_construct_set = 11,
  acc_construct_update = 12,
  acc_construct_routine = 13,
  acc_construct_wait = 14,
  acc_construct_runtime_api = 15,
  acc_construct_serial = 16
} acc_construct_t;

/* create, delete, alloc, free, enqueue_upload and enqueue_download events. */
typedef struct acc_data_event_info {
  acc_event_t event_type;
  int valid_bytes;
  acc_construct_t parent_construct;
  int implicit;    /* 1: not asked for by a directive (a runtime routine, a compute construct) */
  void *tool_info; /* set by a start event's callback, passed to the matching end event's */
  const char *var_name; /* NULL: jacc does not know variable names */
  size_t bytes;
  const void *host_ptr;
  const void *device_ptr;
} acc_data_event_info;

/* enqueue_launch events. */
typedef struct acc_launch_event_info {
  acc_event_t event_type;
  int valid_bytes;
  acc_construct_t parent_construct;
  int implicit;
  void *tool_info;
  const char *kernel_name; /* the construct's site ("heat.c:42") or the kernel's first loop line */
  /* A host device: its threads are the gangs, of one worker and vector lane each; 0: not known
   * (a GPU's launch). */
  size_t num_gangs, num_workers, vector_length;
} acc_launch_event_info;

/* Every other event. */
typedef struct acc_other_event_info {
  acc_event_t event_type;
  int valid_bytes;
  acc_construct_t parent_construct;
  int implicit;
  void *tool_info;
} acc_other_event_info;

typedef union acc_event_info {
  acc_event_t event_type;
  acc_data_event_info data_event;
  acc_launch_event_info launch_event;
  acc_other_event_info other_event;
} acc_event_info;

/* The device API under an event's device. */
typedef enum acc_device_api {
  acc_device_api_none = 0, /* jacc host devices */
  acc_device_api_cuda = 1, /* the CUDA driver API: jacc CUDA devices */
  acc_device_api_opencl = 2,
  acc_device_api_coi = 3,
  acc_device_api_other = 4
} acc_device_api;

typedef struct acc_api_info {
  acc_device_api device_api;
  int valid_bytes;
  acc_device_t device_type;
  int vendor;
  const void *device_handle; /* NULL in jacc */
  const void *context_handle;
  const void *async_handle;
} acc_api_info;

typedef void (*acc_prof_callback)(acc_prof_info *, acc_event_info *, acc_api_info *);

/* What acc_prof_register / acc_prof_unregister do:
 *  acc_reg: add (remove) the callback for the event; a callback added n times is removed by n
 *           unregistrations. Callbacks of an event run in the order they were registered, those
 *           of an end event in the reverse order.
 *  acc_toggle: enable (disable) the registered callback for the event; with a NULL callback,
 *           every callback of the event; with acc_ev_none and a NULL callback, every event.
 *  acc_toggle_per_thread: with acc_ev_none and a NULL callback, enable (disable) every callback
 *           for the calling thread only. */
typedef enum acc_register_t { acc_reg = 0, acc_toggle = 1, acc_toggle_per_thread = 2 } acc_register_t;

typedef void (*acc_prof_reg)(acc_event_t event_type, acc_prof_callback cb, acc_register_t info);
JACC_API void acc_prof_register(acc_event_t event_type, acc_prof_callback cb, acc_register_t info);
JACC_API void acc_prof_unregister(acc_event_t event_type, acc_prof_callback cb,
                                  acc_register_t info);

/* Inquiry routines by name. jacc defines none of its own: NULL for every name. */
typedef void (*acc_query_fn)(void);
typedef acc_query_fn (*acc_prof_lookup_func)(const char *acc_query_fn_name);
JACC_API acc_query_fn acc_prof_lookup(const char *acc_query_fn_name);

/* Defined by a tool (or the program): registers its callbacks. */
void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup);

#ifdef __cplusplus
}
#endif

#endif /* JACC_ACC_PROF_H */
