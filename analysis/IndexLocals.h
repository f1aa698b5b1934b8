// Index locals: an index that reads a scalar the iteration computes from loop variables and
// invariants (`i3 = 2 * j3 - d3; ... a[i3 * n + i1]`) is rewritten over that definition, so that
// the split plan, the narrowing and the read extents see through it.
#ifndef JACC_ANALYSIS_INDEXLOCALS_H
#define JACC_ANALYSIS_INDEXLOCALS_H

#include "analysis/RegionIR.h"

namespace jacc::analysis {

/// IR (in SSA form) with every array index's reads of such scalars replaced by their reaching
/// definitions: its polynomial, affine form, variables and text (the definition's text,
/// parenthesised, which has the same value where the index is evaluated).
RegionIR substituteIndexLocals(RegionIR IR);

} // namespace jacc::analysis

#endif
