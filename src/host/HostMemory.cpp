#include "src/host/HostMemory.h"

#include <cstdlib>
#include <sys/mman.h>

namespace jacc {

void *allocateOnHugePages(size_t Bytes) {
  void *P = nullptr;
  if (posix_memalign(&P, HugePageBytes, Bytes) != 0)
    return nullptr;
  // Advice only: a kernel without transparent huge pages (or with them off) keeps 4 KiB pages.
  (void)madvise(P, Bytes, MADV_HUGEPAGE);
  return P;
}

} // namespace jacc
