// The routines of a module for the kernels of other files: each compiled where its module is
// translated, written beside flang's module file (`.jacc-modules/<module>.routines`, JSON), and
// read where a file using the module calls one in a kernel (flang 16's module files keep no
// OpenACC attribute, and a file using a module sees no procedure body).
#ifndef JACC_TRANSLATE_FORTRAN_MODULEROUTINES_H
#define JACC_TRANSLATE_FORTRAN_MODULEROUTINES_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace jacc::translate::fortran {

/// How a routine takes one argument: a scalar by value (intent(in), value, or never assigned)
/// or by address, an array by the address of its first element (with its extents after it
/// when assumed-shape).
struct RoutineParameter {
  enum class Pass { Value, Address, Array, ShapedArray } How = Pass::Value;
  std::string CType;
  int Rank = 0;
  bool Out = false; ///< intent(out): the call does not read the actual
};

/// A module's routine as a kernel of another file carries it.
struct ModuleRoutine {
  std::string CName;
  std::vector<RoutineParameter> Parameters;
  std::vector<std::string> Captures;        ///< the variables of its module it uses, by name
  std::vector<std::string> WrittenCaptures; ///< the arrays among them it assigns elements of
  /// Its definition after those of the routines it calls: (C name, text), each once.
  std::vector<std::pair<std::string, std::string>> Definitions;
  std::string Error; ///< why no kernel can carry it (its first error); empty if one can
};

/// The routines of the modules a translation meets, by module and routine name.
class ModuleRoutines {
public:
  /// Dirs: where the modules' files are looked for, in order (the .jacc-modules directories).
  explicit ModuleRoutines(std::vector<std::string> Dirs) : Dirs(std::move(Dirs)) {}
  /// Records Module's (being translated) routine Name.
  void add(const std::string &Module, const std::string &Name, ModuleRoutine R);
  /// Module's routine Name, recorded or read from the module's file; null if it has none.
  const ModuleRoutine *find(const std::string &Module, const std::string &Name);
  /// Writes the file of each module added, into Dir.
  llvm::Error write(llvm::StringRef Dir) const;
  /// Text with the C names of the routines found so far, quoted ('jacc_routine_m_f'), spelled
  /// by their Fortran names ('f'), as -Minfo says them.
  std::string spelledInFortran(std::string Text) const;

private:
  const std::map<std::string, ModuleRoutine> &module(const std::string &Name);
  std::vector<std::string> Dirs;
  std::map<std::string, std::map<std::string, ModuleRoutine>> Modules;
  std::vector<std::string> Added; ///< modules of the file being translated
};

} // namespace jacc::translate::fortran

#endif
