// What every part of the translator asks of the file: names, uses and directives in a range.
#include "translate/SourceFile.h"

#include "support/DynamicASTVisitor.h"

using namespace clang;

namespace jacc::translate {

std::string SourceFile::hostName(const VarDecl *V) const {
  if (!cxx() || V->getDeclContext()->isFunctionOrMethod() ||
      V->getDeclContext()->isTranslationUnit())
    return V->getName().str();
  PrintingPolicy P = Ctx.getPrintingPolicy();
  P.SuppressUnwrittenScope = true; // anonymous and inline namespaces
  std::string S;
  llvm::raw_string_ostream OS(S);
  V->printQualifiedName(OS, P);
  return OS.str();
}

std::vector<unsigned> SourceFile::useOffsets(Stmt *S, const VarDecl *Var) const {
  struct Uses : public DynamicASTVisitor {
    const FileIndex &Idx;
    const VarDecl *Var;
    std::vector<unsigned> Offsets;
    Uses(const FileIndex &Idx, const VarDecl *Var) : Idx(Idx), Var(Var) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (E->getDecl() == Var)
        Offsets.push_back(Idx.offset(E->getLocation()));
      return true;
    }
  } U(Idx, Var);
  U.TraverseStmt(S);
  return U.Offsets;
}

std::vector<std::pair<const Pragma *, const analysis::Directive *>>
SourceFile::directivesIn(const Pragma &P, unsigned End) const {
  std::vector<std::pair<const Pragma *, const analysis::Directive *>> In;
  for (size_t K = 0; K < Pragmas.size(); ++K)
    if (Pragmas[K].Hash >= P.Hash && Pragmas[K].Hash < End && Dirs[K])
      In.push_back({&Pragmas[K], &*Dirs[K]});
  return In;
}

llvm::StringRef SourceFile::itemBase(llvm::StringRef Item) {
  return Item.take_until([](char C) { return C == '['; }).trim();
}

} // namespace jacc::translate
