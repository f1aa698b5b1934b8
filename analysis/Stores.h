// What C statements write: the targets of their stores, calls that may write through pointers,
// and (for the frontend's region statements) whether a statement writes memory or outer scalars.
#ifndef JACC_ANALYSIS_STORES_H
#define JACC_ANALYSIS_STORES_H

#include <llvm/ADT/STLFunctionalExtras.h>

namespace clang {
class CallExpr;
class Expr;
class Stmt;
} // namespace clang

namespace jacc::analysis {

/// Calls OnStore with the target of each store in S, in source order: the left side of each
/// assignment and the operand of each ++ and --; with AddressTaken, also the operand of each
/// unary & (what the address is stored through is not followed).
void forEachStore(clang::Stmt *S, llvm::function_ref<void(clang::Expr *Target)> OnStore,
                  bool AddressTaken = false);

/// Whether a call may write memory its caller sees: a call through a pointer, or to a function
/// with a parameter that points to non-const.
bool callMayWrite(const clang::CallExpr *C);

/// What a statement writes.
struct StmtEffects {
  /// Memory: through a pointer, into an array parameter, or by a call (callMayWrite).
  bool WritesMemory = false;
  /// A variable declared outside the statement (its member, or an element of a local array).
  bool WritesOuterScalar = false;
};

StmtEffects effectsOf(clang::Stmt *S);

} // namespace jacc::analysis

#endif
