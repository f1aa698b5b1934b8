#include "Runtime.h"

#include "CudaDevice.h"
#include "CudaKernelLaunch.h"
#include "Debug.h"
#include "DeviceConfig.h"
#include "Error.h"
#include "HostDevice.h"
#include "KernelLaunch.h"
#include "Reduction.h"
#include "SplitGroup.h"
#include "Stats.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace jacc {

using analysis::ArgInfo;

Runtime &Runtime::instance() {
  static Runtime *R = new Runtime; // never destroyed: device threads may outlive static dtors
  return *R;
}

llvm::Error Runtime::initLocked() {
  if (Initialized)
    return llvm::Error::success();
  auto Config = deviceConfigFromEnv();
  if (!Config)
    return Config.takeError();
  std::vector<std::unique_ptr<Device>> Created;
  for (const DeviceSpec &S : Config->Devices) {
    if (S.Kind == "cuda") {
      auto D = CudaDevice::create(Created.size(), S.Ordinal);
      if (!D)
        return D.takeError();
      Created.push_back(std::move(*D));
      continue;
    }
    auto D = HostDevice::create(Created.size(), S.Threads, Config->SpinTime);
    if (!D)
      return D.takeError();
    Created.push_back(std::move(*D));
  }
  auto Env = [](const char *Name) {
    const char *V = std::getenv(Name);
    return llvm::StringRef(V ? V : "").trim().lower();
  };
  std::string Split = Env("JACC_SPLIT"), Narrow = Env("JACC_NARROW");
  if (Split.empty() || Split == "auto")
    SplitPolicy = SplitMode::Auto;
  else if (Split == "always" || Split == "on")
    SplitPolicy = SplitMode::Always;
  else if (Split == "never" || Split == "off")
    SplitPolicy = SplitMode::Never;
  else
    return makeError(ErrorCode::InvalidArgument,
                     "JACC_SPLIT='" + Split + "' is not valid: use auto, always or never");
  if (Narrow.empty() || Narrow == "on" || Narrow == "1")
    NarrowPolicy = true;
  else if (Narrow == "off" || Narrow == "0")
    NarrowPolicy = false;
  else
    return makeError(ErrorCode::InvalidArgument,
                     "JACC_NARROW='" + Narrow + "' is not valid: use on or off");
  Devices = std::move(Created);
  Initialized = true;
  debugLog("device", llvm::Twine(Devices.size()) + " device(s), " +
                         llvm::Twine(Devices.front()->computeUnits()) + " thread(s) each");
  return llvm::Error::success();
}

llvm::Error Runtime::init() {
  std::unique_lock<std::shared_mutex> L(StateMutex);
  return initLocked();
}

llvm::Expected<std::shared_lock<std::shared_mutex>> Runtime::acquire() {
  std::shared_lock<std::shared_mutex> Shared(StateMutex);
  if (Initialized)
    return Shared;
  Shared.unlock();
  {
    std::unique_lock<std::shared_mutex> Unique(StateMutex);
    if (auto E = initLocked())
      return E;
  }
  // A finalize between the two locks is the caller's race; the next call re-initialises.
  Shared.lock();
  return Shared;
}

llvm::Error Runtime::finalize() {
  std::unique_lock<std::shared_mutex> L(StateMutex);
  if (!Initialized)
    return llvm::Error::success();
  llvm::Error Result = llvm::Error::success();
  for (auto &D : Devices)
    if (auto E = D->synchronize())
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  std::lock_guard<std::mutex> TL(Table.mutex());
  for (Mapping *M : Table.all()) {
    for (unsigned D = 0; D < Devices.size(); ++D)
      if (auto E = Devices[D]->release(M->DevicePtrs[D]))
        Result = llvm::joinErrors(std::move(Result), std::move(E));
    Table.erase(M->Begin);
  }
  Devices.clear();
  Initialized = false;
  Cache.flushStats();
  return Result;
}

llvm::Expected<unsigned> Runtime::numDevices() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Devices.size();
}

llvm::Error Runtime::waitForUses(const Mapping &M) {
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (M.LastUse[D])
      if (auto E = Devices[D]->waitFor(M.LastUse[D]))
        return E;
  return llvm::Error::success();
}

static llvm::Error partialError(const char *Api, const void *P, size_t Bytes, const Mapping &M) {
  return makeError(ErrorCode::PartiallyPresent,
                   llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                       " is partially present: it overlaps the mapped block " +
                       PresentTable::describe(M) +
                       " without lying inside it; map and unmap whole blocks");
}

static llvm::Error notPresentError(const char *Api, const void *P, size_t Bytes,
                                   const char *Hint) {
  return makeError(ErrorCode::NotPresent, llvm::Twine(Api) + ": " +
                                              PresentTable::describe(P, Bytes) +
                                              " is not mapped on the devices; " + Hint);
}

llvm::Error Runtime::enterData(void *P, size_t Bytes, bool Copy, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success(); // OpenACC: a null pointer or an empty range is a no-op
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  if (F.State == PresentTable::Presence::Contained) {
    ++F.M->DynamicRefs; // present: no allocation, no copy
    return llvm::Error::success();
  }
  Mapping M;
  M.Begin = reinterpret_cast<uintptr_t>(P);
  M.End = M.Begin + Bytes;
  M.DynamicRefs = 1;
  M.LastUse.assign(Devices.size(), 0);
  // Allocate everywhere first, so that a failure leaves nothing behind.
  for (auto &D : Devices) {
    auto Ptr = D->allocate(Bytes);
    if (!Ptr) {
      for (unsigned I = 0; I < M.DevicePtrs.size(); ++I)
        llvm::consumeError(Devices[I]->release(M.DevicePtrs[I]));
      return Ptr.takeError();
    }
    M.DevicePtrs.push_back(*Ptr);
  }
  if (Copy)
    for (unsigned D = 0; D < Devices.size(); ++D)
      if (auto E = Devices[D]->copyToDevice(M.DevicePtrs[D], P, Bytes)) {
        for (unsigned I = 0; I < M.DevicePtrs.size(); ++I)
          llvm::consumeError(Devices[I]->release(M.DevicePtrs[I]));
        return E;
      }
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(P, Bytes) + " mapped");
  Table.insert(std::move(M));
  return llvm::Error::success();
}

llvm::Error Runtime::exitData(void *P, size_t Bytes, bool CopyBack, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Absent)
    return notPresentError(Api, P, Bytes,
                           "an exit needs a matching jacc_create or jacc_copyin before it");
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  Mapping &M = *F.M;
  if (M.DynamicRefs == 0)
    return makeError(ErrorCode::NotPresent,
                     llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                         " has no dynamic reference left (it is only mapped by a data region)");
  if (auto E = waitForUses(M))
    return E;
  if (--M.DynamicRefs > 0 || M.StructuredRefs > 0)
    return llvm::Error::success();
  if (CopyBack)
    if (auto E = Devices[0]->copyToHost(P, M.translate(P, 0), Bytes)) {
      ++M.DynamicRefs;
      return E;
    }
  llvm::Error Result = llvm::Error::success();
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (auto E = Devices[D]->release(M.DevicePtrs[D]))
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(M) + " unmapped");
  Table.erase(M.Begin);
  return Result;
}

llvm::Error Runtime::update(void *P, size_t Bytes, bool ToDevice, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Absent)
    return notPresentError(Api, P, Bytes, "map it first with jacc_copyin or jacc_create");
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  if (auto E = waitForUses(*F.M))
    return E;
  if (!ToDevice)
    return Devices[0]->copyToHost(P, F.M->translate(P, 0), Bytes);
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (auto E = Devices[D]->copyToDevice(F.M->translate(P, D), P, Bytes))
      return E;
  return llvm::Error::success();
}

llvm::Expected<bool> Runtime::isPresent(const void *P, size_t Bytes) {
  if (!P)
    return false;
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  return Table.lookup(P, Bytes).State == PresentTable::Presence::Contained;
}

llvm::Error Runtime::wait() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  llvm::Error Result = llvm::Error::success();
  for (auto &D : Devices)
    if (auto E = D->synchronize())
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  return Result;
}

llvm::Error Runtime::push(const char *Source, int NArgs, const jacc_arg *Args, unsigned Flags) {
  if (!Source)
    return makeError(ErrorCode::InvalidArgument, "jacc_kernel_push: the source is NULL");
  if (NArgs < 0 || (NArgs > 0 && !Args))
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_kernel_push: nargs is " + llvm::Twine(NArgs) +
                         (NArgs > 0 ? " but args is NULL" : ", it must be >= 0"));
  constexpr unsigned KnownFlags = JACC_ASYNC | JACC_FORCE_DUPLICATE | JACC_FORCE_SPLIT;
  if (Flags & ~KnownFlags)
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_kernel_push: unknown flag bits 0x" + llvm::utohexstr(Flags & ~KnownFlags));
  if ((Flags & JACC_FORCE_DUPLICATE) && (Flags & JACC_FORCE_SPLIT))
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_kernel_push: JACC_FORCE_DUPLICATE and JACC_FORCE_SPLIT exclude each other");
  llvm::SmallVector<const char *, 16> Decls;
  for (int I = 0; I < NArgs; ++I) {
    if (!Args[I].decl || !Args[I].value)
      return makeError(ErrorCode::InvalidArgument,
                       "jacc_kernel_push: args[" + llvm::Twine(I) + "] has a NULL " +
                           (Args[I].decl ? "value" : "decl"));
    Decls.push_back(Args[I].decl);
  }
  auto L = acquire();
  if (!L)
    return L.takeError();
  stats().KernelsPushed.fetch_add(1, std::memory_order_relaxed);

  jit::KernelCache::Outcome Outcome;
  auto KOr = Cache.get(Source, Decls, /*CodeFlags=*/0, Outcome);
  if (!KOr)
    return KOr.takeError();
  std::shared_ptr<const jit::CompiledKernel> K = std::move(*KOr);
  (Outcome == jit::KernelCache::Outcome::Hit       ? stats().MemoryCacheHits
   : Outcome == jit::KernelCache::Outcome::DiskHit ? stats().DiskCacheHits
                                                   : stats().KernelsCompiled)
      .fetch_add(1, std::memory_order_relaxed);
  const analysis::KernelInfo &Info = K->Info;
  unsigned N = Devices.size();
  bool UseSplit = false;
  if (Flags & JACC_FORCE_SPLIT) {
    if (!Info.Split.Enabled)
      return makeError(ErrorCode::Unsupported,
                       "jacc_kernel_push: JACC_FORCE_SPLIT, but this kernel cannot be split: " +
                           Info.Split.Fallback);
    UseSplit = true;
  } else if (!(Flags & JACC_FORCE_DUPLICATE) && N > 1 && Info.Split.Enabled &&
             SplitPolicy != SplitMode::Never) {
    UseSplit = SplitPolicy == SplitMode::Always || Adaptive.chooseSplit(K.get());
  }
  const jit::SplitCode *SplitCode = nullptr;
  bool AnyHost = false; // the host's split entry is compiled only when a host device runs it
  for (auto &D : Devices)
    AnyHost |= D->kind() == DeviceKind::Host;
  if (UseSplit && AnyHost) {
    auto SC = K->splitCode();
    if (!SC)
      return SC.takeError();
    SplitCode = *SC;
  }
  // Each GPU architecture's image before anything is launched: a kernel that cannot compile for
  // one device then fails the push with nothing queued on any device.
  for (auto &D : Devices)
    if (D->kind() == DeviceKind::Cuda)
      if (auto C = K->cudaCode(static_cast<CudaDevice &>(*D).smVersion(), UseSplit); !C)
        return C.takeError();
  if (Info.Wait)
    if (auto E = wait())
      return E;
  bool Async = (Flags & JACC_ASYNC) || Info.Async;
  // Only the adaptive choice needs the launch's duration.
  bool Measure = !Async && N > 1 && Info.Split.Enabled && SplitPolicy == SplitMode::Auto &&
                 !(Flags & (JACC_FORCE_SPLIT | JACC_FORCE_DUPLICATE));
  std::chrono::steady_clock::time_point Start;
  if (Measure)
    Start = std::chrono::steady_clock::now();

  // Argument cells per device, pointers translated through the present table; the split entry
  // takes two more cells per split array (its mapping relative to the pointer, in bytes).
  unsigned NParams = Info.Args.size();
  const auto &SplitArrays = Info.Split.Plan.Arrays;
  unsigned NCells = NParams + (UseSplit ? 2 * SplitArrays.size() : 0);
  llvm::SmallVector<ArgCells, 4> Cells(N, ArgCells(2 * NCells, 0));
  std::shared_ptr<std::vector<std::vector<char>>> Aggregates;
  llvm::SmallVector<Mapping *, 8> Used;
  llvm::SmallVector<Mapping *, 16> ArgMapping(Info.Args.size(), nullptr);
  llvm::SmallVector<void *, 16> ArgHost(Info.Args.size(), nullptr);
  std::unique_lock<std::mutex> TL(Table.mutex());
  for (const ArgInfo &A : Info.Args) {
    const void *Value = Args[A.Position].value;
    switch (A.ArgKind) {
    case ArgInfo::Kind::Scalar:
      for (unsigned D = 0; D < N; ++D)
        std::memcpy(&Cells[D][2 * A.Param], Value, A.Size);
      break;
    case ArgInfo::Kind::Aggregate:
      if (!Aggregates)
        Aggregates = std::make_shared<std::vector<std::vector<char>>>(NParams);
      (*Aggregates)[A.Param].assign(static_cast<const char *>(Value),
                                    static_cast<const char *>(Value) + A.Size);
      break;
    case ArgInfo::Kind::Pointer: {
      void *Host;
      std::memcpy(&Host, Value, sizeof Host);
      ArgHost[A.Position] = Host;
      if (!Host || A.Deviceptr) {
        for (unsigned D = 0; D < N; ++D)
          std::memcpy(&Cells[D][2 * A.Param], &Host, sizeof Host);
        break;
      }
      PresentTable::Lookup F = Table.lookup(Host, 1);
      if (F.State != PresentTable::Presence::Contained)
        return makeError(ErrorCode::NotPresent,
                         "jacc_kernel_push: argument " + llvm::Twine(A.Position + 1) + " ('" +
                             A.Decl + "') = 0x" +
                             llvm::utohexstr(reinterpret_cast<uintptr_t>(Host), true) +
                             " does not point into mapped data; map the array first with "
                             "jacc_copyin or jacc_create (or pass it in a deviceptr clause)");
      for (unsigned D = 0; D < N; ++D) {
        void *Dev = F.M->translate(Host, D);
        std::memcpy(&Cells[D][2 * A.Param], &Dev, sizeof Dev);
      }
      ArgMapping[A.Position] = F.M;
      Used.push_back(F.M);
      break;
    }
    }
  }

  // Split targets: each written array's mapping, unless another pointer argument into the same
  // mapping is read (aliasing: that array is then computed whole by every device).
  std::vector<SplitTarget> Targets;
  bool Narrow = NarrowPolicy && Info.Split.Plan.Narrowable;
  if (UseSplit) {
    for (size_t I = 0; I < SplitArrays.size(); ++I) {
      unsigned Arg = SplitArrays[I].Arg;
      SplitTarget T;
      T.Info = I;
      T.Pointer = reinterpret_cast<uintptr_t>(ArgHost[Arg]);
      Mapping *M = ArgMapping[Arg];
      T.Split = M != nullptr;
      for (unsigned Other = 0; Other < Info.Args.size() && T.Split; ++Other)
        if (Other != Arg && ArgMapping[Other] == M && Info.Split.Plan.ReadArgs.count(Other)) {
          T.Split = false;
          debugLog("launch", "'" + Info.Args[Arg].Name + "' and '" + Info.Args[Other].Name +
                                 "' reach one array, one written and one read: not split");
        }
      long long MLo = 1, MHi = 0; // the "not split" sentinel
      if (T.Split) {
        T.Begin = M->Begin;
        T.End = M->End;
        T.DevicePtrs = M->DevicePtrs;
        MLo = static_cast<long long>(M->Begin - T.Pointer);
        MHi = static_cast<long long>(M->End - T.Pointer);
      } else {
        Narrow = false; // a whole array needs every iteration on every device
      }
      for (unsigned D = 0; D < N; ++D) {
        std::memcpy(&Cells[D][2 * (NParams + 2 * I)], &MLo, sizeof MLo);
        std::memcpy(&Cells[D][2 * (NParams + 2 * I + 1)], &MHi, sizeof MHi);
      }
      Targets.push_back(std::move(T));
    }
    // Several written pointers into one mapping must own the same bytes on each device: only
    // when they cut it alike (rows of one size, pointers a whole number of rows apart). Otherwise
    // every device computes that array whole.
    for (size_t I = 0; I < Targets.size(); ++I) {
      const ArgInfo &AI = Info.Args[SplitArrays[I].Arg];
      for (size_t J = I + 1; J < Targets.size(); ++J) {
        if (!Targets[I].Split || !Targets[J].Split || Targets[I].Begin != Targets[J].Begin)
          continue;
        const ArgInfo &AJ = Info.Args[SplitArrays[J].Arg];
        uint64_t Delta = Targets[I].Pointer > Targets[J].Pointer
                             ? Targets[I].Pointer - Targets[J].Pointer
                             : Targets[J].Pointer - Targets[I].Pointer;
        bool Alike = SplitArrays[I].Dim == 0 && SplitArrays[J].Dim == 0 && AI.PointeeKnown &&
                     AJ.PointeeKnown && AI.PointeeSize == AJ.PointeeSize &&
                     Delta % AI.PointeeSize == 0;
        if (Alike)
          continue;
        debugLog("launch", "'" + AI.Name + "' and '" + AJ.Name +
                               "' write one array cut differently: not split");
        for (size_t K = 0; K < Targets.size(); ++K)
          if (Targets[K].Begin == Targets[I].Begin) {
            Targets[K].Split = false;
            long long MLo = 1, MHi = 0;
            for (unsigned D = 0; D < N; ++D) {
              std::memcpy(&Cells[D][2 * (NParams + 2 * K)], &MLo, sizeof MLo);
              std::memcpy(&Cells[D][2 * (NParams + 2 * K + 1)], &MHi, sizeof MHi);
            }
          }
        Narrow = false;
      }
    }
  }

  // Reductions: initial values now; the result combines them once with the partial results of
  // device 0 (duplicate: every device computed everything) or of every device (split: shares).
  std::vector<uint64_t> Initial(Info.Reductions.size());
  std::vector<void *> Results(Info.Reductions.size());
  for (const analysis::ReductionVar &R : Info.Reductions) {
    Results[R.Slot] = Args[Info.Args[R.Arg].Position].value;
    std::memcpy(&Initial[R.Slot], Results[R.Slot], Info.Args[R.Arg].Size);
  }
  auto Combine = [K, Initial, Results](const std::vector<const KernelLaunch *> &Parts) {
    for (const analysis::ReductionVar &R : K->Info.Reductions) {
      uint64_t Acc = Initial[R.Slot];
      for (const KernelLaunch *L : Parts)
        for (unsigned T = 0; T < L->partials(); ++T)
          combineReduction(R.Op, R.Type, &Acc, L->reductionSlot(T, R.Slot));
      std::memcpy(Results[R.Slot], &Acc, K->Info.Args[R.Arg].Size);
    }
  };

  llvm::SmallVector<std::shared_ptr<KernelLaunch>, 4> Launches;
  for (unsigned D = 0; D < N; ++D) {
    if (Devices[D]->kind() == DeviceKind::Cuda) {
      Launches.push_back(std::make_shared<CudaKernelLaunch>(K, std::move(Cells[D]), Aggregates));
      continue;
    }
    auto H = std::make_shared<HostKernelLaunch>(K, std::move(Cells[D]), Aggregates,
                                                Devices[D]->computeUnits());
    if (UseSplit)
      H->useSplitEntry(*SplitCode);
    Launches.push_back(std::move(H));
  }
  std::shared_ptr<SplitGroup> Group;
  if (UseSplit) {
    std::vector<Device *> Devs;
    for (auto &D : Devices)
      Devs.push_back(D.get());
    Group = std::make_shared<SplitGroup>(std::move(Devs), std::move(Targets));
    if (!Info.Reductions.empty())
      Group->OnAllComputed = Combine;
    for (unsigned D = 0; D < N; ++D)
      Launches[D]->setSplit(D, N, Narrow, Group);
    stats().SplitLaunches.fetch_add(1, std::memory_order_relaxed);
  } else {
    if (!Info.Reductions.empty())
      Launches[0]->OnFinished = [Combine](const KernelLaunch &Done) {
        Combine({&Done});
      };
    stats().DuplicateLaunches.fetch_add(1, std::memory_order_relaxed);
  }

  llvm::SmallVector<uint64_t, 4> Tickets(N, 0);
  if (Async || Group) {
    // The devices of a split launch meet for the exchange, so every device must run split
    // launches in one order: their tickets are all taken under the table lock (device 0's too),
    // or two threads pushing at once could queue them in opposite orders and deadlock.
    for (unsigned D = 0; D < N; ++D) {
      auto Ticket = Devices[D]->launch(Launches[D], /*Async=*/true);
      if (!Ticket)
        return Ticket.takeError();
      Tickets[D] = *Ticket;
      for (Mapping *M : Used)
        M->LastUse[D] = std::max(M->LastUse[D], *Ticket);
    }
    if (Async)
      return llvm::Error::success();
    TL.unlock();
    if (auto E = Devices[0]->waitFor(Tickets[0]))
      return E;
  } else {
    TL.unlock();
    // Other devices run on their own threads while this thread runs device 0's part.
    for (unsigned D = 1; D < N; ++D) {
      auto Ticket = Devices[D]->launch(Launches[D], /*Async=*/true);
      if (!Ticket)
        return Ticket.takeError();
      Tickets[D] = *Ticket;
    }
    auto T0 = Devices[0]->launch(Launches[0], /*Async=*/false);
    if (!T0)
      return T0.takeError();
  }
  for (unsigned D = 1; D < N; ++D)
    if (auto E = Devices[D]->waitFor(Tickets[D]))
      return E;
  if (Group)
    if (auto E = Group->takeError())
      return E;
  if (Measure)
    Adaptive.record(K.get(), UseSplit,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count());
  return llvm::Error::success();
}

} // namespace jacc
