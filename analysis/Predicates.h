// Predicate-based filtering (JACC, Fig. 3): for each array write and scalar definition, the
// condition under which a device must execute it, as a set of terms computed to a fixed point
// over the dependence graph: own(A, e) for a write into A at e (along A's split dimension), the
// device's share of the iterations for reductions, or true.
#ifndef JACC_ANALYSIS_PREDICATES_H
#define JACC_ANALYSIS_PREDICATES_H

#include "analysis/Dependences.h"
#include "analysis/RegionIR.h"
#include "analysis/SplitPlan.h"

#include <set>
#include <string>
#include <vector>

namespace jacc::analysis {

struct PredTerm {
  enum class Kind { Own, Share } K = Kind::Own;
  std::string Array;  ///< Own: the array
  IndexExpr Index;    ///< Own: its split-dimension index, as written at Origin
  unsigned Origin = 0;///< Own: the write the term comes from (its variable versions)

  /// Identity: the array and the index value (text plus the versions of its variables).
  std::string key(const RegionIR &IR) const;
};

struct Predicate {
  bool Always = false;         ///< true: never filtered
  std::vector<PredTerm> Terms; ///< disjunction (sorted by key, unique), when !Always
  bool empty() const { return !Always && Terms.empty(); }
};

/// One predicate per statement (indexed by IRStmt::Id). NestReductions names the variables the
/// split nest itself reduces (its loop's or the construct's reduction clauses): their updates run
/// exactly in the device's share. A reduction of a loop inside the nest is per-iteration data:
/// its definitions also run wherever their uses are needed. When a nest reduction's value is also
/// needed outside the share (stored into an array a device owns outside its share: the nest is not
/// narrowed), no predicate counts each contribution once and computes every needed value:
/// *Conflict names that variable.
std::vector<Predicate> computePredicates(const RegionIR &IR, const Dependences &D,
                                         const SplitPlan &Plan,
                                         const std::set<std::string> &NestReductions,
                                         std::string *Conflict = nullptr);

/// "a@i" / "share" terms, or "true": for debug output and tests.
std::string predicateText(const RegionIR &IR, const Predicate &P);

} // namespace jacc::analysis

#endif
