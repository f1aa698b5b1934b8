/* The contract between generated host kernels and the runtime. The definition is kept in a macro so
 * that the code generator pastes the very same text in front of every generated kernel. */
#ifndef JACC_JIT_HOST_HOSTABI_H
#define JACC_JIT_HOST_HOSTABI_H

/* Passed by pointer, as the last argument, to every generated host kernel entry; one per thread.
 * tid/nthreads: this thread in the device's team. barrier(team): every team thread must call it.
 * reduction: this thread's slots, 8 bytes per reduction variable.
 * Split entries only: share_begin/share_end/share_scale: this device's share of the work, the part
 * [share_begin / share_scale, share_end / share_scale) of the outermost iterations (reductions)
 * and of each split array's owned range, decided by the runtime at launch; narrow: run only the
 * iterations this device's owned ranges and reduction share need; split_info (written by thread
 * 0): per split array, JACC_SPLIT_INFO_WORDS words (see below). bounds: JACC_CHECK=bounds only
 * (else null), the launch's bounds block (see below). read_info: null, except in a probe of a split
 * entry (jit/ReadProbe.h), which stops before the iterations once thread 0 wrote the split_info,
 * per read extent JACC_READ_INFO_WORDS(ranges, windows) words, then JACC_LOOP_INFO_WORDS (see
 * below). */
#define JACC_HOST_TEAM_DEFINITION                                                                  \
  typedef struct jacc_host_team {                                                                  \
    long tid;                                                                                      \
    long nthreads;                                                                                 \
    void (*barrier)(void *team);                                                                   \
    void *team;                                                                                    \
    void *reduction;                                                                               \
    long share_begin;                                                                              \
    long share_end;                                                                                \
    long share_scale;                                                                              \
    long narrow;                                                                                   \
    long long *split_info;                                                                         \
    long long *bounds;                                                                             \
    long long *read_info;                                                                          \
  } jacc_host_team;

/* split_info words per split array: owned [lb, ub] along the split dimension, bytes of one index
 * step along it (unit), bytes of the enclosing sub-array (pitch, 0 for dimension 0), the hull
 * [lo, hi] of the indices the kernel may write (lo > hi: none), and the iterations this device
 * ran, [first, end); then, from JACC_SPLIT_INFO_WINDOWS, JACC_SPLIT_WINDOWS windows of the
 * writes along other dimensions, each the unit and pitch of its dimension and the hull
 * [begin, end) of the indices written along it (unit 0: no window). */
#define JACC_SPLIT_INFO_WINDOWS 8
#define JACC_SPLIT_WINDOWS 3
#define JACC_SPLIT_INFO_WORDS (JACC_SPLIT_INFO_WINDOWS + 4 * JACC_SPLIT_WINDOWS)

/* JACC_CHECK=bounds: a launch's bounds block, shared by the device's threads (host and CUDA).
 * First the violation record, JACC_BOUNDS_RECORD_WORDS words: state (0 none, 1 being written, 2
 * written: the first violation wins a compare-exchange of 0 to 1), line, column, the argument's
 * parameter, how (below), the element's byte offset from the pointer, its bytes, and for a
 * write outside the device's owned range the range [lb, ub] along the split dimension. Then 2
 * words per parameter: the [lo, hi) bytes relative to the pointer it may reach (its mapping).
 * Then scratch bytes, at least the largest pointee: a failed check's access lands there. */
#define JACC_BOUNDS_RECORD_WORDS 10
/* How the access was made: 1 for a write, plus 2 times its subscripts; plus, for a write in a
 * split launch outside the device's owned range (which the split predicates should have
 * filtered), JACC_BOUNDS_OWNED and JACC_BOUNDS_OWNED * 2 times the split dimension. */
#define JACC_BOUNDS_OWNED 256

/* read_info words per read extent (analysis/ReadExtents.h, in KernelInfo order): bytes of one
 * index step along its dimension (unit), bytes of the enclosing sub-array (pitch, 0 for dimension
 * 0); from JACC_READ_INFO_RANGES, [begin, end) indices per range, relative to the pointer; then
 * per window the unit and pitch of its dimension and the hull [begin, end) of its ranges. A whole
 * extent writes unit and pitch 0 and nothing more. */
#define JACC_READ_INFO_RANGES 2
#define JACC_READ_INFO_WORDS(ranges, windows) (JACC_READ_INFO_RANGES + 2 * (ranges) + 4 * (windows))

/* After the read extents, a probe writes JACC_LOOP_INFO_WORDS words about the split nest's
 * outermost loop (the partitioned loop): its first value, its signed step (the loop variable of
 * iteration k is first + k * step), its trip count, this device's iterations [db, de) and its
 * reduction share [sb, se), as iteration numbers k. A native implementation's part
 * (jacc_native_part) is computed from them. */
#define JACC_LOOP_INFO_WORDS 7

#ifdef __cplusplus
extern "C" {
#endif
JACC_HOST_TEAM_DEFINITION
#ifdef __cplusplus
}
#endif

#define JACC_STRINGIFY_(...) #__VA_ARGS__
#define JACC_STRINGIFY(...) JACC_STRINGIFY_(__VA_ARGS__)
/* The definition as C text, for the code generator. */
#define JACC_HOST_ABI_TEXT JACC_STRINGIFY(JACC_HOST_TEAM_DEFINITION)

#endif
