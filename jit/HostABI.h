/* The contract between generated host kernels and the runtime. The definition is kept in a macro so
 * that the code generator pastes the very same text in front of every generated kernel. */
#ifndef JACC_JIT_HOSTABI_H
#define JACC_JIT_HOSTABI_H

/* Passed by pointer, as the last argument, to every generated host kernel entry; one per thread.
 * tid/nthreads: this thread in the device's team. barrier(team): every team thread must call it.
 * reduction: this thread's slots, 8 bytes per reduction variable. [iter_begin, iter_end): this
 * device's share of the outermost parallel iteration numbers (0-based); [0, LLONG_MAX) is all. */
#define JACC_HOST_TEAM_DEFINITION                                                                  \
  typedef struct jacc_host_team {                                                                  \
    long tid;                                                                                      \
    long nthreads;                                                                                 \
    void (*barrier)(void *team);                                                                   \
    void *team;                                                                                    \
    void *reduction;                                                                               \
    long long iter_begin;                                                                          \
    long long iter_end;                                                                            \
  } jacc_host_team;

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
