// Kernels in the disk cache: the key that hashes everything the code depends on, storing and
// loading a kernel, and going on without the cache when writing it fails.
#include "jit/cache/KernelStore.h"

#include "jit/cache/DiskCacheConfig.h"
#include "jit/cache/KernelEntry.h"
#include "jit/cache/KernelSummary.h"
#include "jit/host/HostCodegen.h"
#include "jit/host/HostCompiler.h"
#include "jit/host/HostJIT.h"
#include "support/Debug.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/SHA256.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>

namespace jacc::jit {

void cacheWarning(const std::string &Text) {
  static std::mutex M;
  static std::set<std::string> &Seen = *new std::set<std::string>; // outlives static dtors
  {
    std::lock_guard<std::mutex> L(M);
    if (!Seen.insert(Text).second)
      return;
  }
  llvm::errs() << "jacc: warning: kernel cache: " << Text << "\n";
  debugLog("cache", "warning: " + Text);
}

/// Set when writing the cache failed (read-only, full): the process goes on without it, after
/// the one warning that said why.
static std::atomic<bool> Unusable{false};

void stopUsingDiskCache(const std::string &Why) {
  if (!Unusable.exchange(true))
    cacheWarning(Why + "; running without the disk cache");
}

std::shared_ptr<DiskCache> processDiskCache() {
  if (Unusable.load(std::memory_order_relaxed))
    return nullptr;
  static std::once_flag Once;
  static std::shared_ptr<DiskCache> Cache;
  std::call_once(Once, [] {
    auto Config = diskCacheConfigFromEnv();
    if (!Config) {
      cacheWarning(llvm::toString(Config.takeError()) + "; running without the disk cache");
      return;
    }
    if (!Config->Enabled) {
      debugLog("cache", "disk cache off (" + Config->EnabledFrom + ")");
      return;
    }
    auto C = DiskCache::open(Config->Dir, Config->MaxSize, Config->ReadOnly);
    if (!C) {
      cacheWarning(llvm::toString(C.takeError()) + "; running without the disk cache");
      return;
    }
    debugLog("cache", "disk cache " + Config->Dir + (C->readOnly() ? " (read-only)" : ""));
    Cache = std::make_shared<DiskCache>(std::move(*C));
  });
  return Cache;
}

/// Raised whenever the code jacc generates or stores for the same inputs changes, so that entries
/// written by an older build are never loaded (they become unreachable and age out of the LRU).
/// 2: GPU images are stored whole (revision 1 trimmed their trailing zero bytes).
/// 3: __launch_bounds__ on every GPU entry.
/// 4: GPU block sizes from the access traits, not a fixed 256.
/// 5: split entries read the device's share from the team at launch (share_begin, share_end,
///    share_scale) instead of computing an equal one from device / ndevices.
/// 6: every atomic form (structured captures, guards around whole atomics), inner-loop reductions
///    run where their uses need them, the bool prelude, values assigned before read never folded.
/// 7: a non-narrowed nest that stores its own reduction variable has no split variant.
/// 8: reductions on arrays, elements and sections (private copies, element slots).
/// 9: long double and complex reductions, 2 or 4 slots per value (ReductionVar::words()).
/// 10: the team's bounds word (JACC_CHECK=bounds).
/// 11: checked accesses inside atomics; the bounds record's owned range (10 words).
/// 12: the read probe of split entries (read_info), read extents in the summary.
/// 13: read extents through inner loops with affine bounds (their probes write those ranges).
/// 14: host innermost loops step an int iterator in int (they vectorise); host IR is PIC.
/// 15: a host innermost loop whose every access would be a gather is not vectorised.
/// 16: host nests that accumulate floats along long chains do not fuse their multiply-adds.
/// 17: the read probe also reports the partitioned loop (native implementations' parts).
/// 18: the summary says which pointer facts variants may assume (may_restrict, may_align).
/// 19: checked split entries: the first and last devices own what lies before and after the array;
///     the summary says whether the kernel's writes are known (splittable).
/// 20: the summary lists the pointers a struct argument holds (pointer_offsets).
/// 21: GPU entries share a nest's independent inner loops among their threads.
/// 22: host entries run an independent loop inside the loop it holds when the accesses move
///     contiguously along it (loop interchange).
/// 23: variants with disjoint pointers declare them restrict in nests indexed through memory.
/// 24: GPU entries share inner loops whose variable the program declared outside them.
/// 25: device targets' parts of the key (CodeTarget::cacheKeyPart).
/// 26: the summary keeps the kernel's split twin and its axes (split_twin, twin_axes).
/// 36: a split array written affinely is owned by shares of its write hull, not of its mapping.
/// 37: an element's address given to a call (`f(&a[k])`) reads any element of the array.
constexpr unsigned CodeRevision = 38;

std::string diskCacheKey(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls,
                         unsigned CodeFlags) {
  static const std::string Fixed = [] {
    // The same for the whole process: what the code depends on besides the kernel.
    return "jacc-kernel-cache\n" + std::to_string(DiskCacheFormat) + "." +
           std::to_string(CodeRevision) + "\n" JACC_VERSION "\n" LLVM_VERSION_STRING "\n" +
           hostTargetId() + "\n";
  }();
  llvm::SHA256 H;
  auto Field = [&](llvm::StringRef S) { // length-prefixed: no two inputs concatenate alike
    H.update(std::to_string(S.size()) + ":");
    H.update(S);
  };
  Field(Fixed);
  Field(std::to_string(CodeFlags));
  for (const CodeTarget *T : codeTargets())
    Field(T->name().str() + ": " + T->cacheKeyPart());
  Field(Source);
  for (const std::string &D : Decls)
    Field(D);
  auto Digest = H.final();
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

std::shared_ptr<const CompiledKernel> loadKernel(const DiskSlot &Slot, unsigned CodeFlags) {
  auto Start = std::chrono::steady_clock::now();
  std::string Warning;
  auto Summary = Slot.Cache->lookup(Slot.Key, Warning);
  auto Miss = [&](const std::string &Why) -> std::shared_ptr<const CompiledKernel> {
    if (!Why.empty())
      cacheWarning("entry " + Slot.Key.substr(0, 12) + ": " + Why + " (recompiling)");
    return nullptr;
  };
  if (!Summary)
    return Miss(Warning);
  auto Info = runtimeInfoFromSummary(*Summary);
  if (!Info)
    return Miss(llvm::toString(Info.takeError()));
  auto Object = Slot.Cache->readArtifact(Slot.Key, hostObjectArtifact(/*Split=*/false), Warning);
  if (!Object)
    return Miss(Warning.empty() ? "no host object" : Warning);
  auto K = std::make_shared<CompiledKernel>();
  K->Info = std::move(*Info);
  K->Info.CheckBounds = CodeFlags & CodeCheckBounds;
  K->InfoComplete = false;
  K->Disk = Slot;
  K->Object.assign(Object->begin(), Object->end());
  auto Entries = loadHostObject(K->Object, {EntryName}, K->Info.Name.symbol(false));
  if (!Entries)
    return Miss(llvm::toString(Entries.takeError()));
  K->Entry = Entries->Symbols[0];
  K->Code = std::move(Entries->Code);
  auto Call = CallInterface::create(K->Info);
  if (!Call)
    return Miss(llvm::toString(Call.takeError()));
  K->Call = std::move(*Call);
  KernelSummaryFields Shown = readKernelSummaryFields(*Summary);
  K->AnalysisMs = Shown.AnalysisMs.value_or(0);
  K->CompileMs = Shown.CompileMs.value_or(0);
  if (auto E = Slot.Cache->recordHit(Slot.Key))
    stopUsingDiskCache(llvm::toString(std::move(E)));
  debugLog("cache", "disk hit " + Slot.Key.substr(0, 12) + " loaded in " +
                        std::to_string(std::chrono::duration<double, std::milli>(
                                           std::chrono::steady_clock::now() - Start)
                                           .count()) +
                        " ms");
  return K;
}

void storeKernel(const DiskSlot &Slot, const CompiledKernel &K) {
  std::map<std::string, std::string> Artifacts;
  Artifacts[hostObjectArtifact(/*Split=*/false)] = std::string(K.Object.begin(), K.Object.end());
  if (auto E = Slot.Cache->store(
          Slot.Key, kernelSummary(K.Info, hostTargetId(), K.AnalysisMs, K.CompileMs), Artifacts))
    stopUsingDiskCache(llvm::toString(std::move(E)));
  else
    debugLog("cache", "stored " + Slot.Key.substr(0, 12));
}

} // namespace jacc::jit
