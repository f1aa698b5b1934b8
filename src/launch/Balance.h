// JACC_POLICY=auto: each kernel's shares moved, from measured runs, until its devices finish
// together; beyond the seeds (Gecko's and MCtrl's shares are given, not learnt).
#ifndef JACC_SRC_LAUNCH_BALANCE_H
#define JACC_SRC_LAUNCH_BALANCE_H

#include "src/launch/KernelLaunch.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace jacc {

/// Per kernel: weights, equal at first; each timed split launch gives every device's speed (its
/// share over its run time), and the next weights are the median speeds of the last Remembered
/// timed launches, halfway from the previous weights: one run that the operating system
/// interrupted (a descheduled thread, a page fault storm) moves nothing. Balanced when the slowest
/// run is within Tolerance of the fastest; from then on one launch in RecheckEvery is timed. No
/// device's weight falls below MinWeight, so that a slow device is still measured.
class Balancer {
public:
  static constexpr double Tolerance = 0.05, MinWeight = 0.02;
  static constexpr unsigned RecheckEvery = 16, Remembered = 3;

  struct Next {
    std::vector<SplitShare> Shares;
    bool Timed = false; ///< time the parts and record() them
  };
  /// The shares of Kernel's next split launch on Devices devices.
  Next next(const void *Kernel, unsigned Devices);
  /// The same over the devices Members only (indices among Devices, a location's): the others
  /// get an empty share. A kernel whose members change starts again from equal weights.
  Next next(const void *Kernel, llvm::ArrayRef<unsigned> Members, unsigned Devices);
  /// The parts' run times (nanoseconds, one per device; negative: unknown) of a timed launch;
  /// only the members' count.
  void record(const void *Kernel, llvm::ArrayRef<int64_t> Nanos);
  /// Kernel's weights now, one per member (adding up to 1; empty: never launched).
  std::vector<double> weights(const void *Kernel) const;
  /// Whether Kernel's last timed launch was balanced.
  bool balanced(const void *Kernel) const;
  /// Forget every kernel (the devices change).
  void clear();
  /// Forget Kernel (it left the kernel cache).
  void forget(const void *Kernel);

private:
  struct State {
    std::vector<unsigned> Members; ///< the devices it balances over
    std::vector<double> Weights;   ///< one per member
    /// The last Remembered timed launches' speeds, as shares (one per member, adding up to 1).
    std::vector<std::vector<double>> Speeds;
    unsigned Launches = 0;
    bool Balanced = false;
  };
  mutable std::mutex M;
  std::unordered_map<const void *, State> Kernels;
};

} // namespace jacc

#endif
