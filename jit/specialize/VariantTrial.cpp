// A variant's trial: each block's time ratio recorded, and the verdict from their median.
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

bool VariantTrial::nextRunsVariant() const {
  return InBlock == 0 || InBlock == 3;
}

void VariantTrial::record(bool RanVariant, double Seconds, unsigned LaunchMode) {
  if (Ratios.size() >= Blocks)
    return;
  bool Started = !Variant.empty() || !Generic.empty();
  if (Started && LaunchMode != Mode && Restarts < MaxRestarts) {
    unsigned Restarted = Restarts + 1;
    *this = VariantTrial();
    Restarts = Restarted;
    Started = false;
  }
  if (!Started)
    Mode = LaunchMode;
  (RanVariant ? Variant : Generic).push_back(Seconds);
  (RanVariant ? BlockVariant : BlockGeneric) += Seconds;
  if (++InBlock < 4)
    return;
  Ratios.push_back(BlockGeneric > 0 ? BlockVariant / BlockGeneric : 1.0);
  BlockVariant = BlockGeneric = 0;
  InBlock = 0;
}

VariantTrial::Verdict VariantTrial::verdict() const {
  if (Ratios.size() < Blocks)
    return Verdict::Trying;
  return median(Ratios) <= 1 - MinGain ? Verdict::Keep : Verdict::Drop;
}

std::string VariantTrial::describe() const {
  return formatSeconds(median(Variant)) + " against the generic " + formatSeconds(median(Generic));
}

} // namespace jacc::jit
