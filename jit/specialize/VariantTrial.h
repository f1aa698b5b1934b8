// Whether a specialized variant pays for itself: once compiled, its first timed
// launches alternate with the generic kernel's on the same values, and it is kept only if the
// median of its launches beats the generic median by MinGain; otherwise the generic code runs.
#ifndef JACC_JIT_VARIANTTRIAL_H
#define JACC_JIT_VARIANTTRIAL_H

#include <string>
#include <vector>

namespace jacc::jit {

class VariantTrial {
public:
  /// Timed launches of each code before the verdict.
  static constexpr unsigned Rounds = 4;
  /// The variant must take at most (1 - MinGain) of the generic time to be kept.
  static constexpr double MinGain = 0.02;
  enum class Verdict { Trying, Keep, Drop };

  /// Whether the next timed launch runs the variant (the variant first, then alternating).
  bool nextRunsVariant() const { return Variant.size() <= Generic.size(); }
  /// A timed launch of the variant (or of the generic code) took Seconds.
  void record(bool RanVariant, double Seconds);
  Verdict verdict() const;
  /// "0.80 ms against the generic 1.00 ms" (the medians), once decided.
  std::string describe() const;

private:
  std::vector<double> Variant, Generic;
};

} // namespace jacc::jit

#endif
