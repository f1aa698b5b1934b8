// Compiled kernels in the persistent disk cache: the entry key of a kernel, storing a freshly
// compiled kernel, and loading one back into the JIT without clang or code generation.
#ifndef JACC_JIT_CACHE_KERNELSTORE_H
#define JACC_JIT_CACHE_KERNELSTORE_H

#include "jit/CompiledKernel.h"
#include "jit/cache/DiskCache.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <memory>
#include <string>

namespace jacc::jit {

/// The process's disk cache (JACC_CACHE, JACC_CACHE_DIR, JACC_CACHE_MAX_SIZE), opened on first
/// use; null when disabled, or unusable (after one warning: the process runs without it).
std::shared_ptr<DiskCache> processDiskCache();

/// The entry key of a kernel: a SHA-256 of the deterministic inputs of its compile only (the
/// source, the declarations, code flags, the host target, LLVM's version and what each device
/// target's code depends on (CodeTarget::cacheKeyPart), jacc's version and the cache format).
/// Never of a compiler's output.
std::string diskCacheKey(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls,
                         unsigned CodeFlags);

/// The kernel of Slot's entry, its host object linked by the JIT: no clang, no code generation.
/// Null on a miss; a bad entry is a miss with one warning (and is replaced by the next store).
/// CodeFlags: those of the entry's key (CodeFlag bits), which the summary does not hold.
std::shared_ptr<const CompiledKernel> loadKernel(const DiskSlot &Slot, unsigned CodeFlags = 0);

/// Create Slot's entry for a kernel just compiled (summary and host object); a failure is one
/// warning, never an error of the push.
void storeKernel(const DiskSlot &Slot, const CompiledKernel &K);

/// Print a cache warning on stderr, once per distinct text (and to JACC_DEBUG=cache).
void cacheWarning(const std::string &Text);

/// Writing the cache failed (read-only or full directory): warn once and run without it from now
/// on (processDiskCache() returns null).
void stopUsingDiskCache(const std::string &Why);

} // namespace jacc::jit

#endif
