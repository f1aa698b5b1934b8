// Whether spreading the program over its devices pays, measured on the program as a whole.
// The adaptive chooser (Adaptive.h) prices a kernel's split against its duplicate by the launch
// alone, but what a split costs arrives later, in the launches of the kernels after it: the bytes
// they fetch because it left the data decomposed another way (an ADI solver's sweeps along x, y
// and z; a V-cycle's grids of every size). So windows of launches are timed spread over the
// devices (each kernel as the adaptive chooser decides) and with every kernel on one device; each
// kernel's mean time in both, weighted by how often it runs, prices the program under each, and
// the cheaper one runs, the other being timed again now and then within a budget. Where the
// devices share their cores one device is timed first, as the program would run without the
// others; a window of the other regime that already costs AbortFactor times as much ends early.
#ifndef JACC_SRC_LAUNCH_PROGRAMSPREAD_H
#define JACC_SRC_LAUNCH_PROGRAMSPREAD_H

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace jacc {

class ProgramSpread {
public:
  /// How the program's kernels run: spread over the devices, or each on one device.
  enum class Regime { Spread, OneDevice };
  /// Launches in a window: at least MinWindow, and WindowPerKernel per kernel seen so far, so
  /// that a window holds a whole time step of the program (most kernels run once or twice in
  /// one; a window spread costs what the program's worst regime does, so no more).
  static constexpr uint64_t MinWindow = 64;
  static constexpr uint64_t WindowPerKernel = 2;
  /// A window whose timed launches (not those paying for a switch, a first touch or a compile)
  /// took this long in all ends once it holds WindowPerKernel launches of each kernel it ran, and
  /// has timed each kernel it ran more than once: a program of few long launches (NPB FT: 55 of
  /// about 50 ms) would otherwise run whole in its first window, and its launches are long enough
  /// to time alone.
  static constexpr double MinWindowSeconds = 0.05;
  /// Windows between two timings of the regime not chosen: at least (doubling while they
  /// confirm the choice, and stretched to the budget below), and at most.
  static constexpr uint64_t RecheckWindows = 8, MaxRecheckWindows = 512;
  /// What re-timing the other regime costs beyond the chosen one (its launches' extra time, and
  /// what switching to it and back cost the last time: the data gathered on one device or spread
  /// again) is kept within this fraction of the time between two re-timings.
  static constexpr double RecheckBudget = 0.02;
  /// Spreading is chosen only when it is at least this much cheaper than one device: at equal
  /// cost one device leaves the others idle and moves nothing.
  static constexpr double SpreadMargin = 0.05;
  /// A window timing the regime not chosen (or spreading, before anything was chosen) ends once
  /// AbortAfter of its launches took AbortFactor times what their kernels take under the other
  /// regime: a program whose kernels run ten times slower spread (BT: 3.2 ms against 348 us)
  /// need not run a whole time step that way to know it.
  static constexpr double AbortFactor = 2;
  static constexpr uint64_t AbortAfter = 8;

  /// Fix the regime (JACC_SPLIT=one: every kernel on one device; always, never: spread), or
  /// measure it (Fixed false).
  void fix(bool Fixed, Regime R = Regime::Spread);
  /// The regime of the next push of Kernel, counted. Measure: time it and record() it. First:
  /// the regime timed first, and run until both were timed (read at the program's first push).
  struct Step {
    Regime How = Regime::Spread;
    bool Measure = false;
    bool Decided = false; ///< the regime was chosen (or chosen again) at this push
  };
  Step next(const void *Kernel, Regime First = Regime::Spread);
  /// A push of Kernel under R, synchronous, took Seconds (choice to results), fetching
  /// FetchedBytes between the devices first. Dropped when the window it was counted in is over,
  /// when the push paid a one-off cost (OneOff: its exchange worked out the ranges of a new
  /// probe result, as a sweep's first pass does for each plane), and on one device when it
  /// fetched: there nothing moves once the data is gathered, so its fetch was part of the
  /// switch (a V-cycle reaches each grid level in a later launch of the same kernel).
  void record(const void *Kernel, Regime R, double Seconds, bool OneOff = false,
              uint64_t FetchedBytes = 0);
  /// A choice as the program's later runs start from it (ProgramMemory keeps it).
  struct Kept {
    Regime Choice = Regime::Spread;
    uint64_t Windows = RecheckWindows; ///< windows before the other regime is timed again
    bool Confirmed = false;            ///< a re-check timed the other regime and the choice held
    bool operator==(const Kept &O) const {
      return Choice == O.Choice && Windows == O.Windows && Confirmed == O.Confirmed;
    }
  };
  /// Start the program (before its first push) with K's choice, as a past run of it chose: the
  /// other regime is timed after K.Windows windows, or, when no re-check confirmed the choice
  /// yet, after RecheckWindows if fewer (a run's timings can be disturbed); then at intervals
  /// doubling from K.Windows while it confirms.
  void recall(const Kept &K);
  /// The regime chosen (the first regime until both were timed).
  Regime chosen();
  /// The choice as it stands, for the program's next runs.
  Kept kept();
  /// Forget the program (the devices change): timing starts again.
  void clear();
  /// Forget Kernel (it left the kernel cache).
  void forget(const void *Kernel);

private:
  enum class Phase { TimeFirst, TimeSecond, Chosen, Recheck };
  struct KernelTimes {
    uint64_t Launches = 0;
    double Mean[2] = {-1, -1}; ///< seconds per launch under each regime; -1 never timed
    double WindowSeconds = 0;
    uint64_t WindowTimed = 0;
    bool SeenInWindow = false; ///< its first launch in a window may not count (see record)
    uint64_t WindowLaunches = 0; ///< its launches in this window (WindowTimed: those timed)
  };
  void endWindow(); // under the lock
  void startWindow(Regime R);
  /// Whether the window has run long enough to end before WindowEnd (MinWindowSeconds).
  bool longEnough() const;
  /// The program's price under each regime: the kernels timed under both, each mean weighted
  /// by its launches (Launches: theirs in all).
  struct Prices {
    double Spread = 0, One = 0;
    uint64_t Launches = 0;
    Regime cheaper() const;
  };
  Prices prices() const;
  std::mutex M;
  std::unordered_map<const void *, KernelTimes> Kernels;
  bool Fixed = false;
  Regime FixedRegime = Regime::Spread;
  Phase Now = Phase::TimeFirst;
  /// The regime timed first (next()'s First at the program's first push).
  Regime Opening = Regime::Spread;
  Regime Window = Regime::Spread, Previous = Regime::Spread, Choice = Regime::Spread;
  /// A past run's choice (recall), and whether endWindow just made one.
  std::optional<Kept> Recalled;
  bool Decided = false;
  bool Confirmed = false; ///< the choice held at a re-check
  /// This window's first launches after a switch: their time beyond their kernels' means.
  double EntrySeconds = 0;
  /// This window's timed launches of kernels timed under the other regime: their seconds, what
  /// they took there, how many; whether the window ends at the next push.
  double AbortSeconds = 0, AbortReference = 0;
  uint64_t AbortCompared = 0;
  bool Abort = false;
  /// What switching into each regime cost the last time it was measured (seconds).
  double EntryCost[2] = {0, 0};
  uint64_t Launches = 0, WindowEnd = 0, WindowsLeft = 0;
  /// This window: its first launch, the kernels it ran, its timed launches' seconds.
  uint64_t WindowStart = 0, WindowKernels = 0;
  double WindowElapsed = 0;
  uint64_t Period = RecheckWindows;
};

} // namespace jacc

#endif
