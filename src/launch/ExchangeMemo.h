// What a kernel's probed split launches needed on each device, remembered across its launches:
// a launch whose probe wrote the same words for the same arguments needs the same byte ranges,
// and a map that took the device off no byte since they were found current needs no walk. A kernel
// split along an inner dimension needs a range per row of each array (thousands), which listing,
// sorting and walking again at every launch cost more than its part of the loop.
#ifndef JACC_SRC_LAUNCH_EXCHANGEMEMO_H
#define JACC_SRC_LAUNCH_EXCHANGEMEMO_H

#include "src/data/PresentTable.h"

#include <llvm/ADT/ArrayRef.h>

#include <memory>
#include <unordered_map>
#include <vector>

namespace jacc {

class ExchangeMemo {
public:
  /// One device's part of a kernel's last launch with a given key.
  struct Part {
    std::vector<long long> Key; ///< what the ranges were listed from (ExchangeMemo::part)
    bool Listed = false;        ///< Need and Owned hold the ranges of Key
    /// What the part reads and writes of each mapping, sorted and merged, and the version of
    /// the mapping's validity map once the device held them all (0: not yet, or not all).
    std::vector<std::pair<Mapping *, ByteRanges>> Need;
    std::vector<uint64_t> CurrentAt;
    /// Per split target of the plan: the ranges the part owns and may write, and the version
    /// of the target's map once they were recorded as the device's alone (0: not yet).
    std::vector<ByteRanges> Owned;
    std::vector<uint64_t> WrittenAt;
  };

  /// Device D's part of a launch of Kernel (its owner keeps it alive; a kernel that left the
  /// cache is forgotten once its address is seen again) whose inputs are Key: the one kept for
  /// Key (a kernel pushed once per plane of a sweep has a key per plane), else an empty one
  /// (Listed false) for Key, in place of the least recently used beyond MaxKeys. The key holds
  /// every mapping the ranges name, so a part found by it names live mappings only.
  /// Kept: whether a new part took no other key's place.
  Part &part(const std::shared_ptr<const void> &Kernel, unsigned D, llvm::ArrayRef<long long> Key,
             bool *Kept = nullptr);
  /// The part that part() last returned for Kernel on D, or null.
  Part *last(const std::shared_ptr<const void> &Kernel, unsigned D);
  /// Forgets every part (the runtime's devices and mappings are gone).
  void clear() { Kernels.clear(); }

  /// Keys remembered per kernel and device.
  static constexpr size_t MaxKeys = 256;

  /// The memo and the kernel a launch's parts are remembered under.
  struct Use {
    ExchangeMemo &Memo;
    const std::shared_ptr<const void> &Kernel;
  };

private:
  struct Remembered {
    std::weak_ptr<const void> Kernel;
    /// Per device, its parts, the most recently used first.
    std::vector<std::vector<std::unique_ptr<Part>>> ByDevice;
  };
  /// Remembered kernels at most: beyond, those that left the cache are dropped, then all.
  static constexpr size_t MaxKernels = 1024;
  std::unordered_map<const void *, Remembered> Kernels;
};

} // namespace jacc

#endif
