// Directives in the headers a file includes: a header's text is compiled as it is, so only what
// needs no rewriting of it is taken from there (a routine, a file-scope declare, the loops of a
// routine's body); the rest is an error naming the header's place.
#include "translate/Translator.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

FunctionDecl *Translator::routineTarget(const Pragma &P, const Directive &D) const {
  FunctionDecl *F = nullptr;
  if (!D.Argument.empty()) {
    for (FunctionDecl *G : Idx.Functions)
      if (Idx.routineName(G) == D.Argument)
        F = G;
    return F;
  }
  if (!P.Included) {
    auto It = Idx.Decls.upper_bound(P.EndTok);
    if (It == Idx.Decls.end())
      return nullptr;
    if (auto *V = dyn_cast<VarDecl>(It->second)) // a variable holding a lambda
      return Idx.lambdaOf(V);
    return dyn_cast<FunctionDecl>(It->second);
  }
  // The first function declared after the pragma in its header.
  FileID File = SM.getFileID(P.Loc);
  for (FunctionDecl *G : Idx.Functions) {
    SourceLocation L = SM.getExpansionLoc(G->getBeginLoc());
    if (SM.getFileID(L) != File || !SM.isBeforeInTranslationUnit(P.Loc, L))
      continue;
    if (!F || SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(F->getBeginLoc())))
      F = G;
  }
  return F;
}

FunctionDecl *Translator::functionAround(SourceLocation L) const {
  for (FunctionDecl *F : Idx.Functions) {
    if (!F->doesThisDeclarationHaveABody())
      continue;
    SourceLocation B = SM.getExpansionLoc(F->getBody()->getBeginLoc());
    SourceLocation E = SM.getExpansionRange(F->getBody()->getEndLoc()).getEnd();
    if (SM.getFileID(B) == SM.getFileID(L) && SM.isBeforeInTranslationUnit(B, L) &&
        SM.isBeforeInTranslationUnit(L, E))
      return F;
  }
  return nullptr;
}

bool Translator::takenFromHeader(const Pragma &P, const Directive &D) const {
  FunctionDecl *In = functionAround(P.Loc);
  switch (D.Kind) {
  case DirectiveKind::Routine:
  case DirectiveKind::Declare:
    return !In;
  case DirectiveKind::Loop:
    // Sequential in each call, as a main file's routine loop is, if In is a routine (known
    // once the routine directives are read: Translator::run).
    return In;
  default:
    return false;
  }
}

VarDecl *Translator::globalVar(llvm::StringRef Name) const {
  // C++: an extern "C" block's variables are the file scope's too.
  for (NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)))
    if (auto *V = dyn_cast<VarDecl>(D))
      return V;
  return nullptr;
}

} // namespace jacc::translate
