// Finding the routines of a Fortran file: every subprogram, whether a routine directive marks
// it (unnamed in its specification part, or naming it anywhere: in a caller, in an interface).
#include "translate/fortran/FortranRoutines.h"

#include "support/TextEdits.h"

#include <flang/Parser/parse-tree-visitor.h>
#include <flang/Parser/parse-tree.h>
#include <flang/Semantics/scope.h>
#include <flang/Semantics/symbol.h>

#include <set>
#include <vector>

namespace jacc::translate::fortran {

using namespace Fortran;

namespace {

/// Whether a specification part holds an unnamed routine directive (its procedure's own), not
/// counting those of the interface bodies it declares.
struct OwnDirective {
  bool Found = false;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const parser::InterfaceBlock &) { return false; }
  bool Pre(const parser::OpenACCRoutineConstruct &R) {
    Found |= !std::get<std::optional<parser::Name>>(R.t).has_value();
    return false;
  }
};

bool marksItself(const parser::SpecificationPart &Spec) {
  OwnDirective D;
  parser::Walk(Spec, D);
  return D.Found;
}

/// Every subprogram definition, and the names routine directives give.
struct Subprograms {
  struct Definition {
    const parser::Name *Name;
    const parser::ExecutionPart *Body;
    bool Marked;
  };
  std::vector<Definition> Definitions;
  std::set<std::string> Named;

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const parser::SubroutineSubprogram &S) {
    const auto &Stmt = std::get<parser::Statement<parser::SubroutineStmt>>(S.t).statement;
    add(std::get<parser::Name>(Stmt.t), S.t);
    return true;
  }
  bool Pre(const parser::FunctionSubprogram &S) {
    const auto &Stmt = std::get<parser::Statement<parser::FunctionStmt>>(S.t).statement;
    add(std::get<parser::Name>(Stmt.t), S.t);
    return true;
  }
  template <typename Tuple> void add(const parser::Name &Name, const Tuple &T) {
    Definitions.push_back({&Name, &std::get<parser::ExecutionPart>(T),
                           marksItself(std::get<parser::SpecificationPart>(T))});
  }
  /// An interface body whose directive is unnamed names the procedure it declares.
  bool Pre(const parser::InterfaceBody::Subroutine &S) {
    interface(std::get<parser::Name>(
                  std::get<parser::Statement<parser::SubroutineStmt>>(S.t).statement.t),
              std::get<common::Indirection<parser::SpecificationPart>>(S.t).value());
    return false;
  }
  bool Pre(const parser::InterfaceBody::Function &S) {
    interface(
        std::get<parser::Name>(std::get<parser::Statement<parser::FunctionStmt>>(S.t).statement.t),
        std::get<common::Indirection<parser::SpecificationPart>>(S.t).value());
    return false;
  }
  void interface(const parser::Name &Name, const parser::SpecificationPart &Spec) {
    if (marksItself(Spec))
      Named.insert(Name.ToString());
  }
  bool Pre(const parser::OpenACCRoutineConstruct &R) {
    if (const auto &Name = std::get<std::optional<parser::Name>>(R.t))
      Named.insert(Name->ToString());
    return false;
  }
};

/// The C name of a routine: its scope's name (a module's, a host procedure's) and its own.
std::string routineName(const semantics::Symbol &S) {
  std::string Name = "jacc_routine_";
  const semantics::Scope &Owner = S.owner();
  if (!Owner.IsGlobal() && Owner.symbol())
    Name += Owner.symbol()->name().ToString() + "_";
  return Name + S.name().ToString();
}

} // namespace

RoutineIndex::RoutineIndex(const parser::Program &Program) {
  Subprograms All;
  parser::Walk(Program, All);
  Declared = All.Named;
  for (const Subprograms::Definition &D : All.Definitions) {
    std::string Name = D.Name->ToString();
    bool IsRoutine = D.Marked || All.Named.count(Name);
    Defined[Name] |= IsRoutine;
    if (!IsRoutine || !D.Name->symbol)
      continue;
    const semantics::Symbol &S = *D.Name->symbol;
    Routine &R = BySymbol[&S];
    R.Symbol = &S;
    R.Body = D.Body;
    R.CName = routineName(S);
    if (S.owner().IsGlobal())
      ByName[Name] = &R;
  }
}

const Routine *RoutineIndex::find(const semantics::Symbol &Callee) const {
  const semantics::Symbol &S = Callee.GetUltimate();
  if (auto It = BySymbol.find(&S); It != BySymbol.end())
    return &It->second;
  // An external procedure: the caller's symbol is its own (an interface, an EXTERNAL).
  if (!S.owner().IsModule())
    if (auto It = ByName.find(S.name().ToString()); It != ByName.end())
      return It->second;
  return nullptr;
}

std::string RoutineIndex::spelledInFortran(std::string Text) const {
  for (const auto &[Symbol, R] : BySymbol)
    Text = replaceAll(Text, "'" + R.CName + "'", "'" + Symbol->name().ToString() + "'");
  return Text;
}

std::vector<const Routine *> RoutineIndex::all() const {
  std::vector<const Routine *> All;
  for (const auto &[Symbol, R] : BySymbol)
    All.push_back(&R);
  return All;
}

bool RoutineIndex::defines(const semantics::Symbol &Callee) const {
  return Defined.count(Callee.GetUltimate().name().ToString()) > 0;
}

bool RoutineIndex::declaredRoutine(const semantics::Symbol &Callee) const {
  return Declared.count(Callee.GetUltimate().name().ToString()) > 0;
}

} // namespace jacc::translate::fortran
