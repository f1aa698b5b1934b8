// The gang loop nests of a compute construct: a loop directive's for loops (collapse(n) of them)
// in canonical form, rectangular and not left by break, with their private variables.
#ifndef JACC_ANALYSIS_LOOPNEST_H
#define JACC_ANALYSIS_LOOPNEST_H

#include "analysis/Directive.h"
#include "analysis/Kernel.h"
#include "analysis/KernelLocations.h"

#include <clang/AST/Stmt.h>
#include <llvm/Support/Error.h>

namespace clang {
class VarDecl;
} // namespace clang

namespace jacc::analysis {

/// The nest the loop or combined directive D makes of the for loop F (ParallelNest::Body is left
/// to the region lowering); Inner receives the innermost loop. Errors: Unsupported (a loop not in
/// canonical form, collapsed loops that are not rectangular, a private pointer), InvalidArgument
/// (too few loops to collapse, a break leaving the nest).
/// The canonical form of the loop F (`for (i = lo; i < hi; i += step)` and its variants); Var
/// receives its loop variable. Unsupported, naming what is not canonical, otherwise.
llvm::Expected<CanonicalLoop> canonicalLoop(clang::ForStmt *F, const clang::VarDecl *&Var,
                                            const KernelLocations &Loc);

/// The loop nested directly in F's body (alone in it), or null.
clang::ForStmt *perfectlyNested(clang::ForStmt *F);

/// Whether F's initialisation, condition and increment read only scalars, none of them the
/// variable of one of Loops (F is rectangular within them).
bool plainRectangularHeader(clang::ForStmt *F, const std::vector<CanonicalLoop> &Loops);

/// InvalidArgument at a `break` in Body that would leave the loop whose body it is.
llvm::Error checkNoBreak(clang::Stmt *Body, const KernelLocations &Loc);

/// The nest of F under directive D; Fors gets its loops, outermost first (the innermost last).
llvm::Expected<ParallelNest> buildNest(clang::ForStmt *F, const Directive &D,
                                       const KernelLocations &Loc,
                                       std::vector<clang::ForStmt *> &Fors);

} // namespace jacc::analysis

#endif
