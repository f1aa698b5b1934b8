// The directives that become host code: data, enter/exit data, update, wait, routine, and
// init, shutdown and set (as the OpenACC runtime routines).
#include "translate/Translator.h"

#include "support/CText.h"
#include "translate/RuntimeDirectives.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

void Translator::translateData(Region &R) {
  const Pragma &P = *R.P;
  std::vector<std::string> Decls, Entry;
  bool Ok = Data.regionCalls(R, Decls, Entry, R.Exits);
  std::string Guard, Pre;
  for (const Clause &C : R.D.Clauses)
    switch (C.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::Present:
    case ClauseKind::NoCreate:
    case ClauseKind::Attach:
    case ClauseKind::DeviceResident: // declare: created like create
    case ClauseKind::Async: // done synchronously: a later wait has nothing left to wait for
      break;
    case ClauseKind::Link:
      error(P, C, "clause 'link' of '#pragma acc declare' is not supported by jacc-translate: "
                  "use 'declare create' or a data clause where the kernels use the variable");
      Ok = false;
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
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(R.D.Kind) +
                      "' is not supported by jacc-translate");
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
  if (!atDataLocation(*this, P, Entry))
    return;
  std::string Code = P.Indent + "{ /* #pragma acc " + R.D.Text + " */\n" + Pre;
  for (const std::string &E : Decls)
    Code += P.Indent + E + "\n";
  Code += P.Indent + constructBegin(*this, P, "DATA") + "\n";
  for (const std::string &Q : queueChecks(*this, P, R.D))
    Code += P.Indent + Q + "\n";
  for (const std::string &E : Entry)
    Code += P.Indent + E + "\n";
  Code += P.Indent + constructEnd() + "\n";
  R.Exits.insert(R.Exits.begin(), constructBegin(*this, P, "DATA_EXIT"));
  R.Exits.push_back(constructEnd());
  commentJaccLines(*this, P);
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
      if (Idx.routineName(G) == D.Argument && G->isThisDeclarationADefinition() &&
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
  bool Enter = D.Kind == DirectiveKind::EnterData, Exit = D.Kind == DirectiveKind::ExitData;
  bool Update = D.Kind == DirectiveKind::Update;
  if (D.Kind == DirectiveKind::Wait) {
    // jacc has one queue per device: waiting for any async queue waits for all.
    Calls.push_back(check("jacc_wait()", P));
  }
  for (const Clause &C : D.Clauses) {
    std::string Fn;
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
    case ClauseKind::Attach:
    case ClauseKind::Detach:
      if (Enter || Exit) {
        if (!Data.pointerCalls(P, C, Finalize, Calls))
          Ok = false;
        continue;
      }
      break;
    case ClauseKind::Copyin:
      Fn = Enter ? "jacc_copyin" : "";
      break;
    case ClauseKind::Create:
      Fn = !Enter ? "" : DataClauses::hasZeroModifier(C) ? "jacc_create_zero" : "jacc_create";
      break;
    case ClauseKind::Copyout:
    case ClauseKind::Delete:
      // OpenACC 3.x: data no longer present (or held only by a data region) is left alone.
      Fn = Exit ? "jacc_exit_data" : "";
      break;
    case ClauseKind::Self:
    case ClauseKind::Host:
      Fn = Update ? "jacc_update_self" : "";
      break;
    case ClauseKind::Device:
      Fn = Update ? "jacc_update_device" : "";
      break;
    default:
      break;
    }
    if (Fn.empty()) {
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(D.Kind) +
                      "' is not supported by jacc-translate");
      Ok = false;
      continue;
    }
    for (const std::string &Item : C.Vars) {
      auto S = Data.section(Item, P, C);
      if (!S) {
        Ok = false;
        continue;
      }
      if (S->Scalar) {
        // Scalars are passed to kernels by value: nothing to map or update, but for a global
        // that a file-scope declare keeps on the devices.
        if (!DeclaredGlobals.count(Idx.lookupVar(Item, P.Hash)))
          continue;
        S->Addr = "&" + Item;
        S->Bytes = "sizeof " + Item;
      }
      if (!S->RowBytes.empty()) {
        std::vector<std::string> Rows =
            Data.standaloneRowCalls(*S, P, C, Fn, Enter, Exit, Finalize);
        if (IfPresent) {
          Calls.push_back("if (jacc_is_present(" + S->Addr + ", " + S->Bytes + ")) {");
          for (std::string &R : Rows)
            R = "  " + R;
          Rows.push_back("}");
        }
        Calls.insert(Calls.end(), Rows.begin(), Rows.end());
        continue;
      }
      std::string Args = S->Addr + ", " + S->Bytes;
      if (Exit) // const data is never copied back (it may live in read-only memory)
        Args += std::string(C.Kind == ClauseKind::Copyout && !S->Const ? ", 1" : ", 0") +
                (Finalize ? ", 1" : ", 0");
      std::string Call = Data.checkData(Fn + "(" + Args + ")", P, Item);
      if (IfPresent)
        Call = "if (jacc_is_present(" + S->Addr + ", " + S->Bytes + ")) " + Call;
      // A struct's pointer member: attached once its target is mapped, detached before it goes.
      if (Exit && !S->Pointer.empty())
        Calls.push_back(check("jacc_detach(" + S->Pointer + (Finalize ? ", 1)" : ", 0)"), P));
      Calls.push_back(Call);
      if (Enter && !S->Pointer.empty())
        Calls.push_back(check("jacc_attach(" + S->Pointer + ")", P));
    }
  }
  if (!Ok)
    return;
  if (Enter && !atDataLocation(*this, P, Calls))
    return;
  if (!Enter && D.Kind != DirectiveKind::Wait && jaccLinesAbove(*this, P).Location)
    warning(P, "'#pragma jacc location' above '#pragma acc " +
                   std::string(directiveKindName(D.Kind)) +
                   "' changes nothing: data lives where its enter data, data construct or "
                   "compute construct mapped it");
  replaceDirective(P, D, Guard, Calls);
}

/// The directive's line becomes a comment and Calls, under `if (Guard)` when there is one.
void Translator::replaceDirective(const Pragma &P, const Directive &D, const std::string &Guard,
                                  const std::vector<std::string> &Input) {
  std::string Code = P.Indent + "/* #pragma acc " + D.Text + " */\n";
  // The data directives' calls are one construct to jacc's observers.
  std::vector<std::string> Calls = queueChecks(*this, P, D);
  Calls.insert(Calls.end(), Input.begin(), Input.end());
  const char *Kind = D.Kind == DirectiveKind::EnterData ? "ENTER_DATA"
                     : D.Kind == DirectiveKind::ExitData ? "EXIT_DATA"
                     : D.Kind == DirectiveKind::Update   ? "UPDATE"
                     : D.Kind == DirectiveKind::Wait     ? "WAIT"
                                                         : nullptr;
  if (Kind && !Calls.empty()) {
    Calls.insert(Calls.begin(), constructBegin(*this, P, Kind));
    Calls.push_back(constructEnd());
  }
  if (!Guard.empty()) {
    Code += P.Indent + "if (" + Guard + ") {\n";
    for (const std::string &C : Calls)
      Code += P.Indent + "  " + C + "\n";
    Code += P.Indent + "}\n";
  } else {
    for (const std::string &C : Calls)
      Code += P.Indent + C + "\n";
  }
  commentJaccLines(*this, P);
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

void Translator::translateRuntimeDirective(const Pragma &P, const Directive &D) {
  RuntimeDirective R;
  R.K = D.Kind == DirectiveKind::Set    ? RuntimeDirective::Set
        : D.Kind == DirectiveKind::Init ? RuntimeDirective::Init
                                        : RuntimeDirective::Shutdown;
  std::string Guard;
  bool Ok = true;
  for (const Clause &C : D.Clauses)
    switch (C.Kind) {
    case ClauseKind::If:
      Guard = C.Argument;
      break;
    case ClauseKind::DeviceNum:
      R.Num = C.Argument;
      break;
    case ClauseKind::DefaultAsync:
      R.Async = C.Argument;
      break;
    case ClauseKind::DeviceType:
      for (const std::string &T : C.Vars) {
        std::string K = deviceTypeConstant(T);
        if (K.empty()) {
          error(P, C, unknownDeviceType(T));
          Ok = false;
        }
        R.Types.push_back(K);
      }
      break;
    default:
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(D.Kind) +
                      "' is not supported by jacc-translate");
      Ok = false;
    }
  if (!Ok)
    return;
  std::vector<std::string> Calls = runtimeDirectiveCalls(R);
  if (!IncludesOpenACC) {
    // The runtime routines' declarations, once, at the top of the file.
    RW.InsertTextBefore(SM.getLocForStartOfFile(SM.getMainFileID()),
                        "#include <jacc/openacc.h>\n");
    IncludesOpenACC = true;
  }
  replaceDirective(P, D, Guard, Calls);
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
    unsigned Begin = It->Begin ? It->Begin : Idx.offset(It->S->getBeginLoc());
    jumpsOut(It->S, Begin, It->End, SM, 0, 0, Jumps);
    for (Stmt *J : Jumps)
      if (Idx.offset(J->getBeginLoc()) >= Begin) // a declare's block before it is not in it
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
