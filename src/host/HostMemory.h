// Where a host device keeps its copies: plain 64-byte aligned memory, large copies on
// transparent huge pages, or every copy between guard pages (JACC_CHECK=bounds). A kernel over
// large arrays misses the TLB on every new 4 KiB page; with 2 MiB pages it almost never does
// (docs/performance.md: the streaming kernels ran 5 - 25 % faster, and steadily).
#ifndef JACC_SRC_HOST_HOSTMEMORY_H
#define JACC_SRC_HOST_HOSTMEMORY_H

#include <cstddef>

namespace jacc {

/// How a host device allocates its copies.
enum class HostCopies {
  Plain,     ///< 64-byte aligned (a cache line, what vector loads want)
  HugePages, ///< as Plain, and copies of HugePageBytes or more on transparent huge pages
  Guarded    ///< between inaccessible pages (src/host/GuardedMemory.h)
};

/// The huge page size of x86-64 and AArch64 Linux (with 4 KiB base pages).
constexpr size_t HugePageBytes = size_t(2) << 20;

/// Whether a device whose copies are of kind Memory keeps one of Bytes on huge pages (its
/// allocation and its release must agree: the one is mapped, the other unmapped).
inline bool onHugePages(HostCopies Memory, size_t Bytes) {
  return Memory == HostCopies::HugePages && Bytes >= HugePageBytes;
}

/// Bytes aligned to HugePageBytes and advised MADV_HUGEPAGE, which the kernel honours when
/// transparent huge pages are `always` or `madvise` (Debian's default) and ignores under `never`.
/// Mapped for itself (not from malloc, so that no advice outlives it in memory malloc reuses);
/// null when out of memory.
void *allocateOnHugePages(size_t Bytes);

/// Unmaps what allocateOnHugePages(Bytes) returned as P.
void releaseHugePages(void *P, size_t Bytes);

} // namespace jacc

#endif
