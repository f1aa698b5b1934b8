#include "src/launch/Adaptive.h"

#include "support/Debug.h"

#include <algorithm>

namespace jacc {

bool AdaptiveChooser::chooseSplit(const void *Kernel) {
  std::lock_guard<std::mutex> L(M);
  State &S = States[Kernel];
  ++S.Launches;
  if (S.Split < 0)
    return true;
  if (S.Duplicate < 0)
    return false;
  bool Faster = S.Split <= S.Duplicate;
  if (S.Launches < S.NextRecheck)
    return Faster;
  S.NextRecheck = S.Launches + S.Period;
  return !Faster;
}

void AdaptiveChooser::record(const void *Kernel, bool Split, double Seconds) {
  std::lock_guard<std::mutex> L(M);
  State &S = States[Kernel];
  double &T = Split ? S.Split : S.Duplicate;
  bool First = T < 0;
  bool Measured = S.Split >= 0 && S.Duplicate >= 0;
  bool Chosen = S.Split <= S.Duplicate; // split is the current choice
  T = First ? Seconds : 0.5 * T + 0.5 * Seconds;
  // A re-check of the mode not chosen: back off while it confirms the choice.
  if (Measured && Split != Chosen) {
    bool Confirmed = (S.Split <= S.Duplicate) == Chosen;
    S.Period = Confirmed ? std::min(2 * S.Period, MaxRecheckEvery) : RecheckEvery;
    S.NextRecheck = S.Launches + S.Period;
  }
  if (First && S.Split >= 0 && S.Duplicate >= 0)
    debugLog("launch", "adaptive: split " + std::to_string(S.Split * 1e3) + " ms, duplicate " +
                           std::to_string(S.Duplicate * 1e3) + " ms per launch: " +
                           (S.Split <= S.Duplicate ? "split" : "duplicate"));
}

} // namespace jacc
