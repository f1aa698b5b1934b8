// Which variant each push runs and how it gets compiled: off the launch path, after its payback,
// or at once; loaded from disk or built for the host and the device targets; kept only if its
// trial wins.
#include "jit/specialize/KernelVariants.h"

#include "jit/CompiledKernel.h"
#include "jit/cache/DiskCache.h"
#include "jit/cache/KernelEntry.h"
#include "jit/cache/KernelStore.h"
#include "jit/cache/KernelSummary.h"
#include "jit/host/HostCodegen.h"
#include "jit/host/HostJIT.h"
#include "jit/server/CompileServer.h"
#include "support/Debug.h"
#include "support/Env.h"
#include "support/Error.h"
#include "support/Format.h"
#include "support/Stats.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace jacc::jit {

using analysis::ArgInfo;

llvm::Expected<SpecializeSettings> specializeSettingsFromEnv() {
  auto O = specializeOptionsFromEnv(
      env::get(env::Var::Specialize), env::get(env::Var::SpecializeArgs),
      env::get(env::Var::SpecializeAfter), env::get(env::Var::SpecializeMax));
  if (!O)
    return O.takeError();
  SpecializeSettings S;
  S.Policy = std::move(*O);
  auto Wait = env::onOff(env::Var::SpecializeWait, false,
                         "1 (a push that creates a variant waits for its compile) or 0");
  if (!Wait)
    return Wait.takeError();
  S.Wait = *Wait;
  auto Budget =
      env::seconds(env::Var::SpecializeBudget, S.BudgetSeconds, 1e9,
                   "5 or 0.5; 0 compiles no variant, only loads them from the disk cache");
  if (!Budget)
    return Budget.takeError();
  S.BudgetSeconds = *Budget;
  if (llvm::StringRef Text = env::text(env::Var::SpecializePayback); !Text.empty()) {
    double Factor;
    if (Text.getAsDouble(Factor) || !(Factor >= 0) || Factor > 1e9)
      return env::invalid(env::Var::SpecializePayback, Text,
                          "a factor such as 1 or 0.5 (the kernel's run time, in expected variant "
                          "compiles, before a variant compiles; 0: at once)");
    S.PaybackFactor = Factor;
  }
  return S;
}

/// Count a variant the spent budget stopped (Key: its values); the first one is logged.
static void refuseOverBudget(CompileBudget &B, const std::string &Key) {
  stats().VariantsOverBudget.fetch_add(1, std::memory_order_relaxed);
  if (!B.refuse())
    return;
  char Spent[128];
  std::snprintf(Spent, sizeof Spent, "%.2f s of background compiles, JACC_SPECIALIZE_BUDGET %g s",
                B.spentSeconds(), B.limitSeconds());
  debugLog("launch", "specialization budget spent (" + llvm::Twine(Spent) +
                         "): no more variants compiled, starting with " + Key +
                         "; the generic kernels run");
}

static double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

/// Each device target's verification (see CompiledKernel.cpp): the variant's entries build for
/// the first architecture listed and keep the generic entries' launch interface (which the
/// generic kernel's verification checks for every architecture listed).
static llvm::Error verifyVariant(const analysis::KernelInfo &K, const Specialization &Spec) {
  for (const CodeTarget *T : codeTargets()) {
    auto Archs = T->verifyArchs();
    if (!Archs) {
      llvm::consumeError(Archs.takeError()); // the generic kernel's verification reported it
      continue;
    }
    for (unsigned Arch : llvm::ArrayRef(*Archs).take_front(1))
      for (bool Split : {false, true}) {
        if (Split && !K.Split.Enabled)
          continue;
        if (auto C = T->build(K, Arch, Split, &Spec); !C) {
          std::string Msg;
          ErrorCode Code = takeError(C.takeError(), Msg);
          if (Code == ErrorCode::Unsupported)
            break; // a host-only kernel there, as its generic verification found
          return makeError(Code, Msg);
        }
      }
  }
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<VariantCode>> compileVariant(const CompiledKernel &K,
                                                            const Specialization &Spec,
                                                            llvm::ArrayRef<TargetArch> DeviceArchs,
                                                            bool MayCompile) {
  auto Start = std::chrono::steady_clock::now();
  auto V = std::make_shared<VariantCode>();
  V->Spec = Spec;
  V->Key = Spec.key();
  std::string Stem = variantArtifactStem(V->Key);
  std::string HostObjectName = variantArtifact(Stem, hostObjectArtifact(/*Split=*/false));
  std::string SplitObjectName = variantArtifact(Stem, hostObjectArtifact(/*Split=*/true));
  bool Split = K.Info.Split.Enabled;
  if (K.Disk.Cache) {
    std::string Warning;
    auto O = K.Disk.Cache->readArtifact(K.Disk.Key, HostObjectName, Warning);
    std::optional<std::string> SO;
    if (O && Split)
      SO = K.Disk.Cache->readArtifact(K.Disk.Key, SplitObjectName, Warning);
    if (O && (!Split || SO)) {
      V->Object.assign(O->begin(), O->end());
      if (SO)
        V->SplitObject.assign(SO->begin(), SO->end());
      V->FromDisk = true;
      debugLog("cache", "disk hit " + K.Disk.Key.substr(0, 12) + " variant " + V->Key);
    } else if (!Warning.empty()) {
      cacheWarning("entry " + K.Disk.Key.substr(0, 12) + ": " + Warning + " (recompiling)");
    }
  }
  if (!V->FromDisk && !MayCompile)
    return nullptr;
  // Cancelled (jacc_finalize, exit) between steps: no step starts that the program's end would
  // have to wait for, at idle priority.
  auto Cancelled = [&] { return BackgroundCompiler::jobCancelled(); };
  auto CancelledError = [&] { return cancelledCompileError("variant " + V->Key); };
  if (!V->FromDisk) {
    if (Cancelled())
      return CancelledError();
    auto Full = K.completeInfo();
    if (!Full)
      return Full.takeError();
    if (Cancelled())
      return CancelledError();
    if (auto E = checkSpecialization(**Full, Spec))
      return E;
    V->HostSource = generateHostSource(**Full, /*Split=*/false, &Spec);
    debugLog("codegen", "variant " + V->Key + " host source:\n" + V->HostSource);
    auto Obj =
        compileHost(V->HostSource, K.Info.Source, K.Info.Name.described("variant " + V->Key));
    if (!Obj)
      return Obj.takeError();
    V->Object = std::move(Obj->Bytes);
    if (Split && Cancelled())
      return CancelledError();
    if (Split) {
      auto SObj = compileHost(generateHostSource(**Full, /*Split=*/true, &Spec), K.Info.Source,
                              K.Info.Name.described("variant " + V->Key + ", split entry"));
      if (!SObj)
        return SObj.takeError();
      V->SplitObject = std::move(SObj->Bytes);
    }
    if (auto E = verifyVariant(**Full, Spec))
      return E;
  }
  // The device code: from the entry, else compiled (and added to it below).
  struct NewCode {
    const CodeTarget *Target;
    std::string Name;
    std::shared_ptr<const DeviceCode> Code;
  };
  std::vector<NewCode> NewDevice;
  for (const TargetArch &TA : DeviceArchs)
    for (bool S : {false, true}) {
      if (S && !Split)
        continue;
      const CodeTarget &T = *TA.Target;
      std::string Name = variantArtifact(Stem, T.stem(TA.Arch, S));
      if (std::shared_ptr<const DeviceCode> C = T.load(K.Disk, Name)) {
        V->Device[{&T, TA.Arch, S}] = std::move(C);
        continue;
      }
      auto Full = K.completeInfo();
      if (!Full)
        return Full.takeError();
      auto C = T.build(**Full, TA.Arch, S, &Spec);
      if (!C)
        return C.takeError();
      std::shared_ptr<const DeviceCode> Code = std::move(*C);
      V->Device[{&T, TA.Arch, S}] = Code;
      NewDevice.push_back({&T, std::move(Name), std::move(Code)});
    }
  auto Entries =
      loadHostObject(V->Object, {EntryName}, K.Info.Name.symbol(/*Split=*/false, V->Key));
  if (!Entries)
    return Entries.takeError();
  V->Entry = Entries->Symbols[0];
  V->EntryCode = std::move(Entries->Code);
  if (Split) {
    auto SEntries = loadHostObject(V->SplitObject, {SplitEntryName},
                                   K.Info.Name.symbol(/*Split=*/true, V->Key));
    if (!SEntries)
      return SEntries.takeError();
    V->SplitEntry = SEntries->Symbols[0];
    V->SplitEntryCode = std::move(SEntries->Code);
  }
  V->CompileMs = msSince(Start);
  debugLog(V->FromDisk ? "cache" : "codegen", "variant " + V->Key +
                                                  (V->FromDisk ? " loaded in " : " compiled in ") +
                                                  std::to_string(V->CompileMs) + " ms");
  // A new variant: host objects, device code, then its .json, last (`jacc-cache show` lists the
  // variants by it). A variant loaded from disk: only the device code compiled now.
  if (K.Disk.Cache) {
    llvm::Error E = llvm::Error::success();
    if (!V->FromDisk) {
      E = K.Disk.Cache->addArtifact(K.Disk.Key, HostObjectName,
                                    llvm::StringRef(V->Object.data(), V->Object.size()));
      if (!E && Split)
        E = K.Disk.Cache->addArtifact(
            K.Disk.Key, SplitObjectName,
            llvm::StringRef(V->SplitObject.data(), V->SplitObject.size()));
    }
    if (!E)
      for (const NewCode &N : NewDevice)
        N.Target->store(K.Disk, N.Name, *N.Code);
    if (!E && !V->FromDisk)
      E = K.Disk.Cache->addArtifact(K.Disk.Key, variantRecordArtifact(Stem),
                                    variantRecordJson(V->Key, V->CompileMs, 0));
    if (E)
      stopUsingDiskCache(llvm::toString(std::move(E)));
  }
  return V;
}

/// Compile (or, without MayCompile or once the budget is spent, only load) variant Spec of K,
/// charging the budget and reporting the code to S.OnReady; null: not compiled.
static llvm::Expected<std::shared_ptr<VariantCode>> variantJob(const CompiledKernel &K,
                                                               const Specialization &Spec,
                                                               const SpecializeSettings &S,
                                                               bool MayCompile) {
  // Once the budget is spent, a variant is only loaded from the disk cache (a warm run loads
  // every variant whatever its cold run spent); one that is not there is not compiled, and the
  // generic kernel runs its values.
  bool Spent = S.Budget && S.Budget->spent();
  auto Code = compileVariant(K, Spec, S.DeviceArchs, MayCompile && !Spent);
  if (Code && !*Code && MayCompile)
    refuseOverBudget(*S.Budget, Spec.key());
  else if (Code && *Code && S.Budget && !(*Code)->FromDisk)
    S.Budget->charge((*Code)->CompileMs * 1e-3);
  if (Code && *Code && S.OnReady)
    S.OnReady(K, **Code);
  return Code;
}

void KernelVariants::queue(const std::shared_ptr<const CompiledKernel> &K,
                           const Specialization &Spec, unsigned Index, const SpecializeSettings &S,
                           BackgroundCompiler &BG, bool MayCompile) {
  BG.enqueue([K, Spec, Index, MayCompile, S] {
    auto Code = variantJob(*K, Spec, S, MayCompile);
    if (Code && !*Code && !MayCompile) // looked up on disk only: not there
      K->Variants.notOnDisk(Index);
    else
      K->Variants.publish(Index, std::move(Code));
  });
}

void KernelVariants::notOnDisk(unsigned Index) {
  std::lock_guard<std::mutex> L(M);
  if (auto W = Waiting.find(Index); W != Waiting.end())
    W->second.At = Stage::AwaitingPayback;
}

llvm::Expected<const VariantCode *>
KernelVariants::choose(const std::shared_ptr<const CompiledKernel> &K,
                       llvm::ArrayRef<const void *> Values, const SpecializeSettings &S,
                       BackgroundCompiler &BG, TrialLaunch *Trial) {
  std::unique_lock<std::mutex> L(M);
  if (!Policy) {
    Policy = std::make_unique<Specializer>(S.Policy);
    for (const ArgInfo &A : K->Info.Args) {
      if (A.ArgKind != ArgInfo::Kind::Scalar)
        continue;
      ScalarArg SA;
      SA.Param = A.Param;
      SA.Name = A.Name; // K keeps its Info: the name outlives the policy
      SA.Type = A.Scalar;
      SA.Size = scalarTypeSize(A.Scalar);
      // A value the kernel never reads (assigned first) is often garbage: folding it would
      // only fill the variants.
      SA.Eligible = isFoldable(A.Scalar) && SA.Size == A.Size && A.ValueRead;
      for (const analysis::ReductionVar &R : K->Info.Reductions)
        SA.Eligible &= K->Info.Args[R.Arg].Param != A.Param;
      Args.push_back(SA);
      Positions.push_back(A.Position);
    }
  }
  if (Args.empty() && !K->Info.MayRestrict) // nothing to fold, no restrict: no variant
    return nullptr;
  for (size_t I = 0; I < Args.size(); ++I)
    Args[I].Bytes = Values[Positions[I]];
  uint8_t Last = LastFacts.load(std::memory_order_relaxed);
  PointerFacts Facts{K->Info.MayRestrict && (Last & 1), K->Info.MayAlign && (Last & 2)};
  std::optional<Specializer::Choice> C = Policy->observe(Args, Facts);
  if (!C)
    return nullptr;
  unsigned Index = C->Index;
  if (C->New) {
    if (Codes.size() <= Index)
      Codes.resize(Index + 1);
    Specialization Spec = *C->Spec;
    debugLog("launch", "kernel variant " + Spec.key() + " created");
    if (!S.Wait) {
      // Compiled off the launch path: the generic kernel runs until the variant is published.
      // Under auto with a payback, only looked up on disk first (a warm run loads it at once).
      bool Payback = S.Policy.Policy == Specializer::Mode::Auto && S.PaybackFactor > 0;
      if (Payback)
        Waiting.emplace(
            Index, Pending{Stage::LookingOnDisk,
                           VariantPayback(S.PaybackFactor * expectedVariantCompileSeconds(*K))});
      queue(K, Spec, Index, S, BG, /*MayCompile=*/!Payback);
    } else {
      L.unlock();
      auto Code = compileVariant(*K, Spec, S.DeviceArchs);
      if (Code && S.OnReady)
        S.OnReady(*K, **Code);
      L.lock();
      if (!Code) {
        Policy->disable(Index);
        return Code.takeError();
      }
      Codes[Index] = std::move(*Code);
    }
  }
  if (auto W = Waiting.find(Index); W != Waiting.end()) { // no code yet (publish erases it)
    Pending &P = W->second;
    if (P.At != Stage::AwaitingPayback || !P.Payback.due()) {
      if (P.At == Stage::LookingOnDisk || P.At == Stage::AwaitingPayback)
        if (Trial) { // this push's time counts towards the payback
          Trial->Variant = int(Index);
          Trial->Payback = true;
        }
      return nullptr;
    }
    // Paid for: compiled now, by this push. At idle priority it would wait for a free core,
    // which a program running kernels back to back never leaves (and compete meanwhile); the
    // time it takes has already been spent running the generic kernel. Other pushes of the
    // kernel run the generic code meanwhile.
    P.At = Stage::Compiling;
    debugLog("launch", "kernel variant " + C->Key.str() + " compiles: its kernel ran " +
                           formatSeconds(P.Payback.ranSeconds()) + " since it was created " +
                           "(payback " + formatSeconds(P.Payback.neededSeconds()) + ")");
    Specialization Spec = *C->Spec;
    L.unlock();
    auto Code = variantJob(*K, Spec, S, /*MayCompile=*/true);
    L.lock();
    publishLocked(Index, std::move(Code));
  }
  if (Index >= Codes.size() || !Codes[Index])
    return nullptr;
  // Forced variants (always, or waited for by tests and benchmarks) are not put on trial.
  if (Trial && S.Policy.Policy == Specializer::Mode::Auto && !S.Wait) {
    if (Trials.size() <= Index)
      Trials.resize(Index + 1);
    if (Trials[Index].verdict() == VariantTrial::Verdict::Trying) {
      Trial->Variant = int(Index);
      Trial->RunsVariant = Trials[Index].nextRunsVariant();
      if (!Trial->RunsVariant)
        return nullptr;
    }
  }
  Codes[Index]->Hits.fetch_add(1, std::memory_order_relaxed);
  return Codes[Index].get();
}

void KernelVariants::recordTrial(const TrialLaunch &Trial, double Seconds) {
  if (Trial.Variant < 0)
    return;
  std::lock_guard<std::mutex> L(M);
  unsigned Index = unsigned(Trial.Variant);
  if (Trial.Payback) {
    if (auto W = Waiting.find(Index); W != Waiting.end())
      W->second.Payback.ran(Seconds);
    return;
  }
  if (Index >= Trials.size() || !Policy)
    return;
  VariantTrial &T = Trials[Index];
  if (T.verdict() != VariantTrial::Verdict::Trying)
    return;
  T.record(Trial.RunsVariant, Seconds, Trial.Mode);
  VariantTrial::Verdict V = T.verdict();
  if (V == VariantTrial::Verdict::Trying)
    return;
  std::string Key = Index < Codes.size() && Codes[Index] ? Codes[Index]->Key : "";
  debugLog("launch", "kernel variant " + Key +
                         (V == VariantTrial::Verdict::Keep ? " kept: " : " dropped: ") +
                         T.describe());
  if (V == VariantTrial::Verdict::Drop)
    Policy->disable(Index);
}

void KernelVariants::publish(unsigned Index, llvm::Expected<std::shared_ptr<VariantCode>> Code) {
  std::lock_guard<std::mutex> L(M);
  publishLocked(Index, std::move(Code));
}

void KernelVariants::publishLocked(unsigned Index,
                                   llvm::Expected<std::shared_ptr<VariantCode>> Code) {
  Waiting.erase(Index);
  if (Code && !*Code) { // not compiled: the budget was spent
    Policy->disable(Index);
    return;
  }
  if (!Code) {
    std::string Message = llvm::toString(Code.takeError());
    Policy->disable(Index);
    if (isCancelledCompile(Message)) { // jacc_finalize: no failure of the variant's
      debugLog("launch", "kernel variant compile cancelled: " + Message);
      return;
    }
    std::fprintf(stderr,
                 "jacc: warning: a kernel variant failed to compile; the generic kernel "
                 "runs instead (JACC_SPECIALIZE=off turns variants off): %s\n",
                 Message.c_str());
    return;
  }
  if (Codes.size() <= Index)
    Codes.resize(Index + 1);
  Codes[Index] = std::move(*Code);
}

std::vector<std::shared_ptr<const VariantCode>> KernelVariants::compiled() const {
  std::lock_guard<std::mutex> L(M);
  std::vector<std::shared_ptr<const VariantCode>> Out;
  for (const auto &C : Codes)
    if (C)
      Out.push_back(C);
  return Out;
}

void KernelVariants::flushHits(const CompiledKernel &K) const {
  if (!K.Disk.Cache)
    return;
  for (const auto &V : compiled()) {
    uint64_t Hits = V->Hits.load(std::memory_order_relaxed);
    uint64_t Delta = Hits - V->FlushedHits.exchange(Hits, std::memory_order_relaxed);
    if (!Delta)
      continue;
    std::string Name = variantRecordArtifact(variantArtifactStem(V->Key)), Warning;
    uint64_t OnDisk = 0;
    double CompileMs = V->CompileMs; // the compile's, not a later load's
    if (auto Text = K.Disk.Cache->readArtifact(K.Disk.Key, Name, Warning))
      if (std::optional<VariantRecord> R = parseVariantRecord(*Text)) {
        OnDisk = R->Hits;
        CompileMs = R->CompileMs.value_or(CompileMs);
      }
    if (auto E = K.Disk.Cache->addArtifact(K.Disk.Key, Name,
                                           variantRecordJson(V->Key, CompileMs, OnDisk + Delta)))
      llvm::consumeError(std::move(E)); // statistics only
  }
}

} // namespace jacc::jit
