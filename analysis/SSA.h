// SSA for the region's scalars: dominators (Boost.Graph's Lengauer-Tarjan), phis at iterated
// dominance frontiers, renaming along the dominator tree.
#ifndef JACC_ANALYSIS_SSA_H
#define JACC_ANALYSIS_SSA_H

#include "analysis/RegionIR.h"

#include <set>
#include <string>
#include <vector>

namespace jacc::analysis {

/// Immediate dominator of each block (-1 for the entry and unreachable blocks).
std::vector<int> immediateDominators(const RegionIR &IR);

/// The region in SSA form: Phi statements added at block starts, every statement's VersionIn
/// (the version of each variable defined in the region as it reaches the statement; absent means
/// version 0, the value at the iteration's start) and each definition's DefVersion filled.
RegionIR buildSSA(RegionIR IR);

/// The variables of IR (in SSA form) whose value at the entry (version 0) some statement may read,
/// directly or through phis; a variable every path assigns before reading it is not among them.
std::set<std::string> entryValuesRead(const RegionIR &IR);

/// Whether every scalar IR (not yet in SSA form) assigns is assigned before it is read on every
/// path (entryValuesRead has none of them): no value crosses from one execution of the region to
/// the next, so executions may run in another order, or on threads of their own. Assigned
/// receives those scalars.
bool assignsBeforeReading(const RegionIR &IR, std::set<std::string> &Assigned);

} // namespace jacc::analysis

#endif
