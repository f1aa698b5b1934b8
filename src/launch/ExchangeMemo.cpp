// Remembering a kernel's split parts by the words their probes wrote.
#include "src/launch/ExchangeMemo.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>

namespace jacc {

ExchangeMemo::Part &ExchangeMemo::part(const std::shared_ptr<const void> &Kernel, unsigned D,
                                       llvm::ArrayRef<long long> Key, bool *Kept) {
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
  auto &ByDevice = It->second.ByDevice;
  if (ByDevice.size() <= D)
    ByDevice.resize(D + 1);
  std::vector<std::unique_ptr<Part>> &Parts = ByDevice[D];
  auto Found = llvm::find_if(Parts, [&](const auto &P) { return llvm::equal(P->Key, Key); });
  if (Found == Parts.end()) {
    if (Kept)
      *Kept = Parts.size() < MaxKeys;
    if (Parts.size() < MaxKeys)
      Parts.push_back(std::make_unique<Part>());
    Found = std::prev(Parts.end());
    **Found = Part();
    (*Found)->Key.assign(Key.begin(), Key.end());
  }
  // The part stays where it is in memory: the launch's recorder finds it by last().
  std::rotate(Parts.begin(), Found, std::next(Found));
  return *Parts.front();
}

ExchangeMemo::Part *ExchangeMemo::last(const std::shared_ptr<const void> &Kernel, unsigned D) {
  auto It = Kernels.find(Kernel.get());
  if (It == Kernels.end() || It->second.Kernel.lock() != Kernel ||
      It->second.ByDevice.size() <= D || It->second.ByDevice[D].empty())
    return nullptr;
  return It->second.ByDevice[D].front().get();
}

} // namespace jacc
