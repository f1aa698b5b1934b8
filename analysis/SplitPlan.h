// The split plan of a parallel nest: for every array argument the region writes, the dimension
// its owned ranges are cut along (the one indexed by the parallel iterator), whether the iteration
// space can be narrowed to each device's ranges, and why the nest cannot be split, if it cannot.
#ifndef JACC_ANALYSIS_SPLITPLAN_H
#define JACC_ANALYSIS_SPLITPLAN_H

#include "analysis/ExtentBounds.h"
#include "analysis/RegionIR.h"

#include <set>
#include <string>
#include <vector>

namespace jacc::analysis {

/// A write whose split-dimension index is Coef * outermost-iterator + Offset (Offset: C text of
/// an expression invariant in the region).
struct AffineWrite {
  long long Coef = 0;
  std::string Offset;
};

struct SplitArray {
  unsigned Arg = 0;             ///< index in KernelInfo::Args
  std::string Name;
  unsigned Dim = 0;             ///< split dimension
  unsigned Rank = 1;            ///< dimensions of the accesses
  bool Affine = true;           ///< every write's split index is an AffineWrite
  std::vector<AffineWrite> Writes;
  /// Other dimensions along which every write stays a fixed number of indices wide (a boundary
  /// plane): what a device writes of its owned part lies inside each.
  std::vector<ExtentWindow> Windows;
};

struct SplitPlan {
  std::vector<SplitArray> Arrays;
  std::set<unsigned> ReadArgs;  ///< pointer arguments the region reads (aliasing checks)
  bool Splittable = true;
  std::string Fallback;         ///< why not, when !Splittable
  bool Narrowable = true;       ///< every write affine in the outermost iterator, none atomic
  std::string NoNarrowing;      ///< why not
  bool HasShareTerms = false;   ///< reductions: the device's share of the iterations matters

  const SplitArray *find(const std::string &Name) const {
    for (const SplitArray &A : Arrays)
      if (A.Name == Name)
        return &A;
    return nullptr;
  }
};

/// Decide the plan for a region in SSA form.
SplitPlan planSplit(const RegionIR &IR);

} // namespace jacc::analysis

#endif
