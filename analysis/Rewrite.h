// Rewriting: every guarded array write becomes `((P) ? (a[i] = e) : a[i])` (or, when it is a
// whole statement, `((P) ? (void)(a[i] = e) : (void)0)`, which does not read a[i]) and every filtered
// scalar definition reading arrays `x = (P) ? (c[j]) : 0`, where P tests the device's owned
// ranges (A__lb <= e && e <= A__ub) and its iteration share (__jacc_in_share).
#ifndef JACC_ANALYSIS_REWRITE_H
#define JACC_ANALYSIS_REWRITE_H

#include "analysis/Predicates.h"
#include "analysis/RegionIR.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace jacc::analysis {

/// Insertions into the kernel source: (offset, text), in the order they must be applied.
using Insertions = std::vector<std::pair<unsigned, std::string>>;

/// The C condition of a predicate ("1" when it is always true). Arrays of WholeIterations have a
/// flag per iteration that says all its writes of them are owned (ownedIterationName).
std::string predicateCondition(const Predicate &P,
                               const std::set<std::string> &WholeIterations = {});

/// The insertions that guard the region's statements.
Insertions rewriteRegion(const RegionIR &IR, const std::vector<Predicate> &Preds,
                         const std::set<std::string> &WholeIterations = {});

/// Names of the bound variables of an array.
std::string lowerBoundName(const std::string &Array);
std::string upperBoundName(const std::string &Array);
/// The flag of an iteration whose writes of Array all lie in the owned range, and the bounds
/// [first, end) of the device's iterations it holds for (SplitArray::testsWholeIterations).
std::string ownedIterationName(const std::string &Array);
std::string ownedIterationsName(const std::string &Array, const std::string &Which);

} // namespace jacc::analysis

#endif
