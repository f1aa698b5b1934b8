#include "src/Runtime.h"

#include "jit/cuda/BlockGeometry.h"
#include "src/DeviceConfig.h"
#include "src/cuda/CudaDevice.h"
#include "src/cuda/CudaKernelLaunch.h"
#include "src/host/HostDevice.h"
#include "src/launch/KernelLaunch.h"
#include "src/launch/Reduction.h"
#include "src/launch/SplitGroup.h"
#include "support/Debug.h"
#include "support/Error.h"
#include "support/Stats.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

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
  auto Spec = jit::specializeSettingsFromEnv();
  if (!Spec)
    return Spec.takeError();
  if (auto Block = jit::blockSizeOverrideFromEnv(); !Block)
    return Block.takeError();
  Specialize = std::move(*Spec);
  for (const auto &D : Created)
    if (D->kind() == DeviceKind::Cuda) {
      unsigned Sm = static_cast<CudaDevice &>(*D).smVersion();
      if (!llvm::is_contained(Specialize.CudaArchs, Sm))
        Specialize.CudaArchs.push_back(Sm);
    }
  Specialize.OnReady = [](const jit::VariantCode &) {
    stats().VariantsCompiled.fetch_add(1, std::memory_order_relaxed);
  };
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
  Result = llvm::joinErrors(std::move(Result), releaseUserMemoryLocked()); // OpenACC memory
  for (Mapping *M : Table.all()) {
    for (unsigned D = 0; D < Devices.size(); ++D)
      if (auto E = Devices[D]->release(M->DevicePtrs[D]))
        Result = llvm::joinErrors(std::move(Result), std::move(E));
    Table.erase(M->Begin);
  }
  Devices.clear();
  Initialized = false;
  Compiler.drain(); // variants being compiled: their hits are counted, their code is kept
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
  // A variant with this push's scalar values folded in, once compiled (JACC_SPECIALIZE).
  const jit::VariantCode *Variant = nullptr;
  if (Specialize.Policy.Policy != jit::Specializer::Mode::Off) {
    llvm::SmallVector<const void *, 16> Values(NArgs);
    for (int I = 0; I < NArgs; ++I)
      Values[I] = Args[I].value;
    auto V = K->Variants.choose(K, Values, Specialize, Compiler);
    if (!V)
      return V.takeError();
    Variant = *V;
    if (Variant)
      stats().SpecializedLaunches.fetch_add(1, std::memory_order_relaxed);
  }
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
  // deviceptr memory is one device's: the device every such argument lives on, and the mappings
  // whose copy there they point into (written through them, stale elsewhere afterwards).
  std::optional<unsigned> Owner;
  const ArgInfo *OwnerArg = nullptr;
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
        if (!Host || N == 1)
          break;
        Mapping *In = nullptr;
        // Memory jacc does not know (the program's own) is reachable from the host devices:
        // device 0 runs the kernel then.
        unsigned Dev = deviceOwning(Host, &In).value_or(0);
        if (Owner && *Owner != Dev)
          return makeError(ErrorCode::InvalidArgument,
                           "jacc_kernel_push: deviceptr arguments '" + OwnerArg->Name +
                               "' and '" + A.Name + "' are memory of devices " +
                               llvm::Twine(*Owner) + " and " + llvm::Twine(Dev) +
                               ": a kernel given device memory runs on that device alone; pass "
                               "memory of one device (acc_malloc / acc_deviceptr after one "
                               "acc_set_device_num)");
        Owner = Dev;
        OwnerArg = &A;
        if (In)
          Used.push_back(In);
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

  if (Owner) {
    debugLog("launch", "deviceptr '" + OwnerArg->Name + "' is memory of device " +
                           llvm::Twine(*Owner) + ": the kernel runs there alone");
    std::function<void(const KernelLaunch &)> OnFinished;
    if (!Info.Reductions.empty())
      OnFinished = [Combine](const KernelLaunch &Done) { Combine({&Done}); };
    return launchOnOwner(K, *Owner, std::move(Cells[*Owner]), Aggregates, Used,
                         std::move(OnFinished), Variant);
  }

  llvm::SmallVector<std::shared_ptr<KernelLaunch>, 4> Launches;
  for (unsigned D = 0; D < N; ++D)
    Launches.push_back(makeLaunch(K, D, std::move(Cells[D]), Aggregates,
                                  UseSplit ? SplitCode : nullptr, Variant));
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

std::shared_ptr<KernelLaunch>
Runtime::makeLaunch(std::shared_ptr<const jit::CompiledKernel> K, unsigned D, ArgCells Cells,
                    std::shared_ptr<std::vector<std::vector<char>>> Aggregates,
                    const jit::SplitCode *Split, const jit::VariantCode *Variant) {
  if (Devices[D]->kind() == DeviceKind::Cuda) {
    auto C = std::make_shared<CudaKernelLaunch>(std::move(K), std::move(Cells),
                                                std::move(Aggregates));
    if (Variant)
      C->useVariant(*Variant);
    return C;
  }
  auto H = std::make_shared<HostKernelLaunch>(std::move(K), std::move(Cells),
                                              std::move(Aggregates), Devices[D]->computeUnits());
  if (Split)
    H->useSplitEntry(*Split);
  if (Variant)
    H->useVariant(*Variant);
  return H;
}

llvm::Error Runtime::launchOnOwner(std::shared_ptr<const jit::CompiledKernel> K, unsigned O,
                                   ArgCells Cells,
                                   std::shared_ptr<std::vector<std::vector<char>>> Aggregates,
                                   llvm::ArrayRef<Mapping *> Written,
                                   std::function<void(const KernelLaunch &)> OnFinished,
                                   const jit::VariantCode *Variant) {
  std::shared_ptr<KernelLaunch> Launch =
      makeLaunch(K, O, std::move(Cells), std::move(Aggregates), nullptr, Variant);
  Launch->OnFinished = std::move(OnFinished);
  stats().DuplicateLaunches.fetch_add(1, std::memory_order_relaxed);
  // Synchronous even when asynchronous was asked: the copies below need the kernel's results.
  auto Ticket = Devices[O]->launch(Launch, /*Async=*/true);
  if (!Ticket)
    return Ticket.takeError();
  for (Mapping *M : Written)
    M->LastUse[O] = std::max(M->LastUse[O], *Ticket);
  if (auto E = Devices[O]->waitFor(*Ticket))
    return E;
  // Every copy was equal before the kernel: device O's is the new value of each.
  llvm::SmallVector<Mapping *, 8> Copies(Written.begin(), Written.end());
  llvm::sort(Copies);
  Copies.erase(std::unique(Copies.begin(), Copies.end()), Copies.end());
  for (Mapping *M : Copies) {
    if (auto E = waitForUses(*M))
      return E;
    for (unsigned D = 0; D < Devices.size(); ++D)
      if (D != O)
        if (auto E = Devices[O]->copyToPeer(*Devices[D], M->DevicePtrs[D], M->DevicePtrs[O],
                                            M->bytes()))
          return E;
  }
  return llvm::Error::success();
}

// --- The OpenACC runtime API (src/OpenACC.cpp is the C layer over these) ---

/// E with "Api: " in front of its message (errors of the device layer name the device only).
static llvm::Error withApi(const char *Api, llvm::Error E) {
  if (!E)
    return E;
  std::string Message;
  ErrorCode Code = takeError(std::move(E), Message);
  return makeError(Code, llvm::Twine(Api) + ": " + Message);
}

static std::string hexAddress(const void *P) {
  return "0x" + llvm::utohexstr(reinterpret_cast<uintptr_t>(P), /*LowerCase=*/true);
}

llvm::Error Runtime::checkDevice(unsigned Device, const char *Api) const {
  if (Device < Devices.size())
    return llvm::Error::success();
  return makeError(ErrorCode::InvalidArgument,
                   llvm::Twine(Api) + ": device " + llvm::Twine(Device) +
                       " does not exist: jacc has " + llvm::Twine(Devices.size()) +
                       " device(s) (JACC_DEVICES); select one with acc_set_device_num");
}

bool Runtime::knownDeviceRange(const void *P, size_t Bytes, unsigned Device) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  if (Bytes > UINTPTR_MAX - A)
    return false;
  uintptr_t E = A + Bytes;
  auto It = UserAllocations.upper_bound(A);
  if (It != UserAllocations.begin()) {
    --It;
    if (It->second.Device == Device && E <= It->first + It->second.Bytes)
      return true;
  }
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (A >= B && E <= B + M->bytes())
      return true;
  }
  return false;
}

std::optional<unsigned> Runtime::deviceOwning(const void *P, Mapping **Owner) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  *Owner = nullptr;
  // Mappings first: an acc_map_data mapping's copy on its device is an acc_malloc block too.
  for (Mapping *M : Table.all())
    for (unsigned D = 0; D < Devices.size(); ++D) {
      uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[D]);
      if (A >= B && A < B + M->bytes()) {
        *Owner = M;
        return D;
      }
    }
  auto It = UserAllocations.upper_bound(A);
  if (It != UserAllocations.begin()) {
    --It;
    if (A < It->first + It->second.Bytes)
      return It->second.Device;
  }
  return std::nullopt;
}

llvm::Error Runtime::releaseUserMemoryLocked() {
  for (Mapping *M : Table.all())
    if (M->UserDevice >= 0)
      M->DevicePtrs[M->UserDevice] = nullptr; // the program's memory: released below if acc_malloc'ed
  llvm::Error Result = llvm::Error::success();
  for (const auto &[Address, A] : UserAllocations)
    if (A.Device < Devices.size())
      if (auto E = Devices[A.Device]->release(reinterpret_cast<void *>(Address)))
        Result = llvm::joinErrors(std::move(Result), std::move(E));
  UserAllocations.clear();
  return Result;
}

llvm::Expected<std::vector<DeviceKind>> Runtime::deviceKinds() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::vector<DeviceKind> Kinds;
  for (auto &D : Devices)
    Kinds.push_back(D->kind());
  return Kinds;
}

llvm::Expected<Runtime::DeviceInfo> Runtime::deviceInfo(unsigned Index, const char *Api) {
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Index, Api))
    return E;
  Device &D = *Devices[Index];
  DeviceInfo I;
  I.Kind = D.kind();
  if (D.kind() == DeviceKind::Cuda) {
    auto &C = static_cast<CudaDevice &>(D);
    I.Name = C.model();
    I.Vendor = "NVIDIA";
    I.Driver = "jacc " JACC_VERSION " (CUDA Driver API)";
    I.TotalMemory = C.totalMemory(); // free memory: unknown (0)
    return I;
  }
  // A host device's memory is the machine's: every host device reports all of it.
  I.Name = D.name();
  I.Vendor = "jacc";
  I.Driver = "jacc " JACC_VERSION;
  long PageSize = sysconf(_SC_PAGESIZE), Pages = sysconf(_SC_PHYS_PAGES),
       Available = sysconf(_SC_AVPHYS_PAGES);
  if (PageSize > 0 && Pages > 0)
    I.TotalMemory = static_cast<size_t>(Pages) * static_cast<size_t>(PageSize);
  if (PageSize > 0 && Available > 0)
    I.FreeMemory = static_cast<size_t>(Available) * static_cast<size_t>(PageSize);
  return I;
}

llvm::Error Runtime::exitDataOpenACC(void *P, size_t Bytes, bool CopyBack, bool Finalize,
                                     const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Absent)
    return llvm::Error::success(); // OpenACC: an exit of absent data does nothing
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  Mapping &M = *F.M;
  if (M.DynamicRefs == 0)
    return llvm::Error::success(); // only a data region holds it: nothing to undo
  uint64_t Left = Finalize ? 0 : M.DynamicRefs - 1;
  if (Left == 0 && M.UserDevice >= 0)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                         " was mapped by acc_map_data: its dynamic reference count cannot reach "
                         "zero; end the mapping with acc_unmap_data");
  if (Left > 0 || M.StructuredRefs > 0) {
    M.DynamicRefs = Left;
    return llvm::Error::success();
  }
  if (auto E = waitForUses(M))
    return E;
  if (CopyBack)
    if (auto E = Devices[0]->copyToHost(P, M.translate(P, 0), Bytes))
      return E; // the count is unchanged: the data stays mapped
  llvm::Error Result = llvm::Error::success();
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (auto E = Devices[D]->release(M.DevicePtrs[D]))
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(M) + " unmapped");
  Table.erase(M.Begin);
  return Result;
}

llvm::Expected<void *> Runtime::devicePtr(const void *P, unsigned Device, const char *Api) {
  if (!P)
    return nullptr;
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Device, Api))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, 1);
  if (F.State != PresentTable::Presence::Contained)
    return nullptr;
  return F.M->translate(P, Device);
}

llvm::Expected<void *> Runtime::hostPtr(const void *DevicePtr, unsigned Device, const char *Api) {
  if (!DevicePtr)
    return nullptr;
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Device, Api))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  uintptr_t A = reinterpret_cast<uintptr_t>(DevicePtr);
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (A >= B && A - B < M->bytes())
      return reinterpret_cast<void *>(M->Begin + (A - B));
  }
  return nullptr;
}

llvm::Expected<void *> Runtime::allocateUser(unsigned Device, size_t Bytes, const char *Api) {
  if (!Bytes)
    return nullptr;
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Device, Api))
    return E;
  auto Ptr = Devices[Device]->allocate(Bytes);
  if (!Ptr)
    return withApi(Api, Ptr.takeError());
  std::lock_guard<std::mutex> TL(Table.mutex());
  UserAllocations[reinterpret_cast<uintptr_t>(*Ptr)] = {Device, Bytes};
  debugLog("data", llvm::Twine(Api) + " " + llvm::Twine(Bytes) + " bytes on " +
                       Devices[Device]->name() + " -> " + hexAddress(*Ptr));
  return *Ptr;
}

llvm::Error Runtime::releaseUser(void *DevicePtr, const char *Api) {
  if (!DevicePtr)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  auto It = UserAllocations.find(reinterpret_cast<uintptr_t>(DevicePtr));
  if (It == UserAllocations.end())
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + hexAddress(DevicePtr) +
                         " was not returned by acc_malloc (or was freed already)");
  UserAllocation A = It->second;
  uintptr_t B = It->first;
  for (Mapping *M : Table.all()) {
    if (M->UserDevice != static_cast<int>(A.Device))
      continue;
    uintptr_t U = reinterpret_cast<uintptr_t>(M->DevicePtrs[A.Device]);
    if (U >= B && U - B < A.Bytes)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": " + hexAddress(DevicePtr) +
                           " still holds the host data " + PresentTable::describe(*M) +
                           " mapped by acc_map_data; call acc_unmap_data first");
  }
  // A queued kernel may still use it (deviceptr clause): free it after the device's work.
  if (auto E = Devices[A.Device]->synchronize())
    return E;
  if (auto E = Devices[A.Device]->release(DevicePtr))
    return withApi(Api, std::move(E));
  UserAllocations.erase(It);
  return llvm::Error::success();
}

llvm::Error Runtime::mapUserData(void *P, void *DevicePtr, size_t Bytes, unsigned Device,
                                 const char *Api) {
  if (!P || !DevicePtr)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the " + (P ? "device" : "host") + " address is NULL");
  if (!Bytes)
    return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": bytes is 0");
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Device, Api))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State != PresentTable::Presence::Absent)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                         " is already present (mapped as " + PresentTable::describe(*F.M) +
                         "); acc_map_data needs host memory that is not mapped");
  uintptr_t A = reinterpret_cast<uintptr_t>(DevicePtr);
  if (Bytes > UINTPTR_MAX - A)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the device range " + hexAddress(DevicePtr) + " +" +
                         llvm::Twine(Bytes) + " wraps around the address space");
  auto It = UserAllocations.upper_bound(A);
  if (It != UserAllocations.begin() && A - std::prev(It)->first < std::prev(It)->second.Bytes) {
    const auto &[Begin, Block] = *std::prev(It);
    if (Block.Device != Device)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": " + hexAddress(DevicePtr) + " was allocated on " +
                           Devices[Block.Device]->name() + ", not on the current device " +
                           Devices[Device]->name());
    if (A + Bytes > Begin + Block.Bytes)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": " + llvm::Twine(Bytes) + " bytes at " +
                           hexAddress(DevicePtr) + " run past the end of its acc_malloc block (" +
                           llvm::Twine(Block.Bytes) + " bytes at " +
                           hexAddress(reinterpret_cast<void *>(Begin)) + ")");
  }
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (A < B + M->bytes() && B < A + Bytes)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": device memory " + hexAddress(DevicePtr) + " +" +
                           llvm::Twine(Bytes) + " overlaps the copy of the mapped host data " +
                           PresentTable::describe(*M) + " on " + Devices[Device]->name());
  }
  // The program may have filled the memory with a kernel still queued (deviceptr clause).
  if (auto E = Devices[Device]->synchronize())
    return E;
  Mapping M;
  M.Begin = reinterpret_cast<uintptr_t>(P);
  M.End = M.Begin + Bytes;
  M.DynamicRefs = 1;
  M.StructuredRefs = 1; // the pin: no exit frees it (see Mapping::UserDevice)
  M.UserDevice = static_cast<int>(Device);
  M.LastUse.assign(Devices.size(), 0);
  auto Cleanup = [&] {
    for (unsigned I = 0; I < M.DevicePtrs.size(); ++I)
      if (I != Device)
        llvm::consumeError(Devices[I]->release(M.DevicePtrs[I]));
  };
  // Every other device gets its own copy of the program's device data, as after acc_copyin.
  for (unsigned D = 0; D < Devices.size(); ++D) {
    if (D == Device) {
      M.DevicePtrs.push_back(DevicePtr);
      continue;
    }
    auto Ptr = Devices[D]->allocate(Bytes);
    if (!Ptr) {
      Cleanup();
      return withApi(Api, Ptr.takeError());
    }
    M.DevicePtrs.push_back(*Ptr);
  }
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (D != Device)
      if (auto E = Devices[Device]->copyToPeer(*Devices[D], M.DevicePtrs[D], DevicePtr, Bytes)) {
        Cleanup();
        return withApi(Api, std::move(E));
      }
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(P, Bytes) + " mapped to " +
                       hexAddress(DevicePtr) + " on " + Devices[Device]->name());
  Table.insert(std::move(M));
  return llvm::Error::success();
}

llvm::Error Runtime::unmapUserData(void *P, const char *Api) {
  if (!P)
    return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": the host address is NULL");
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, 1);
  if (F.State == PresentTable::Presence::Absent)
    return notPresentError(Api, P, 1, "acc_unmap_data takes the host address given to acc_map_data");
  Mapping &M = *F.M;
  if (M.UserDevice < 0)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(M) +
                         " was not mapped by acc_map_data; acc_copyout or acc_delete unmap it");
  if (M.Begin != reinterpret_cast<uintptr_t>(P))
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + hexAddress(P) + " lies inside the mapping " +
                         PresentTable::describe(M) + "; pass the address given to acc_map_data");
  if (M.StructuredRefs > 1)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(M) +
                         " is still used by a data region");
  if (auto E = waitForUses(M))
    return E;
  llvm::Error Result = llvm::Error::success();
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (static_cast<int>(D) != M.UserDevice)
      if (auto E = Devices[D]->release(M.DevicePtrs[D]))
        Result = llvm::joinErrors(std::move(Result), std::move(E));
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(M) + " unmapped");
  Table.erase(M.Begin);
  return Result;
}

llvm::Error Runtime::memcpyDevice(MemcpyKind Kind, void *Dst, const void *Src, size_t Bytes,
                                  unsigned Device, const char *Api) {
  if (!Bytes)
    return llvm::Error::success();
  if (!Dst || !Src)
    return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": the " +
                                                     (Dst ? "source" : "destination") +
                                                     " is NULL");
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Device, Api))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  auto Check = [&](const void *P, const char *Role) -> llvm::Error {
    if (knownDeviceRange(P, Bytes, Device))
      return llvm::Error::success();
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the " + Role + " " + hexAddress(P) + " +" +
                         llvm::Twine(Bytes) + " is not memory of the current device " +
                         Devices[Device]->name() +
                         " (neither from acc_malloc nor a mapped copy, see acc_deviceptr)");
  };
  if (Kind != MemcpyKind::HostToDevice)
    if (auto E = Check(Src, "source"))
      return E;
  if (Kind != MemcpyKind::DeviceToHost)
    if (auto E = Check(Dst, "destination"))
      return E;
  uintptr_t D = reinterpret_cast<uintptr_t>(Dst), S = reinterpret_cast<uintptr_t>(Src);
  if (Kind == MemcpyKind::DeviceToDevice && D < S + Bytes && S < D + Bytes)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the source and destination ranges overlap");
  // The copy is synchronous: after the device's queued kernels, which may use the memory.
  jacc::Device &Dev = *Devices[Device];
  if (auto E = Dev.synchronize())
    return E;
  llvm::Error E = Kind == MemcpyKind::HostToDevice   ? Dev.copyToDevice(Dst, Src, Bytes)
                  : Kind == MemcpyKind::DeviceToHost ? Dev.copyToHost(Dst, Src, Bytes)
                                                     : Dev.copyToPeer(Dev, Dst, Src, Bytes);
  return withApi(Api, std::move(E));
}

llvm::Error Runtime::memcpyBetweenDevices(void *DstP, const void *SrcP, size_t Bytes,
                                          unsigned DstDevice, unsigned SrcDevice,
                                          const char *Api) {
  if (!Bytes)
    return llvm::Error::success();
  if (!DstP || !SrcP)
    return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": the " +
                                                     (DstP ? "source" : "destination") +
                                                     " is NULL");
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(DstDevice, Api))
    return E;
  if (auto E = checkDevice(SrcDevice, Api))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup FD = Table.lookup(DstP, Bytes), FS = Table.lookup(SrcP, Bytes);
  for (auto [F, P] : {std::pair{FD, static_cast<const void *>(DstP)}, std::pair{FS, SrcP}}) {
    if (F.State == PresentTable::Presence::Absent)
      return notPresentError(Api, P, Bytes, "map it first with acc_copyin or acc_create");
    if (F.State == PresentTable::Presence::Partial)
      return partialError(Api, P, Bytes, *F.M);
  }
  void *To = FD.M->translate(DstP, DstDevice);
  const void *From = FS.M->translate(SrcP, SrcDevice);
  if (To == From)
    return llvm::Error::success();
  uintptr_t T = reinterpret_cast<uintptr_t>(To), S = reinterpret_cast<uintptr_t>(From);
  if (DstDevice == SrcDevice && T < S + Bytes && S < T + Bytes)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the source and destination ranges overlap");
  if (auto E = waitForUses(*FD.M))
    return E;
  if (auto E = waitForUses(*FS.M))
    return E;
  return withApi(Api, Devices[SrcDevice]->copyToPeer(*Devices[DstDevice], To, From, Bytes));
}

llvm::Expected<bool> Runtime::idle() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  for (auto &D : Devices)
    if (!D->idle())
      return false;
  return true;
}

} // namespace jacc
