// The in-memory kernel cache: a kernel is compiled once per process, whatever thread pushes it.
#ifndef JACC_JIT_KERNELCACHE_H
#define JACC_JIT_KERNELCACHE_H

#include "CompiledKernel.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace jacc::jit {

class KernelCache {
public:
  KernelCache();

  /// Outcome of a lookup, for the statistics.
  enum class Outcome { Hit, Compiled };

  /// The compiled kernel for (Source, Decls, CodeFlags). On a miss one caller compiles while
  /// concurrent callers of the same key wait for it (single flight); failures are not cached.
  llvm::Expected<std::shared_ptr<const CompiledKernel>>
  get(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls, unsigned CodeFlags,
      Outcome &Result);

  size_t size() const;
  void clear();

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
  static std::string makeKey(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls,
                             unsigned CodeFlags);

  mutable std::shared_mutex Mutex;
  static uint64_t newId();
  std::atomic<uint64_t> Id; ///< identifies this cache (and its contents) to threads' last hits
  std::unordered_map<std::string, std::shared_ptr<Slot>> Slots;
};

} // namespace jacc::jit

#endif
