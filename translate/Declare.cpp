// `declare`: in a function, a data region to the end of its block; at file scope, globals mapped
// at program start.
#include "support/DynamicASTVisitor.h"
#include "translate/Translator.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

namespace {
/// The innermost compound statement whose braces enclose Offset.
struct BlockFinder : public DynamicASTVisitor {
  const FileIndex &Idx;
  unsigned Offset;
  CompoundStmt *Found = nullptr;
  BlockFinder(const FileIndex &Idx, unsigned Offset) : Idx(Idx), Offset(Offset) {}
  bool VisitCompoundStmt(CompoundStmt *C) override {
    // Enclosing blocks nest: the last one visited is the innermost.
    if (Idx.offset(C->getLBracLoc()) < Offset && Offset < Idx.offset(C->getRBracLoc()))
      Found = C;
    return true;
  }
};
} // namespace

bool Translator::declareRegion(const Pragma &P, const Directive &D, Region &R) {
  BlockFinder Finder(Idx, P.Hash);
  for (FunctionDecl *F : Idx.Functions)
    if (F->doesThisDeclarationHaveABody())
      Finder.TraverseStmt(F->getBody());
  if (!Finder.Found)
    return false;
  // OpenACC 3.3 2.13: the data lives from the directive to the end of the enclosing block.
  R.P = &P;
  R.D = D;
  R.S = Finder.Found;
  R.Begin = P.Hash;
  R.End = Idx.offset(Finder.Found->getRBracLoc());
  return true;
}

void Translator::translateGlobalDeclare(const Pragma &P, const Directive &D) {
  std::vector<std::string> Calls;
  bool Ok = true;
  for (const Clause &C : D.Clauses) {
    std::string Fn;
    switch (C.Kind) {
    case ClauseKind::Copyin:
      Fn = "jacc_copyin";
      break;
    case ClauseKind::Create:
    case ClauseKind::DeviceResident: // the host copy is never used: a created copy is the same
      Fn = "jacc_create";
      break;
    case ClauseKind::Link:
      error(P, C, "clause 'link' of '#pragma acc declare' is not supported by jacc-translate: "
                  "use 'declare create' (a device copy for the whole program) or a data clause "
                  "where the kernels use the variable");
      Ok = false;
      continue;
    default:
      error(P, C, "clause '" + C.Name + "' of a file-scope '#pragma acc declare' is not supported "
                  "by jacc-translate (OpenACC allows create, copyin, device_resident, deviceptr "
                  "and link there; jacc does create, copyin and device_resident)");
      Ok = false;
      continue;
    }
    for (const std::string &Item : C.Vars) {
      if (llvm::StringRef(Item).contains('[')) {
        error(P, C, "'" + Item + "' in a file-scope '#pragma acc declare' is a section: jacc maps "
                    "whole globals at program start; name the variable, or map the section with "
                    "'enter data' once its memory is allocated");
        Ok = false;
        continue;
      }
      VarDecl *V = P.Included ? globalVar(Item) : Idx.lookupVar(Item, P.Hash);
      if (!V || !V->hasGlobalStorage()) {
        error(P, C, "'" + Item + "' in a file-scope '#pragma acc declare' must be a global "
                    "variable");
        Ok = false;
        continue;
      }
      Calls.push_back(check(Fn + "(&" + Item + ", sizeof " + Item + ")", P));
      DeclaredGlobals.insert(V);
    }
  }
  if (!Ok)
    return;
  // Mapped before main runs (libjacc's own initialisation, a shared library's, comes first).
  // A header's: every file including it maps the globals (a mapping's count, not a copy, is
  // what a second one adds), from the end of the file, where they are all declared.
  PresumedLoc At = SM.getPresumedLoc(P.Loc);
  std::string Code = P.Included ? "/* #pragma acc " + D.Text + " (" + At.getFilename() + ":" +
                                      std::to_string(At.getLine()) + ") */\n"
                                : P.Indent + "/* #pragma acc " + D.Text + " */\n";
  Code += "__attribute__((constructor)) static void jacc_declare_" +
          std::to_string(++GlobalDeclares) + "(void) {\n";
  for (const std::string &C : Calls)
    Code += "  " + C + "\n";
  Code += "}\n";
  if (P.Included) {
    RW.InsertTextAfter(SM.getLocForEndOfFile(SM.getMainFileID()), "\n" + Code);
    return;
  }
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

} // namespace jacc::translate
