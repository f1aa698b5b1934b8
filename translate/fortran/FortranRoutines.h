// The procedures of a Fortran file that kernels may call: those an `!$acc routine` directive
// names (in their own specification part, or as `routine(name)` anywhere in the file), found
// once per file so that each kernel calling one can carry its definition.
#ifndef JACC_TRANSLATE_FORTRAN_FORTRANROUTINES_H
#define JACC_TRANSLATE_FORTRAN_FORTRANROUTINES_H

#include <map>
#include <set>
#include <string>
#include <vector>

namespace Fortran::semantics {
class Symbol;
}
namespace Fortran::parser {
struct Program;
struct SpecificationPart;
struct ExecutionPart;
} // namespace Fortran::parser

namespace jacc::translate::fortran {

/// A procedure under a routine directive, as its definition reads.
struct Routine {
  const Fortran::semantics::Symbol *Symbol = nullptr; ///< its subprogram (SubprogramDetails)
  const Fortran::parser::ExecutionPart *Body = nullptr;
  std::string CName; ///< its name in kernel text: jacc_routine_[module_]name
};

/// The routines of one file, by symbol and by name (an external procedure is called through
/// a symbol of the caller's scope: its interface or implicit declaration).
class RoutineIndex {
public:
  explicit RoutineIndex(const Fortran::parser::Program &Program);
  /// The routine a call of Callee runs; null when the file defines none under that directive.
  const Routine *find(const Fortran::semantics::Symbol &Callee) const;
  /// Whether the file defines a procedure of Callee's name (with or without the directive).
  bool defines(const Fortran::semantics::Symbol &Callee) const;
  /// Whether a routine directive of the file names Callee (in an interface body declaring it,
  /// or as `routine(name)`), defined here or not.
  bool declaredRoutine(const Fortran::semantics::Symbol &Callee) const;
  /// Every routine, in no particular order.
  std::vector<const Routine *> all() const;
  /// Text about a kernel (the analysis' remarks) with its routines' Fortran names.
  std::string spelledInFortran(std::string Text) const;

private:
  std::map<const Fortran::semantics::Symbol *, Routine> BySymbol;
  std::map<std::string, const Routine *> ByName; ///< external procedures only
  std::map<std::string, bool> Defined;           ///< every subprogram's name: a routine?
  std::set<std::string> Declared; ///< the names routine directives and interfaces give
};

} // namespace jacc::translate::fortran

#endif
