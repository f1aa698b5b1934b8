// The split plan of a parallel nest: for every array argument the region writes, the dimension
// its owned ranges are cut along (the one indexed by the parallel iterator), whether the iteration
// space can be narrowed to each device's ranges, and why the nest cannot be split, if it cannot.
#ifndef JACC_ANALYSIS_SPLITPLAN_H
#define JACC_ANALYSIS_SPLITPLAN_H

#include "analysis/ExtentBounds.h"
#include "analysis/RegionIR.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace jacc::analysis {

/// A write whose split-dimension index is Coef * Scale * outermost-iterator + Offset, plus a
/// value between Least and Greatest that inner loops add (C text of expressions invariant in the
/// region: Scale "" for 1, Least and Greatest "" for 0; `b[i * n + j]`, j over [1, n - 2]).
struct AffineWrite {
  long long Coef = 0;
  std::string Offset;
  std::string Scale, Least, Greatest;

  /// An iteration writes several indices of it (inner loops add a span).
  bool spans() const { return !Least.empty() || !Greatest.empty(); }
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

  /// Every write is affine and one spans several indices per iteration (b[i * n + j] over j):
  /// a split entry first tests whether all of an iteration's writes lie in the owned range, so
  /// that the guards of such an iteration cost nothing (and its inner loop vectorizes unmasked).
  bool testsWholeIterations() const {
    return Affine && std::any_of(Writes.begin(), Writes.end(),
                                 [](const AffineWrite &W) { return W.spans(); });
  }
};

struct SplitPlan {
  std::vector<SplitArray> Arrays;
  std::set<unsigned> ReadArgs;  ///< pointer arguments the region reads (aliasing checks)
  /// Of those, the ones read where an earlier write of the iteration may have changed what they
  /// read (a later statement, or any statement of a loop around a write): through another
  /// pointer into a written array, such a read must see this device's writes, so that array
  /// is not split.
  std::set<unsigned> ReadAfterWrite;
  /// Of those, the ones read after a write only as `w[e] = f(o[e])` (at the element their own
  /// statement writes, before it is stored), with the written arguments w. Where o and w are one
  /// array under two names (`resid(u, r, r)`), such a read is of the array itself.
  std::map<unsigned, std::set<unsigned>> ReadsOwnElement;
  bool Splittable = true;
  std::string Fallback;         ///< why not, when !Splittable
  bool Narrowable = true;       ///< every write affine in the outermost iterator, none atomic
  std::string NoNarrowing;      ///< why not
  bool HasShareTerms = false;   ///< reductions: the device's share of the iterations matters

  /// Some write spans several indices per iteration (b[i * n + j] over j): the rows at the ends
  /// of a device's range are run by the devices on both sides, each writing its part of them.
  bool spansWrites() const {
    return std::any_of(Arrays.begin(), Arrays.end(), [](const SplitArray &A) {
      return std::any_of(A.Writes.begin(), A.Writes.end(),
                         [](const AffineWrite &W) { return W.spans(); });
    });
  }

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
