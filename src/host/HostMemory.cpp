// A host device's large copies on transparent huge pages: an anonymous mapping aligned to 2 MiB
// and advised MADV_HUGEPAGE, and its release.
#include "src/host/HostMemory.h"

#include <cstdint>
#include <sys/mman.h>

#include "llvm/Support/MathExtras.h"

namespace jacc {

void *allocateOnHugePages(size_t Bytes) {
  // One huge page more than needed, then the parts before and after the aligned range unmapped.
  size_t Len = llvm::alignTo(Bytes, HugePageBytes), Span = Len + HugePageBytes;
  void *Raw = mmap(nullptr, Span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Raw == MAP_FAILED)
    return nullptr;
  auto Base = reinterpret_cast<uintptr_t>(Raw);
  uintptr_t Start = llvm::alignTo(Base, HugePageBytes);
  if (size_t Head = Start - Base)
    munmap(Raw, Head);
  if (size_t Tail = Span - (Start - Base) - Len)
    munmap(reinterpret_cast<void *>(Start + Len), Tail);
  // Advice only: a kernel without transparent huge pages (or with them off) keeps 4 KiB pages.
  (void)madvise(reinterpret_cast<void *>(Start), Len, MADV_HUGEPAGE);
  return reinterpret_cast<void *>(Start);
}

void releaseHugePages(void *P, size_t Bytes) { munmap(P, llvm::alignTo(Bytes, HugePageBytes)); }

} // namespace jacc
