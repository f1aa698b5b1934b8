// Instances of class templates in kernels as C structs: each instance (`data_container<double>`)
// is a C struct of its own name (`data_container__double`) with the instance's data members, and
// the kernel's text names it so wherever the source writes the instance.
#include "support/DynamicASTVisitor.h"
#include "translate/Translator.h"

#include <llvm/ADT/StringExtras.h>

using namespace clang;

namespace jacc::translate {

std::string Translator::cRecordName(const RecordDecl *RD) const {
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

QualType Translator::cType(QualType T) const {
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
    auto [It, New] = CRecordTypes.try_emplace(S);
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

bool Translator::lowerTemplateType(TypeLoc TL, CxxKernel &K, const std::string &What) {
  if (auto E = TL.getAs<ElaboratedTypeLoc>();
      E && !E.getNamedTypeLoc().getAs<TemplateSpecializationTypeLoc>())
    return false; // `ns::plain` (its inner type location is looked at on its own)
  QualType Ty = TL.getType();
  if (Ty->isDependentType())
    return false; // a template's pattern: its instantiations are lowered
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Ty->getAsCXXRecordDecl());
  if (!S)
    return false;
  cxxReplace(K, TL.getSourceRange(), cRecordName(S), What);
  addTypeNeed(Ty, K);
  return true;
}

void Translator::lowerTemplateTypes(TypeLoc TL, CxxKernel &K, const std::string &What) {
  struct Visitor : public DynamicASTVisitor {
    Translator &T;
    CxxKernel &K;
    const std::string &What;
    Visitor(Translator &T, CxxKernel &K, const std::string &What) : T(T), K(K), What(What) {}
    bool TraverseElaboratedTypeLoc(ElaboratedTypeLoc TL) override {
      return T.lowerTemplateType(TL, K, What) || DynamicASTVisitor::TraverseElaboratedTypeLoc(TL);
    }
    bool TraverseTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) override {
      return T.lowerTemplateType(TL, K, What) ||
             DynamicASTVisitor::TraverseTemplateSpecializationTypeLoc(TL);
    }
  } V(*this, K, What);
  V.TraverseTypeLoc(TL);
}

} // namespace jacc::translate
