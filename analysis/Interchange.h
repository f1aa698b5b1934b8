// Loops a CPU thread runs swapped: an independent loop of a nest's body whose body is another loop
// alone, when the accesses move contiguously along the independent loop and not along the other
// (NPB's solvers: `loop vector` over j around a sequential recurrence in i of `a[..][i][j]`). The
// swapped loops run every pair of iterations, each recurrence still in order; the vectoriser then
// takes the contiguous loop.
#ifndef JACC_ANALYSIS_INTERCHANGE_H
#define JACC_ANALYSIS_INTERCHANGE_H

#include "analysis/Kernel.h"
#include "analysis/KernelLocations.h"
#include "analysis/LowerRegion.h"

#include <llvm/ADT/STLFunctionalExtras.h>

namespace clang {
class ForStmt;
} // namespace clang

namespace jacc::analysis {

/// The loops of Body (the innermost body of a nest) a CPU thread runs inside the loop each holds
/// (ParallelNest::Interchanges). Independent(F, Var): F's iterations never touch what another
/// touches. C lowers Body; BodyEnd: the kernel offset where the nest's body ends (a variable the
/// loops leave behind must not be read before it). Besides independence, each interchange needs
/// canonical, rectangular loops that nothing leaves early, an inner body whose scalars are
/// assigned before they are read in each iteration, with no call, atomic or reduction in it.
std::vector<LoopInterchange>
findInterchanges(clang::Stmt *Body, unsigned BodyEnd, const LowerContext &C,
                 const KernelLocations &Loc,
                 llvm::function_ref<bool(clang::ForStmt *F, const std::string &Var)> Independent);

} // namespace jacc::analysis

#endif
