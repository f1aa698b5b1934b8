// JACC_CHECK=bounds on host devices: each device allocation in its own pages between two
// inaccessible ones, so that pointer arithmetic the kernel checks cannot see (`*(p + i)`, a local
// pointer) faults at the guilty kernel instead of corrupting the heap; and a SIGSEGV report that
// names the kernel the faulting thread was running.
#ifndef JACC_SRC_HOST_GUARDEDMEMORY_H
#define JACC_SRC_HOST_GUARDEDMEMORY_H

#include <cstddef>

namespace jacc {

/// Bytes (aligned to Alignment, a power of two below the page size) whose end is as close to the
/// following guard page as the alignment allows, with a guard page before the first page too.
/// Null when the memory cannot be mapped.
void *allocateGuarded(size_t Bytes, size_t Alignment);

/// Unmap what allocateGuarded(Bytes, Alignment) returned as P.
void releaseGuarded(void *P, size_t Bytes, size_t Alignment);

/// Installs (once) a SIGSEGV handler that prints the kernel the faulting thread runs, if any,
/// then lets the default action end the process.
void installKernelFaultReport();

/// What this thread runs, for the SIGSEGV report (null: no kernel). The text must outlive the
/// scope.
class RunningKernel {
public:
  explicit RunningKernel(const char *Description);
  ~RunningKernel();
  RunningKernel(const RunningKernel &) = delete;
  RunningKernel &operator=(const RunningKernel &) = delete;

private:
  const char *Previous;
};

} // namespace jacc

#endif
