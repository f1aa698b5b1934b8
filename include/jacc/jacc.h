/* jacc: run OpenACC-style kernels, pushed as source strings, on every device of the machine.
 *
 * C99 public API. Every call is thread-safe; failing calls return a negative jacc_status and leave a
 * message for jacc_last_error(). No LLVM, clang or CUDA type appears here. */
#ifndef JACC_JACC_H
#define JACC_JACC_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define JACC_API
#else
#define JACC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum jacc_status {
  JACC_SUCCESS = 0,
  JACC_ERROR_INVALID_ARGUMENT = -1,
  JACC_ERROR_NOT_PRESENT = -2,
  JACC_ERROR_PARTIALLY_PRESENT = -3,
  JACC_ERROR_COMPILE = -4,
  JACC_ERROR_UNSUPPORTED = -5,
  JACC_ERROR_OUT_OF_MEMORY = -6,
  JACC_ERROR_DEVICE = -7,
  JACC_ERROR_INTERNAL = -8,
  /* JACC_CHECK=bounds: a kernel accessed an array outside its mapping (jacc_last_error() names
     the kernel location, the array, the index and the range). */
  JACC_ERROR_BOUNDS = -9
} jacc_status;

/** Message of this thread's last failing call ("" if none failed yet). Valid until the next call. */
JACC_API const char *jacc_last_error(void);

/** Initialise from the environment (JACC_DEVICES, ...). Optional: any call initialises. Idempotent. */
JACC_API jacc_status jacc_init(void);
/** Wait for all work, free every device copy and release the devices. A later call re-initialises. */
JACC_API jacc_status jacc_finalize(void);
/** Number of devices kernels run on (initialises if needed; 0 if initialisation failed). */
JACC_API int jacc_get_num_devices(void);

/* Data: OpenACC semantics (reference counts, present-or behaviour). A null pointer or zero size is a
 * no-op, as in OpenACC. Sub-ranges of a mapping (interior pointers) are accepted everywhere. */
/** Map [host, host+bytes) on every device (of the data location, see jacc_set_data_location)
 *  without copying (present-or-create). */
JACC_API jacc_status jacc_create(void *host, size_t bytes);
/** Map [host, host+bytes) on every device (of the data location) and copy it there
 *  (present-or-copyin). */
JACC_API jacc_status jacc_copyin(void *host, size_t bytes);
/** Exit: decrement the reference count; at zero copy back from the primary device and free. */
JACC_API jacc_status jacc_copyout(void *host, size_t bytes);
/** Exit: decrement the reference count; at zero free without copying back. */
JACC_API jacc_status jacc_delete(void *host, size_t bytes);
/** Copy a mapped range (or sub-range) from the host to every device that holds a copy. */
JACC_API jacc_status jacc_update_device(void *host, size_t bytes);
/** Copy a mapped range (or sub-range) from the primary device to the host. */
JACC_API jacc_status jacc_update_self(void *host, size_t bytes);
/** 1 if [host, host+bytes) lies entirely inside one mapping, else 0. */
JACC_API int jacc_is_present(const void *host, size_t bytes);

/* The forms of OpenACC's data directives (jacc-translate emits them). */
/** create(zero: ...): as jacc_create, and a new mapping's copies are filled with zero bytes. */
JACC_API jacc_status jacc_create_zero(void *host, size_t bytes);
/** exit data copyout (copy_back) / delete: as jacc_copyout / jacc_delete, finalize setting the
 *  count to zero, and under OpenACC's rules: data that is absent, or that only a data region
 *  holds, is left as it is (no error). */
JACC_API jacc_status jacc_exit_data(void *host, size_t bytes, int copy_back, int finalize);
/** attach / detach clauses: acc_attach, acc_detach[_finalize] of <jacc/openacc.h>. */
JACC_API jacc_status jacc_attach(void **pointer);
JACC_API jacc_status jacc_detach(void **pointer, int finalize);
/** host_data use_device: *device = the OpenACC current device's copy of the mapped address host
 *  (acc_deviceptr's), made current first, and from now on the mapping's only current copy: the
 *  program may write it through *device (an MPI_Recv into it), and the other devices fetch what
 *  their next kernels read from it. NULL when host is not mapped; *device is left as it was on
 *  an error. */
JACC_API jacc_status jacc_use_device(void *host, void **device);

/* Kernels */
typedef struct jacc_arg {
  const char *decl; /* C declaration of the variable as the kernel names it:
                       "float *x", "const double (*a)[514]", "int n", "double s" */
  void *value;      /* address of its value: &x for a pointer, &n for a scalar;
                       reduction results are written back through it */
} jacc_arg;

enum {
  JACC_DEFAULT = 0,
  JACC_ASYNC = 1u << 0,           /* return once queued on every device; see jacc_wait */
  JACC_FORCE_DUPLICATE = 1u << 1, /* every device runs the whole kernel on its own copy */
  JACC_FORCE_SPLIT = 1u << 2      /* split the written data ranges between the devices */
};

/** Compile (once) and run an OpenACC compute construct given as C99 source on every device.
 *  A source whose last line is a comment naming where the construct was written,
 *  `// jacc-site: heat.c:42` (jaccc adds one), is known by that name in perf maps (JACC_PERF)
 *  and diagnostics; otherwise by its first loop's line. */
JACC_API jacc_status jacc_kernel_push(const char *source, int nargs, const jacc_arg *args,
                                      unsigned flags);
/** Makes the function `name` callable from kernels that do not hold its definition: a kernel
 *  whose source has a line `#pragma jacc routines(name, ...)` gets `source` there before it is
 *  compiled (jaccc registers every `routine` a file defines, and writes that line in kernels
 *  calling one they only see declared, as nvc links routines of other files). `source` is C99:
 *  the definition after what it needs (types, macros, the routines it calls); a last line
 *  `// jacc-site: file.c:12` names where it was written. Needs no runtime (call it from a
 *  constructor). Registering `name` again with another text makes the kernels calling it fail to
 *  compile, naming both sites (the program itself may never call it). */
JACC_API jacc_status jacc_define_routine(const char *name, const char *source);
/** Wait until every queued kernel and transfer has completed. */
JACC_API jacc_status jacc_wait(void);
/** How split launches share the work between the devices from now on (Gecko's execution
 *  policies): "static" or "flatten" (equal shares, the default), "percentage:[25,75]",
 *  "range:[1000,3000]" (iterations), "weights:[1,3]" (one value per device, in device order), or
 *  "any" (one idle device runs it all). A kernel's own `#pragma jacc policy(...)` line wins.
 *  NULL or "" returns to JACC_POLICY's. A bad policy is JACC_ERROR_INVALID_ARGUMENT and changes
 *  nothing; jacc_finalize forgets the setting. */
JACC_API jacc_status jacc_set_policy(const char *policy);
/** Gecko's locations: kernels pushed from now on run on the devices under location `name`,
 *  shared by the policy over its sub-tree (static: even over its children, recursively;
 *  flatten: even over the devices; listed values: one per device under it). The locations are
 *  JACC_CONFIG's (docs/locations.md), else one per device (named as the devices, "host:0")
 *  under "devices". NULL or "" returns to the root. An unknown name is
 *  JACC_ERROR_INVALID_ARGUMENT and changes nothing; jacc_finalize forgets the hierarchy. */
JACC_API jacc_status jacc_set_location(const char *name);
/** Adds a virtual location: a handle that kernels target while its children change. */
JACC_API jacc_status jacc_location_add(const char *name);
/** Makes `child` a child of `parent`, moving it from its former parent (a cycle, or a child
 *  under a device location, is JACC_ERROR_INVALID_ARGUMENT). */
JACC_API jacc_status jacc_location_add_child(const char *parent, const char *child);
/** Removes `child` from `parent`'s children: its devices no longer take part in the kernels
 *  targeting `parent`. */
JACC_API jacc_status jacc_location_remove_child(const char *parent, const char *child);
/** Gecko's memory at a location: data mapped from now on (jacc_copyin, jacc_create, acc_copyin,
 *  acc_map_data, data constructs) gets copies only on the devices under location `name` when
 *  it is mapped, and keeps them while it stays mapped, whatever the hierarchy becomes. A kernel
 *  using it must run on devices under it (its location inside `name`'s sub-tree); one whose
 *  devices include one without a copy fails naming the array. Present data is only counted,
 *  but must have a copy on every device of `name`. NULL or "": every device (the default). An
 *  unknown name is JACC_ERROR_INVALID_ARGUMENT and changes nothing; jacc_finalize forgets it. */
JACC_API jacc_status jacc_set_data_location(const char *name);
/** The same for this thread only, until the matching jacc_data_location_end: pairs nest, and
 *  the innermost wins over jacc_set_data_location (NULL or "": every device). jaccc brackets
 *  the data clauses of a directive under a `#pragma jacc location(name)` line with them. */
JACC_API jacc_status jacc_data_location_begin(const char *name);
JACC_API jacc_status jacc_data_location_end(void);

/* Native implementations per device kind (the Multi-Device Controllers' specialised kernels):
 * code of the program's own that devices of one kind run for their part of a kernel instead of
 * the code jacc generates, e.g. a host function calling a BLAS library, or one queuing a cuBLAS
 * call on a GPU's stream. The kernel's source still says what each part reads and writes, and
 * jacc moves the data as for its own code, so a native function must do what the kernel's
 * iterations [begin, end) do: write what they write, and nothing the kernel does not write. */

/** One device's part of a kernel, handed to its native implementation. */
typedef struct jacc_native_part {
  int device;       /* the device's index in JACC_DEVICES order */
  const char *kind; /* "host" or "nvidia" */
  /* The iterations to compute, of the kernel's partitioned loop (its one parallel loop; for a
     collapse(n) nest the outermost loop, each of its values with every iteration of the inner
     loops): the loop variable takes begin, begin + step, ... and stops before end (step < 0 for
     a decreasing loop). They are the iterations the device's generated code would run: those
     writing the rows the device owns (with separate memories, other devices' parts may overlap
     them; jacc keeps each row from its owner), or, with JACC_NARROW=off, the whole loop. With
     JACC_MEMORY=unified the parts are disjoint: the reduction share below. */
  long long begin, end, step;
  /* The iterations (same values, same step) whose contributions to the kernel's reduction
     variables are this device's: every device's are disjoint, and together the whole loop. */
  long long reduce_begin, reduce_end;
  int compute_units; /* a host device's threads (its share of the cores), a GPU's SMs */
  void *stream;      /* nvidia: the CUstream its work must be queued on; host: NULL */
  /* nargs entries in the push's jacc_arg order, each the address of that argument's value on this
     device (as jacc_arg.value is on the host): a pointer argument's value is this device's copy
     (a CUdeviceptr on a GPU), a reduction variable's is this device's private copy, set to the
     operator's identity, where the function leaves its part's result (on a GPU, by the time the
     work it queued on the stream completes). JACC_NATIVE_ARG reads one. */
  void *const *args;
  int nargs;
} jacc_native_part;

/** Argument i of a native part as a value of type T: JACC_NATIVE_ARG(p, 3, float *) (for a
 *  pointer to rows, name the row type first: typedef double row[8]; JACC_NATIVE_ARG(p, 1, row *)). */
#define JACC_NATIVE_ARG(part, i, T) (*(T *)(part)->args[(i)])

/** A native implementation: returns 0, or any other value to fail the push (jacc_last_error()
 *  names the kernel, the value and the device). It must not call jacc: its device is busy. */
typedef int (*jacc_native_fn)(const jacc_native_part *part, void *user);

/** From now on, every push of a kernel whose source is exactly `source` calls fn(part, user) on
 *  each device of kind `device_kind` ("host" or "multicore": host devices; "nvidia": CUDA GPUs)
 *  for that device's part, instead of jacc's code; the other devices run jacc's code. Host
 *  devices call it once per part, on the thread that runs the device's work (the caller for a
 *  synchronous push, the device's queue for JACC_ASYNC); GPUs call it while queuing the part, with
 *  the device's context current, and it queues its work on part->stream. A device whose part is
 *  empty (no iterations, no reduction share: a policy or location gave it nothing) is not called.
 *  A NULL fn removes the kind's implementation. The kernel must be able to split (one parallel
 *  loop whose bounds come from scalar arguments; not deviceptr memory, not an array reduction):
 *  a push of it fails otherwise, naming why, and JACC_FORCE_DUPLICATE fails, as a kernel with a
 *  native implementation always runs split. Registrations belong to the process (jacc_finalize
 *  keeps them); a push already queued calls the function it was given. */
JACC_API jacc_status jacc_kernel_native(const char *source, const char *device_kind,
                                        jacc_native_fn fn, void *user);

/* Where the program is: jaccc brackets each directive's calls with these, so that the time summary
   (JACC_PROFILE), the timeline (JACC_TRACE) and OpenACC profiling tools (ACC_PROFLIB) see one
   construct with its location rather than the calls it became. The kinds are OpenACC's
   acc_construct_t values (<jacc/acc_prof.h>); a data construct's region end is
   JACC_CONSTRUCT_DATA_EXIT. file and func must stay valid for the program's life (string
   literals); func may be NULL. Calls outside any construct are constructs of their own. */
enum {
  JACC_CONSTRUCT_PARALLEL = 0,
  JACC_CONSTRUCT_KERNELS = 1,
  JACC_CONSTRUCT_DATA = 3,
  JACC_CONSTRUCT_ENTER_DATA = 4,
  JACC_CONSTRUCT_EXIT_DATA = 5,
  JACC_CONSTRUCT_HOST_DATA = 6,
  JACC_CONSTRUCT_UPDATE = 12,
  JACC_CONSTRUCT_WAIT = 14,
  JACC_CONSTRUCT_SERIAL = 16,
  JACC_CONSTRUCT_DATA_EXIT = 0x103 /* the end of a data construct's region */
};
JACC_API void jacc_construct_begin(int kind, const char *file, int line, const char *func);
JACC_API void jacc_construct_end(void);

typedef struct jacc_stats {
  uint64_t kernels_pushed, kernels_compiled, memory_cache_hits, disk_cache_hits;
  uint64_t split_launches, duplicate_launches;
  uint64_t bytes_host_to_device, bytes_device_to_host, bytes_device_to_device;
  /* kernel specialization (JACC_SPECIALIZE): variants compiled (or loaded from the disk cache),
     and launches that ran a variant instead of the generic kernel */
  uint64_t variants_compiled, specialized_launches;
  /* of variants_compiled, those loaded from the disk cache (the others were compiled, in the
     background under JACC_SPECIALIZE=auto); variants not created or not compiled because the
     background compile budget (JACC_SPECIALIZE_BUDGET) was spent */
  uint64_t variants_loaded, variants_over_budget;
  /* kernels the in-memory cache let go, least recently pushed first, to keep at most
     JACC_KERNELS_IN_MEMORY compiled kernels (a later push of one loads it from the disk cache) */
  uint64_t kernel_cache_evictions;
} jacc_stats;

/** Counters since start or the last jacc_reset_stats(). */
JACC_API jacc_status jacc_get_stats(jacc_stats *out);
JACC_API void jacc_reset_stats(void);

#ifdef __cplusplus
}
#endif

#endif /* JACC_JACC_H */
