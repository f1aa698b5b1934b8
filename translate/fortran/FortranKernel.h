// The statements of a Fortran compute construct as a kernel in jacc's kernel language (C with
// OpenACC pragmas): column-major arrays as pointers to variable-length rows indexed from their
// lower bounds, DO loops as for loops, and the host variables the text names.
#ifndef JACC_TRANSLATE_FORTRAN_FORTRANKERNEL_H
#define JACC_TRANSLATE_FORTRAN_FORTRANKERNEL_H

#include "translate/fortran/FortranSource.h"

#include <list>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace Fortran::semantics {
class Symbol;
}
namespace Fortran::parser {
struct AccClauseList;
struct Designator;
struct Name;
struct DoConstruct;
struct ExecutionPartConstruct;
} // namespace Fortran::parser

namespace jacc::translate::fortran {

class RoutineIndex;
class ModuleRoutines;

/// A C struct laid out as gfortran lays out a derived type: its name and its typedef.
struct CStruct {
  std::string Name, Definition;
};

/// What identifies a host variable among a construct's: its symbol, and its component path.
using VariableKey = std::pair<const Fortran::semantics::Symbol *, std::string>;

/// A host variable a kernel or a data clause names, as the glue passes it.
struct HostVariable {
  const Fortran::semantics::Symbol *Symbol = nullptr;
  std::string Name;  ///< its C name (the Fortran name, lower case, unless a C keyword)
  std::string CType; ///< its element's C type
  /// The structs its C type needs, each after those of its components (a derived type's).
  std::vector<CStruct> Structs;
  /// A component of a scalar variable whose type has no C struct (an allocatable component,
  /// or any of such a type's): the host program's designator (`m%u`, `m%grid%n`), passed as a
  /// variable of its own; Symbol is the component's. Empty for a variable.
  std::string Path;
  VariableKey key() const { return {Symbol, Path}; }
  int Rank = 0;      ///< 0: a scalar
  /// Each dimension's lower bound in the kernel: a constant, or the argument that carries it.
  std::vector<std::string> Lower;
  /// Each dimension's extent in the kernel: a constant, or the argument that carries it.
  std::vector<std::string> Extent;
  bool Ref = false; ///< a scalar the kernel assigns outside its loops: written through a pointer
  /// A pointer array: passed while it is associated with contiguous memory (the glue checks
  /// where the directive runs), as an allocatable is.
  bool Pointer = false;
  /// An assumed-size dummy argument (`x(*)`, `a(lda, *)`): its last extent is unknown, so a
  /// directive maps only sections with an upper bound (`x(1:n)`) and a kernel finds it
  /// present.
  bool AssumedSize = false;
  /// Indexed by one offset (a routine's array argument of rank 2 or more, whose rows' length
  /// only the call knows), not as rows.
  bool Flat = false;
  /// A private or firstprivate array: the loop bodies that own copies declare them
  /// (PrivateCopies.h); the kernel receives its bounds and, when firstprivate, its original.
  enum class Sharing { Shared, Private, Firstprivate } Share = Sharing::Shared;
};

/// The routines of the file's modules as other files' kernels carry them, into Modules.
void exportModuleRoutines(const FortranSource &Source, const RoutineIndex &Routines,
                          ModuleRoutines &Modules);

/// The glue that registers the file's external routines for the kernels of other files (a
/// constructor calling jacc_define_routine for each, the runtime linking a calling kernel's
/// `#pragma jacc routines` line to it); empty when the file has none. File: its name in sites.
std::string externalRoutines(const FortranSource &Source, const RoutineIndex &Routines,
                             ModuleRoutines &Modules, const std::string &File);

/// The Fortran names of a list of external routines' C names ("jacc_external_f_sig1a2b3c4d,
/// ..." to "f, ..."), as -Minfo says them.
std::string externalFortranNames(llvm::StringRef CNames);

/// The C text of one compute construct's kernel, and what it names.
struct FortranKernel {
  std::string Text;
  std::vector<HostVariable> Variables; ///< in first-use order
  /// The variables of its reduction clauses.
  std::set<const Fortran::semantics::Symbol *> Reductions;
  std::vector<std::string> Errors;     ///< "file:line:column: error: ..." lines
};

/// The kernel of a compute construct: "#pragma acc Directive" with the clauses of Clauses the
/// kernel keeps (loop and compute clauses; the data clauses are the glue's), over the DO loop
/// Loop (a combined construct) or the statements Body (a block construct), after the
/// definitions of the Routines it calls (as C functions taking Fortran's arguments by address
/// where the routine assigns them), those of other files' modules from Modules. The arrays of
/// Deviceptrs (an enclosing data construct's deviceptr clause) it uses are device addresses.
FortranKernel writeKernel(const FortranSource &Source, const RoutineIndex &Routines,
                          ModuleRoutines &Modules, const std::string &Directive,
                          const Fortran::parser::AccClauseList &Clauses,
                          const Fortran::parser::DoConstruct *Loop,
                          const std::list<Fortran::parser::ExecutionPartConstruct> *Body,
                          const std::set<const Fortran::semantics::Symbol *> &Deviceptrs = {});

/// How the glue passes Symbol; an error (naming the fix) when jacc cannot (a complex or
/// character variable, a derived type with such or allocatable components, an assumed-size
/// array).
llvm::Expected<HostVariable> hostVariable(const Fortran::semantics::Symbol &Symbol);
/// The component a designator's path of components (`m%u`, `m%grid%n`, from a scalar variable,
/// no subscripts) ends at, as the glue passes it (HostVariable::Path); an error when a path
/// of its kind cannot be passed (an element's component, a pointer).
llvm::Expected<HostVariable>
componentVariable(const Fortran::semantics::Symbol &Base,
                  const std::vector<const Fortran::semantics::Symbol *> &Components);
/// The variable a designator names, when it is a plain name (no subscripts, no component).
const Fortran::parser::Name *variableName(const Fortran::parser::Designator &D);
/// The array a designator names whole or by a section or element of a plain name.
const Fortran::parser::Name *sectionBase(const Fortran::parser::Designator &D);
/// The C name of a Fortran symbol (its name, unless it is a C keyword or jacc's).
std::string cName(const Fortran::semantics::Symbol &Symbol);
/// The C type of a symbol's elements when it is an intrinsic type; empty when jacc's kernels
/// have none (complex, character) or it is a derived type (hostVariable's struct).
std::string cType(const Fortran::semantics::Symbol &Symbol);

} // namespace jacc::translate::fortran

#endif
