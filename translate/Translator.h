// The translator of one OpenACC C file: its state, and its parts (translate/*.cpp).
#ifndef JACC_TRANSLATE_TRANSLATOR_H
#define JACC_TRANSLATE_TRANSLATOR_H

#include "translate/ComputePush.h"
#include "translate/ConstructCalls.h"
#include "translate/CxxLowering.h"
#include "translate/DataClauses.h"
#include "translate/DeviceScalars.h"
#include "translate/ImplicitSections.h"
#include "translate/KernelNeeds.h"
#include "translate/PrivateSections.h"
#include "translate/Routines.h"
#include "translate/SourceFile.h"
#include "translate/TemplateKernels.h"

#include <clang/AST/ASTContext.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/Twine.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace jacc::translate {

class Translator : private SourceFile {
public:
  /// The translator of the parsed file FileName, whose `#pragma acc`s are Read.
  Translator(clang::ASTContext &Ctx, clang::Preprocessor &PP,
             const std::vector<analysis::AccPragma> &Read, llvm::StringRef FileName)
      : SourceFile(Ctx, PP, Read, FileName), Cxx(Ctx, Idx, TypeText, Buf, Diags), Data(*this),
        Routines(*this), Needs(*this, Cxx, Routines), Templates(*this, Cxx, Needs), Privates(*this),
        Scalars(*this) {}

  /// The translated file, or "" with errors in Diags.
  std::string run();
  using SourceFile::Describe;
  using SourceFile::Diags;

private:
  /// Infos on how the construct at P, pushed as Kernel with the jacc_arg initialisers Args, will
  /// run: the kernel is analysed as the runtime will analyse it.
  void describeConstruct(const Pragma &P, const std::string &Kernel,
                         const std::vector<std::string> &Args);
  // Directives.
  /// Compute construct R as a push of its kernel (ComputeConstruct.cpp): the steps below, in
  /// order, each learning more of it (a Compute), and the printer of what it became.
  void translateCompute(Region &R);
  struct Compute;
  /// The template parameters' lines its kernel starts with, in a template; false after an error.
  bool templateParameters(Compute &C);
  /// Its statement lowered to C (C++) and what its kernel needs; false after an error.
  bool kernelNeeds(Compute &C);
  /// Its clauses: data clauses as calls around the push, the others kept in the kernel's pragma
  /// or as async, wait and if; false after an error.
  bool clauses(Compute &C);
  /// deviceptr clauses of the data constructs around it, for the variables it uses.
  void inheritedDeviceptrs(Compute &C);
  /// NVHPC's implicit copy or copyin of the pointers no clause maps (none with default(...)).
  void implicitCopies(Compute &C);
  /// Its private arrays and private sections of pointers; false after an error.
  bool privates(Compute &C);
  /// The calls that bring the scalars with a copy on the devices to the kernel and back.
  void deviceScalarCalls(Compute &C);
  /// The kernel's arguments, with the implicit copies of whole arrays; false after an error.
  bool kernelArguments(Compute &C);
  /// Its kernel texts (in a template one per group of instantiations); false after an error
  /// of the instantiations (none when the statement's text could not be written).
  bool kernelTexts(Compute &C);
  /// What the host program around the push needs: the site, the if clause's host statement,
  /// the construct's begin and end calls, the queue checks.
  void hostSide(Compute &C);
  /// Compute construct R's statement as the host runs it (an `if` clause false): its inner
  /// pragmas as comments.
  std::string hostStatement(const Region &R) const;
  void translateData(Region &R);
  void translateStandalone(const Pragma &P, const analysis::Directive &D);
  /// init, shutdown and set: the OpenACC runtime routines they stand for.
  void translateRuntimeDirective(const Pragma &P, const analysis::Directive &D);
  /// Replace P's line by a comment and Calls (under `if (Guard)` unless Guard is empty).
  void replaceDirective(const Pragma &P, const analysis::Directive &D, const std::string &Guard,
                        const std::vector<std::string> &Calls);
  bool IncludesOpenACC = false; ///< `#include <jacc/openacc.h>` added to the file
  void addExits(Region &R);
  /// The exit calls of every data region: at its end, innermost first, and before each jump
  /// that leaves it.
  void closeDataRegions();
  void translateRoutine(const Pragma &P, const analysis::Directive &D);
  void translateHostData(const Pragma &P, const analysis::Directive &D);
  /// A function-scope `declare` as a data region over the rest of its block (false when P is not
  /// in a function body).
  bool declareRegion(const Pragma &P, const analysis::Directive &D, Region &R);
  /// A file-scope `declare`: its globals mapped at program start.
  void translateGlobalDeclare(const Pragma &P, const analysis::Directive &D);
  unsigned GlobalDeclares = 0; ///< start-up functions emitted so far (their names are numbered)

  // Directives of headers (IncludedDirectives.cpp) and routines of other files
  // (RoutineDefinitions.cpp).
  /// The function a routine directive applies to: the one it names, else the next one declared
  /// after it in its file; null if none.
  clang::FunctionDecl *routineTarget(const Pragma &P, const analysis::Directive &D) const;
  /// Whether a header's directive is taken as it is written: a routine, a file-scope declare, a
  /// loop in a function's body (whose function must then be a routine).
  bool takenFromHeader(const Pragma &P, const analysis::Directive &D) const;
  /// The function whose body holds the file location L, or null.
  clang::FunctionDecl *functionAround(clang::SourceLocation L) const;
  /// The file-scope variable Name (its last declaration), or null.
  clang::VarDecl *globalVar(llvm::StringRef Name) const;
  /// Registers the routines this file defines with external linkage, for the kernels of other
  /// files that call them (jacc_define_routine at program start).
  void defineRoutines();

  /// The kernel argument for V: its declaration, the value's address and the host temporary
  /// that holds it when needed; Before gets the arguments V's declaration refers to (the extents
  /// of a variable-length array).
  bool argDecl(clang::VarDecl *V, std::string &Decl, std::string &Temp, std::string &Value,
               std::vector<std::string> &Before, const Pragma &P);

  /// C++ lowered to C for kernels (CxxLowering.h).
  CxxLowering Cxx;
  /// Data clauses as runtime calls (DataClauses.h).
  DataClauses Data;
  /// The routines kernels may call (Routines.h).
  RoutineTable Routines;
  /// What kernels need from the file, and their leading declarations (KernelNeeds.h).
  KernelDeclarations Needs;
  /// Compute constructs in templates (TemplateKernels.h).
  TemplateKernels Templates;
  /// Private data the kernels declare themselves (PrivateSections.h).
  PrivateData Privates;
  /// Scalars with copies on the devices (DeviceScalars.h).
  DeviceScalars Scalars;
  /// The kernel arguments (Args) for the data members K uses through `this` (at construct P),
  /// their types added to N; false after an error.
  bool memberArgs(const CxxKernel &K, const Pragma &P, KernelNeeds &N,
                  std::vector<std::string> &Args);
};

} // namespace jacc::translate

#endif
