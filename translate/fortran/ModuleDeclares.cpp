// Module variables declared for the program's lifetime, across files (ModuleDeclares.h).
#include "translate/fortran/ModuleDeclares.h"

#include "translate/fortran/ModuleFiles.h"

#include <flang/Semantics/scope.h>
#include <flang/Semantics/symbol.h>
#include <llvm/ADT/STLExtras.h>

namespace jacc::translate::fortran {

void ModuleDeclares::add(const std::string &Module, const std::string &Variable, Declared How) {
  Modules[Module][Variable] = How;
  if (!llvm::is_contained(Added, Module))
    Added.push_back(Module);
}

/// Module Name's declared variables: recorded, or read from its file (none if it has none).
const std::map<std::string, Declared> &ModuleDeclares::module(const std::string &Name) {
  auto Found = Modules.find(Name);
  if (Found != Modules.end())
    return Found->second;
  std::map<std::string, Declared> &Vars = Modules[Name];
  std::unique_ptr<llvm::MemoryBuffer> File = readModuleFile(Dirs, Name, "declare");
  if (!File)
    return Vars;
  // One line per variable: "<name> create" or "<name> copyin".
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  File->getBuffer().split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines) {
    auto [Var, How] = Line.trim().split(' ');
    Vars[Var.str()] = How == "copyin" ? Declared::Copyin : Declared::Create;
  }
  return Vars;
}

std::optional<Declared> ModuleDeclares::find(const Fortran::semantics::Symbol &Symbol) {
  const Fortran::semantics::Symbol &S = Symbol.GetUltimate();
  const Fortran::semantics::Scope &Owner = S.owner();
  if (!Owner.IsModule() || !Owner.symbol())
    return std::nullopt;
  const auto &Vars = module(Owner.symbol()->name().ToString());
  auto Found = Vars.find(S.name().ToString());
  if (Found == Vars.end())
    return std::nullopt;
  return Found->second;
}

llvm::Error ModuleDeclares::write(llvm::StringRef Dir) const {
  for (const std::string &Module : Added) {
    std::string Text;
    for (const auto &[Var, How] : Modules.at(Module))
      Text += Var + (How == Declared::Copyin ? " copyin\n" : " create\n");
    if (llvm::Error E = writeModuleFile(Dir, Module, "declare", Text))
      return E;
  }
  return llvm::Error::success();
}

} // namespace jacc::translate::fortran
