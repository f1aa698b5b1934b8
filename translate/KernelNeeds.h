// What a kernel's text needs from the file: the variables, types, routines and constants a
// statement uses, found (collect), and the declarations that lead the text (leadingDecls).
#ifndef JACC_TRANSLATE_KERNELNEEDS_H
#define JACC_TRANSLATE_KERNELNEEDS_H

#include "translate/CxxLowering.h"
#include "translate/Routines.h"
#include "translate/SourceFile.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace jacc::translate {

struct KernelNeeds {
  std::vector<clang::VarDecl *> Vars;          ///< referenced, declared outside, in order
  std::set<const clang::Decl *> TypeDecls;     ///< typedefs, records, enums
  std::vector<clang::FunctionDecl *> Routines; ///< called routine definitions
  std::set<const clang::FunctionDecl *> RoutineSet;
  /// Outer scalars the construct writes.
  std::map<const clang::VarDecl *, clang::SourceLocation> Assigned;
  std::set<const clang::VarDecl *> LoopVars; ///< outer variables used as loop counters (private)
  /// Routines with bind clauses the kernel calls, by name: what host devices and GPUs call.
  std::map<std::string, RoutineNames> Renames;
  /// C++: constexpr globals routines use, with their definitions as the kernel declares them.
  std::map<const clang::VarDecl *, std::string> Constants;
  /// Routines called that are declared but defined in another file: linked at run time.
  std::set<std::string> Externals;
};

class KernelDeclarations {
public:
  KernelDeclarations(SourceFile &File, CxxLowering &Cxx, RoutineTable &Table)
      : File(File), Cxx(Cxx), Table(Table) {}

  /// Adds to N what the statement S (the file's offsets Begin to End; in routine InRoutine,
  /// else a construct's) uses from outside it.
  void collect(clang::Stmt *S, unsigned Begin, unsigned End, KernelNeeds &N,
               clang::FunctionDecl *InRoutine);
  /// Adds type T's declarations (typedefs, records, enums, through pointers and arrays) to N.
  void addType(clang::QualType T, KernelNeeds &N);
  /// Adds routine Fn, with the types and routines it needs, to N (Fn already in N.RoutineSet).
  void addRoutine(clang::FunctionDecl *Fn, KernelNeeds &N);
  /// The declarations before a kernel's construct (Body: its text); Helpers: the construct's
  /// C++ helper definitions, emitted with its routines'.
  /// ItemEnd follows each declaration (a routine's registered text: jit/KernelRoutines.h).
  std::string leadingDecls(KernelNeeds &N, llvm::StringRef Body,
                           const std::set<std::string> &Helpers = {}, llvm::StringRef ItemEnd = "");

private:
  /// C++: `static const double g = 9.81;` for a constexpr global of scalar type V a routine
  /// uses (its value, exactly); none for another variable.
  std::optional<std::string> constantDecl(const clang::VarDecl *V) const;
  std::string declText(const clang::Decl *D);
  /// The text of routine Fn as kernels carry it: its orphaned loops' pragmas are comments.
  std::string routineText(const clang::FunctionDecl *Fn);

  SourceFile &File;
  CxxLowering &Cxx;
  RoutineTable &Table;
};

} // namespace jacc::translate

#endif
