// How a push runs, decided in one place: its mode (split over the devices, duplicated on each,
// or on one device), each device's share of a split, the device a kernel must run on alone, and
// what its time teaches the choosers. The binding (planLaunch), the scheduler and the recorders
// carry the decision out and never make it again.
#ifndef JACC_SRC_LAUNCH_LAUNCHDECISION_H
#define JACC_SRC_LAUNCH_LAUNCHDECISION_H

#include "analysis/Kernel.h"
#include "src/launch/Balance.h"
#include "src/launch/Distribution.h"
#include "src/launch/LaunchPlan.h"
#include "src/launch/ProgramMemory.h"
#include "src/launch/ProgramSpread.h"
#include "src/launch/SplitChoice.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace jacc {

/// Split: every device runs its share of the split entry. Duplicate: every device runs the
/// whole kernel. OnOwner: one device runs it; the others' copies of what it writes go stale.
enum class LaunchMode { Split, Duplicate, OnOwner };

struct LaunchDecision {
  LaunchMode Mode = LaunchMode::Duplicate;
  /// Split: each device's share (src/launch/Distribution.h); empty: equal shares.
  std::vector<SplitShare> Shares;
  /// The program's regime this push counted in (ProgramSpread), when it placed the push (one
  /// with no flag, policy or location).
  bool Placed = false;
  ProgramSpread::Regime Regime = ProgramSpread::Regime::Spread;
  const void *ProgramKey = nullptr; ///< the push's kernel and shape, as the regime counts it
  bool TimeParts = false;      ///< time each device's part for the balancer
  bool MeasureMode = false;    ///< the adaptive chooser learns from the push's time
  bool MeasureProgram = false; ///< the program's spread check learns from it
  bool split() const { return Mode == LaunchMode::Split; }
  bool timed() const { return MeasureMode || MeasureProgram; }
};

/// A push as the choice sees it.
struct LaunchRequest {
  const void *Kernel = nullptr;
  const analysis::KernelInfo *Info = nullptr;
  /// Its integer scalar arguments' values, hashed: what tells launches of one kernel at
  /// different sizes apart (a V-cycle's grid levels), for the program regime's prices.
  uint64_t Shape = 0;
  unsigned Flags = 0; ///< jacc_kernel_push's (JACC_FORCE_*, with native implementations: split)
  unsigned NDevices = 1;
  /// The devices compute on the same cores (host devices): a kernel that does not split runs on
  /// one of them, since each running it whole gains nothing (see LaunchChooser::decide).
  bool SharedCores = false;
  bool Async = false;
  /// The kernel's policy or the process's; null: the even split.
  std::shared_ptr<const Distribution> Policy;
  /// A targeted location's shares (Gecko's hierarchy), whatever the policy.
  std::optional<std::vector<SplitShare>> Targeted;
  /// JACC_POLICY=auto: the devices it balances over.
  std::vector<unsigned> Members;
};

/// The measured result of a timed push.
struct LaunchOutcome {
  double Seconds = 0;
  CopyCost Fetched;
  bool ListedOnce = false; ///< LaunchPlan::ListedOnce
  llvm::ArrayRef<int64_t> PartNanos;
};

class LaunchChooser {
public:
  /// JACC_SPLIT: auto measures the program and each kernel; always, never fix the mode of a
  /// kernel that can split; one runs every kernel on one device.
  void setPolicy(SplitChoice::Policy P);
  /// Keep the program regime's choices in Memory, and start from the one a past run kept
  /// (JACC_PROGRAM_CACHE). After setPolicy: a fixed regime recalls nothing.
  void rememberIn(std::unique_ptr<ProgramMemory> Memory);
  /// The decision for R (Unsupported when R forces a split the kernel cannot do); PolicyShares
  /// gives a split's shares under a policy other than auto (asked only for a split: an `any`
  /// policy reads the devices' queues).
  llvm::Expected<LaunchDecision>
  decide(const LaunchRequest &R,
         llvm::function_ref<std::vector<SplitShare>(const Distribution *)> PolicyShares);
  /// PlanOptions of the binding that carries D out.
  static void planFor(const LaunchDecision &D, PlanOptions &O);
  /// After the binding: the device the data makes the kernel run on alone (deviceptr memory, set
  /// by the binding; one memory the devices' parts would overlap in) as Plan.Owner (the code
  /// stays the one D bound), and D's shares and timing as Plan's.
  static void settle(const analysis::KernelInfo &Info, LaunchDecision &D, LaunchPlan &Plan);
  /// What a timed push (D.timed()) of R took.
  void learn(const LaunchRequest &R, const LaunchDecision &D, const LaunchOutcome &O);
  /// Forget what was learnt of Kernel: it left the kernel cache, and a later kernel may have
  /// its address.
  void forget(const void *Kernel);
  /// Forget the program and every kernel's shares (the devices change).
  void clear();
  /// Shapes of one kernel the program regime prices apart, at most: beyond, its scalars hold a
  /// counter (LU's hyperplane number), and the regime prices the kernel as one.
  static constexpr size_t MaxShapes = 16;

private:
  /// The program regime's name for a push of Kernel at Shape: one per shape while the kernel has
  /// shown at most MaxShapes, else the kernel's own.
  const void *programKey(const void *Kernel, uint64_t Shape);
  struct KernelShapes {
    std::map<uint64_t, char> Keys; ///< each shape's key: its node's address
    bool AsOne = false;            ///< more than MaxShapes: the kernel is priced as one
  };
  std::mutex ShapesMutex;
  std::unordered_map<const void *, KernelShapes> Shapes;
  SplitChoice Split;     ///< JACC_SPLIT and the adaptive chooser
  ProgramSpread Program; ///< whether spreading the program pays at all
  Balancer Balance;      ///< JACC_POLICY=auto's shares per kernel
  std::unique_ptr<ProgramMemory> Memory; ///< the program's choices kept between runs
};

} // namespace jacc

#endif
