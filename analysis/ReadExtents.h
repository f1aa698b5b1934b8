// Read extents: for every pointer argument a split nest reads, the part of the array along the
// split dimension that the iterations [lo, hi) of a device read, as affine functions of lo and hi
// (rows [lo - 1, hi + 1) for a 5-point stencil), or the whole mapping when it cannot be bounded.
// The runtime fetches exactly that part before the kernel.
#ifndef JACC_ANALYSIS_READEXTENTS_H
#define JACC_ANALYSIS_READEXTENTS_H

#include "analysis/RegionIR.h"
#include "analysis/SplitPlan.h"

#include <string>
#include <vector>

namespace jacc::analysis {

/// LoCoef * lo + HiCoef * hi + Const + Offset: lo and hi bound the split iterator's values a
/// device runs (lo <= i < hi; the whole loop's range when the nest is not narrowed).
struct ExtentBound {
  long long LoCoef = 0, HiCoef = 0, Const = 0;
  /// C text of the terms invariant in the region ("1LL * (n)"), "" when there are none.
  std::string Offset;
  bool sameShape(const ExtentBound &O) const {
    return LoCoef == O.LoCoef && HiCoef == O.HiCoef && Offset == O.Offset;
  }
};

/// The split-dimension indices [Begin, End) some reads touch (empty when End <= Begin).
struct ExtentRange {
  ExtentBound Begin, End;
};

/// What the split nest reads of one pointer argument along one dimension.
struct ReadExtent {
  unsigned Arg = 0;  ///< index in KernelInfo::Args
  std::string Name;
  unsigned Dim = 0;  ///< the dimension the ranges index (the split dimension when it is written)
  unsigned Rank = 1; ///< the subscripts of the reads
  bool Written = false; ///< the nest writes the array too (it is in SplitPlan::Arrays)
  /// The reads cannot be bounded: the device needs the whole mapping current.
  bool Whole = false;
  std::string WholeWhy; ///< the first read that makes it whole, and why
  /// Their union is what the reads touch; ranges of one shape are merged (a[i-1], a[i], a[i+1]
  /// give one range [lo - 1, hi + 1)).
  std::vector<ExtentRange> Ranges;
};

/// The read extents of the pointer arguments a region in SSA form reads, under plan P.
std::vector<ReadExtent> computeReadExtents(const RegionIR &IR, const SplitPlan &P);

struct KernelInfo;
/// Whether a device's iterations and read extents follow from the kernel's scalars alone: the
/// split nest's loop bounds, its write and read offsets, and the region's statements outside
/// the nest (which compute the scalars those may use) name no pointer or struct argument (a
/// probe before the launch would read memory that may not be current yet).
bool boundsReadNoArray(const KernelInfo &K);

/// "lo - 1", "2 * hi - 1 + (n)".
std::string describeBound(const ExtentBound &B);
/// "a along dimension 0: [lo - 1, hi + 1)" or "p: whole mapping (why)".
std::string describeReadExtent(const ReadExtent &R);

} // namespace jacc::analysis

#endif
