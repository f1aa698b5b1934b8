// Remembering a kernel's split parts by the words their probes wrote.
#include "src/launch/ExchangeMemo.h"

#include <llvm/ADT/STLExtras.h>

namespace jacc {

ExchangeMemo::Part &ExchangeMemo::part(const std::shared_ptr<const void> &Kernel, unsigned D,
                                       llvm::ArrayRef<long long> Key) {
  auto It = Kernels.find(Kernel.get());
  if (It == Kernels.end() || It->second.Kernel.lock() != Kernel) {
    if (It == Kernels.end() && Kernels.size() >= MaxKernels) {
      for (auto I = Kernels.begin(); I != Kernels.end();)
        I = I->second.Kernel.expired() ? Kernels.erase(I) : std::next(I);
      if (Kernels.size() >= MaxKernels)
        Kernels.clear();
    }
    // A new kernel, or another one at the address of one that left the cache.
    It = Kernels.insert_or_assign(Kernel.get(), Remembered{Kernel, {}}).first;
  }
  std::vector<Part> &Parts = It->second.ByDevice;
  if (Parts.size() <= D)
    Parts.resize(D + 1);
  Part &P = Parts[D];
  if (!P.Listed || !llvm::equal(P.Key, Key)) {
    P = Part();
    P.Key.assign(Key.begin(), Key.end());
  }
  return P;
}

ExchangeMemo::Part *ExchangeMemo::last(const std::shared_ptr<const void> &Kernel, unsigned D) {
  auto It = Kernels.find(Kernel.get());
  if (It == Kernels.end() || It->second.Kernel.lock() != Kernel || It->second.ByDevice.size() <= D)
    return nullptr;
  return &It->second.ByDevice[D];
}

} // namespace jacc
