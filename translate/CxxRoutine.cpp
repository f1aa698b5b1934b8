// C++ routines as kernels carry them: the body lowered as a construct's statement is
// (CxxKernel.cpp), reference parameters as pointers or values, an `auto` return type deduced, the
// C++-only specifiers dropped (docs/translate.md, "C++").
#include "translate/CxxLowering.h"

#include <clang/AST/TypeLoc.h>
#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::translate {

/// Whether a value of type T holds a pointer (or is a reference) to data that is not const: a
/// path along which a routine given it can write its caller's memory.
static bool holdsWritablePointer(QualType T, std::set<const RecordDecl *> &Seen) {
  T = T.getCanonicalType();
  if (T->isPointerType() || T->isReferenceType()) {
    QualType E = T->getPointeeType();
    return !E.isConstQualified() || holdsWritablePointer(E, Seen);
  }
  if (const ArrayType *A = T->getAsArrayTypeUnsafe())
    return holdsWritablePointer(A->getElementType(), Seen);
  if (const RecordDecl *R = T->getAsRecordDecl(); R && Seen.insert(R).second)
    if (const RecordDecl *Def = R->getDefinition())
      for (const FieldDecl *F : Def->fields())
        if (holdsWritablePointer(F->getType(), Seen))
          return true;
  return false;
}

bool CxxLowering::routineMayWrite(const FunctionDecl *F) const {
  std::set<const RecordDecl *> Seen;
  return llvm::any_of(F->parameters(), [&](const ParmVarDecl *P) {
    return holdsWritablePointer(P->getType(), Seen);
  });
}

RefParam CxxLowering::refParam(const FunctionDecl *F, unsigned I) const {
  if (const FunctionDecl *Def = F->getDefinition())
    F = Def;
  QualType T = F->getParamDecl(I)->getType();
  if (!T->isReferenceType())
    return RefParam::AsIs;
  // A const reference of a routine that cannot write its caller's memory: the referent cannot
  // change during the call (routines use no globals), so its value is the same thing.
  if (T->isRValueReferenceType() ||
      (T->getPointeeType().isConstQualified() && !routineMayWrite(F)))
    return RefParam::Value;
  return RefParam::Pointer;
}

void CxxLowering::lowerLambdaHead(const FunctionDecl *F, const LambdaExpr *L, CxxKernel &K,
                                  const std::string &What) {
  // `[](double x) mutable -> double {` -> `double f(double x) {`: its introducer becomes the
  // return type and the variable's name; what comes between the parameters and the body
  // (specifiers, a trailing return type) goes.
  FunctionTypeLoc FTL = F->getFunctionTypeLoc();
  if (FTL.isNull() || FTL.getLParenLoc().isInvalid() || !L->hasExplicitParameters()) {
    unsupported(L->getBeginLoc(), "a lambda without a parameter list ('[] {...}')", What);
    return;
  }
  unsigned Intro = Idx.offset(L->getIntroducerRange().getBegin());
  unsigned LParen = Idx.offset(FTL.getLParenLoc());
  unsigned RParen = Idx.offset(FTL.getRParenLoc()) + 1;
  unsigned Body = Idx.offset(L->getBody()->getBeginLoc());
  K.Edits[Intro] = {LParen - Intro,
                    TypeText.declaration(F->getReturnType(), "") + " " + Idx.routineName(F)};
  if (Body > RParen)
    K.Edits[RParen] = {Body - RParen, " "};
}

const CxxKernel *CxxLowering::lowerRoutine(const FunctionDecl *F) {
  auto [It, New] = RoutineCxx.try_emplace(F);
  if (!New)
    return It->second ? &*It->second : nullptr;
  CxxKernel K;
  size_t Before = Diags.errorCount();
  std::string What = "routine '" + Idx.routineName(F) + "'";
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    if (P->hasDefaultArg()) {
      // Its calls pass every argument (lower): the default goes.
      SourceLocation From = Lexer::getLocForEndOfToken(SM.getExpansionLoc(P->getLocation()), 0,
                                                       SM, Ctx.getLangOpts());
      SourceLocation To = Lexer::getLocForEndOfToken(
          SM.getExpansionRange(P->getDefaultArgRange().getEnd()).getEnd(), 0, SM,
          Ctx.getLangOpts());
      K.Edits[Idx.offset(From)] = {Idx.offset(To) - Idx.offset(From), ""};
    }
    RefParam How = refParam(F, I);
    if (How == RefParam::AsIs)
      continue;
    auto RTL = P->getTypeSourceInfo()
                   ? P->getTypeSourceInfo()->getTypeLoc().getAsAdjusted<ReferenceTypeLoc>()
                   : ReferenceTypeLoc();
    if (RTL.isNull()) {
      unsupported(P->getLocation(), "reference parameter '" + P->getNameAsString() + "'", What);
      continue;
    }
    // `double &x` -> `double *x`, each use `(*x)`; `const double &x` -> `const double x`.
    replace(K, RTL.getSigilLoc(), How == RefParam::Pointer ? "*" : "", What);
    if (How == RefParam::Pointer)
      K.LocalRefs.insert(P);
  }
  const auto *FT = F->getType()->getAs<FunctionProtoType>();
  auto Lambda = Idx.LambdaRoutines.find(F);
  if (F->getReturnType()->isReferenceType())
    unsupported(F->getLocation(), "a reference return type", What);
  else if (Lambda != Idx.LambdaRoutines.end())
    lowerLambdaHead(F, Lambda->second.Lambda, K, What);
  else if (FT && FT->hasTrailingReturn())
    unsupported(F->getLocation(), "a trailing return type", What);
  else if (F->getDeclaredReturnType()->getContainedAutoType())
    replace(K, F->getReturnTypeSourceRange(), TypeText.declaration(F->getReturnType(), ""), What);
  if (F->getExceptionSpecSourceRange().isValid()) // noexcept
    replace(K, F->getExceptionSpecSourceRange(), "", What);
  if (F->isConstexprSpecified()) {
    // A kernel's routine is a `static` function: `constexpr` as `inline`.
    unsigned B = Idx.offset(F->getOuterLocStart()), E = Idx.offset(F->getLocation());
    size_t At = Buf.slice(B, E).find("constexpr");
    if (At != llvm::StringRef::npos)
      K.Edits[B + At] = {9, "inline"};
  }
  if (const TypeSourceInfo *TSI = F->getTypeSourceInfo()) // its return and parameter types
    lowerTemplateTypes(TSI->getTypeLoc(), K, What);
  lower(F->getBody(), K, What);
  if (Diags.errorCount() != Before)
    return nullptr;
  It->second = std::move(K);
  return &*It->second;
}

} // namespace jacc::translate
