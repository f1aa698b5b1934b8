// The def-use / dependence graph of one iteration: an edge D -> U when U may use the value D
// produced (a scalar SSA value, or an array element no later write definitely overwrote).
// A sink vertex stands for the uses that are never filtered (indices, conditions, loop bounds).
#ifndef JACC_ANALYSIS_DEPENDENCES_H
#define JACC_ANALYSIS_DEPENDENCES_H

#include "analysis/RegionIR.h"

#include <boost/graph/adjacency_list.hpp>

#include <set>

namespace jacc::analysis {

using DependenceGraph =
    boost::adjacency_list<boost::setS, boost::vecS, boost::bidirectionalS>;

struct Dependences {
  DependenceGraph G;   ///< vertices: statements by Id, then the sink
  unsigned Sink = 0;
};

/// Whether two indices of one array, read at statements A and B, certainly denote the same
/// element (Same) or certainly different ones (Different); Clobbered holds the variables whose
/// definitions lie between the two points (their values differ even if their versions match).
enum class IndexRelation { Same, Different, Unknown };
IndexRelation compareAccesses(const ArrayAccess &X, const IRStmt &AtX, const ArrayAccess &Y,
                              const IRStmt &AtY, const std::set<std::string> &Clobbered);

/// Build the graph of a region in SSA form.
Dependences buildDependences(const RegionIR &IR);

} // namespace jacc::analysis

#endif
