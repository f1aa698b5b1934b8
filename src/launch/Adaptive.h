// Adaptive multi-device execution (as JACC enables it): per kernel, split or duplicate mode is
// chosen from measured launches, each priced by its computation plus the bytes it fetched from
// other devices at the measured copy bandwidth, and the choice is re-checked now and then.
#ifndef JACC_SRC_LAUNCH_ADAPTIVE_H
#define JACC_SRC_LAUNCH_ADAPTIVE_H

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace jacc {

/// One synchronous launch as the chooser sees it.
struct MeasuredLaunch {
  bool Split = false;
  double Seconds = 0;         ///< push to results, fetches and exchange included
  uint64_t FetchedBytes = 0;  ///< copied between devices before the kernel (demand exchange)
  double FetchSeconds = 0;    ///< spent in those copies
};

class AdaptiveChooser {
public:
  /// Launches between two measurements of the mode not currently chosen, at first: each
  /// re-measurement that confirms the choice doubles the interval, up to MaxRecheckEvery; one
  /// that changes it starts again from RecheckEvery.
  static constexpr uint64_t RecheckEvery = 32;
  static constexpr uint64_t MaxRecheckEvery = 1024;
  /// A re-check is not free (under the demand exchange a duplicate launch after split ones first
  /// gathers every array on every device): the interval is also stretched until what the last
  /// re-check cost beyond the chosen mode is at most this fraction of the interval's time.
  static constexpr double RecheckBudget = 0.05;
  /// Copy cost assumed until a fetch has been measured (10 GB/s).
  static constexpr double DefaultSecondsPerByte = 1e-10;

  /// Split or duplicate for the next launch of Kernel: each mode is measured once first, then the
  /// cheaper one runs, the other being measured again now and then (see RecheckEvery).
  bool chooseSplit(const void *Kernel);
  /// A synchronous launch of Kernel took L.
  void record(const void *Kernel, const MeasuredLaunch &L);
  /// A launch that fetched nothing.
  void record(const void *Kernel, bool Split, double Seconds) {
    record(Kernel, MeasuredLaunch{Split, Seconds, 0, 0});
  }
  /// What a launch of Kernel in that mode is expected to cost (seconds; -1 until measured).
  double price(const void *Kernel, bool Split);
  /// The copy cost fetches are priced at (seconds per byte), measured over every kernel's.
  double secondsPerByte();
  /// Forget Kernel (it left the kernel cache).
  void forget(const void *Kernel);

private:
  struct Mode {
    double Compute = -1; ///< smoothed seconds per launch without the fetch copies, -1 unmeasured
    double Bytes = 0;    ///< smoothed bytes fetched per launch
  };
  struct State {
    Mode Split, Duplicate;
    uint64_t Launches = 0;
    uint64_t Period = RecheckEvery;    // launches between re-checks
    uint64_t NextRecheck = RecheckEvery;
  };
  double perByte() const; // secondsPerByte() under the lock
  double priceOf(const Mode &M) const;
  std::mutex M;
  std::unordered_map<const void *, State> States;
  // Every fetch's bytes and copy time, older ones decaying: their ratio prices fetches.
  double CopyBytes = 0, CopySeconds = 0;
};

} // namespace jacc

#endif
