// jacc_kernel_push: a short list of steps, each a call (as analysis/Pipeline.cpp reads):
// check the arguments, compile (or find) the kernel, decide how it runs
// (src/launch/LaunchDecision), which form of it a split launch runs (src/launch/SplitTwins),
// choose its variant, prepare every device's code, bind the arguments to the devices, launch,
// and tell the choosers what it took.
#include "src/Runtime.h"

#include "analysis/KernelSource.h"
#include "jit/cache/KernelSummary.h"
#include "src/profile/KernelNames.h"
#include "support/Debug.h"
#include "support/Stats.h"

#include <algorithm>
#include <llvm/ADT/Hashing.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>

#include <chrono>

namespace jacc {

namespace {

/// The push's own arguments, before the runtime is touched.
llvm::Error checkPushArguments(const char *Source, int NArgs, const jacc_arg *Args,
                               unsigned Flags) {
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
  for (int I = 0; I < NArgs; ++I)
    if (!Args[I].decl || !Args[I].value)
      return makeError(ErrorCode::InvalidArgument,
                       "jacc_kernel_push: args[" + llvm::Twine(I) + "] has a NULL " +
                           (Args[I].decl ? "value" : "decl"));
  return llvm::Error::success();
}

/// "#pragma jacc location of the kernel at heat.c:42": where a kernel's own pragma failed.
std::string pragmaWhere(llvm::StringRef Pragma, const analysis::KernelInfo &Info) {
  const std::string &Site = Info.Name.Site;
  return ("#pragma jacc " + Pragma + " of the kernel" + (Site.empty() ? "" : " at " + Site)).str();
}

/// A push of Info with native implementations (C) on some devices: their parts are shares of the
/// kernel's one parallel loop, computed by the probe from scalar arguments.
llvm::Error checkNative(const analysis::KernelInfo &Info, unsigned Flags, const NativeChoice &C) {
  std::string What = "jacc_kernel_push: " + Info.Name.described() +
                     " has a native implementation for " + nativeKinds(C);
  std::string Remove = "remove the implementation (jacc_kernel_native with a NULL function)";
  if (Flags & JACC_FORCE_DUPLICATE)
    return makeError(ErrorCode::InvalidArgument,
                     What + ", which computes a device's share of the loop, but "
                            "JACC_FORCE_DUPLICATE asks every device to run the whole kernel: "
                            "push it without the flag, or " + Remove);
  if (!Info.Split.Enabled)
    return makeError(ErrorCode::Unsupported,
                     What + ", but the kernel cannot be split (" + Info.Split.Fallback +
                         "): a native implementation computes its device's share of the "
                         "kernel's one parallel loop; give the kernel that shape, or " + Remove);
  if (!Info.Split.ProbeExact)
    return makeError(ErrorCode::Unsupported,
                     What + ", but its loop bounds or array offsets read a pointer or struct "
                            "argument, while a device's share is computed from scalar arguments "
                            "only: pass those values as scalar arguments, or " + Remove);
  return llvm::Error::success();
}

/// Launches of one kernel at different sizes told apart: its integer scalar arguments hashed.
uint64_t launchShape(const analysis::KernelInfo &Info, const jacc_arg *Args) {
  uint64_t Shape = 0;
  for (const analysis::ArgInfo &A : Info.Args)
    if (A.ArgKind == analysis::ArgInfo::Kind::Scalar && analysis::isIntegral(A.Scalar) &&
        A.Size <= 8)
      Shape = llvm::hash_combine(
          Shape, llvm::StringRef(static_cast<const char *>(Args[A.Position].value), A.Size));
  return Shape;
}

/// A push's time from its start, when something learns from it (On).
struct PushClock {
  explicit PushClock(bool On) : On(On) {
    if (On)
      Start = std::chrono::steady_clock::now();
  }
  double seconds() const {
    return On ? std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count() : 0;
  }
  bool On;
  std::chrono::steady_clock::time_point Start;
};

} // namespace

llvm::Error Runtime::push(const char *Source, int NArgs, const jacc_arg *Args, unsigned Flags) {
  if (auto E = checkPushArguments(Source, NArgs, Args, Flags))
    return E;
  auto Hold = acquire();
  if (!Hold)
    return Hold.takeError();
  // Observed once the runtime (and so its listeners) started.
  prof::ImplicitConstruct Construct(prof::Construct::Parallel, "jacc_kernel_push");
  PushObservation Observed = PushObservation::startNow();
  stats().KernelsPushed.fetch_add(1, std::memory_order_relaxed);
  auto K = compile(Source, NArgs, Args, Observed);
  if (!K)
    return K.takeError();
  const analysis::KernelInfo &Info = (*K)->Info;
  // Native implementations of this kernel for some devices' kinds: the kernel runs split.
  NativeChoice Native = Natives.choose(Source, DeviceTypes);
  if (auto E = Native.empty() ? llvm::Error::success() : checkNative(Info, Flags, Native))
    return E;
  if (!Native.empty())
    Flags |= JACC_FORCE_SPLIT;
  bool Async = (Flags & JACC_ASYNC) || Info.Async;
  auto Request = launchRequest(**K, Flags, Async);
  if (!Request)
    return Request.takeError();
  if (Request->NDevices > 1) // only the program regime, placing pushes on several devices, asks
    Request->Shape = launchShape(Info, Args);
  auto Decision =
      Chooser.decide(*Request, [this](const Distribution *D) { return sharesOf(D); });
  if (!Decision)
    return Decision.takeError();
  // A split launch may run the kernel's twin (its loops swapped: src/launch/SplitTwins.h).
  auto Launched = formOf(*K, *Decision, Native, NArgs, Args, Observed);
  if (!Launched)
    return Launched.takeError();
  // A synchronous push can be timed: a new variant's trial against the generic code may use it.
  jit::TrialLaunch Trial;
  auto Variant = specialize(*Launched, NArgs, Args, Async ? nullptr : &Trial);
  if (!Variant)
    return Variant.takeError();
  LaunchCode Code{Decision->split(), *Variant};
  if (auto E = prepareCode(**Launched, Code, Native))
    return E;
  if (Info.Wait)
    if (auto E = wait())
      return E;
  PushClock Clock(Decision->timed() || Trial.Variant >= 0);
  // The devices it targets, which must hold a copy of its data (data at a location).
  auto Targets = targetDevices(Info.Location);
  if (!Targets)
    return prefixError(pragmaWhere("location", Info), Targets.takeError());
  auto TableLock = Data.lock();
  auto Plan = bind(**Launched, Args, *Targets, *Decision, std::move(Native), Code, Trial);
  if (!Plan)
    return Plan.takeError();
  if (Observed.Start)
    Plan->ObservedPush = Observed.Id = prof::nextPushId();
  bool OnOwner = Plan->Owner || Decision->Mode == LaunchMode::OnOwner;
  if (Code.Split && !OnOwner)
    Twins.bound(**K, *Plan);
  if (auto E = Sched.run(*Launched, *Plan, Code, Async, std::move(TableLock)))
    return E;
  learnFrom(*Launched, *Request, *Decision, *Plan, Code, Trial, Observed, Async, Clock.seconds());
  return llvm::Error::success();
}

void Runtime::learnFrom(const std::shared_ptr<const jit::CompiledKernel> &Launched,
                        const LaunchRequest &Request, const LaunchDecision &Decision,
                        const LaunchPlan &Plan, const LaunchCode &Code, jit::TrialLaunch &Trial,
                        const PushObservation &Observed, bool Async, double Seconds) {
  bool OnOwner = Plan.Owner || Decision.Mode == LaunchMode::OnOwner;
  prof::Mode Ran = OnOwner      ? prof::Mode::OnOwner
                   : Code.Split ? prof::Mode::Split
                                : prof::Mode::Duplicate;
  if (Observed.Start)
    observePush(*Launched, Observed, Ran, Devices.size(), Code.Variant != nullptr, Async);
  Chooser.learn(Request, Decision, {Seconds, Plan.Fetched, Plan.ListedOnce, Plan.PartNanos});
  if (Trial.Variant >= 0) {
    // The code's own time: a launch that first fetched data another device wrote pays for it.
    Trial.Mode = static_cast<unsigned>(Ran);
    Launched->Variants.recordTrial(Trial, std::max(0.0, Seconds - Plan.Fetched.Seconds));
  }
}

llvm::Expected<std::shared_ptr<const jit::CompiledKernel>>
Runtime::formOf(const std::shared_ptr<const jit::CompiledKernel> &K, const LaunchDecision &Decision,
                const NativeChoice &Native, int NArgs, const jacc_arg *Args,
                PushObservation &Observed) {
  // Native implementations compute shares of the kernel as written.
  if (!TwinsOn || !Decision.split() || !Native.empty())
    return K;
  std::optional<std::string> Twin = Twins.choose(K, Args);
  if (!Twin)
    return K;
  auto Form = compile(Twin->c_str(), NArgs, Args, Observed);
  if (Form)
    return Form;
  // A twin a target cannot compile: the kernel keeps its form (it was analysed as written).
  debugLog("launch", K->Info.Name.Site + ": split as written, its twin does not compile (" +
                         llvm::toString(Form.takeError()) + ")");
  Twins.refuse(*K);
  return K;
}

llvm::Expected<LaunchRequest> Runtime::launchRequest(const jit::CompiledKernel &K, unsigned Flags,
                                                     bool Async) {
  const analysis::KernelInfo &Info = K.Info;
  LaunchRequest R;
  R.Kernel = &K;
  R.Info = &Info;
  R.Flags = Flags;
  R.NDevices = Devices.size();
  R.SharedCores = llvm::all_of(Devices, [](const auto &D) { return D->hostCores(); });
  R.Async = Async;
  auto Policy = distributionOf(Info);
  if (!Policy)
    return Policy.takeError();
  R.Policy = std::move(*Policy);
  // A location targeted (Gecko's hierarchy): its devices' shares, whatever the policy.
  auto Targeted = targetShares(R.Policy.get(), Info.Location);
  if (!Targeted)
    return prefixError(pragmaWhere("location", Info), Targeted.takeError());
  R.Targeted = std::move(*Targeted);
  if (R.Policy && R.Policy->How == Distribution::Kind::Auto && Info.Split.Enabled) {
    // JACC_POLICY=auto: the devices it balances over (the targeted location's).
    auto Members = balanceOver(Info.Location);
    if (!Members)
      return Members.takeError();
    R.Members = std::move(*Members);
  }
  return R;
}

llvm::Expected<LaunchPlan> Runtime::bind(const jit::CompiledKernel &K, const jacc_arg *Args,
                                         const TargetDevices &Targets, LaunchDecision &Decision,
                                         NativeChoice Native, LaunchCode &Code,
                                         jit::TrialLaunch &Trial) {
  const analysis::KernelInfo &Info = K.Info;
  PlanOptions Options{false, NarrowPolicy, CheckBounds, Targets.Devices, Targets.Name};
  LaunchChooser::planFor(Decision, Options);
  auto Plan = planLaunch(Info, Args, Devices.size(), Options, Data);
  if (!Plan)
    return Plan.takeError();
  Plan->Natives = std::move(Native);
  bindVariant(K, *Plan, Code, Trial);
  LaunchChooser::settle(Info, Decision, *Plan);
  return Plan;
}

llvm::Expected<std::shared_ptr<const jit::CompiledKernel>>
Runtime::compile(const char *Source, int NArgs, const jacc_arg *Args, PushObservation &Observed) {
  llvm::SmallVector<const char *, 16> Decls;
  for (int I = 0; I < NArgs; ++I)
    Decls.push_back(Args[I].decl);
  jit::KernelCache::Outcome Outcome;
  prof::Nanos Start = Observed.Start ? prof::now() : 0;
  auto K = Cache.get(Source, Decls, CheckBounds ? jit::CodeCheckBounds : 0u, Outcome);
  if (!K)
    return K.takeError();
  (Outcome == jit::KernelCache::Outcome::Hit       ? stats().MemoryCacheHits
   : Outcome == jit::KernelCache::Outcome::DiskHit ? stats().DiskCacheHits
                                                   : stats().KernelsCompiled)
      .fetch_add(1, std::memory_order_relaxed);
  if (Observed.Start) {
    Observed.Source = Outcome == jit::KernelCache::Outcome::Hit       ? prof::CacheSource::Memory
                      : Outcome == jit::KernelCache::Outcome::DiskHit ? prof::CacheSource::Disk
                                                                      : prof::CacheSource::Compiled;
    prof::Nanos End = prof::now();
    Observed.CompileSeconds = Outcome == jit::KernelCache::Outcome::Hit ? 0 : (End - Start) * 1e-9;
    // A memory cache hit is no compile: only loads and compiles are reported.
    if (Observed.Source != prof::CacheSource::Memory) {
      prof::CompileEvent E{prof::kernelNameOf(**K), Observed.Source, false, Start, End};
      prof::each([&](prof::Listener &L) { L.compile(E); });
    }
  }
  return K;
}

void Runtime::observePush(const jit::CompiledKernel &K, const PushObservation &Observed,
                          prof::Mode How, unsigned NumDevices, bool Variant, bool Async) {
  prof::PushEvent E{Observed.Id,   prof::kernelNameOf(K), How,   NumDevices,     Observed.Source,
                    Observed.CompileSeconds, Variant, Async, Observed.Start, prof::now()};
  prof::each([&](prof::Listener &L) { L.push(E); });
}

llvm::Expected<const jit::VariantCode *>
Runtime::specialize(const std::shared_ptr<const jit::CompiledKernel> &K, int NArgs,
                    const jacc_arg *Args, jit::TrialLaunch *Trial) {
  if (Specialize.Policy.Policy == jit::Specializer::Mode::Off)
    return nullptr;
  llvm::SmallVector<const void *, 16> Values(NArgs);
  for (int I = 0; I < NArgs; ++I)
    Values[I] = Args[I].value;
  return K->Variants.choose(K, Values, Specialize, Compiler, Trial);
}

void Runtime::bindVariant(const jit::CompiledKernel &K, const LaunchPlan &Plan, LaunchCode &Code,
                          jit::TrialLaunch &Trial) {
  if (K.Info.MayRestrict || K.Info.MayAlign)
    K.Variants.notePointers(Plan.Pointers);
  // A variant assuming what the binding did not prove (two pointers in one mapping, a copy off
  // its alignment), chosen before the binding: the generic code runs this push (its time is the
  // generic's in a trial).
  if (Code.Variant && !Code.Variant->Spec.Pointers.holdIn(Plan.Pointers)) {
    Code.Variant->Hits.fetch_sub(1, std::memory_order_relaxed);
    Code.Variant = nullptr;
    Trial.RunsVariant = false;
  }
  if (Code.Variant)
    stats().SpecializedLaunches.fetch_add(1, std::memory_order_relaxed);
}

llvm::Error Runtime::prepareCode(const jit::CompiledKernel &K, const LaunchCode &Code,
                                 const NativeChoice &Natives) {
  for (auto &D : Devices)
    if (auto E = D->prepareCode(K, codeOn(Code, Natives, D->index())))
      return E;
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<const Distribution>>
Runtime::distributionOf(const analysis::KernelInfo &Info) {
  if (!Info.Policy)
    return std::atomic_load(&Policy);
  auto D = parseDistribution(*Info.Policy);
  llvm::Error E = D ? checkPolicy(*D, Info.Location) : D.takeError();
  if (E)
    return prefixError(pragmaWhere("policy", Info), std::move(E));
  if (D->How == Distribution::Kind::Static)
    return nullptr;
  return std::make_shared<const Distribution>(std::move(*D));
}

std::vector<SplitShare> Runtime::sharesOf(const Distribution *D) const {
  // Any: the first device with the fewest launches queued or running.
  unsigned Idle = 0;
  uint64_t Fewest = UINT64_MAX;
  if (D->How == Distribution::Kind::Any)
    for (unsigned I = 0; I < Devices.size(); ++I)
      if (uint64_t Q = Devices[I]->pending(); Q < Fewest) {
        Fewest = Q;
        Idle = I;
      }
  return jacc::sharesOf(*D, Devices.size(), Idle);
}

} // namespace jacc
