// Process-wide counters behind jacc_get_stats().
#ifndef JACC_SUPPORT_STATS_H
#define JACC_SUPPORT_STATS_H

#include <atomic>
#include <cstdint>
#include <initializer_list>

namespace jacc {

struct Stats {
  std::atomic<uint64_t> KernelsPushed{0}, KernelsCompiled{0}, MemoryCacheHits{0}, DiskCacheHits{0};
  std::atomic<uint64_t> SplitLaunches{0}, DuplicateLaunches{0};
  std::atomic<uint64_t> BytesHostToDevice{0}, BytesDeviceToHost{0}, BytesDeviceToDevice{0};
  std::atomic<uint64_t> VariantsCompiled{0}, SpecializedLaunches{0};
  /// Of VariantsCompiled, those loaded from the disk cache; variants the spent compile budget
  /// stopped (JACC_SPECIALIZE_BUDGET).
  std::atomic<uint64_t> VariantsLoaded{0}, VariantsOverBudget{0};
  /// Kernels the in-memory cache let go to stay within JACC_KERNELS_IN_MEMORY.
  std::atomic<uint64_t> KernelCacheEvictions{0};

  void reset() {
    for (auto *C : {&KernelsPushed, &KernelsCompiled, &MemoryCacheHits, &DiskCacheHits,
                    &SplitLaunches, &DuplicateLaunches, &BytesHostToDevice, &BytesDeviceToHost,
                    &BytesDeviceToDevice, &VariantsCompiled, &SpecializedLaunches, &VariantsLoaded,
                    &VariantsOverBudget, &KernelCacheEvictions})
      C->store(0, std::memory_order_relaxed);
  }
};

/// The process's counters.
Stats &stats();

} // namespace jacc

#endif
