// The routines this file defines, registered for the kernels of other files: OpenACC's separate
// compilation, where a kernel calls a routine another object file defines (nvc links them; jacc
// links the routine's text into the kernel before compiling it, jit/KernelRoutines.h).
#include "translate/Translator.h"

#include "analysis/KernelSource.h"
#include "translate/RoutineRegistration.h"

#include <clang/AST/DeclCXX.h>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

/// Whether F, defined in this file under a routine directive, can be called by name from another
/// file: a plain function of external linkage (not a method, a template or an overload).
static bool callableFromOtherFiles(const FunctionDecl *F) {
  return F->getStorageClass() != SC_Static && F->isExternallyVisible() && !isa<CXXMethodDecl>(F) &&
         F->getTemplatedKind() == FunctionDecl::TK_NonTemplate && F->getDeclName().isIdentifier() &&
         !F->isVariadic();
}

void Translator::defineRoutines() {
  std::map<std::string, std::vector<FunctionDecl *>> ByName;
  for (FunctionDecl *F : Idx.Functions)
    if (F->doesThisDeclarationHaveABody() &&
        SM.isInMainFile(SM.getExpansionLoc(F->getLocation())) &&
        Routines.RoutineOf.count(F->getCanonicalDecl()) && callableFromOtherFiles(F) &&
        !Routines.RoutineDir[F->getCanonicalDecl()].has(
            ClauseKind::Bind)) // kernels call the binding
      ByName[identifierOf(F).str()].push_back(F);
  std::string Calls;
  for (auto &[Name, Fs] : ByName) {
    if (Fs.size() != 1)
      continue; // overloads: a kernel calls one function of a name
    FunctionDecl *F = Fs.front();
    unsigned Line = SM.getPresumedLineNumber(SM.getExpansionLoc(F->getLocation()));
    std::string Site = FileName.str() + ":" + std::to_string(Line);
    // What a kernel calling it needs, as a kernel of this file carrying it would hold. A routine
    // that cannot run in kernels (it reads a global) is registered as that error, which a kernel
    // calling it reports when it is compiled; this file builds as before.
    size_t Before = Diags.errorCount();
    KernelNeeds N;
    N.RoutineSet.insert(F);
    Needs.addRoutine(F, N);
    std::string Text;
    if (Diags.errorCount() == Before)
      Text = Needs.leadingDecls(N, "", {}, RoutineItemEnd);
    if (Diags.errorCount() != Before)
      Text = routineError(Diags.takeErrorsAfter(Before).front());
    Calls += routineRegistration(Name, Text, Site);
  }
  if (!Calls.empty())
    RW.InsertTextAfter(SM.getLocForEndOfFile(SM.getMainFileID()),
                       registrationConstructor(Calls, "routines"));
}

} // namespace jacc::translate
