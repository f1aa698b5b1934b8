// The file's routines: the functions kernels may call, each one's directive, what a bind clause
// makes each kind of device call instead, and the orphaned loops in them.
#ifndef JACC_TRANSLATE_ROUTINES_H
#define JACC_TRANSLATE_ROUTINES_H

#include "translate/SourceFile.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace jacc::translate {

/// The functions host devices and NVIDIA GPUs call for a bound routine (its own name when
/// their kind has no bind).
struct RoutineNames {
  std::string Host, Gpu;
};

class RoutineTable {
public:
  explicit RoutineTable(SourceFile &File) : File(File) {}

  /// canonical decl -> its pragma
  std::map<const clang::FunctionDecl *, const Pragma *> RoutineOf;
  std::map<const clang::FunctionDecl *, analysis::Directive> RoutineDir;
  /// The definitions each kind of device calls instead of a routine with bind clauses: null for
  /// the routine itself. Host devices are devices for a binding too: they run device code.
  struct Binding {
    clang::FunctionDecl *Host = nullptr, *Gpu = nullptr;
  };
  /// By the routine's canonical declaration.
  std::map<const clang::FunctionDecl *, Binding> BoundTo;
  /// Orphaned loops in routine definitions: they run sequentially, their pragmas commented out.
  std::vector<const Pragma *> RoutineLoops;

  /// `routine bind(name)` on Fn (directive D, RoutineBind.cpp): kernels on each kind of device
  /// call the definition in this file that the kind's bind names instead of Fn, which becomes a
  /// routine of D's level; an error at each applying bind whose function is not defined here.
  void bind(const Pragma &P, const analysis::Directive &D, clang::FunctionDecl *Fn);
  /// `#define`s renaming Routine to what each kind of device calls.
  static std::string renameText(const std::string &Routine, const RoutineNames &To);
  /// The `#pragma acc routine` line a kernel carries for a routine of directive D: its clauses
  /// before any device_type, without bind (the kernel's text already calls the binding).
  static std::string kernelRoutinePragma(const analysis::Directive &D);

private:
  /// The definition bind clause B of P names, or nullptr after an error naming the routine Fn.
  clang::FunctionDecl *boundDefinition(const Pragma &P, const analysis::Clause &B,
                                       const clang::FunctionDecl *Fn);

  SourceFile &File;
  /// Static bound definitions given `__attribute__((unused))` (once each).
  std::set<const clang::FunctionDecl *> UnusedBound;
};

} // namespace jacc::translate

#endif
