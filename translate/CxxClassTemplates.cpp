// Instances of class templates in kernels as C structs: each instance (`data_container<double>`)
// is a C struct of its own name (`data_container__double`, CTypes.h) with the instance's data
// members, and the kernel's text names it so wherever the source writes the instance.
#include "translate/CxxLowering.h"

#include "support/DynamicASTVisitor.h"

#include <llvm/ADT/StringExtras.h>

using namespace clang;

namespace jacc::translate {

bool CxxLowering::lowerTemplateType(TypeLoc TL, CxxKernel &K, const std::string &What) {
  if (auto E = TL.getAs<ElaboratedTypeLoc>();
      E && !E.getNamedTypeLoc().getAs<TemplateSpecializationTypeLoc>())
    return false; // `ns::plain` (its inner type location is looked at on its own)
  QualType Ty = TL.getType();
  if (Ty->isDependentType())
    return false; // a template's pattern: its instantiations are lowered
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Ty->getAsCXXRecordDecl());
  if (!S)
    return false;
  replace(K, TL.getSourceRange(), TypeText.cRecordName(S), What);
  addTypeNeed(Ty, K);
  return true;
}

void CxxLowering::lowerTemplateTypes(TypeLoc TL, CxxKernel &K, const std::string &What) {
  struct Visitor : public DynamicASTVisitor {
    CxxLowering &T;
    CxxKernel &K;
    const std::string &What;
    Visitor(CxxLowering &T, CxxKernel &K, const std::string &What) : T(T), K(K), What(What) {}
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
