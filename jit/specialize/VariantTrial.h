// Whether a specialized variant pays for itself: once compiled, its first timed launches
// alternate with the generic kernel's in blocks of four (variant, generic, generic, variant), and
// it is kept only if the median of the blocks' time ratios beats 1 by MinGain; otherwise the
// generic code runs. The mirrored order cancels a steady change of the work from one push to the
// next (NPB LU's hyperplanes grow, then shrink), which plain alternation would credit to one side.
// Only launches that ran alike compare: a split launch's time includes its exchanges.
#ifndef JACC_JIT_VARIANTTRIAL_H
#define JACC_JIT_VARIANTTRIAL_H

#include <string>
#include <vector>

namespace jacc::jit {

class VariantTrial {
public:
  /// Blocks of four timed launches (two of each code) before the verdict.
  static constexpr unsigned Blocks = 4;
  /// Timed launches of each code before the verdict.
  static constexpr unsigned Rounds = 2 * Blocks;
  /// The variant must take at most (1 - MinGain) of the generic time to be kept.
  static constexpr double MinGain = 0.02;
  /// Times a launch that ran otherwise than the trial's so far starts it again; beyond, a
  /// kernel whose launches never settle on one way is judged on mixed launches.
  static constexpr unsigned MaxRestarts = 3;
  enum class Verdict { Trying, Keep, Drop };

  /// Whether the next timed launch runs the variant: first and last of each block of four.
  bool nextRunsVariant() const;
  /// A timed launch of the variant (or of the generic code) took Seconds; Mode: how it ran (on
  /// one device, split, duplicated: the caller's numbering). A launch in another mode than the
  /// trial's first starts the trial again in its mode (at most MaxRestarts times).
  void record(bool RanVariant, double Seconds, unsigned Mode = 0);
  Verdict verdict() const;
  /// "0.80 ms against the generic 1.00 ms" (the medians of each side's launches), once decided.
  std::string describe() const;

private:
  std::vector<double> Variant, Generic; ///< every launch's time, by code
  std::vector<double> Ratios;           ///< each complete block's variant / generic time
  double BlockVariant = 0, BlockGeneric = 0;
  unsigned InBlock = 0; ///< launches of the current block recorded
  unsigned Mode = 0, Restarts = 0;
};

} // namespace jacc::jit

#endif
