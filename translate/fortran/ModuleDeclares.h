// The module variables `declare` directives map for the program's lifetime: written beside
// flang's module file (`.jacc-modules/<module>.declare`) when the module's file is translated,
// read where another program unit uses the module, as flang reads module files (flang 16's keep
// no OpenACC attribute).
#ifndef JACC_TRANSLATE_FORTRAN_MODULEDECLARES_H
#define JACC_TRANSLATE_FORTRAN_MODULEDECLARES_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace Fortran::semantics {
class Symbol;
}

namespace jacc::translate::fortran {

/// How a declare directive maps a module variable: its device copy is created, or created with
/// the host's values (copyin). device_resident is a create.
enum class Declared { Create, Copyin };

/// The declared variables of the modules a translation meets, by module and variable name.
class ModuleDeclares {
public:
  /// Dirs: where the modules' files are looked for, in order (the .jacc-modules directories).
  explicit ModuleDeclares(std::vector<std::string> Dirs) : Dirs(std::move(Dirs)) {}
  /// Records that Module (being translated) declares Variable.
  void add(const std::string &Module, const std::string &Variable, Declared How);
  /// How Symbol is declared, when it is a variable of a module that declares it.
  std::optional<Declared> find(const Fortran::semantics::Symbol &Symbol);
  /// Writes the file of each module added, into Dir.
  llvm::Error write(llvm::StringRef Dir) const;

private:
  const std::map<std::string, Declared> &module(const std::string &Name);
  std::vector<std::string> Dirs;
  std::map<std::string, std::map<std::string, Declared>> Modules;
  std::vector<std::string> Added; ///< modules of the file being translated
};

} // namespace jacc::translate::fortran

#endif
