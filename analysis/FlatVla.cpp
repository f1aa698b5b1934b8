// Finding the pointer-to-VLA arguments, their dimensions and the edits that flatten their
// subscripts, and recording the first use that cannot be rewritten.
#include "analysis/FlatVla.h"
#include "support/DynamicASTVisitor.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::analysis {

std::string vlaStrideName(const std::string &A, unsigned Level) {
  return "__jacc_vla_" + A + "_s" + std::to_string(Level);
}

namespace {

class VlaRewriter : public DynamicASTVisitor {
public:
  VlaRewriter(ASTContext &Ctx, const std::map<const ParmVarDecl *, std::string> &VlaParams,
              llvm::function_ref<std::optional<unsigned>(SourceLocation)> Offset, KernelInfo &K)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), VlaParams(VlaParams), Offset(Offset), K(K) {}

  bool VisitDeclaratorDecl(DeclaratorDecl *D) override {
    if (!D->getType()->isVariablyModifiedType() || !SM.isInMainFile(D->getLocation()))
      return true;
    if (auto *P = dyn_cast<ParmVarDecl>(D); P && VlaParams.count(P))
      return true;
    unsupported(D->getLocation(), "'" + D->getNameAsString() +
                                      "' has a variable-length array type");
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *E) override {
    if (E->getTypeAsWritten()->isVariablyModifiedType())
      unsupported(E->getBeginLoc(), "a cast to a variable-length array type");
    return true;
  }
  bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) override {
    if (E->getTypeOfArgument()->isVariablyModifiedType())
      unsupported(E->getBeginLoc(), "sizeof of a variable-length array");
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (auto *P = dyn_cast<ParmVarDecl>(E->getDecl()); P && VlaParams.count(P))
      ++Uses[P];
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) override {
    if (!E->getType()->isArrayType())
      return true; // an element: nothing left to flatten
    // The chain down to the parameter: a[i] is level 1, a[i][j] level 2, ...
    unsigned Level = 1;
    Expr *Base = E->getBase()->IgnoreParenImpCasts();
    while (auto *Inner = dyn_cast<ArraySubscriptExpr>(Base)) {
      ++Level;
      Base = Inner->getBase()->IgnoreParenImpCasts();
    }
    auto *DRE = dyn_cast<DeclRefExpr>(Base);
    auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    auto It = P ? VlaParams.find(P) : VlaParams.end();
    if (It == VlaParams.end())
      return true; // a constant-size array: CUDA C++ has those
    if (Level == 1)
      ++SubscriptUses[P];
    if (E->getBase() != E->getLHS()) {
      unsupported(E->getBeginLoc(), "an index written before its array (i[a])");
      return true;
    }
    SourceLocation Begin = E->getBeginLoc(), LhsEnd = E->getLHS()->getEndLoc(),
                   RBracket = E->getRBracketLoc();
    if (Begin.isMacroID() || LhsEnd.isMacroID() || RBracket.isMacroID()) {
      unsupported(E->getBeginLoc(), "a subscript of '" + It->second + "' spelt by a macro");
      return true;
    }
    std::optional<Token> LSquare = Lexer::findNextToken(LhsEnd, SM, Ctx.getLangOpts());
    std::optional<unsigned> B = Offset(Begin), L, R = Offset(RBracket);
    if (LSquare && LSquare->is(tok::l_square))
      L = Offset(LSquare->getLocation());
    if (!B || !L || !R) {
      unsupported(E->getBeginLoc(), "a subscript of '" + It->second + "' outside the kernel");
      return true;
    }
    K.FlatVla.Edits.push_back({*B, *B, "("});
    K.FlatVla.Edits.push_back({*L, *L + 1, " + ("});
    K.FlatVla.Edits.push_back({*R, *R + 1, ") * " + vlaStrideName(It->second, Level) + ")"});
    return true;
  }

  /// Uses of a VLA parameter other than as the base of a subscript (a + 1, b = a, f(a)).
  void checkPlainUses() {
    for (const auto &[P, N] : Uses)
      if (N != SubscriptUses[P])
        unsupported(P->getLocation(), "'" + P->getNameAsString() +
                                          "' (a pointer to a variable-length array) is used "
                                          "other than by subscripts");
  }

private:
  void unsupported(SourceLocation Loc, const std::string &What) {
    if (!K.FlatVla.Unsupported.empty())
      return;
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
    std::string Where = P.isValid() ? std::string(P.getFilename()) + ":" +
                                          std::to_string(P.getLine()) + ": "
                                    : std::string();
    K.FlatVla.Unsupported = Where + What + ", which CUDA C++ cannot express";
  }

  ASTContext &Ctx;
  SourceManager &SM;
  const std::map<const ParmVarDecl *, std::string> &VlaParams;
  llvm::function_ref<std::optional<unsigned>(SourceLocation)> Offset;
  KernelInfo &K;
  std::map<const ParmVarDecl *, unsigned> Uses, SubscriptUses;
};

/// The text of an expression of the parsed translation unit.
std::string textOf(ASTContext &Ctx, const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

} // namespace

void collectFlatVla(ASTContext &Ctx, FunctionDecl *Wrapper,
                       const std::map<const ParmVarDecl *, unsigned> &ArgByDecl,
                       llvm::function_ref<std::optional<unsigned>(SourceLocation)> Offset,
                       KernelInfo &K) {
  std::map<const ParmVarDecl *, std::string> VlaParams;
  for (const auto &[P, Index] : ArgByDecl) {
    ArgInfo &A = K.Args[Index];
    QualType T = P->getType();
    if (!T->isPointerType() || !T->isVariablyModifiedType())
      continue;
    QualType Elem = T->getPointeeType();
    std::vector<std::string> Dims;
    while (const ArrayType *AT = Ctx.getAsArrayType(Elem)) {
      if (const auto *CA = dyn_cast<ConstantArrayType>(AT))
        Dims.push_back(std::to_string(CA->getSize().getZExtValue()));
      else if (const auto *VA = dyn_cast<VariableArrayType>(AT); VA && VA->getSizeExpr())
        Dims.push_back(textOf(Ctx, VA->getSizeExpr()));
      else
        Dims.push_back("");
      Elem = AT->getElementType();
    }
    bool Ok = !Dims.empty();
    for (const std::string &D : Dims)
      Ok = Ok && !D.empty();
    if (!Ok) {
      if (K.FlatVla.Unsupported.empty())
        K.FlatVla.Unsupported = "argument '" + A.Decl + "': an array bound that is not an "
                                                     "expression, which CUDA C++ cannot express";
      continue;
    }
    A.Vla = true;
    A.Dims = std::move(Dims);
    A.ElemType = Elem.getAsString(Ctx.getPrintingPolicy());
    VlaParams[P] = A.Name;
  }
  VlaRewriter V(Ctx, VlaParams, Offset, K);
  // The kernel's own declarations and the wrapper only: system headers have nothing to rewrite.
  const SourceManager &SM = Ctx.getSourceManager();
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (D == Wrapper || SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      V.TraverseDecl(D);
  V.checkPlainUses();
}

} // namespace jacc::analysis
