// Deciding a push's launch: the program's regime, split or duplicate, each device's share; in one
// memory, the device that must run it alone; and feeding its outcome back to the choosers.
#include "src/launch/LaunchDecision.h"

#include "jacc/jacc.h"
#include "support/Debug.h"

#include <llvm/ADT/bit.h>

#include <algorithm>

namespace jacc {

namespace {

/// In one memory (JACC_MEMORY=unified, several devices): the device that runs a launch with
/// native implementations alone, when its parts would not be disjoint; nullopt otherwise.
/// Native parts are iterations, each writing everything its iterations write; the generated
/// code's are owned data. Both kinds in one launch (or copies of some mappings beside it, which
/// rely on what each device owns) could write an element twice: the first device with a native
/// implementation runs the whole loop instead.
std::optional<unsigned> nativeOwner(const LaunchPlan &Plan) {
  std::optional<unsigned> Native;
  bool Mixed = false;
  for (unsigned D = 0; D < Plan.Natives.size(); ++D) {
    if (!(Plan.Devices >> D & 1))
      continue; // among the launch's devices (those holding its data)
    if (Plan.Natives[D].Fn && !Native)
      Native = D;
    Mixed |= !Plan.Natives[D].Fn;
  }
  if (!Native)
    return std::nullopt;
  bool Copies = llvm::any_of(Plan.Used, [](const Mapping *M) { return !M->Unified; });
  if (!Mixed && !Copies)
    return std::nullopt;
  debugLog("launch", "native and generated parts in one memory: the native implementation runs "
                     "the whole loop on one device");
  return Native;
}

/// In one memory: the device that runs a launch alone because its devices would compute an
/// array beyond their own shares (not split, an aliased target, or writes not affine in the
/// split loop, which copies discard); nullopt when the parts are disjoint.
std::optional<unsigned> unifiedOwner(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                                     bool Split) {
  bool Unified = llvm::any_of(Plan.Used, [](const Mapping *M) { return M->Unified; });
  if (!Unified || llvm::popcount(Plan.Devices) < 2)
    return std::nullopt;
  unsigned Lead = llvm::countr_zero(Plan.Devices);
  if (!Split || llvm::any_of(Plan.Targets, [&](const SplitTarget &T) {
        const analysis::SplitArray &A = Info.Split.Plan.Arrays[T.Info];
        return (!T.Split || !A.Affine) && Plan.ArgMappings[Info.Args[A.Arg].Position];
      }))
    return Lead;
  return nativeOwner(Plan);
}

} // namespace

void LaunchChooser::setPolicy(SplitChoice::Policy P) {
  Split.setPolicy(P == SplitChoice::Policy::One ? SplitChoice::Policy::Auto : P);
  if (P == SplitChoice::Policy::Auto)
    Program.fix(false);
  else
    Program.fix(true, P == SplitChoice::Policy::One ? ProgramSpread::Regime::OneDevice
                                                    : ProgramSpread::Regime::Spread);
}

void LaunchChooser::rememberIn(std::unique_ptr<ProgramMemory> M) {
  Memory = std::move(M);
  if (!Memory || Split.policy() != SplitChoice::Policy::Auto)
    return;
  if (std::optional<ProgramMemory::Choice> C = Memory->recall()) {
    Program.recall(*C);
    uint64_t Windows =
        C->Confirmed ? C->Windows : std::min(C->Windows, ProgramSpread::RecheckWindows);
    debugLog("launch", std::string("program: ") +
                           (C->Choice == ProgramSpread::Regime::Spread ? "spread over the devices"
                                                                       : "on one device") +
                           " from its first launch, as a past run chose (" + Memory->name() +
                           " in the kernel cache; the other regime timed again in " +
                           std::to_string(Windows) + " windows)");
  }
}

const void *LaunchChooser::programKey(const void *Kernel, uint64_t Shape) {
  std::lock_guard<std::mutex> L(ShapesMutex);
  KernelShapes &S = Shapes[Kernel];
  if (S.AsOne)
    return Kernel;
  auto [It, New] = S.Keys.try_emplace(Shape, 0);
  if (New && S.Keys.size() > MaxShapes) {
    for (const auto &[Hash, Key] : S.Keys)
      Program.forget(&Key);
    S.Keys.clear();
    S.AsOne = true;
    return Kernel;
  }
  return &It->second;
}

void LaunchChooser::forget(const void *Kernel) {
  Split.forget(Kernel);
  Balance.forget(Kernel);
  Program.forget(Kernel);
  std::lock_guard<std::mutex> L(ShapesMutex);
  if (auto It = Shapes.find(Kernel); It != Shapes.end()) {
    for (const auto &[Hash, Key] : It->second.Keys)
      Program.forget(&Key);
    Shapes.erase(It);
  }
}

void LaunchChooser::clear() {
  Program.clear();
  Balance.clear();
  Memory.reset();
  std::lock_guard<std::mutex> L(ShapesMutex);
  Shapes.clear();
}

llvm::Expected<LaunchDecision> LaunchChooser::decide(
    const LaunchRequest &R,
    llvm::function_ref<std::vector<SplitShare>(const Distribution *)> PolicyShares) {
  const analysis::KernelInfo &Info = *R.Info;
  bool Uneven = (R.Policy && !R.Policy->even()) || R.Targeted.has_value();
  bool Forced = R.Flags & (JACC_FORCE_SPLIT | JACC_FORCE_DUPLICATE);
  LaunchDecision D;
  // The program's regime places the pushes nothing else places: no flag, no policy or location.
  if (R.NDevices > 1 && !Forced && !Uneven && !Info.Location) {
    // Devices that share their cores start the program on one device: a spread window there
    // runs each device's share on the same cores, and one device is what they would do alone.
    D.ProgramKey = programKey(R.Kernel, R.Shape);
    ProgramSpread::Step Step =
        Program.next(D.ProgramKey, R.SharedCores ? ProgramSpread::Regime::OneDevice
                                                 : ProgramSpread::Regime::Spread);
    if (Step.Decided && Memory)
      Memory->remember(Program.kept());
    D.Placed = true;
    D.Regime = Step.How;
    D.MeasureProgram = Step.Measure && !R.Async;
    if (Step.How == ProgramSpread::Regime::OneDevice) {
      D.Mode = LaunchMode::OnOwner;
      return D;
    }
  }
  // In the regime's spread windows a kernel splits whenever it can: a kernel left on one device
  // there makes the next split kernels fetch what it wrote, which its own price cannot see (NPB
  // SP class A: 1.06x with each kernel's choice, 1.3x with every kernel split).
  bool Spread = D.Placed && D.Regime == ProgramSpread::Regime::Spread &&
                Split.policy() == SplitChoice::Policy::Auto;
  auto Mode = Split.choose(R.Kernel, Info, R.Flags, R.NDevices, R.Async, Uneven || Spread);
  if (!Mode)
    return Mode.takeError();
  D.Mode = Mode->Split ? LaunchMode::Split : LaunchMode::Duplicate;
  D.MeasureMode = Mode->Measure;
  // Devices that share their cores duplicate a kernel at the cost of running it once per device,
  // and then hold every copy current, which the next split kernel does not need: the one device
  // holding the data runs it and the others fetch what they later read. Only where the mode is
  // the runtime's to choose (not JACC_FORCE_DUPLICATE nor JACC_SPLIT=never).
  if (D.Mode == LaunchMode::Duplicate && R.SharedCores && R.NDevices > 1 && !Forced &&
      Split.policy() == SplitChoice::Policy::Auto)
    D.Mode = LaunchMode::OnOwner;
  if (!D.split())
    return D;
  if (R.Targeted) {
    D.Shares = *R.Targeted;
  } else if (R.Policy && R.Policy->How == Distribution::Kind::Auto) {
    Balancer::Next Next = Balance.next(R.Kernel, R.Members, R.NDevices);
    D.Shares = std::move(Next.Shares);
    D.TimeParts = Next.Timed && !R.Async;
  } else if (R.Policy) {
    D.Shares = PolicyShares(R.Policy.get());
  }
  return D;
}

void LaunchChooser::planFor(const LaunchDecision &D, PlanOptions &O) {
  O.Split = D.split();
  O.OneDevice = D.Mode == LaunchMode::OnOwner;
}

void LaunchChooser::settle(const analysis::KernelInfo &Info, LaunchDecision &D, LaunchPlan &Plan) {
  if (!Plan.Owner)
    Plan.Owner = unifiedOwner(Info, Plan, D.split());
  Plan.Shares = std::move(D.Shares);
  Plan.TimeParts = D.TimeParts;
}

void LaunchChooser::learn(const LaunchRequest &R, const LaunchDecision &D, const LaunchOutcome &O) {
  if (D.TimeParts)
    Balance.record(R.Kernel, O.PartNanos);
  if (D.MeasureMode)
    Split.record(R.Kernel, {D.split(), O.Seconds, O.Fetched.Bytes, O.Fetched.Seconds});
  if (D.MeasureProgram)
    Program.record(D.ProgramKey, D.Regime, O.Seconds, O.ListedOnce, O.Fetched.Bytes);
}

} // namespace jacc
