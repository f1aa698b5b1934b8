// `host_data use_device(list)`: inside the construct's statement each listed variable names the
// device copy of its data (the current device's, as acc_deviceptr gives it), through a pointer
// of the same type declared in an inner block, so the program's own variable is never changed.
// The statement may write the copy (MPI_Recv into it): jacc_use_device makes it the data's only
// current copy as the construct starts, which a `return` or `goto` out of it cannot skip.
#include "translate/Translator.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

void Translator::translateHostData(const Pragma &P, const Directive &D) {
  Stmt *S = Idx.statementAfter(P);
  if (!S) {
    error(P, "'#pragma acc host_data' must be followed by a statement");
    return;
  }
  std::string Cond;
  bool IfPresent = D.has(ClauseKind::IfPresent);
  std::vector<std::string> Vars;
  for (const Clause &C : D.Clauses) {
    if (C.Kind == ClauseKind::If)
      Cond = C.Argument;
    if (C.Kind != ClauseKind::UseDevice)
      continue;
    for (const std::string &V : C.Vars) {
      VarDecl *Var = Idx.lookupVar(V, P.Hash);
      QualType T = Var ? Var->getType().getCanonicalType() : QualType();
      if (!Var || !(T->isPointerType() || T->isArrayType())) {
        error(P, C, "'" + V + "' in clause 'use_device' must be an array or a pointer variable");
        continue;
      }
      Vars.push_back(V);
    }
  }
  std::string I = P.Indent, I2 = I + "  ";
  std::string Open = I + "{ /* #pragma acc " + D.Text + " */\n";
  std::string Inner = I2 + "{\n";
  for (const std::string &V : Vars) {
    std::string Dev = "jacc_use_device_" + V;
    // The device address when the data is present; the host's otherwise (if_present, or a
    // false if clause). Absent data without if_present is the program's error.
    Open += I2 + "__typeof__(&*(" + V + ")) " + Dev + " = " + V + ";\n";
    std::string Use = "jacc_translated_use_device((void *)" + Dev + ", " + where(P) + ")";
    // Cast: C++ converts a void * to no other pointer type.
    std::string Cast = "(__typeof__(" + Dev + "))";
    std::string Take = Dev + " = " + Cast + Use + ";";
    if (IfPresent)
      Take = "{ void *jacc_p = " + Use + "; if (jacc_p) " + Dev + " = " + Cast + "jacc_p; }";
    else
      Open += I2 + (Cond.empty() ? "" : "if (" + Cond + ") ") + "jacc_translated_present(" +
              Dev + ", 1, " + where(P) + ", \"" + V + "\");\n";
    Open += I2 + (Cond.empty() ? "" : "if (" + Cond + ") ") + Take + "\n";
    Inner += I2 + "__typeof__(" + Dev + ") " + V + " = " + Dev + ";\n";
  }
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Open + Inner);
  RW.InsertTextAfter(SM.getComposedLoc(SM.getMainFileID(), Idx.endOf(S)),
                     "\n" + I2 + "}\n" + I + "}");
}

} // namespace jacc::translate
