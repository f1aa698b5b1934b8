// The bounds sites of a kernel, collected by one walk of its AST: each subscript of a pointer
// argument, with its kernel-source range, line, number of subscripts and whether it is written.
#include "analysis/BoundsSites.h"
#include "support/DynamicASTVisitor.h"

#include <clang/Basic/SourceManager.h>

#include <set>

using namespace clang;

namespace jacc::analysis {

namespace {

class SiteCollector : public DynamicASTVisitor {
public:
  SiteCollector(ASTContext &Ctx, const std::map<const ParmVarDecl *, unsigned> &ArgByDecl,
                llvm::function_ref<std::optional<unsigned>(SourceLocation)> Offset)
      : SM(Ctx.getSourceManager()), ArgByDecl(ArgByDecl), Offset(Offset) {}

  // Parents are visited before their children: the written and address-taken operands are
  // known when their subscript is.
  bool VisitBinaryOperator(BinaryOperator *E) override {
    if (E->isAssignmentOp())
      Written.insert(E->getLHS()->IgnoreParens());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) override {
    if (E->isIncrementDecrementOp())
      Written.insert(E->getSubExpr()->IgnoreParens());
    else if (E->getOpcode() == UO_AddrOf)
      AddressTaken.insert(E->getSubExpr()->IgnoreParens());
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) override {
    if (E->getType()->isArrayType() || AddressTaken.count(E))
      return true;
    // Down through the rows of a pointer to arrays (`a[i][j]` of `double (*a)[m]`), which
    // decay; not through a pointer loaded from memory (`a[i][j]` of `double **a`: the row is
    // another mapping, and `a[i]` is a site of its own).
    Expr *Base = E->getBase()->IgnoreParenImpCasts();
    unsigned Subscripts = 1;
    while (auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
      if (!Inner->getType()->isArrayType())
        return true;
      Base = Inner->getBase()->IgnoreParenImpCasts();
      ++Subscripts;
    }
    auto *DRE = dyn_cast<DeclRefExpr>(Base);
    auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    auto It = P ? ArgByDecl.find(P) : ArgByDecl.end();
    if (It == ArgByDecl.end() || !P->getType()->isPointerType())
      return true;
    SourceLocation B = E->getBeginLoc(), R = E->getRBracketLoc();
    if (B.isMacroID() || R.isMacroID())
      return true;
    std::optional<unsigned> Begin = Offset(B), Last = Offset(R);
    if (!Begin || !Last)
      return true;
    PresumedLoc L = SM.getPresumedLoc(B);
    BoundsSite S;
    S.Begin = *Begin;
    S.End = *Last + 1;
    S.Arg = It->second;
    S.Line = L.isValid() ? L.getLine() : 0;
    S.Col = L.isValid() ? L.getColumn() : 0;
    S.Subscripts = Subscripts;
    S.Write = Written.count(E) != 0;
    Sites.push_back(S);
    return true;
  }

  std::vector<BoundsSite> Sites;

private:
  SourceManager &SM;
  const std::map<const ParmVarDecl *, unsigned> &ArgByDecl;
  llvm::function_ref<std::optional<unsigned>(SourceLocation)> Offset;
  std::set<const Expr *> Written, AddressTaken;
};

} // namespace

std::vector<BoundsSite>
collectBoundsSites(ASTContext &Ctx, FunctionDecl *Wrapper,
                   const std::map<const ParmVarDecl *, unsigned> &ArgByDecl,
                   llvm::function_ref<std::optional<unsigned>(SourceLocation)> Offset) {
  SiteCollector C(Ctx, ArgByDecl, Offset);
  C.TraverseDecl(Wrapper);
  return std::move(C.Sites);
}

} // namespace jacc::analysis
