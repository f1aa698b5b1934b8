// The specialized variants of one compiled kernel: which one each push runs (the policy
// of Specializer.h), their code (generateHostSource with a Specialization: the generic entries'
// ABI), compiled off the launch path on a BackgroundCompiler and kept in memory and in the
// kernel's disk cache entry (spec-<hash>.host.o, .host-split.o, spec-<hash>.<stem>.* for each
// device target's code, and spec-<hash>.json with the values and hits: the names in
// jit/cache/KernelEntry.h).
#ifndef JACC_JIT_KERNELVARIANTS_H
#define JACC_JIT_KERNELVARIANTS_H

#include "jit/CodeTarget.h"
#include "jit/specialize/BackgroundCompiler.h"
#include "jit/specialize/CompileBudget.h"
#include "jit/specialize/Specialization.h"
#include "jit/specialize/Specializer.h"
#include "jit/specialize/VariantPayback.h"
#include "jit/specialize/VariantTrial.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/Error.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace jacc::jit {

struct CompiledKernel;

/// One compiled variant. Its entries take the generic entries' parameters: the generic
/// CallInterface (CompiledKernel::Call, SplitCode::Call) calls them.
struct VariantCode {
  Specialization Spec;
  std::string Key;        ///< Spec.key(): "n=100;m=64"
  std::string HostSource; ///< empty when loaded from disk
  llvm::SmallVector<char, 0> Object, SplitObject;
  void *Entry = nullptr;      ///< the plain entry
  void *SplitEntry = nullptr; ///< the split entry (kernels that split)
  /// Keep Entry's and SplitEntry's code loaded (jit/host/HostJIT.h).
  std::shared_ptr<const void> EntryCode, SplitEntryCode;
  /// Device code by target, architecture and entry: for each device architecture of the
  /// runtime.
  std::map<CodeKey, std::shared_ptr<const DeviceCode>> Device;
  double CompileMs = 0;
  bool FromDisk = false;
  mutable std::atomic<uint64_t> Hits{0};        ///< pushes it ran
  mutable std::atomic<uint64_t> FlushedHits{0}; ///< of which already added on disk
};

/// How the runtime specializes (read once from JACC_SPECIALIZE*).
struct SpecializeSettings {
  Specializer::Options Policy;
  /// JACC_SPECIALIZE_WAIT=1: a push that creates a variant waits for its compile and runs it
  /// (tests, benchmarks); otherwise the generic kernel runs until the variant is ready.
  bool Wait = false;
  /// JACC_SPECIALIZE_BUDGET: seconds of background compiles a runtime may spend (negative: no
  /// limit); Budget counts them (the runtime's, reset at jacc_init; null: no limit).
  double BudgetSeconds = 5;
  CompileBudget *Budget = nullptr;
  /// JACC_SPECIALIZE_PAYBACK: under auto, a variant not in the disk cache is compiled once its
  /// kernel's generic launches ran this many times its expected compile time
  /// (jit/specialize/VariantPayback.h); 0: at once.
  double PaybackFactor = 1;
  /// The device targets and architectures of the runtime's devices: variants are compiled for
  /// each.
  std::vector<TargetArch> DeviceArchs;
  /// Called with each variant compiled or loaded and its kernel (statistics, profiling), on the
  /// compiling thread.
  std::function<void(const CompiledKernel &, const VariantCode &)> OnReady;
};

/// The settings from the environment; InvalidArgument naming a bad variable.
llvm::Expected<SpecializeSettings> specializeSettingsFromEnv();

/// A timed push that takes part in a variant's trial (jit/specialize/VariantTrial.h).
struct TrialLaunch {
  int Variant = -1;         ///< the variant on trial; -1: none
  bool RunsVariant = false; ///< this push runs it (else the generic code, for comparison)
  /// The variant waits for its payback: the push runs the generic code and its time counts.
  bool Payback = false;
  /// How the launch ran, in the runtime's numbering (on one device, split, duplicated): the
  /// trial compares launches that ran alike.
  unsigned Mode = 0;
};

class KernelVariants {
public:
  /// The compiled variant for a push of K whose argument values, by ArgInfo::Position, are
  /// Values; null: the generic code runs. When the policy creates a variant, its compile is
  /// queued on BG (or run now with S.Wait; its failure is then this call's error). Trial: the
  /// push will be timed; under JACC_SPECIALIZE=auto (without _WAIT) a variant still on trial
  /// then alternates with the generic code, and Trial says which ran (report it to
  /// recordTrial).
  llvm::Expected<const VariantCode *> choose(const std::shared_ptr<const CompiledKernel> &K,
                                             llvm::ArrayRef<const void *> Values,
                                             const SpecializeSettings &S, BackgroundCompiler &BG,
                                             TrialLaunch *Trial = nullptr);
  /// What a push's binding proved about the kernel's pointer arguments. The next choices follow
  /// it (Specializer::observe); a variant assuming more than a push's binding proved must not
  /// run that push (the runtime runs the generic code instead).
  void notePointers(PointerFacts F) {
    LastFacts.store(uint8_t(F.Disjoint | F.Aligned << 1), std::memory_order_relaxed);
  }
  /// A timed push of a trial took Seconds; a variant found no faster than the generic code is
  /// never chosen again. (A push timed for a variant's payback: its time counts towards it.)
  void recordTrial(const TrialLaunch &Trial, double Seconds);
  /// The variants compiled so far.
  std::vector<std::shared_ptr<const VariantCode>> compiled() const;
  /// Add the hits counted since the last flush to the variants' spec-<hash>.json on disk.
  void flushHits(const CompiledKernel &K) const;
  /// Make variant Index's code (compiled in the background) available to choose(); a failure
  /// disables the variant, with a warning.
  void publish(unsigned Index, llvm::Expected<std::shared_ptr<VariantCode>> Code);

  /// Variant Index (of Spec) was not in the disk cache: it waits for its payback.
  void notOnDisk(unsigned Index);

private:
  /// Where a variant created under auto with a payback stands before it has code.
  enum class Stage { LookingOnDisk, AwaitingPayback, Compiling };
  struct Pending {
    Stage At = Stage::LookingOnDisk;
    VariantPayback Payback;
  };
  /// publish() with M held.
  void publishLocked(unsigned Index, llvm::Expected<std::shared_ptr<VariantCode>> Code);
  /// Queue the compile (or, without MayCompile, the disk lookup) of variant Index.
  void queue(const std::shared_ptr<const CompiledKernel> &K, const Specialization &Spec,
             unsigned Index, const SpecializeSettings &S, BackgroundCompiler &BG, bool MayCompile);

  mutable std::mutex M;
  std::unique_ptr<Specializer> Policy;
  std::vector<ScalarArg> Args;     ///< the kernel's scalar arguments, by position
  std::vector<unsigned> Positions; ///< Args[I]'s position among the pushed values
  std::vector<std::shared_ptr<const VariantCode>> Codes; ///< by variant index; null: not ready
  std::vector<VariantTrial> Trials;                      ///< by variant index
  std::map<unsigned, Pending> Waiting; ///< variants waiting for their payback, by index
  /// notePointers' last facts (Disjoint: bit 0, Aligned: bit 1): both until a push finds
  /// otherwise.
  std::atomic<uint8_t> LastFacts{3};
};

/// Compile variant Spec of K: the host plain and split entries and the device code for
/// DeviceArchs (each target's verification too: CodeTarget::verifyArchs), or load each from K's
/// disk cache entry. Without MayCompile only a variant whose host code is in the disk cache is
/// loaded; null otherwise.
llvm::Expected<std::shared_ptr<VariantCode>>
compileVariant(const CompiledKernel &K, const Specialization &Spec,
               llvm::ArrayRef<TargetArch> DeviceArchs = {}, bool MayCompile = true);

} // namespace jacc::jit

#endif
