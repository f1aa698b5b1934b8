// The kernel cache: a kernel is compiled once per process, whatever thread pushes it (in memory),
// and once per machine: a miss in memory looks in the persistent disk cache (KernelStore.h)
// before compiling, and a compiled kernel is stored there. Memory holds a bounded number of
// kernels (JACC_KERNELS_IN_MEMORY), the least recently pushed going first: a program that
// generates kernels without end runs in constant memory, and one that comes back to an evicted
// kernel loads it from disk.
#ifndef JACC_JIT_KERNELCACHE_H
#define JACC_JIT_KERNELCACHE_H

#include "jit/CompiledKernel.h"
#include "support/ExitSafeThreadLocal.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace jacc::jit {

class KernelCache {
public:
  /// Kernels kept in memory by default.
  static constexpr size_t DefaultCapacity = 4096;

  KernelCache();
  /// Adds this process's memory hits to the disk cache's cumulative statistics.
  ~KernelCache();

  /// Outcome of a lookup, for the statistics.
  enum class Outcome { Hit, DiskHit, Compiled };

  /// The compiled kernel for (Source, Decls, CodeFlags). On a miss one caller compiles while
  /// concurrent callers of the same key wait for it (single flight); failures are not cached.
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  get(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls, unsigned CodeFlags,
      Outcome &Result);

  /// Told on the compiling thread when a compile (a miss in memory and on disk) of Source
  /// begins and ends: the run's progress line. Set before the first get.
  using CompileWatcher = std::function<void(llvm::StringRef Source, bool Begins)>;
  void watchCompiles(CompileWatcher W) { Watcher = std::move(W); }

  /// Told, on the thread of the get that made room, of each kernel that left the cache; launches
  /// in flight may still hold it. Set before the first get.
  using EvictionWatcher = std::function<void(const CompiledKernel &)>;
  void watchEvictions(EvictionWatcher W) { Evicted = std::move(W); }

  /// Keep at most Kernels compiled kernels (0: no bound); beyond, the least recently got goes.
  /// Applies from the next miss.
  void setCapacity(size_t Kernels) { Capacity.store(Kernels, std::memory_order_relaxed); }
  size_t size() const;
  void clear();
  /// Add the memory hits counted since the last flush to the disk cache's statistics
  /// (`jacc-cache stats`); misses and disk hits are added as they happen.
  void flushStats();

private:
  struct Slot {
    std::mutex M;
    std::condition_variable Ready;
    bool Done = false;
    std::shared_ptr<const CompiledKernel> Kernel;
    std::atomic<uint64_t> LastUse{0}; ///< the cache's Clock at its last get
    std::atomic<bool> Evicted{false}; ///< out of the cache: threads' last hits ask again
  };
  /// A kernel a thread got lately: a push loop asks for the same few kernels again and again
  /// (LU's wavefront cycles through six), and comparing their text in place is cheaper than
  /// building and hashing a key. Weak: a kernel the cache lets go is unloaded with its last user.
  struct RecentHit {
    uint64_t CacheId = 0; ///< KernelCache::Id when it was stored (0: none)
    std::string Key;
    std::weak_ptr<Slot> S;
  };
  static constexpr unsigned RecentHits = 8;
  struct RecentHitRing {
    RecentHit Hits[RecentHits];
    unsigned Next = 0; ///< the entry the next remembered kernel replaces
  };
  /// This thread's ring (support/ExitSafeThreadLocal.h: null once exit() destroyed it).
  using Recent = ExitSafeThreadLocal<RecentHitRing>;
  /// Under the write lock, with Slots over capacity: take the least recently used finished
  /// kernel out, into Gone (released by the caller once unlocked).
  void evictOne(std::vector<std::shared_ptr<Slot>> &Gone);
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  getSlow(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls, unsigned CodeFlags,
          Outcome &Result);
  /// A miss in memory: the disk cache's entry, else a compile (stored on disk).
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  loadOrCompile(llvm::StringRef Source, const std::vector<std::string> &Decls, unsigned CodeFlags,
                Outcome &Result);
  static std::string makeKey(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls,
                             unsigned CodeFlags);

  mutable std::shared_mutex Mutex;
  static uint64_t newId();
  std::atomic<uint64_t> Id; ///< identifies this cache (and its contents) to threads' last hits
  std::unordered_map<std::string, std::shared_ptr<Slot>> Slots;
  std::atomic<uint64_t> UnflushedMemoryHits{0};
  std::atomic<uint64_t> Clock{0};
  std::atomic<size_t> Capacity{DefaultCapacity};
  CompileWatcher Watcher;
  EvictionWatcher Evicted;
};

} // namespace jacc::jit

#endif
