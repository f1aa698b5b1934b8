// Inner loops a GPU may share among its threads: a loop nested perfectly inside a parallel nest
// whose iterations are independent, because a loop directive says so or because every element
// one iteration writes is touched by no other.
#ifndef JACC_ANALYSIS_INNERPARALLEL_H
#define JACC_ANALYSIS_INNERPARALLEL_H

#include "analysis/LowerRegion.h"

#include <set>
#include <string>

namespace clang {
class ForStmt;
} // namespace clang

namespace jacc::analysis {

enum class InnerIndependence {
  No,
  Yes,
  IfPointersDisjoint ///< proven for pointer arguments that do not overlap
};

/// Whether the iterations of F, whose variable is Var, never touch what another iteration
/// touches. C lowers F's body (C.ParallelVars: the enclosing parallel loops' variables and
/// Var); Reductions: the enclosing nest's reduction variables, which iterations may update.
/// Scalars the body assigns must be declared in it (or be reductions it only updates); every
/// array argument the body writes must be reached, by every access to it, through one index
/// that moves with Var alone (`a[i][j]`, `b[j * n + i]` along j); no call may write memory.
InnerIndependence innerIterationsIndependent(clang::ForStmt *F, const std::string &Var,
                                             const LowerContext &C,
                                             const std::set<std::string> &Reductions);

/// Whether F (canonical form L), whose variable the program declared outside it (NPB's
/// `for (j = 1; ...)` with j the function's), keeps that variable and the scalars its body
/// assigns to its iterations: each scalar assigned before it is read in every iteration (from
/// the body's SSA; C lowers it), and none of them, the loop variable included, mentioned in the
/// construct's text outside F (Construct: that text's range). Threads sharing F's iterations
/// then each hold their own copies, and nothing reads what the loop leaves behind.
bool scalarsStayInLoop(clang::ForStmt *F, const CanonicalLoop &L, const LowerContext &C,
                       SourceSpan Construct);

} // namespace jacc::analysis

#endif
