// Kernel names for profiling, computed once per kernel and cached in it.
#include "src/profile/KernelNames.h"

#include "analysis/KernelSource.h"
#include "jit/cache/KernelSummary.h"

namespace jacc::prof {

KernelName kernelNameOf(const jit::CompiledKernel &K) {
  const void *Cached = K.ObservedName.load(std::memory_order_acquire);
  if (!Cached) {
    // Racing first uses intern the same name: either pointer is the one.
    Cached = internKernelName(K.Info.Name.Site, K.Info.Name.Display);
    K.ObservedName.store(Cached, std::memory_order_release);
  }
  return *static_cast<const KernelName *>(Cached);
}

} // namespace jacc::prof
