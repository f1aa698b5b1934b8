/* The contract between generated CUDA kernels and the runtime's CUDA launcher. As in HostABI.h the
 * definition is a macro, pasted as text in front of every generated kernel and compiled into the
 * runtime, so both sides see the same layout. */
#ifndef JACC_JIT_CUDA_CUDAABI_H
#define JACC_JIT_CUDA_CUDAABI_H

/* The last parameter of every generated CUDA entry, by value.
 * share_begin/share_end/share_scale: this device's share of a split entry's work (see HostABI.h);
 * narrow: run only the iterations this device's owned ranges need; split_info: device memory,
 * JACC_SPLIT_INFO_WORDS words per split array, written by global thread 0 (see HostABI.h); reduction: device memory,
 * one 8-byte slot per reduction variable per block, each block's combined value; barrier: two
 * zeroed words of device memory for the grid-wide barrier between region statements; bounds:
 * device memory, JACC_CHECK=bounds only (else null), the launch's bounds block (HostABI.h). */
#define JACC_CUDA_TEAM_DEFINITION                                                                  \
  typedef struct jacc_cuda_team {                                                                  \
    long long share_begin;                                                                         \
    long long share_end;                                                                           \
    long long share_scale;                                                                         \
    long long narrow;                                                                              \
    long long *split_info;                                                                         \
    void *reduction;                                                                               \
    unsigned int *barrier;                                                                         \
    long long *bounds;                                                                             \
  } jacc_cuda_team;

#ifdef __cplusplus
extern "C" {
#endif
JACC_CUDA_TEAM_DEFINITION
#ifdef __cplusplus
}
#endif

#define JACC_CUDA_STRINGIFY_(...) #__VA_ARGS__
#define JACC_CUDA_STRINGIFY(...) JACC_CUDA_STRINGIFY_(__VA_ARGS__)
/* The definition as text, for the code generator. */
#define JACC_CUDA_ABI_TEXT JACC_CUDA_STRINGIFY(JACC_CUDA_TEAM_DEFINITION)

#endif
