// A variant's trial: each side's timed launches recorded, and the verdict from their medians.
#include "jit/specialize/VariantTrial.h"

#include "support/Format.h"

#include <algorithm>

namespace jacc::jit {

namespace {
double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : 0.5 * (V[N / 2 - 1] + V[N / 2]);
}
} // namespace

void VariantTrial::record(bool RanVariant, double Seconds) {
  std::vector<double> &Times = RanVariant ? Variant : Generic;
  if (Times.size() < Rounds)
    Times.push_back(Seconds);
}

VariantTrial::Verdict VariantTrial::verdict() const {
  if (Variant.size() < Rounds || Generic.size() < Rounds)
    return Verdict::Trying;
  return median(Variant) <= (1 - MinGain) * median(Generic) ? Verdict::Keep : Verdict::Drop;
}

std::string VariantTrial::describe() const {
  return formatSeconds(median(Variant)) + " against the generic " + formatSeconds(median(Generic));
}

} // namespace jacc::jit
