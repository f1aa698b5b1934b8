// The adaptive chooser's prices: each kernel's split and duplicate launches averaged into compute
// time plus bytes fetched at the measured copy rate; the cheaper runs, the other re-checked.
#include "src/launch/Adaptive.h"

#include "support/Debug.h"
#include "support/Format.h"

#include <algorithm>
#include <cmath>

namespace jacc {

double AdaptiveChooser::perByte() const {
  return CopyBytes > 0 ? CopySeconds / CopyBytes : DefaultSecondsPerByte;
}

double AdaptiveChooser::priceOf(const Mode &Md) const {
  return Md.Compute < 0 ? -1 : Md.Compute + Md.Bytes * perByte();
}

double AdaptiveChooser::price(const void *Kernel, bool Split) {
  std::lock_guard<std::mutex> L(M);
  const State &S = States[Kernel];
  return priceOf(Split ? S.Split : S.Duplicate);
}

double AdaptiveChooser::secondsPerByte() {
  std::lock_guard<std::mutex> L(M);
  return perByte();
}

bool AdaptiveChooser::chooseSplit(const void *Kernel) {
  std::lock_guard<std::mutex> L(M);
  State &S = States[Kernel];
  ++S.Launches;
  if (S.Split.Compute < 0)
    return true;
  if (S.Duplicate.Compute < 0)
    return false;
  bool Cheaper = priceOf(S.Split) <= priceOf(S.Duplicate);
  if (S.Launches < S.NextRecheck)
    return Cheaper;
  S.NextRecheck = S.Launches + S.Period;
  return !Cheaper;
}

void AdaptiveChooser::record(const void *Kernel, const MeasuredLaunch &Launch) {
  std::lock_guard<std::mutex> L(M);
  if (Launch.FetchedBytes > 0) {
    // Older copies count half as much after each new one.
    CopyBytes = 0.5 * CopyBytes + double(Launch.FetchedBytes);
    CopySeconds = 0.5 * CopySeconds + Launch.FetchSeconds;
  }
  State &S = States[Kernel];
  bool Measured = S.Split.Compute >= 0 && S.Duplicate.Compute >= 0;
  bool Chosen = Measured && priceOf(S.Split) <= priceOf(S.Duplicate); // split is chosen
  double ChosenPrice = Measured ? priceOf(Chosen ? S.Split : S.Duplicate) : 0;
  Mode &Md = Launch.Split ? S.Split : S.Duplicate;
  bool First = Md.Compute < 0;
  double Compute = std::max(0.0, Launch.Seconds - Launch.FetchSeconds);
  double Bytes = double(Launch.FetchedBytes);
  Md.Compute = First ? Compute : 0.5 * Md.Compute + 0.5 * Compute;
  Md.Bytes = First ? Bytes : 0.5 * Md.Bytes + 0.5 * Bytes;
  // A re-check of the mode not chosen: back off while it confirms the choice, and keep what
  // the re-checks cost within the budget.
  if (Measured && Launch.Split != Chosen) {
    bool Confirmed = (priceOf(S.Split) <= priceOf(S.Duplicate)) == Chosen;
    S.Period = Confirmed ? std::min(2 * S.Period, MaxRecheckEvery) : RecheckEvery;
    double Extra = Launch.Seconds - ChosenPrice;
    if (Confirmed && Extra > 0 && ChosenPrice > 0)
      S.Period = std::max<uint64_t>(
          S.Period, uint64_t(std::min(std::ceil(Extra / (RecheckBudget * ChosenPrice)),
                                      double(MaxRecheckEvery))));
    S.NextRecheck = S.Launches + S.Period;
  }
  if (First && S.Split.Compute >= 0 && S.Duplicate.Compute >= 0) {
    auto Describe = [&](const char *Name, const Mode &X) {
      return std::string(Name) + " " + formatSeconds(priceOf(X)) + " (" +
             formatBytes(uint64_t(X.Bytes)) + " fetched)";
    };
    debugLog("launch", "adaptive: " + Describe("split", S.Split) + ", " +
                           Describe("duplicate", S.Duplicate) + " per launch: " +
                           (priceOf(S.Split) <= priceOf(S.Duplicate) ? "split" : "duplicate"));
  }
}

void AdaptiveChooser::forget(const void *Kernel) {
  std::lock_guard<std::mutex> L(M);
  States.erase(Kernel);
}

} // namespace jacc
