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
  /// Launches between two measurements of the mode not currently chosen.
  static constexpr uint64_t RecheckEvery = 32;

  /// Split or duplicate for the next launch of Kernel: each mode is measured once first, then the
  /// faster one runs, the other being measured again every RecheckEvery launches.
  bool chooseSplit(const void *Kernel);
  /// A synchronous launch of Kernel in that mode took Seconds (push to results, exchange included).
  void record(const void *Kernel, bool Split, double Seconds);

private:
  struct State {
    double Split = -1, Duplicate = -1; // smoothed seconds per launch, -1 until measured
    uint64_t Launches = 0;
  };
  std::mutex M;
  std::unordered_map<const void *, State> States;
};

} // namespace jacc

#endif
