// The translator of one OpenACC C or C++ file: the walk over its directives, each handed to the
// part that decides it (the classes below, over the SourceFile), and the host directives' own
// translation (HostDirectives.cpp, Declare.cpp, HostData.cpp).
#ifndef JACC_TRANSLATE_TRANSLATOR_H
#define JACC_TRANSLATE_TRANSLATOR_H

#include "translate/ComputeLowering.h"
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
        Scalars(*this), Lowering(*this, Cxx, Data, Needs, Templates, Privates, Scalars) {}

  /// The translated file, or "" with errors in Diags.
  std::string run();
  using SourceFile::Describe;
  using SourceFile::Diags;

private:
  // Directives.
  /// Compute construct R replaced by the push ComputeLowering makes of it.
  void translateCompute(Region &R);
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
  /// Compute constructs as pushes (ComputeLowering.h).
  ComputeLowering Lowering;
};

} // namespace jacc::translate

#endif
