// The C spelling of C++ types in kernels (see CTypes.h).
#include "translate/CTypes.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/raw_ostream.h>

using namespace clang;

namespace jacc::translate {

CTypes::CTypes(ASTContext &Ctx) : Ctx(Ctx), Policy(Ctx.getPrintingPolicy()) {
  if (Ctx.getLangOpts().CPlusPlus) {
    // Kernels are C: types print as C declares them (`_Bool`, no `std::`).
    Policy.Bool = false;
    Policy.SuppressScope = true;
  }
}

std::string CTypes::hostDeclaration(QualType T, llvm::StringRef Name) const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  T.print(OS, Policy, Name);
  return OS.str();
}

std::string CTypes::cRecordName(const RecordDecl *RD) const {
  const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!S)
    return RD->getNameAsString();
  // Two underscores before each argument, each run of other characters in it one
  // (`pair<unsigned int, double *>`: `pair__unsigned_int__double_`).
  std::string Name = S->getNameAsString();
  for (const TemplateArgument &A : S->getTemplateArgs().asArray()) {
    std::string Arg;
    llvm::raw_string_ostream OS(Arg);
    A.print(Policy, OS, /*IncludeType=*/false);
    Name += "__";
    for (char C : OS.str())
      if (llvm::isAlnum(C) || C == '_')
        Name += C;
      else if (Name.back() != '_')
        Name += '_';
  }
  return Name;
}

QualType CTypes::cType(QualType T) const {
  if (T.isNull())
    return T;
  Qualifiers Q = T.getLocalQualifiers();
  const Type *Ty = T.getTypePtr();
  // The same qualifiers on N, or T itself when nothing in it changed.
  auto As = [&](QualType Inner, QualType Was, QualType N) {
    return Inner == Was ? T : Ctx.getQualifiedType(N, Q);
  };
  if (isa<TypedefType>(Ty))
    return T; // by its name: its definition is written in C (declText)
  if (const auto *E = dyn_cast<ElaboratedType>(Ty)) {
    QualType N = cType(E->getNamedType());
    return As(N, E->getNamedType(), N);
  }
  if (const auto *S = dyn_cast<SubstTemplateTypeParmType>(Ty)) {
    QualType N = cType(S->getReplacementType());
    return As(N, S->getReplacementType(), N);
  }
  if (const auto *TS = dyn_cast<TemplateSpecializationType>(Ty)) {
    if (!TS->isSugared())
      return T;
    QualType N = cType(TS->desugar());
    return As(N, TS->desugar(), N);
  }
  if (const auto *R = dyn_cast<RecordType>(Ty)) {
    const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(R->getDecl());
    if (!S)
      return T;
    auto [It, New] = RecordTypes.try_emplace(S);
    if (New) {
      // A typedef that exists only to be printed: the kernel defines the C struct by its name.
      auto *TD = TypedefDecl::Create(Ctx, Ctx.getTranslationUnitDecl(), SourceLocation(),
                                     SourceLocation(), &Ctx.Idents.get(cRecordName(S)),
                                     Ctx.getTrivialTypeSourceInfo(QualType(R, 0)));
      It->second = Ctx.getTypedefType(TD);
    }
    return Ctx.getQualifiedType(It->second, Q);
  }
  if (const auto *P = dyn_cast<PointerType>(Ty)) {
    QualType N = cType(P->getPointeeType());
    return As(N, P->getPointeeType(), Ctx.getPointerType(N));
  }
  if (const auto *L = dyn_cast<LValueReferenceType>(Ty)) {
    QualType N = cType(L->getPointeeType());
    return As(N, L->getPointeeType(), Ctx.getLValueReferenceType(N));
  }
  if (const auto *A = dyn_cast<ConstantArrayType>(Ty)) {
    QualType N = cType(A->getElementType());
    return As(N, A->getElementType(),
              Ctx.getConstantArrayType(N, A->getSize(), A->getSizeExpr(), A->getSizeModifier(),
                                       A->getIndexTypeCVRQualifiers()));
  }
  if (const auto *A = dyn_cast<IncompleteArrayType>(Ty)) {
    QualType N = cType(A->getElementType());
    return As(N, A->getElementType(),
              Ctx.getIncompleteArrayType(N, A->getSizeModifier(), A->getIndexTypeCVRQualifiers()));
  }
  if (const auto *P = dyn_cast<ParenType>(Ty)) {
    QualType N = cType(P->getInnerType());
    return As(N, P->getInnerType(), Ctx.getParenType(N));
  }
  if (const auto *A = dyn_cast<AdjustedType>(Ty)) {
    QualType N = cType(A->getAdjustedType());
    return As(N, A->getAdjustedType(), N);
  }
  return T;
}

} // namespace jacc::translate
