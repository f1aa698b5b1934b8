// Read extents: for every pointer argument a split nest reads, the part of the array along the
// split dimension that the iterations [lo, hi) of a device read, as affine functions of lo and hi
// (rows [lo - 1, hi + 1) for a 5-point stencil), or the whole mapping when it cannot be bounded;
// and windows along other dimensions where the reads stay within a few indices (a boundary
// plane). The runtime fetches exactly that part before the kernel.
#ifndef JACC_ANALYSIS_READEXTENTS_H
#define JACC_ANALYSIS_READEXTENTS_H

#include "analysis/ExtentBounds.h"
#include "analysis/RegionIR.h"
#include "analysis/SplitPlan.h"

#include <string>
#include <vector>

namespace jacc::analysis {

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
  /// The other dimensions along which every read stays a fixed number of indices wide,
  /// whatever the iterations (u[m][k][j][i] read at k, k + 1 and k + 2 while the split cuts j:
  /// the planes [k, k + 3)): the device needs the extent's ranges inside each window's hull only.
  std::vector<ExtentWindow> Windows;
};

/// The read extents of the pointer arguments a region in SSA form reads, under plan P.
std::vector<ReadExtent> computeReadExtents(const RegionIR &IR, const SplitPlan &P);
/// The windows of each split array's writes (SplitArray::Windows), the outermost first.
void findWriteWindows(const RegionIR &IR, SplitPlan &P);

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
