// The directives that become host code: data, enter/exit data, update, wait and routine.
#include "translate/Translator.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

void Translator::translateData(Region &R) {
  const Pragma &P = *R.P;
  std::vector<std::string> Decls, Entry;
  bool Ok = dataCalls(R, Decls, Entry, R.Exits);
  std::string Guard, Pre;
  for (const Clause &C : R.D.Clauses)
    switch (C.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::Present:
    case ClauseKind::NoCreate:
      break;
    case ClauseKind::Deviceptr:
      // No call: the compute constructs inside pass these pointers untranslated (translateCompute).
      for (const std::string &V : C.Vars) {
        VarDecl *Var = Idx.lookupVar(V, P.Hash);
        if (!Var || !Var->getType().getCanonicalType()->isPointerType()) {
          error(P, C, "'" + V + "' in clause 'deviceptr' must be a pointer variable (memory "
                      "from acc_malloc or acc_deviceptr)");
          Ok = false;
        }
      }
      break;
    case ClauseKind::If:
      Guard = "jacc_if_" + std::to_string(P.Line);
      Pre = P.Indent + "const int " + Guard + " = (" + C.Argument + ") != 0;\n";
      break;
    case ClauseKind::Wait:
      Pre += P.Indent + check("jacc_wait()", P) + "\n";
      break;
    default:
      error(P, C, "clause '" + C.Name + "' of '#pragma acc data' is not supported by "
                                         "jacc-translate");
      Ok = false;
    }
  if (!Ok)
    return;
  if (!Guard.empty()) {
    for (std::string &E : Entry)
      E = "if (" + Guard + ") " + E;
    for (std::string &E : R.Exits)
      E = "if (" + Guard + ") " + E;
  }
  std::string Code = P.Indent + "{ /* #pragma acc " + R.D.Text + " */\n" + Pre;
  for (const std::string &E : Decls)
    Code += P.Indent + E + "\n";
  for (const std::string &E : Entry)
    Code += P.Indent + E + "\n";
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

/// The routine pragma becomes a comment: the routine's text travels in the kernels that call it.
/// A static routine that only kernels call is unused in the host code: say so to the compiler.
void Translator::translateRoutine(const Pragma &P, const Directive &D) {
  std::string Code = P.Indent + "/* #pragma acc " + D.Text + " */\n";
  auto It = Idx.Decls.upper_bound(P.EndTok);
  if (D.Argument.empty() && It != Idx.Decls.end())
    if (auto *F = dyn_cast<FunctionDecl>(It->second); F && F->getStorageClass() == SC_Static)
      Code += P.Indent + "__attribute__((unused))\n";
  if (!D.Argument.empty())
    // routine(name): the static definition, wherever it is, gets the attribute.
    for (FunctionDecl *G : Idx.Functions)
      if (G->getName() == D.Argument && G->isThisDeclarationADefinition() &&
          G->getStorageClass() == SC_Static)
        RW.InsertTextBefore(SM.getExpansionLoc(G->getBeginLoc()), "__attribute__((unused)) ");
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

/// Exit calls at the end of a data region, and before every jump out of it.
void Translator::addExits(Region &R) {
  std::string Tail;
  for (const std::string &E : R.Exits)
    Tail += "\n" + R.P->Indent + E;
  RW.InsertTextAfter(SM.getComposedLoc(SM.getMainFileID(), R.End), Tail + "\n" + R.P->Indent + "}");
}

void Translator::translateStandalone(const Pragma &P, const Directive &D) {
  std::vector<std::string> Calls;
  std::string Guard;
  bool Ok = true, Finalize = D.has(ClauseKind::Finalize), IfPresent = D.has(ClauseKind::IfPresent);
  if (D.Kind == DirectiveKind::Wait) {
    // jacc has one queue per device: waiting for any async queue waits for all.
    Calls.push_back(check("jacc_wait()", P));
  }
  for (const Clause &C : D.Clauses) {
    const char *Fn = nullptr;
    switch (C.Kind) {
    case ClauseKind::If:
      Guard = C.Argument;
      continue;
    case ClauseKind::Async:      // done synchronously: a later wait has nothing left to wait for
    case ClauseKind::Finalize:
    case ClauseKind::IfPresent:
      continue;
    case ClauseKind::Wait:
      if (D.Kind != DirectiveKind::Wait)
        Calls.insert(Calls.begin(), check("jacc_wait()", P));
      continue;
    case ClauseKind::Copyin:
      Fn = D.Kind == DirectiveKind::EnterData ? "jacc_copyin" : nullptr;
      break;
    case ClauseKind::Create:
      Fn = D.Kind == DirectiveKind::EnterData ? "jacc_create" : nullptr;
      break;
    case ClauseKind::Copyout:
      Fn = D.Kind == DirectiveKind::ExitData ? "jacc_copyout" : nullptr;
      break;
    case ClauseKind::Delete:
      Fn = D.Kind == DirectiveKind::ExitData ? "jacc_delete" : nullptr;
      break;
    case ClauseKind::Self:
    case ClauseKind::Host:
      Fn = D.Kind == DirectiveKind::Update ? "jacc_update_self" : nullptr;
      break;
    case ClauseKind::Device:
      Fn = D.Kind == DirectiveKind::Update ? "jacc_update_device" : nullptr;
      break;
    default:
      break;
    }
    if (!Fn) {
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(D.Kind) +
                      "' is not supported by jacc-translate");
      Ok = false;
      continue;
    }
    for (const std::string &Item : C.Vars) {
      auto S = section(Item, P, C);
      if (!S) {
        Ok = false;
        continue;
      }
      if (S->Scalar)
        continue; // scalars are passed to kernels by value: nothing to map or update
      std::string Call = check(std::string(Fn) + "(" + S->Addr + ", " + S->Bytes + ")", P);
      if (llvm::StringRef(Fn) == "jacc_copyout" && S->Const)
        Call = check("jacc_delete(" + S->Addr + ", " + S->Bytes + ")", P);
      std::string Present = "jacc_is_present(" + S->Addr + ", " + S->Bytes + ")";
      if (Finalize) // every reference goes: exit until the mapping is gone
        Call = "while (" + Present + ") " + Call;
      else if (IfPresent)
        Call = "if (" + Present + ") " + Call;
      Calls.push_back(Call);
    }
  }
  if (!Ok)
    return;
  std::string Code = P.Indent + "/* #pragma acc " + D.Text + " */\n";
  if (!Guard.empty()) {
    Code += P.Indent + "if (" + Guard + ") {\n";
    for (const std::string &C : Calls)
      Code += P.Indent + "  " + C + "\n";
    Code += P.Indent + "}\n";
  } else {
    for (const std::string &C : Calls)
      Code += P.Indent + C + "\n";
  }
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

/// Jumps (return, break, continue, goto) that leave the statement S.
static void jumpsOut(Stmt *S, unsigned Begin, unsigned End, SourceManager &SM, int Loops,
                     int Switches, std::vector<Stmt *> &Out) {
  if (!S)
    return;
  if (isa<ReturnStmt>(S) || (isa<BreakStmt>(S) && Loops == 0 && Switches == 0) ||
      (isa<ContinueStmt>(S) && Loops == 0))
    Out.push_back(S);
  if (auto *G = dyn_cast<GotoStmt>(S)) {
    SourceLocation L = SM.getExpansionLoc(G->getLabel()->getLocation());
    unsigned O = SM.getFileOffset(L);
    if (O < Begin || O >= End)
      Out.push_back(S);
  }
  bool Loop = isa<ForStmt, WhileStmt, DoStmt>(S), Switch = isa<SwitchStmt>(S);
  for (Stmt *C : S->children())
    jumpsOut(C, Begin, End, SM, Loops + Loop, Switches + Switch, Out);
}

void Translator::closeDataRegions() {
  std::map<Stmt *, std::vector<const Region *>> JumpExits;
  for (auto It = Datas.rbegin(); It != Datas.rend(); ++It) {
    addExits(*It);
    std::vector<Stmt *> Jumps;
    jumpsOut(It->S, Idx.offset(It->S->getBeginLoc()), It->End, SM, 0, 0, Jumps);
    for (Stmt *J : Jumps)
      JumpExits[J].push_back(&*It);
  }
  for (auto &[J, Regions] : JumpExits) {
    std::string Calls;
    for (const Region *R : Regions)
      for (const std::string &E : R->Exits)
        Calls += E + " ";
    if (Calls.empty())
      continue;
    RW.InsertTextBefore(SM.getExpansionLoc(J->getBeginLoc()), "{ " + Calls);
    RW.InsertTextAfter(SM.getComposedLoc(SM.getMainFileID(), Idx.endOf(J)), " }");
  }
}

} // namespace jacc::translate
