// The gang loop nests of a compute construct: a loop directive's for loops (collapse(n) of them)
// in canonical form, rectangular and not left by break, with their private variables.
#ifndef JACC_ANALYSIS_LOOPNEST_H
#define JACC_ANALYSIS_LOOPNEST_H

#include "analysis/Directive.h"
#include "analysis/Kernel.h"
#include "analysis/KernelLocations.h"

#include <clang/AST/Stmt.h>
#include <llvm/Support/Error.h>

namespace jacc::analysis {

/// The nest the loop or combined directive D makes of the for loop F (ParallelNest::Body is left
/// to the region lowering); Inner receives the innermost loop. Errors: Unsupported (a loop not in
/// canonical form, collapsed loops that are not rectangular, a private pointer), InvalidArgument
/// (too few loops to collapse, a break leaving the nest).
llvm::Expected<ParallelNest> buildNest(clang::ForStmt *F, const Directive &D,
                                       const KernelLocations &Loc, clang::ForStmt *&Inner);

} // namespace jacc::analysis

#endif
