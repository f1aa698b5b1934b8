// Timing windows of launches spread over the devices and on one device, pricing each regime by
// its kernels' mean times weighted by their launches, and re-checking the choice with back-off.
#include "src/launch/ProgramSpread.h"

#include "support/Debug.h"
#include "support/Format.h"

#include <algorithm>
#include <cmath>

namespace jacc {

namespace {

ProgramSpread::Regime other(ProgramSpread::Regime R) {
  return R == ProgramSpread::Regime::Spread ? ProgramSpread::Regime::OneDevice
                                            : ProgramSpread::Regime::Spread;
}

const char *nameOf(ProgramSpread::Regime R) {
  return R == ProgramSpread::Regime::Spread ? "spread over the devices" : "on one device";
}

} // namespace

void ProgramSpread::fix(bool IsFixed, Regime R) {
  std::lock_guard<std::mutex> L(M);
  Fixed = IsFixed;
  FixedRegime = R;
}

ProgramSpread::Step ProgramSpread::next(const void *Kernel, Regime FirstRegime) {
  std::lock_guard<std::mutex> L(M);
  if (Fixed)
    return {FixedRegime, false};
  KernelTimes &K = Kernels[Kernel];
  Decided = false;
  if (Launches == 0) {
    Opening = Previous = Window = Choice = Recalled ? Recalled->Choice : FirstRegime;
    if (Recalled) {
      // A choice no re-check confirmed is re-checked early (its run's timings may have been
      // disturbed, by its own first compiles for one); then as rarely as confirmations earned.
      Now = Phase::Chosen;
      Period = Recalled->Windows;
      Confirmed = Recalled->Confirmed;
      WindowsLeft = Confirmed ? Period : std::min(Period, RecheckWindows);
    }
    startWindow(Opening);
  } else if (Launches >= WindowEnd || Abort || longEnough())
    endWindow();
  ++Launches;
  ++K.Launches;
  if (K.WindowLaunches++ == 0)
    ++WindowKernels;
  return {Window, true, Decided};
}

void ProgramSpread::record(const void *Kernel, Regime R, double Seconds, bool OneOff,
                           uint64_t FetchedBytes) {
  std::lock_guard<std::mutex> L(M);
  if (Fixed || R != Window)
    return;
  auto It = Kernels.find(Kernel);
  if (It == Kernels.end())
    return;
  KernelTimes &K = It->second;
  // A kernel's first launch after the regime changed pays for the change (its data gathered on
  // one device, or spread again), and so does any launch on one device that still fetched: a
  // cost of re-timing, not of the regime. Its first launch ever pays for the devices' first
  // touch of its data. A one-off push is its kernel's first in the window all the same.
  bool First = !K.SeenInWindow;
  K.SeenInWindow = true;
  if (OneOff)
    return;
  bool Gathering = R == Regime::OneDevice && FetchedBytes > 0;
  if ((First && (Window != Previous || K.Launches == 1)) || Gathering) {
    double Mean = K.Mean[int(Window)];
    if (Window != Previous && Mean >= 0)
      EntrySeconds += std::max(0.0, Seconds - Mean);
    return;
  }
  K.WindowSeconds += Seconds;
  ++K.WindowTimed;
  WindowElapsed += Seconds;
  double Reference = K.Mean[int(other(Window))];
  if ((Now == Phase::TimeSecond || Now == Phase::Recheck) && Reference >= 0) {
    AbortSeconds += Seconds;
    AbortReference += Reference;
    Abort = ++AbortCompared >= AbortAfter && AbortSeconds > AbortFactor * AbortReference;
  }
}

ProgramSpread::Regime ProgramSpread::chosen() {
  std::lock_guard<std::mutex> L(M);
  return Fixed ? FixedRegime : Choice;
}

void ProgramSpread::recall(const Kept &K) {
  std::lock_guard<std::mutex> L(M);
  if (Launches > 0)
    return; // the program runs already: its own timings decide
  Recalled = K;
  Recalled->Windows = std::clamp<uint64_t>(K.Windows, 1, MaxRecheckWindows);
}

ProgramSpread::Kept ProgramSpread::kept() {
  std::lock_guard<std::mutex> L(M);
  return {Choice, Period, Confirmed};
}

void ProgramSpread::forget(const void *Kernel) {
  std::lock_guard<std::mutex> L(M);
  auto It = Kernels.find(Kernel);
  if (It == Kernels.end())
    return;
  WindowKernels -= It->second.WindowLaunches > 0;
  Kernels.erase(It);
}

void ProgramSpread::clear() {
  std::lock_guard<std::mutex> L(M);
  Kernels.clear();
  Now = Phase::TimeFirst;
  Window = Previous = Choice = Opening;
  Launches = WindowEnd = WindowsLeft = WindowStart = WindowKernels = 0;
  WindowElapsed = 0;
  Period = RecheckWindows;
  EntrySeconds = EntryCost[0] = EntryCost[1] = 0;
  Recalled.reset();
  Decided = Confirmed = false;
}

void ProgramSpread::startWindow(Regime R) {
  Previous = Window;
  Window = R;
  EntrySeconds = AbortSeconds = AbortReference = 0;
  AbortCompared = 0;
  Abort = false;
  WindowEnd = Launches + std::max<uint64_t>(MinWindow, WindowPerKernel * Kernels.size());
  WindowStart = Launches;
  WindowKernels = 0;
  WindowElapsed = 0;
  for (auto &[Id, K] : Kernels) {
    K.WindowSeconds = 0;
    K.WindowTimed = 0;
    K.SeenInWindow = false;
    K.WindowLaunches = 0;
  }
}

bool ProgramSpread::longEnough() const {
  if (WindowElapsed < MinWindowSeconds || Launches - WindowStart < WindowPerKernel * WindowKernels)
    return false;
  // Each kernel it ran again was timed in it (a kernel's first launch in a window may not
  // count), and so was each kernel it ran that the other regime timed: the two are compared on
  // the kernels both timed.
  bool Comparing = Now == Phase::TimeSecond || Now == Phase::Recheck;
  for (const auto &[Id, K] : Kernels)
    if (K.WindowTimed == 0 && (K.WindowLaunches > 1 || (Comparing && K.WindowLaunches > 0 &&
                                                        K.Mean[int(other(Window))] >= 0)))
      return false;
  return true;
}

ProgramSpread::Prices ProgramSpread::prices() const {
  Prices P;
  for (const auto &[Id, K] : Kernels)
    if (K.Mean[0] >= 0 && K.Mean[1] >= 0) {
      P.Spread += double(K.Launches) * K.Mean[int(Regime::Spread)];
      P.One += double(K.Launches) * K.Mean[int(Regime::OneDevice)];
      P.Launches += K.Launches;
    }
  return P;
}

ProgramSpread::Regime ProgramSpread::Prices::cheaper() const {
  if (One <= 0)
    return Regime::Spread; // nothing timed under both (endWindow times both again)
  return Spread < One * (1 - SpreadMargin) ? Regime::Spread : Regime::OneDevice;
}

void ProgramSpread::endWindow() {
  uint64_t WindowLaunches = 0;
  for (auto &[Id, K] : Kernels) {
    WindowLaunches += K.WindowTimed;
    if (K.WindowTimed > 0)
      K.Mean[int(Window)] = K.WindowSeconds / double(K.WindowTimed);
  }
  if (Window != Previous)
    EntryCost[int(Window)] = EntrySeconds;
  switch (Now) {
  case Phase::TimeFirst:
    Now = Phase::TimeSecond;
    startWindow(other(Opening));
    return;
  case Phase::Chosen:
    if (--WindowsLeft == 0) {
      Now = Phase::Recheck;
      startWindow(other(Choice));
    } else {
      startWindow(Choice);
    }
    return;
  case Phase::TimeSecond:
  case Phase::Recheck:
    break;
  }
  Prices P = prices();
  Regime New = P.cheaper();
  if (Now == Phase::TimeSecond && P.One <= 0) {
    // No kernel ran under both (the first window was the program's set-up): time the other
    // regime again, against the kernels this window timed, and choose at its end.
    startWindow(other(Window));
    return;
  }
  // Confirmed by a re-check: back off; a new choice starts again. Either way, what re-timing
  // costs beyond the chosen regime stays within the budget.
  Confirmed = Now == Phase::Recheck && New == Choice;
  Period = Confirmed ? std::min(2 * Period, MaxRecheckWindows) : RecheckWindows;
  // Per launch: what the chosen regime costs, and what a re-check adds to it (its window's
  // launches under the other regime, and the two switches it takes, spread over its window).
  double PerLaunch = P.Launches ? 1.0 / double(P.Launches) : 0;
  double Chosen = (New == Regime::Spread ? P.Spread : P.One) * PerLaunch;
  double Extra = (P.Spread + P.One) * PerLaunch - 2 * Chosen;
  if (WindowLaunches > 0)
    Extra += (EntryCost[0] + EntryCost[1]) / double(WindowLaunches);
  if (Chosen > 0 && Extra > 0)
    Period = std::max<uint64_t>(
        Period,
        uint64_t(std::min(std::ceil(Extra / (RecheckBudget * Chosen)), double(MaxRecheckWindows))));
  if (Now == Phase::TimeSecond || New != Choice) {
    debugLog("launch", std::string("program: ") + formatSeconds(P.Spread * PerLaunch) +
                           " per launch spread over the devices, " +
                           formatSeconds(P.One * PerLaunch) + " on one device (" +
                           std::to_string(P.Launches) +
                           " launches of kernels timed under both; switching cost " +
                           formatSeconds(EntryCost[int(Regime::Spread)]) + " to spread, " +
                           formatSeconds(EntryCost[int(Regime::OneDevice)]) +
                           " to one device; next re-check in " + std::to_string(Period) +
                           " windows): " + nameOf(New));
  }
  Choice = New;
  Decided = true;
  Now = Phase::Chosen;
  WindowsLeft = Period;
  startWindow(Choice);
}

} // namespace jacc
