// Where a kernel reads or writes an element of a pointer argument (`y[i]`, `a[i][j]`): the sites
// JACC_CHECK=bounds wraps with a check of the address against the argument's mapping
// (jit/BoundsChecks.h). Recorded for every kernel (a cheap walk of the construct's AST); only the
// checked code generation uses them.
#ifndef JACC_ANALYSIS_BOUNDSSITES_H
#define JACC_ANALYSIS_BOUNDSSITES_H

#include "analysis/Kernel.h"

#include <clang/AST/ASTContext.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <optional>

namespace jacc::analysis {

/// The element accesses of the wrapper's pointer parameters (ArgByDecl: parameter to its index
/// in Args). Not recorded: an address taken (`&y[n]` is a legal end pointer), a subscript spelt
/// by a macro, sub-arrays (`a[i]` of a `double (*a)[m]` used as a row).
std::vector<BoundsSite>
collectBoundsSites(clang::ASTContext &Ctx, clang::FunctionDecl *Wrapper,
                   const std::map<const clang::ParmVarDecl *, unsigned> &ArgByDecl,
                   llvm::function_ref<std::optional<unsigned>(clang::SourceLocation)> Offset);

} // namespace jacc::analysis

#endif
