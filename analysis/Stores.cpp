// The store scans of C statements (Stores.h).
#include "analysis/Stores.h"
#include "support/DynamicASTVisitor.h"

#include <set>

using namespace clang;

namespace jacc::analysis {

void forEachStore(Stmt *S, llvm::function_ref<void(Expr *Target)> OnStore, bool AddressTaken) {
  struct Scan : public DynamicASTVisitor {
    llvm::function_ref<void(Expr *)> OnStore;
    bool AddressTaken;
    bool VisitBinaryOperator(BinaryOperator *B) override {
      if (B->isAssignmentOp())
        OnStore(B->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) override {
      if (U->isIncrementDecrementOp() || (AddressTaken && U->getOpcode() == UO_AddrOf))
        OnStore(U->getSubExpr());
      return true;
    }
  } Stores;
  Stores.OnStore = OnStore;
  Stores.AddressTaken = AddressTaken;
  Stores.TraverseStmt(S);
}

bool callMayWrite(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD)
    return true;
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    if (T->isPointerType() && !T->getPointeeType().isConstQualified())
      return true;
  }
  return false;
}

/// What a store to LHS changes, for a statement declaring Local.
static void addStore(Expr *LHS, const std::set<const VarDecl *> &Local, StmtEffects &E) {
  LHS = LHS->IgnoreParenImpCasts();
  if (auto *DRE = dyn_cast<DeclRefExpr>(LHS)) {
    if (auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && !Local.count(V))
      E.WritesOuterScalar = true;
    return;
  }
  if (auto *ME = dyn_cast<MemberExpr>(LHS); ME && !ME->isArrow())
    return addStore(ME->getBase(), Local, E);
  if (auto *AS = dyn_cast<ArraySubscriptExpr>(LHS)) {
    Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    if (auto *DRE = dyn_cast<DeclRefExpr>(Base))
      if (auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->getType()->isArrayType())
        return addStore(Base, Local, E); // a local array: like a scalar of its owner
  }
  E.WritesMemory = true;
}

StmtEffects effectsOf(Stmt *S) {
  // The variables S declares (C declares before use: the ones a store in S may name from
  // inside), and whether a call writes.
  struct Scan : public DynamicASTVisitor {
    std::set<const VarDecl *> Local;
    bool CallWrites = false;
    bool VisitVarDecl(VarDecl *V) override {
      Local.insert(V);
      return true;
    }
    bool VisitCallExpr(CallExpr *C) override {
      CallWrites |= callMayWrite(C);
      return true;
    }
  } Decls;
  Decls.TraverseStmt(S);
  StmtEffects E;
  E.WritesMemory = Decls.CallWrites;
  forEachStore(S, [&](Expr *LHS) { addStore(LHS, Decls.Local, E); });
  return E;
}

} // namespace jacc::analysis
