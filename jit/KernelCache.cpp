// The kernel cache's lookups (the thread's recent hits, then the table), one compile per kernel
// that other pushers wait for, the disk cache before compiling, and least-recently-used eviction.
#include "jit/KernelCache.h"

#include "jit/KernelRoutines.h"
#include "jit/cache/KernelStore.h"
#include "support/Error.h"
#include "support/Stats.h"

#include <cstring>
#include <optional>

namespace jacc::jit {

std::string KernelCache::makeKey(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls,
                                 unsigned CodeFlags) {
  // Exact content, not a hash: two different kernels can never share an entry. The target and the
  // compiler are fixed for the life of a process, so they are not part of the in-memory key.
  std::string Key;
  size_t Size = Source.size() + 8;
  for (const char *D : Decls)
    Size += std::strlen(D) + 1;
  Key.reserve(Size);
  Key.append(Source.data(), Source.size());
  for (const char *D : Decls) {
    Key.push_back('\0');
    Key.append(D);
  }
  Key.push_back('\0');
  Key.append(reinterpret_cast<const char *>(&CodeFlags), sizeof CodeFlags);
  return Key;
}

namespace {
bool sameKey(const std::string &Key, llvm::StringRef Source, llvm::ArrayRef<const char *> Decls,
             unsigned CodeFlags) {
  llvm::StringRef K(Key);
  if (!K.startswith(Source))
    return false;
  K = K.drop_front(Source.size());
  for (const char *D : Decls) {
    if (!K.consume_front(llvm::StringRef("\0", 1)) || !K.consume_front(D))
      return false;
  }
  return K.consume_front(llvm::StringRef("\0", 1)) && K.size() == sizeof CodeFlags &&
         std::memcmp(K.data(), &CodeFlags, sizeof CodeFlags) == 0;
}
} // namespace

uint64_t KernelCache::newId() {
  // Never reused, unlike an address: a thread's last hit cannot match a later cache.
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1, std::memory_order_relaxed);
}

KernelCache::KernelCache() : Id(newId()) {}

KernelCache::~KernelCache() { flushStats(); }

void KernelCache::flushStats() {
  {
    std::shared_lock<std::shared_mutex> Read(Mutex);
    for (const auto &[Key, S] : Slots) {
      std::lock_guard<std::mutex> L(S->M);
      if (S->Kernel)
        S->Kernel->Variants.flushHits(*S->Kernel);
    }
  }
  uint64_t Hits = UnflushedMemoryHits.exchange(0, std::memory_order_relaxed);
  if (!Hits)
    return;
  if (auto Disk = processDiskCache()) {
    DiskCacheStats D;
    D.MemoryHits = Hits;
    if (auto E = Disk->addStats(D))
      llvm::consumeError(std::move(E)); // statistics only
  }
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
KernelCache::get(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls, unsigned CodeFlags,
                 Outcome &Result) {
  uint64_t CacheId = Id.load(std::memory_order_acquire);
  RecentHitRing *Ring = Recent::get();
  if (!Ring)
    return getSlow(Source, Decls, CodeFlags, Result);
  for (RecentHit &R : Ring->Hits) {
    if (R.CacheId != CacheId || !sameKey(R.Key, Source, Decls, CodeFlags))
      continue;
    std::shared_ptr<Slot> S = R.S.lock();
    if (!S || S->Evicted.load(std::memory_order_acquire))
      break;
    Result = Outcome::Hit;
    UnflushedMemoryHits.fetch_add(1, std::memory_order_relaxed);
    S->LastUse.store(Clock.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return S->Kernel;
  }
  return getSlow(Source, Decls, CodeFlags, Result);
}

void KernelCache::evictOne(std::vector<std::shared_ptr<Slot>> &Gone) {
  // A scan rather than a list kept in order: hits, far more frequent than misses, then only
  // stamp their slot. Kernels still compiling stay.
  auto Oldest = Slots.end();
  uint64_t OldestUse = UINT64_MAX;
  for (auto It = Slots.begin(); It != Slots.end(); ++It) {
    std::lock_guard<std::mutex> L(It->second->M);
    uint64_t Use = It->second->LastUse.load(std::memory_order_relaxed);
    if (It->second->Done && It->second->Kernel && Use < OldestUse) {
      Oldest = It;
      OldestUse = Use;
    }
  }
  if (Oldest == Slots.end())
    return;
  Oldest->second->Evicted.store(true, std::memory_order_release);
  Gone.push_back(std::move(Oldest->second));
  Slots.erase(Oldest);
  stats().KernelCacheEvictions.fetch_add(1, std::memory_order_relaxed);
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
KernelCache::getSlow(llvm::StringRef Source, llvm::ArrayRef<const char *> Decls,
                     unsigned CodeFlags, Outcome &Result) {
  std::string Key = makeKey(Source, Decls, CodeFlags);
  std::shared_ptr<Slot> S;
  bool Owner = false;
  {
    std::shared_lock<std::shared_mutex> Read(Mutex);
    auto It = Slots.find(Key);
    if (It != Slots.end())
      S = It->second;
  }
  std::vector<std::shared_ptr<Slot>> Gone;
  if (!S) {
    std::unique_lock<std::shared_mutex> Write(Mutex);
    auto [It, Inserted] = Slots.try_emplace(Key, nullptr);
    if (Inserted) {
      It->second = std::make_shared<Slot>();
      Owner = true;
    }
    S = It->second;
    size_t Bound = Capacity.load(std::memory_order_relaxed);
    while (Bound && Slots.size() > Bound) {
      size_t Before = Gone.size();
      evictOne(Gone);
      if (Gone.size() == Before)
        break; // every other kernel is still compiling
    }
  }
  S->LastUse.store(Clock.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  // Out of the lock: the last holder of a kernel unloads its code, and watchers take locks.
  for (std::shared_ptr<Slot> &G : Gone) {
    G->Kernel->Variants.flushHits(*G->Kernel);
    if (Evicted)
      Evicted(*G->Kernel);
  }
  Gone.clear();
  auto Remember = [&](std::shared_ptr<const CompiledKernel> K) {
    RecentHitRing *Ring = Recent::get();
    if (!Ring)
      return K;
    RecentHit &R = Ring->Hits[Ring->Next];
    Ring->Next = (Ring->Next + 1) % RecentHits;
    R.CacheId = Id.load(std::memory_order_acquire);
    R.Key = std::move(Key);
    R.S = S;
    return K;
  };
  // Routines of other files, as registered now: the memory cache keeps the kernel as pushed,
  // the disk cache and the compilers see the routines' text (linked only to compile: a hit
  // would search the text for nothing).
  std::optional<std::string> Linked;
  auto LinkRoutines = [&]() -> llvm::Error {
    auto L = kernelRoutines().link(Source);
    if (!L)
      return L.takeError();
    Linked = std::move(*L);
    if (Linked)
      Source = *Linked;
    return llvm::Error::success();
  };
  if (!Owner) {
    std::unique_lock<std::mutex> L(S->M);
    S->Ready.wait(L, [&] { return S->Done; });
    if (S->Kernel) {
      Result = Outcome::Hit;
      UnflushedMemoryHits.fetch_add(1, std::memory_order_relaxed);
      return Remember(S->Kernel);
    }
    // The owner's compile failed: compile again here to report the error to this caller too.
    Result = Outcome::Compiled;
    if (llvm::Error E = LinkRoutines())
      return E;
    std::vector<std::string> D(Decls.begin(), Decls.end());
    return compileKernel(Source, D, {}, CodeFlags);
  }
  std::vector<std::string> D(Decls.begin(), Decls.end());
  // A failed link settles the slot as a failed compile does: waiters compile to see the error.
  llvm::Error LinkError = LinkRoutines();
  llvm::Expected<std::shared_ptr<const CompiledKernel>> K =
      LinkError ? llvm::Expected<std::shared_ptr<const CompiledKernel>>(std::move(LinkError))
                : loadOrCompile(Source, D, CodeFlags, Result);
  {
    std::lock_guard<std::mutex> L(S->M);
    S->Done = true;
    if (K)
      S->Kernel = *K;
  }
  S->Ready.notify_all();
  if (!K) {
    std::unique_lock<std::shared_mutex> Write(Mutex);
    auto It = Slots.find(Key);
    if (It != Slots.end() && It->second == S)
      Slots.erase(It);
    return K;
  }
  return Remember(*K);
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
KernelCache::loadOrCompile(llvm::StringRef Source, const std::vector<std::string> &Decls,
                           unsigned CodeFlags, Outcome &Result) {
  DiskSlot Slot;
  if ((Slot.Cache = processDiskCache()))
    Slot.Key = diskCacheKey(Source, Decls, CodeFlags);
  DiskCacheStats Delta;
  if (Slot.Cache)
    if (std::shared_ptr<const CompiledKernel> K = loadKernel(Slot, CodeFlags)) {
      Result = Outcome::DiskHit;
      Delta.DiskHits = 1;
      Delta.CompileMsSaved = K->AnalysisMs + K->CompileMs;
      llvm::consumeError(Slot.Cache->addStats(Delta)); // statistics only
      return K;
    }
  Result = Outcome::Compiled;
  if (Watcher)
    Watcher(Source, true);
  auto K = compileKernel(Source, Decls, Slot, CodeFlags);
  if (Watcher)
    Watcher(Source, false);
  if (K && Slot.Cache) {
    Delta.Misses = 1;
    llvm::consumeError(Slot.Cache->addStats(Delta));
  }
  return K;
}

size_t KernelCache::size() const {
  std::shared_lock<std::shared_mutex> Read(Mutex);
  return Slots.size();
}

void KernelCache::clear() {
  std::unique_lock<std::shared_mutex> Write(Mutex);
  Id.store(newId(), std::memory_order_release); // invalidates every thread's last hit
  Slots.clear();
}

} // namespace jacc::jit
