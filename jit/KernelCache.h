// The kernel cache: a kernel is compiled once per process, whatever thread pushes it (in memory),
// and once per machine: a miss in memory looks in the persistent disk cache (KernelStore.h)
// before compiling, and a compiled kernel is stored there.
#ifndef JACC_JIT_KERNELCACHE_H
#define JACC_JIT_KERNELCACHE_H

#include "jit/CompiledKernel.h"

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

namespace jacc::jit {

class KernelCache {
public:
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
  };
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
  CompileWatcher Watcher;
};

} // namespace jacc::jit

#endif
