// Adaptive multi-device execution (as JACC enables it): per kernel, split or duplicate mode is
// chosen from measured launches, and the choice is re-checked now and then.
#ifndef JACC_SRC_LAUNCH_ADAPTIVE_H
#define JACC_SRC_LAUNCH_ADAPTIVE_H

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace jacc {

class AdaptiveChooser {
public:
  /// Launches between two measurements of the mode not currently chosen, at first: each
  /// re-measurement that confirms the choice doubles the interval, up to MaxRecheckEvery; one
  /// that changes it starts again from RecheckEvery. (A re-check is not free: under the demand
  /// exchange a duplicate launch after split ones first gathers every array on every device.)
  static constexpr uint64_t RecheckEvery = 32;
  static constexpr uint64_t MaxRecheckEvery = 1024;

  /// Split or duplicate for the next launch of Kernel: each mode is measured once first, then the
  /// faster one runs, the other being measured again now and then (see RecheckEvery).
  bool chooseSplit(const void *Kernel);
  /// A synchronous launch of Kernel in that mode took Seconds (push to results, exchange included).
  void record(const void *Kernel, bool Split, double Seconds);

private:
  struct State {
    double Split = -1, Duplicate = -1; // smoothed seconds per launch, -1 until measured
    uint64_t Launches = 0;
    uint64_t Period = RecheckEvery;    // launches between re-checks
    uint64_t NextRecheck = RecheckEvery;
  };
  std::mutex M;
  std::unordered_map<const void *, State> States;
};

} // namespace jacc

#endif
