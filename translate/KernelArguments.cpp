// A kernel's arguments: how each variable it uses is declared in its text and passed by the host.
#include "translate/ComputeLowering.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

bool ComputeLowering::memberArgs(const CxxKernel &K, const Pragma &P, KernelNeeds &N,
                                 std::vector<std::string> &Args) {
  bool Ok = true;
  for (const FieldDecl *F : K.Members) {
    // A data member used through `this`: an argument of its name, by value as a variable is.
    std::string Name = F->getName().str();
    QualType T = F->getType();
    if (!T->isScalarType() && !T->isRecordType() &&
        !T->isTemplateTypeParmType()) { // a class template's T: the kernel's typedef names it
      File.errorAt(F->getLocation(), "data member '" + Name + "' used in the construct at line " +
                                         llvm::Twine(P.Line) +
                                         " is not a scalar, pointer or struct");
      Ok = false;
      continue;
    }
    Needs.addType(T, N);
    Args.push_back("{\"" + File.TypeText.declaration(T.getUnqualifiedType(), Name) +
                   "\", (void *)&this->" + Name + "}");
  }
  return Ok;
}

/// The kernel argument for V: its declaration as the kernel names it, and the host value.
bool ComputeLowering::argDecl(VarDecl *V, std::string &Decl, std::string &Temp, std::string &Value,
                              std::vector<std::string> &Before, const Pragma &P) {
  // A reference passes its referent's value (as a scalar is: firstprivate).
  QualType T = V->getType().getNonReferenceType();
  QualType C = T.getCanonicalType();
  std::string Name = V->getName().str();
  if (C->isVariablyModifiedType()) {
    // A variable-length array (`double a[n][m]`) or a pointer to one (`double (*a)[m]`): the
    // kernel gets `double (*a)[jacc_vla_a_1]`, each variable extent a scalar argument before it,
    // measured with sizeof at the push (whatever the bounds were written with, and their values
    // when the array was declared, as C has it).
    QualType R =
        C->isArrayType() ? File.Ctx.getAsArrayType(C)->getElementType() : C->getPointeeType();
    std::string Dims, Sub = Name + "[0]";
    for (unsigned L = 1; const ArrayType *AT = File.Ctx.getAsArrayType(R); ++L) {
      std::string Dim;
      if (auto *CA = dyn_cast<ConstantArrayType>(AT)) {
        Dim = std::to_string(CA->getSize().getZExtValue());
      } else {
        Dim = "jacc_vla_" + Name + "_" + std::to_string(L);
        Temp += "long " + Dim + " = (long)(sizeof " + Sub + " / sizeof " + Sub + "[0]); ";
        Before.push_back("{\"long " + Dim + "\", &" + Dim + "}");
      }
      Dims += "[" + Dim + "]";
      Sub += "[0]";
      R = AT->getElementType();
    }
    if (R->isVariablyModifiedType() || R->isPointerType() || (Dims.empty() && !C->isArrayType())) {
      File.error(P, "variable '" + Name + "' (" + T.getAsString(File.TypeText.policy()) +
                        ") cannot be passed to a kernel: jacc passes variable-length arrays and "
                        "pointers to them, of non-pointer elements");
      return false;
    }
    Decl = File.TypeText.declaration(R, Dims.empty() ? "*" + Name : "(*" + Name + ")" + Dims);
    Temp += "void *jacc_ptr_" + Name + " = (void *)" + Name + ";";
    Value = "&jacc_ptr_" + Name;
    return true;
  }
  if (C->isArrayType()) {
    QualType D = File.Ctx.getArrayDecayedType(T);
    if (D->getPointeeType()->isPointerType()) {
      File.error(P, "array of pointers '" + Name + "' cannot be passed to a kernel");
      return false;
    }
    Decl = File.TypeText.declaration(D, Name);
    Temp = File.TypeText.hostDeclaration(D, "jacc_ptr_" + Name) + " = " + File.hostName(V) + ";";
    Value = "&jacc_ptr_" + Name;
    return true;
  }
  if (C->isPointerType()) {
    // A pointer to row pointers (`double **a`) passes as it is: the runtime gives the kernel
    // the device copy of the pointer array, which holds the rows' device addresses once a data
    // clause `a[0:n][0:m]` (or acc_attach) attached them. Deeper levels have no such mapping.
    QualType E = C->getPointeeType().getCanonicalType();
    bool Rows = E->isPointerType() && !E->getPointeeType()->isPointerType() &&
                !E->getPointeeType()->isFunctionType();
    if ((E->isPointerType() && !Rows) || E->isFunctionType()) {
      File.error(P, "variable '" + Name + "' (" + T.getAsString(File.TypeText.policy()) +
                        ") cannot be passed to a kernel: pointers to pointers to pointers and "
                        "function pointers are not supported; pass each array as its own pointer");
      return false;
    }
  } else if (!C->isScalarType() && !C->isRecordType() &&
             !C->isTemplateTypeParmType()) { // a template's T: the kernel's typedef names it
    File.error(P, "variable '" + Name + "' of type '" + T.getAsString(File.TypeText.policy()) +
                      "' cannot be passed to a kernel");
    return false;
  }
  Decl = File.TypeText.declaration(T, Name);
  // A cast: C++ has no implicit const T * to void *, and C warns that converting the address of
  // a `T *restrict` (or volatile) variable to void * discards its qualifier.
  Value = "(void *)&" + File.hostName(V);
  return true;
}

} // namespace jacc::translate
