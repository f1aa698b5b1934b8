// Module routines across files (ModuleRoutines.h): recorded, written and read as JSON.
#include "translate/fortran/ModuleRoutines.h"

#include "support/TextEdits.h"
#include "translate/fortran/ModuleFiles.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace jacc::translate::fortran {

namespace json = llvm::json;

void ModuleRoutines::add(const std::string &Module, const std::string &Name, ModuleRoutine R) {
  Modules[Module][Name] = std::move(R);
  if (!llvm::is_contained(Added, Module))
    Added.push_back(Module);
}

namespace {

json::Value toJSON(const ModuleRoutine &R) {
  json::Array Parameters, Captures, Written, Definitions;
  for (const RoutineParameter &P : R.Parameters)
    Parameters.push_back(
        json::Object{{"pass", int(P.How)}, {"type", P.CType}, {"rank", P.Rank}, {"out", P.Out}});
  for (const std::string &C : R.Captures)
    Captures.push_back(C);
  for (const std::string &C : R.WrittenCaptures)
    Written.push_back(C);
  for (const auto &[Name, Text] : R.Definitions)
    Definitions.push_back(json::Array{Name, Text});
  return json::Object{{"cname", R.CName},
                      {"parameters", std::move(Parameters)},
                      {"captures", std::move(Captures)},
                      {"written_captures", std::move(Written)},
                      {"definitions", std::move(Definitions)},
                      {"error", R.Error}};
}

/// A routine read back; nullopt if the file is not one jacc wrote.
std::optional<ModuleRoutine> fromJSON(const json::Object &O) {
  ModuleRoutine R;
  auto CName = O.getString("cname");
  auto Error = O.getString("error");
  const json::Array *Parameters = O.getArray("parameters");
  const json::Array *Captures = O.getArray("captures");
  const json::Array *Definitions = O.getArray("definitions");
  if (!CName || !Error || !Parameters || !Captures || !Definitions)
    return std::nullopt;
  R.CName = CName->str();
  R.Error = Error->str();
  for (const json::Value &V : *Parameters) {
    const json::Object *P = V.getAsObject();
    auto Pass = P ? P->getInteger("pass") : std::nullopt;
    auto Type = P ? P->getString("type") : std::nullopt;
    auto Rank = P ? P->getInteger("rank") : std::nullopt;
    auto Out = P ? P->getBoolean("out") : std::nullopt;
    if (!Pass || *Pass < 0 || *Pass > int(RoutineParameter::Pass::ShapedArray) || !Type || !Rank ||
        !Out)
      return std::nullopt;
    R.Parameters.push_back({RoutineParameter::Pass(*Pass), Type->str(), int(*Rank), *Out});
  }
  for (const json::Value &V : *Captures) {
    auto C = V.getAsString();
    if (!C)
      return std::nullopt;
    R.Captures.push_back(C->str());
  }
  // Absent from the records of a jaccc that let routines only read their captures.
  if (const json::Array *Written = O.getArray("written_captures"))
    for (const json::Value &V : *Written) {
      auto C = V.getAsString();
      if (!C || !llvm::is_contained(R.Captures, C->str()))
        return std::nullopt;
      R.WrittenCaptures.push_back(C->str());
    }
  for (const json::Value &V : *Definitions) {
    const json::Array *D = V.getAsArray();
    auto Name = D && D->size() == 2 ? (*D)[0].getAsString() : std::nullopt;
    auto Text = D && D->size() == 2 ? (*D)[1].getAsString() : std::nullopt;
    if (!Name || !Text)
      return std::nullopt;
    R.Definitions.emplace_back(Name->str(), Text->str());
  }
  return R;
}

} // namespace

std::string ModuleRoutines::spelledInFortran(std::string Text) const {
  for (const auto &[Module, Routines] : Modules)
    for (const auto &[Name, R] : Routines)
      Text = replaceAll(Text, "'" + R.CName + "'", "'" + Name + "'");
  return Text;
}

/// Module Name's routines: recorded, or read from its file (none if it has none).
const std::map<std::string, ModuleRoutine> &ModuleRoutines::module(const std::string &Name) {
  auto Found = Modules.find(Name);
  if (Found != Modules.end())
    return Found->second;
  std::map<std::string, ModuleRoutine> &Routines = Modules[Name];
  std::unique_ptr<llvm::MemoryBuffer> File = readModuleFile(Dirs, Name, "routines");
  if (!File)
    return Routines;
  auto Value = json::parse(File->getBuffer());
  if (!Value) {
    llvm::consumeError(Value.takeError()); // not jacc's: as if the module had no routines
    return Routines;
  }
  if (const json::Object *All = Value->getAsObject())
    for (const auto &[Routine, Entry] : *All)
      if (const json::Object *O = Entry.getAsObject())
        if (std::optional<ModuleRoutine> R = fromJSON(*O))
          Routines[Routine.str()] = std::move(*R);
  return Routines;
}

const ModuleRoutine *ModuleRoutines::find(const std::string &Module, const std::string &Name) {
  const auto &Routines = module(Module);
  auto Found = Routines.find(Name);
  return Found == Routines.end() ? nullptr : &Found->second;
}

llvm::Error ModuleRoutines::write(llvm::StringRef Dir) const {
  for (const std::string &Module : Added) {
    json::Object All;
    for (const auto &[Name, R] : Modules.at(Module))
      All[Name] = toJSON(R);
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << json::Value(std::move(All)) << "\n";
    if (llvm::Error E = writeModuleFile(Dir, Module, "routines", OS.str()))
      return E;
  }
  return llvm::Error::success();
}

} // namespace jacc::translate::fortran
