// Affine bounds of the indices a split nest's accesses touch along one dimension, in terms of
// the device's iterations [lo, hi) of the split iterator (analysis/ReadExtents.h computes them).
#ifndef JACC_ANALYSIS_EXTENTBOUNDS_H
#define JACC_ANALYSIS_EXTENTBOUNDS_H

#include <string>
#include <vector>

namespace jacc::analysis {

/// (LoCoef * lo + HiCoef * hi) * Scale + Const + Offset: lo and hi bound the split iterator's
/// values a device runs (lo <= i < hi; the whole loop's range when the nest is not narrowed).
struct ExtentBound {
  long long LoCoef = 0, HiCoef = 0, Const = 0;
  /// C text of the terms invariant in the region ("1LL * (n)"), "" when there are none.
  std::string Offset;
  /// C text of a product of invariants ("(n) * (m)": an index linearized with run-time strides),
  /// "" for 1. The bound holds where it is positive; a probe reads the whole mapping elsewhere.
  std::string Scale;
  bool sameShape(const ExtentBound &O) const {
    return LoCoef == O.LoCoef && HiCoef == O.HiCoef && Offset == O.Offset && Scale == O.Scale;
  }
};

/// The indices [Begin, End) some accesses touch along a dimension (empty when End <= Begin).
struct ExtentRange {
  ExtentBound Begin, End;
};

/// A dimension other than the split one along which some accesses stay within [Begin, End) of
/// their ranges, ranges that do not move with the iterations and span a fixed number of indices.
struct ExtentWindow {
  unsigned Dim = 0;
  std::vector<ExtentRange> Ranges;
};

} // namespace jacc::analysis

#endif
