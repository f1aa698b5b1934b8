// The Fortran translation: each OpenACC directive of the parsed file becomes a call line in the
// host program and a C function in the glue, where compute constructs push their kernels through
// the C translator's printer (printComputePush) and data clauses make jacc's data calls.
#include "translate/fortran/FortranTranslate.h"

#include "analysis/ConstructReport.h"
#include "analysis/KernelSource.h"
#include "analysis/Pipeline.h"
#include "support/CText.h"
#include "support/Error.h"
#include "translate/ComputePush.h"
#include "translate/RuntimeDirectives.h"
#include "translate/Translate.h"
#include "translate/fortran/DerivedTypes.h"
#include "translate/fortran/FortranKernel.h"
#include "translate/fortran/FortranRoutines.h"
#include "translate/fortran/ModuleDeclares.h"
#include "translate/fortran/ModuleRoutines.h"
#include "translate/fortran/PrivateCopies.h"

#include <flang/Parser/parse-tree-visitor.h>
#include <flang/Parser/parse-tree.h>
#include <flang/Semantics/symbol.h>
#include <flang/Semantics/tools.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>

#include <map>
#include <set>

namespace jacc::translate::fortran {

using namespace Fortran;

namespace {

/// Whether T has a `CharBlock source` (statements and directives do).
template <typename T, typename = void> struct HasSource : std::false_type {};
template <typename T>
struct HasSource<T, std::void_t<decltype(std::declval<const T &>().source)>>
    : std::is_same<std::decay_t<decltype(std::declval<const T &>().source)>, parser::CharBlock> {};

/// The lines a parse tree node spans in the main file.
struct LineSpan {
  const FortranSource &Source;
  std::optional<LineRange> Range;
  bool Foreign = false; ///< some of it comes from another file
  template <typename T> bool Pre(const T &X) {
    if constexpr (HasSource<T>::value)
      extend(X.source);
    return true;
  }
  template <typename T> void Post(const T &) {}
  void extend(parser::CharBlock Where) {
    if (Where.empty())
      return;
    std::optional<LineRange> Lines = Source.lines(Where);
    if (!Lines) {
      Foreign = true;
      return;
    }
    if (!Range)
      Range = Lines;
    Range->First = std::min(Range->First, Lines->First);
    Range->Last = std::max(Range->Last, Lines->Last);
  }
};

/// The variables the objects of a clause list name (a section's or element's array too).
struct ClauseObjects {
  std::set<VariableKey> Keys;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const parser::AccObject &O) {
    if (const auto *D = std::get_if<parser::Designator>(&O.u))
      if (const parser::Name *N = sectionBase(*D); N && N->symbol)
        Keys.insert({&N->symbol->GetUltimate(), ""});
    return false;
  }
};

/// One directive's glue function: its C parameters and the Fortran call's arguments.
struct GlueCall {
  std::vector<std::string> Params, Args;
  std::vector<HostVariable> Passed;
  /// The function first maps the declared module variables it is passed (all but the one
  /// that unmaps them before DEALLOCATE).
  bool MapsDeclared = true;

  const HostVariable &pass(const HostVariable &V) {
    for (const HostVariable &P : Passed)
      if (P.key() == V.key())
        return P;
    std::string F = V.Path.empty() ? V.Symbol->name().ToString() : V.Path;
    Params.push_back(V.CType + " *" + V.Name);
    Args.push_back(F);
    if (V.Rank) {
      Params.push_back("const long long *jacc_lb_" + V.Name);
      Params.push_back("const long long *jacc_n_" + V.Name);
      Args.push_back("lbound(" + F + ", kind=8)");
      if (V.AssumedSize) { // the last extent unknown: -1, which nothing reads
        std::string Shape = "[";
        for (int D = 1; D < V.Rank; ++D)
          Shape += "size(" + F + ", " + std::to_string(D) + ", kind=8), ";
        Args.push_back(Shape + "-1_8]");
      } else {
        Args.push_back("shape(" + F + ", kind=8)");
      }
    }
    if (V.Pointer) { // 0: not associated, 1: not contiguous, 2: as an allocatable
      Params.push_back("const int *jacc_state_" + V.Name);
      Args.push_back("merge(merge(2, 1, is_contiguous(" + F + ")), 0, associated(" + F + "))");
    }
    Passed.push_back(V);
    return Passed.back();
  }
  /// A host expression's value as an argument (a kind 8 integer); its C name.
  std::string value(const std::string &Fortran) {
    std::string Name = "jacc_value_" + std::to_string(Params.size());
    Params.push_back("const long long *" + Name);
    Args.push_back("int(" + Fortran + ", kind=8)");
    return "(*" + Name + ")";
  }
};

/// The elements of V's dimensions 1..Upto (C text).
std::string elements(const HostVariable &V, int Upto) {
  std::string Text = "(size_t)1";
  for (int D = 0; D < Upto; ++D)
    Text += " * (size_t)jacc_n_" + V.Name + "[" + std::to_string(D) + "]";
  return Text;
}
std::string wholeBytes(const HostVariable &V) {
  return V.Rank ? elements(V, V.Rank) + " * sizeof(" + V.CType + ")" : "sizeof(" + V.CType + ")";
}

/// A data clause's object in C: its address and bytes.
struct Section {
  std::string Address, Bytes, What;
  VariableKey Variable;   ///< its HostVariable's
  std::string Contiguous; ///< the condition, known as the program runs, that it is contiguous
};

/// The translation of one file: the walk over its directives.
class Translation {
public:
  Translation(const FortranSource &Source, const FortranOptions &Options)
      : Source(Source), Routines(Source.program()), Modules(moduleDirs(Options)),
        Declares(moduleDirs(Options)) {
    File = llvm::sys::path::filename(Source.path()).str();
    Tag = llvm::utohexstr(llvm::xxHash64(Source.path()) & 0xffffffff, /*LowerCase=*/true);
  }

  const FortranSource &Source;
  RoutineIndex Routines;
  ModuleRoutines Modules; ///< the routines of this file's modules and those it uses
  std::string File, Tag, Procedure;
  std::vector<std::string> Errors;
  std::vector<std::string> *Infos = nullptr;
  /// What replaces a directive's lines, by its first line: the call; with an if clause on a
  /// compute construct the statements stay, the host's when the condition is false.
  struct Replacement {
    LineRange Lines;
    std::string Call;
    bool KeepStatements = false; ///< `if (c) then; call ...; else` ... `end if`
  };
  std::map<int, Replacement> Replacements;
  std::string Glue;
  std::set<std::string> Structs; ///< the C structs Glue defines
  ModuleDeclares Declares;
  std::string Module; ///< the module whose specification part the walk is in
  /// A program unit's `declare` directives: the calls that map their data, put before its
  /// first executable statement, and that unmap it, before each RETURN and its END.
  struct DeclareScope {
    std::string Entry, Exit; ///< calls, each followed by "; "
    bool Entered = false;    ///< Entry is placed
    parser::CharBlock Where; ///< the first declare
  };
  std::vector<DeclareScope> Scopes; ///< the program units the walk is in, innermost last
  /// Calls put before the text of a line (a program unit's first executable statement).
  std::map<int, std::string> Prefixes;
  /// The arrays of the deviceptr clauses of the data constructs the walk is in, innermost
  /// last: the compute constructs inside them take those arrays as device addresses too.
  std::vector<std::set<const semantics::Symbol *>> DataDeviceptrs;

  /// Where flang's module files are, in the order its semantics looks.
  static std::vector<std::string> moduleDirs(const FortranOptions &Options) {
    std::vector<std::string> Dirs = {Options.ModuleDir + "/.jacc-modules"};
    for (const std::string &Dir : Options.IncludeDirs)
      Dirs.push_back(Dir + "/.jacc-modules");
    return Dirs;
  }

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const parser::ProgramStmt &S) { return named(S.v); }
  /// A routine's statements are its kernels' (RoutineIndex): only its directive is translated.
  bool Pre(const parser::SubroutineSubprogram &S) { return notRoutine(S.t) && enterScope(); }
  bool Pre(const parser::FunctionSubprogram &S) { return notRoutine(S.t) && enterScope(); }
  bool Pre(const parser::MainProgram &) { return enterScope(); }
  void Post(const parser::SubroutineSubprogram &) { Scopes.pop_back(); }
  void Post(const parser::FunctionSubprogram &) { Scopes.pop_back(); }
  void Post(const parser::MainProgram &) { Scopes.pop_back(); }
  bool enterScope() {
    Scopes.emplace_back();
    return true;
  }
  template <typename Tuple> bool notRoutine(const Tuple &T) {
    const auto &Stmt = std::get<0>(T).statement;
    const parser::Name &Name = std::get<parser::Name>(Stmt.t);
    if (!Name.symbol || !Routines.find(*Name.symbol))
      return true;
    parser::Walk(std::get<parser::SpecificationPart>(T), *this);
    return false;
  }
  bool Pre(const parser::SubroutineStmt &S) { return named(std::get<parser::Name>(S.t)); }
  bool Pre(const parser::FunctionStmt &S) { return named(std::get<parser::Name>(S.t)); }
  bool named(const parser::Name &N) {
    Procedure = N.ToString();
    return true;
  }
  bool Pre(const parser::ModuleStmt &S) {
    Module = S.v.ToString();
    Procedure.clear();
    return true;
  }
  bool Pre(const parser::ModuleSubprogramPart &) {
    Module.clear(); // its procedures' declare directives are a procedure's
    return true;
  }
  void Post(const parser::EndModuleStmt &) { Module.clear(); }

  /// A module's `declare create/copyin/device_resident(...)`: its variables are mapped when a
  /// directive first passes them to the runtime, and unmapped when deallocated; the directive's
  /// lines become blank (`link`'s variables are mapped by the data clauses that name them). A
  /// procedure's `declare`: procedureDeclare.
  bool Pre(const parser::OpenACCDeclarativeConstruct &D) {
    const auto *S = std::get_if<parser::OpenACCStandaloneDeclarativeConstruct>(&D.u);
    if (!S) {
      routine(std::get<parser::OpenACCRoutineConstruct>(D.u));
      return false;
    }
    if (Module.empty()) {
      procedureDeclare(*S, D.source);
      return false;
    }
    for (const parser::AccClause &C : std::get<parser::AccClauseList>(S->t).v) {
      // link: no device copy until a data clause or construct maps the variable, which is
      // how jacc treats a module variable no declare names.
      if (std::holds_alternative<parser::AccClause::Link>(C.u))
        continue;
      const parser::AccObjectList *List = nullptr;
      Declared How = Declared::Create;
      if (const auto *X = std::get_if<parser::AccClause::Create>(&C.u))
        List = &std::get<parser::AccObjectList>(X->v.t);
      else if (const auto *X = std::get_if<parser::AccClause::DeviceResident>(&C.u))
        List = &X->v;
      else if (const auto *X = std::get_if<parser::AccClause::Copyin>(&C.u)) {
        List = &std::get<parser::AccObjectList>(X->v.t);
        How = Declared::Copyin;
      }
      if (!List) {
        error(C.source, "a module's 'declare' takes create, copyin, device_resident and link "
                        "clauses");
        continue;
      }
      for (const parser::AccObject &O : List->v) {
        const auto *Des = std::get_if<parser::Designator>(&O.u);
        const parser::Name *N = Des ? variableName(*Des) : nullptr;
        if (!N || !N->symbol) {
          error(C.source, "a 'declare' names whole module variables");
          continue;
        }
        Declares.add(Module, N->ToString(), How);
      }
    }
    if (std::optional<LineRange> Lines = spanOf(D))
      Replacements[Lines->First] = {*Lines, ""};
    return false;
  }

  /// A procedure's (or the main program's) `declare`: its data is mapped from the unit's first
  /// executable statement until it returns, as a data construct around its statements would.
  void procedureDeclare(const parser::OpenACCStandaloneDeclarativeConstruct &S,
                        parser::CharBlock Where) {
    if (Scopes.empty()) {
      error(Where, "this 'declare' is in no procedure or program the translation knows: move "
                   "it to one, or to a module");
      return;
    }
    DeclareScope &Scope = Scopes.back();
    if (Scope.Entered) {
      error(Where, "a 'declare' after the first executable statement (in a BLOCK) is not "
                   "translated: move it to the procedure's specification part");
      return;
    }
    const auto &Clauses = std::get<parser::AccClauseList>(S.t);
    for (const parser::AccClause &C : Clauses.v)
      if (!std::holds_alternative<parser::AccClause::Copy>(C.u) &&
          !std::holds_alternative<parser::AccClause::Copyin>(C.u) &&
          !std::holds_alternative<parser::AccClause::Copyout>(C.u) &&
          !std::holds_alternative<parser::AccClause::Create>(C.u) &&
          !std::holds_alternative<parser::AccClause::Present>(C.u))
        error(C.source, "a procedure's 'declare' is translated with copy, copyin, copyout, "
                        "create and present clauses");
    GlueCall G;
    std::vector<std::string> Entry, Exit;
    dataClauses(Clauses, G, Entry, Exit, site(Where));
    int Line = line(Where);
    auto [In, Out] = regionBodies(G, Line, Entry, Exit, "", "");
    std::string Name = "jacc_f" + Tag + "_" + std::to_string(Line);
    if (Scope.Entry.empty())
      Scope.Where = Where;
    Scope.Entry += glueFunction(Where, Name + "_entry", G, In) + "; ";
    Scope.Exit = glueFunction(Where, Name + "_exit", G, Out) + "; " + Scope.Exit;
    if (std::optional<LineRange> Lines = spanOf(S))
      Replacements[Lines->First] = {*Lines, ""};
  }

  /// A program unit's first executable statement maps what its `declare` directives name.
  bool Pre(const parser::ExecutionPart &E) {
    if (Scopes.empty() || Scopes.back().Entry.empty() || E.v.empty())
      return true;
    std::optional<LineRange> Lines = spanOf(E.v.front());
    if (!Lines) {
      error(Scopes.back().Where, "a procedure with 'declare' whose first statement comes from "
                                 "an included file or a macro: start it in the file itself");
      return true;
    }
    llvm::StringRef Text = Source.text();
    for (int Line = 1; Line < Lines->First; ++Line)
      Text = Text.split('\n').second;
    llvm::StringRef First = Text.ltrim(" \t");
    if (!First.empty() && llvm::isDigit(First[0])) {
      Errors.push_back(Source.path().str() + ":" + std::to_string(Lines->First) +
                       ":1: error: a procedure with 'declare' starts with a labeled statement, "
                       "which its data's mapping would have to precede: put a statement before "
                       "it");
      return true;
    }
    Prefixes[Lines->First] += Scopes.back().Entry;
    Scopes.back().Entered = true;
    return true;
  }

  /// RETURN and END leave the program unit: what its `declare` directives mapped is unmapped.
  bool Pre(const parser::Statement<parser::EndSubroutineStmt> &S) { return leave(S); }
  bool Pre(const parser::Statement<parser::EndFunctionStmt> &S) { return leave(S); }
  bool Pre(const parser::Statement<parser::EndProgramStmt> &S) { return leave(S); }
  template <typename T> bool leave(const parser::Statement<T> &S) {
    if (Scopes.empty() || Scopes.back().Exit.empty())
      return true;
    const DeclareScope &Scope = Scopes.back();
    std::optional<LineRange> Lines = spanOf(S);
    if (!Lines)
      return true;
    std::string Label = S.label ? std::to_string(*S.label) + " " : "";
    Replacements[Lines->First] = {*Lines, Label + (Scope.Entered ? "" : Scope.Entry) + Scope.Exit +
                                              S.source.ToString()};
    return true;
  }

  /// A routine directive: the kernels calling its procedure carry its definition (RoutineIndex);
  /// on the host the procedure stays as written, and the directive's lines become blank. Its
  /// level (seq, vector, worker, gang) is not kept: each call runs the routine's loops in turn.
  void routine(const parser::OpenACCRoutineConstruct &R) {
    for (const parser::AccClause &C : std::get<parser::AccClauseList>(R.t).v)
      if (std::holds_alternative<parser::AccClause::Bind>(C.u))
        error(C.source, "a routine's 'bind' clause is not translated for Fortran yet: call the "
                        "procedure by its own name");
    if (std::optional<LineRange> Lines = spanOf(R))
      Replacements[Lines->First] = {*Lines, ""};
  }

  /// DEALLOCATE of declared variables (alone, or the action of a one-line IF): their device
  /// copies go first, in a call before it on its line.
  bool Pre(const parser::Statement<parser::ActionStmt> &S) {
    const parser::ActionStmt &A = S.statement;
    const parser::DeallocateStmt *Dealloc = nullptr;
    const parser::IfStmt *If = nullptr;
    if (const auto *I = std::get_if<common::Indirection<parser::IfStmt>>(&A.u))
      If = &I->value();
    const parser::ActionStmt &Action =
        If ? std::get<parser::UnlabeledStatement<parser::ActionStmt>>(If->t).statement : A;
    if (const auto *D = std::get_if<common::Indirection<parser::DeallocateStmt>>(&Action.u))
      Dealloc = &D->value();
    if (Dealloc)
      deallocate(S, *Dealloc, If);
    if (std::holds_alternative<common::Indirection<parser::ReturnStmt>>(Action.u) &&
        !Scopes.empty() && !Scopes.back().Exit.empty())
      if (std::optional<LineRange> Lines = spanOf(S))
        Replacements[Lines->First] = {*Lines, before(S, If, Scopes.back().Exit)};
    return true;
  }

  /// Statement S (alone, or the action of the one-line IF If) with Calls ("call ...; " each)
  /// before it, on one line (flang's cooked text of the statement).
  static std::string before(const parser::Statement<parser::ActionStmt> &S,
                            const parser::IfStmt *If, const std::string &Calls) {
    std::string Label = S.label ? std::to_string(*S.label) + " " : "";
    if (!If)
      return Label + Calls + S.source.ToString();
    std::string Cond =
        std::get<parser::ScalarLogicalExpr>(If->t).thing.thing.value().source.ToString();
    const auto &Then = std::get<parser::UnlabeledStatement<parser::ActionStmt>>(If->t);
    return Label + "if (" + Cond + ") then; " + Calls + Then.source.ToString() + "; end if";
  }
  void deallocate(const parser::Statement<parser::ActionStmt> &S, const parser::DeallocateStmt &D,
                  const parser::IfStmt *If) {
    GlueCall G;
    G.MapsDeclared = false;
    std::string Body;
    for (const parser::AllocateObject &O : std::get<std::list<parser::AllocateObject>>(D.t)) {
      const auto *N = std::get_if<parser::Name>(&O.u);
      if (!N || !N->symbol || !Declares.find(*N->symbol))
        continue;
      auto V = hostVariable(*N->symbol);
      if (!V) {
        error(S.source, llvm::toString(V.takeError()));
        continue;
      }
      const HostVariable &H = G.pass(*V);
      Body += "  if (jacc_is_present(" + H.Name + ", " + wholeBytes(H) +
              "))\n    jacc_translated_check(jacc_delete(" + H.Name + ", " + wholeBytes(H) +
              "), \"" + site(S.source) + "\");\n";
    }
    if (Body.empty())
      return;
    std::optional<LineRange> Lines = spanOf(S);
    emit(S.source, Lines, G, Body);
    if (!Lines || !Replacements.count(Lines->First))
      return;
    // The call, then the statement as written.
    std::string &Call = Replacements[Lines->First].Call;
    Call = before(S, If, Call + "; ");
  }
  bool Pre(const parser::OpenACCConstruct &C) {
    return std::visit(
        common::visitors{
            [&](const parser::OpenACCCombinedConstruct &X) {
              combined(X);
              return false;
            },
            [&](const parser::OpenACCBlockConstruct &X) { return block(X); },
            [&](const parser::OpenACCStandaloneConstruct &X) {
              standalone(X);
              return false;
            },
            // Waiting for every queue is waiting for the ones named (jacc's queues complete in
            // order on each device).
            [&](const parser::OpenACCWaitConstruct &X) {
              GlueCall G;
              emit(X.source, spanOf(X), G,
                   "  jacc_translated_check(jacc_wait(), \"" + site(X.source) + "\");\n");
              return false;
            },
            [&](const parser::OpenACCLoopConstruct &X) {
              error(std::get<parser::AccBeginLoopDirective>(X.t).source,
                    "a loop directive outside a compute construct: put it inside 'parallel' "
                    "or 'kernels', or write 'parallel loop'");
              return false;
            },
            [&](const auto &) {
              error(parser::CharBlock{},
                    "this OpenACC directive is not translated for Fortran yet");
              return false;
            }},
        C.u);
  }

  void error(parser::CharBlock Where, const std::string &Message) {
    Errors.push_back(Source.where(Where) + ": error: " + Message);
  }
  std::string site(parser::CharBlock Where) {
    auto Lines = Source.lines(Where);
    return File + ":" + std::to_string(Lines ? Lines->First : 0);
  }
  int line(parser::CharBlock Where) {
    auto Lines = Source.lines(Where);
    return Lines ? Lines->First : 0;
  }
  template <typename T> std::optional<LineRange> spanOf(const T &Node) {
    LineSpan Span{Source, std::nullopt};
    parser::Walk(Node, Span);
    if (Span.Foreign)
      return std::nullopt;
    return Span.Range;
  }

  /// The glue function of a directive at Where spanning Lines, and its call replacing them.
  void emit(parser::CharBlock Where, std::optional<LineRange> Lines, const GlueCall &G,
            const std::string &Body, const std::string &If = "", bool KeepStatements = false) {
    if (!Lines) {
      error(Where, "a directive from an included file or a macro is not translated: write it "
                   "in the file itself");
      return;
    }
    std::string Name = "jacc_f" + Tag + "_" + std::to_string(Lines->First);
    if (Replacements.count(Lines->First))
      Name += "_" + std::to_string(Replacements.size());
    std::string Call = glueFunction(Where, Name, G, Body);
    if (KeepStatements)
      Call = "if (" + If + ") then; " + Call + "; else";
    else if (!If.empty())
      Call = "if (" + If + ") " + Call;
    Replacements[Lines->First] = {*Lines, Call, KeepStatements};
  }

  /// The glue function Name of a directive at Where, and its Fortran call.
  std::string glueFunction(parser::CharBlock Where, const std::string &Name, const GlueCall &G,
                           const std::string &Body) {
    std::string Params;
    for (const std::string &P : G.Params)
      Params += (Params.empty() ? "" : ", ") + P;
    // Declared module variables are mapped when a directive first passes them; pointers must
    // point at contiguous memory first.
    std::string Declared;
    for (const HostVariable &V : G.Passed)
      if (V.Pointer)
        Declared += "  jacc_fortran_pointer(*jacc_state_" + V.Name + ", \"" + site(Where) +
                    "\", \"" + (V.Path.empty() ? V.Symbol->name().ToString() : V.Path) + "\");\n";
    for (const HostVariable &V : G.Passed)
      for (const CStruct &S : V.Structs)
        if (Structs.insert(S.Name).second)
          Glue += S.Definition;
    for (const HostVariable &V : G.Passed)
      if (auto How = G.MapsDeclared ? Declares.find(*V.Symbol) : std::nullopt)
        Declared += "  jacc_fortran_declared(" + V.Name + ", " + wholeBytes(V) + ", " +
                    (*How == Declared::Copyin ? "1" : "0") + ", \"" + site(Where) + "\");\n";
    Glue += "void " + Name + "_(" + (Params.empty() ? "void" : Params) + ") {\n" + Declared + Body +
            "}\n";
    std::string Call = "call " + Name + "(";
    for (size_t I = 0; I < G.Args.size(); ++I)
      Call += (I ? ", " : "") + G.Args[I];
    return Call + ")";
  }

  /// The condition of Clauses' if clause, as the host program writes it; empty if none.
  static std::string ifCondition(const parser::AccClauseList &Clauses) {
    for (const parser::AccClause &C : Clauses.v)
      if (const auto *If = std::get_if<parser::AccClause::If>(&C.u))
        return "(" + If->v.thing.thing.value().source.ToString() + ")";
    return "";
  }

  /// The variable R names and the components of its path (`m%grid%u`), if R is such a path.
  static bool componentPath(const parser::DataRef &R, const semantics::Symbol *&Base,
                            std::vector<const semantics::Symbol *> &Components) {
    if (const auto *N = std::get_if<parser::Name>(&R.u)) {
      Base = N->symbol;
      return Base != nullptr;
    }
    const auto *C = std::get_if<common::Indirection<parser::StructureComponent>>(&R.u);
    if (!C || !componentPath(C->value().base, Base, Components) || !C->value().component.symbol)
      return false;
    Components.push_back(C->value().component.symbol);
    return true;
  }

  /// A section of V a data clause may name (`x(1:n)`, `a(:, 1:n)`), for errors.
  static std::string sectionExample(const HostVariable &V) {
    std::string Text = V.Symbol->name().ToString() + "(";
    for (int D = 1; D < V.Rank; ++D)
      Text += ":, ";
    return Text + "1:n)";
  }

  /// Whether a section's last subscript has an upper bound (an index has).
  static bool lastUpperBound(const parser::SectionSubscript &Sub) {
    const auto *Triplet = std::get_if<parser::SubscriptTriplet>(&Sub.u);
    return !Triplet || std::get<1>(Triplet->t).has_value();
  }

  /// A data clause's object: a variable, a component of one whose type has no C struct (an
  /// allocatable component, as kernels take it), or a section of its last dimension.
  std::optional<Section> section(const parser::AccObject &O, GlueCall &G) {
    const auto *D = std::get_if<parser::Designator>(&O.u);
    const auto *Ref = D ? std::get_if<parser::DataRef>(&D->u) : nullptr;
    const parser::ArrayElement *Element = nullptr;
    if (Ref)
      if (const auto *E = std::get_if<common::Indirection<parser::ArrayElement>>(&Ref->u)) {
        Element = &E->value();
        Ref = &Element->base;
      }
    parser::CharBlock Where = D ? D->source : parser::CharBlock{};
    const semantics::Symbol *Base = nullptr;
    std::vector<const semantics::Symbol *> Components;
    if (!Ref || !componentPath(*Ref, Base, Components)) {
      error(Where, "only variables, their components and sections of them are translated in "
                   "Fortran data clauses yet (common blocks are not)");
      return std::nullopt;
    }
    if (!Components.empty() && !takenByComponents(*Base)) {
      error(Where, "'" + Where.ToString() + "' is a component of a variable kernels take " +
                       "whole, as a C struct: name '" + Base->name().ToString() + "'");
      return std::nullopt;
    }
    auto V = Components.empty() ? hostVariable(*Base) : componentVariable(*Base, Components);
    if (!V) {
      error(Where, llvm::toString(V.takeError()));
      return std::nullopt;
    }
    const HostVariable &P = G.pass(*V);
    if (P.AssumedSize && (!Element || !lastUpperBound(Element->subscripts.back()))) {
      error(Where, "'" + P.Symbol->name().ToString() +
                       "' is an assumed-size array, whose extent the directive cannot know: "
                       "name a section with an upper bound, as " +
                       sectionExample(P));
      return std::nullopt;
    }
    Section S{"(void *)" + P.Name, wholeBytes(P), Where.ToString(), P.key(), ""};
    if (!Element)
      return S;
    // a(l1:u1, ..., lo:hi): contiguous when each dimension but the last is whole (checked as
    // the program runs: the bounds are known then), the last one's elements lo..hi.
    size_t Rank = Element->subscripts.size();
    std::string Whole, Low, High;
    size_t Dim = 0;
    for (const parser::SectionSubscript &Sub : Element->subscripts) {
      std::string D = std::to_string(Dim++);
      std::string Lb = "jacc_lb_" + P.Name + "[" + D + "]";
      std::string Ub = "(" + Lb + " + jacc_n_" + P.Name + "[" + D + "] - 1)";
      if (const auto *Triplet = std::get_if<parser::SubscriptTriplet>(&Sub.u)) {
        if (std::get<2>(Triplet->t)) {
          error(Where, "'" + S.What + "': a data clause's section is lo:hi (no stride)");
          return std::nullopt;
        }
        const auto &Lo = std::get<0>(Triplet->t), &Hi = std::get<1>(Triplet->t);
        Low = Lo ? G.value(Lo->thing.thing.value().source.ToString()) : Lb;
        High = Hi ? G.value(Hi->thing.thing.value().source.ToString()) : Ub;
      } else {
        const auto &Index = std::get<parser::IntExpr>(Sub.u);
        Low = High = G.value(Index.thing.value().source.ToString());
      }
      if (Dim < Rank)
        Whole += (Whole.empty() ? "" : " && ") +
                 ("(" + Low + " == " + Lb + " && " + High + " == " + Ub + ")");
    }
    std::string Lb = "jacc_lb_" + P.Name + "[" + std::to_string(Rank - 1) + "]";
    std::string Row = elements(P, static_cast<int>(Rank) - 1);
    S.Address = "(void *)(" + P.Name + " + (" + Low + " - " + Lb + ") * " + Row + ")";
    S.Bytes = "(size_t)(" + High + " - " + Low + " + 1) * " + Row + " * sizeof(" + P.CType + ")";
    S.Contiguous = Whole;
    return S;
  }

  /// The call that ends the program when the section S is not contiguous.
  static std::string contiguityCheck(const Section &S, const std::string &Where) {
    return "jacc_fortran_contiguous(" + S.Contiguous + ", \"" + Where + "\", \"" + S.What + "\");";
  }
  /// attach and detach of pointer and allocatable arrays (flang checks the attribute): kernels
  /// take an array's device copy by its address, found present at each launch, never through
  /// a device copy of its descriptor, so there is no device pointer to update. A component's
  /// pointer lives in its structure's device copy, which jacc does not translate yet.
  void attachable(const parser::AccObjectList &List) {
    for (const parser::AccObject &O : List.v) {
      const auto *D = std::get_if<parser::Designator>(&O.u);
      if (!D || !variableName(*D))
        error(D ? D->source : parser::CharBlock{},
              "attach and detach of components are not translated yet (pointer components "
              "are not): attach a pointer or allocatable array variable");
    }
  }

  /// The call that ends the program when the section S is not present on the devices.
  static std::string presenceCheck(const Section &S, const std::string &Where) {
    return "jacc_translated_present(" + S.Address + ", " + S.Bytes + ", \"" + Where + "\", \"" +
           S.What + "\");";
  }

  /// Entry and exit calls of a construct's data clauses; the variables they name.
  std::set<VariableKey> dataClauses(const parser::AccClauseList &Clauses, GlueCall &G,
                                    std::vector<std::string> &Entry, std::vector<std::string> &Exit,
                                    const std::string &Where) {
    std::set<VariableKey> Named;
    auto Each = [&](const parser::AccObjectList &List, const char *In, const char *Out) {
      for (const parser::AccObject &O : List.v)
        if (auto S = section(O, G)) {
          Named.insert(S->Variable);
          std::string Args = S->Address + ", " + S->Bytes;
          if (!S->Contiguous.empty())
            Entry.push_back(contiguityCheck(*S, Where));
          if (std::string(In) == "present")
            Entry.push_back(presenceCheck(*S, Where));
          else if (*In)
            Entry.push_back("jacc_translated_check(" + std::string(In) + "(" + Args + "), \"" +
                            Where + "\");");
          if (*Out)
            Exit.insert(Exit.begin(), "jacc_translated_check(" + std::string(Out) + "(" + Args +
                                          "), \"" + Where + "\");");
        }
    };
    auto List = [](const parser::AccObjectListWithModifier &L) -> const parser::AccObjectList & {
      return std::get<parser::AccObjectList>(L.t);
    };
    for (const parser::AccClause &C : Clauses.v)
      std::visit(
          common::visitors{
              [&](const parser::AccClause::Copy &X) { Each(X.v, "jacc_copyin", "jacc_copyout"); },
              [&](const parser::AccClause::Copyin &X) {
                Each(List(X.v), "jacc_copyin", "jacc_delete");
              },
              [&](const parser::AccClause::Copyout &X) {
                Each(List(X.v), "jacc_create", "jacc_copyout");
              },
              [&](const parser::AccClause::Create &X) {
                Each(List(X.v), "jacc_create", "jacc_delete");
              },
              [&](const parser::AccClause::Present &X) { Each(X.v, "present", ""); },
              [&](const parser::AccClause::Attach &X) { attachable(X.v); },
              // no_create maps nothing: what is absent, the kernels inside copy as they use it
              // (the host's copy stays current, as "use the local memory" asks).
              [&](const auto &) {}},
          C.u);
    return Named;
  }

  static bool hasClause(const parser::AccClauseList &Clauses, size_t Index) {
    for (const parser::AccClause &C : Clauses.v)
      if (C.u.index() == Index)
        return true;
    return false;
  }

  /// A compute construct's push: its kernel, data clauses, implicit copies and arguments.
  void compute(parser::CharBlock Where, std::optional<LineRange> Lines, const char *Kind,
               const std::string &Directive, const parser::AccClauseList &Clauses,
               const parser::DoConstruct *Loop, const parser::Block *Body) {
    // The enclosing data constructs' deviceptr arrays, unless a data clause here names them.
    std::set<VariableKey> Own = namedVariables(Clauses);
    std::set<const semantics::Symbol *> Inherited;
    for (const auto &Arrays : DataDeviceptrs)
      for (const semantics::Symbol *S : Arrays)
        if (!Own.count({S, ""}))
          Inherited.insert(S);
    FortranKernel K =
        writeKernel(Source, Routines, Modules, Directive, Clauses, Loop, Body, Inherited);
    Errors.insert(Errors.end(), K.Errors.begin(), K.Errors.end());
    GlueCall G;
    ComputePush P;
    P.Indent = "  ";
    P.DirectiveText = Directive;
    P.Site = site(Where);
    P.Begin = "jacc_construct_begin(" + std::string(Kind) + ", \"" + File + "\", " +
              std::to_string(line(Where)) + ", \"" + Procedure + "\");";
    P.End = "jacc_construct_end();";
    P.Wait = hasClause(Clauses, variantIndex<parser::AccClause::Wait>());
    P.Async = hasClause(Clauses, variantIndex<parser::AccClause::Async>());
    auto Named = dataClauses(Clauses, G, P.Entry, P.Exit, P.Site);
    // A deviceptr clause's arrays (here or around) are device memory already: nothing maps them.
    for (const parser::AccClause &C : Clauses.v)
      if (const auto *D = std::get_if<parser::AccClause::Deviceptr>(&C.u))
        for (const parser::AccObject &O : D->v.v)
          if (const auto *Designator = std::get_if<parser::Designator>(&O.u))
            if (const parser::Name *N = variableName(*Designator); N && N->symbol)
              Named.insert({&N->symbol->GetUltimate(), ""});
    for (const semantics::Symbol *S : Inherited)
      Named.insert({S, ""});
    for (const HostVariable &V : K.Variables) {
      const HostVariable &H = G.pass(V);
      if (V.AssumedSize &&
          (V.Share != HostVariable::Sharing::Shared || K.Reductions.count(V.Symbol))) {
        error(Where, "'" + V.Symbol->name().ToString() +
                         "' is an assumed-size array, whose extent is unknown: it cannot be "
                         "private or reduced; use an array of known extent");
        continue;
      }
      if (V.Share != HostVariable::Sharing::Shared) {
        passPrivateArray(V, Named.count(V.key()), K.Text, P);
        continue;
      }
      // No implicit copy of an assumed-size array, whose extent is unknown: a section a clause
      // or a mapping around the construct maps holds it.
      if (V.AssumedSize && !Named.count(V.key()))
        P.Entry.push_back("jacc_fortran_assumed_size((void *)" + H.Name + ", sizeof(" + H.CType +
                          "), \"" + P.Site + "\", \"" + V.Symbol->name().ToString() + "\", \"" +
                          sectionExample(V) + "\");");
      std::string Bytes = V.AssumedSize ? "" : wholeBytes(H);
      // A reduction into a variable the devices hold (asked before an implicit copy maps it):
      // the host's value is where the result goes, and the devices' copy then holds it too.
      if (K.Reductions.count(V.Symbol)) {
        std::string Held = "jacc_present_" + H.Name;
        P.Entry.push_back("int " + Held + " = jacc_is_present(" + H.Name + ", " + Bytes + ");");
        P.Entry.push_back("if (" + Held + ")\n" + P.Indent + "    jacc_translated_check(" +
                          "jacc_update_self(" + H.Name + ", " + Bytes + "), \"" + P.Site + "\");");
        P.Exit.push_back("if (" + Held + ")\n" + P.Indent + "    jacc_translated_check(" +
                         "jacc_update_device(" + H.Name + ", " + Bytes + "), \"" + P.Site + "\");");
      }
      // Arrays (and scalars the kernel assigns) no clause names: OpenACC's implicit copy,
      // unless a mapping around the construct holds them. An array an element of which is
      // reduced has its result written to the host's element: no copy.
      if ((V.Rank || V.Ref) && !Named.count(V.key()) && !K.Reductions.count(V.Symbol) &&
          !V.AssumedSize)
        mapImplicitly(H, "jacc_copyout", P);
      for (int D = 0; D < V.Rank; ++D)
        passBound(V.Lower[D], "jacc_lb_", V, D, K.Text, P);
      if (V.Rank && !V.AssumedSize) // an array assignment's loop over the last dimension
        passBound(V.Extent.back(), "jacc_n_", V, V.Rank - 1, K.Text, P);
      std::string Rows;
      for (int D = V.Rank - 2; D >= 0; --D) {
        std::string N = "jacc_n_" + V.Name + "_" + std::to_string(D + 1);
        P.Args.push_back("{\"long long " + N + "\", (void *)&jacc_n_" + V.Name + "[" +
                         std::to_string(D) + "]}");
        Rows += "[" + N + "]";
      }
      if (V.Ref) {
        P.Temps.push_back(V.CType + " *jacc_ref_" + V.Name + " = " + V.Name + ";");
        P.Args.push_back("{\"" + V.CType + " *jacc_ref_" + V.Name + "\", (void *)&jacc_ref_" +
                         V.Name + "}");
      } else if (V.Rank == 0) {
        P.Args.push_back("{\"" + V.CType + " " + V.Name + "\", (void *)" + V.Name + "}");
      } else {
        std::string Decl =
            V.Rank == 1 ? V.CType + " *" + V.Name : V.CType + " (*" + V.Name + ")" + Rows;
        P.Args.push_back("{\"" + Decl + "\", (void *)&" + V.Name + "}");
      }
    }
    P.Kernels.push_back({"", K.Text + "// jacc-site: " + P.Site + "\n"});
    if (Infos && K.Errors.empty())
      describe(P, K.Variables);
    // An if clause: the statements as written run on the host when it is false.
    std::string If = ifCondition(Clauses);
    emit(Where, Lines, G, printComputePush(P) + "\n", If, !If.empty());
  }

  /// OpenACC's implicit copy of V around the push, unless a mapping around the construct holds
  /// it; Unmap (jacc_copyout, jacc_delete) ends what the entry mapped.
  static void mapImplicitly(const HostVariable &V, const char *Unmap, ComputePush &P) {
    std::string Mapped = "jacc_implicit_" + V.Name;
    P.Entry.push_back("size_t " + Mapped + " = jacc_fortran_implicit((void *)" + V.Name + ", " +
                      wholeBytes(V) + ", \"" + P.Site + "\");");
    P.Exit.insert(P.Exit.begin(), "if (" + Mapped + ")\n" + P.Indent +
                                      "    jacc_translated_check(" + Unmap + "((void *)" + V.Name +
                                      ", " + Mapped + "), \"" + P.Site + "\");");
  }

  /// Bound (a lower bound or an extent of V's dimension D) as the kernel argument of that name
  /// when it is one (Glue the glue's array of them) and the kernel text uses it.
  static void passBound(const std::string &Bound, const char *Glue, const HostVariable &V, int D,
                        const std::string &Kernel, ComputePush &P) {
    if (!llvm::StringRef(Bound).startswith(Glue))
      return;
    for (size_t At = Kernel.find(Bound); At != std::string::npos; At = Kernel.find(Bound, At + 1)) {
      size_t End = At + Bound.size();
      if (End < Kernel.size() &&
          (std::isalnum(static_cast<unsigned char>(Kernel[End])) || Kernel[End] == '_'))
        continue;
      P.Args.push_back("{\"long long " + Bound + "\", (void *)&" + Glue + V.Name + "[" +
                       std::to_string(D) + "]}");
      return;
    }
  }

  /// A private or firstprivate array's arguments: its bounds the kernel does not know, and a
  /// firstprivate one's original (copied to the devices as any array a construct reads, unless
  /// a clause or an enclosing mapping has it there).
  static void passPrivateArray(const HostVariable &V, bool Named, const std::string &Kernel,
                               ComputePush &P) {
    for (int D = 0; D < V.Rank; ++D) {
      passBound(V.Lower[D], "jacc_lb_", V, D, Kernel, P);
      passBound(V.Extent[D], "jacc_n_", V, D, Kernel, P);
    }
    if (V.Share != HostVariable::Sharing::Firstprivate)
      return;
    if (!Named) // read only: nothing to copy back
      mapImplicitly(V, "jacc_delete", P);
    P.Args.push_back("{\"" + originalParameter(V) + "\", (void *)&" + V.Name + "}");
  }

  /// -Minfo's lines on the kernel P pushes: the analysis the runtime will make of it.
  /// -Minfo's lines of the push P of a kernel taking Variables, in the program's names.
  void describe(const ComputePush &P, const std::vector<HostVariable> &Variables) {
    std::map<std::string, std::string> Paths; // the components passed as variables
    for (const HostVariable &V : Variables)
      if (!V.Path.empty())
        Paths[V.Name] = V.Path;
    std::string Others; // linked into the kernel when it first runs (jit/KernelRoutines.h)
    for (llvm::StringRef Rest = P.Kernels.front().second; !Rest.empty();) {
      auto [Line, Next] = Rest.split('\n');
      if (std::optional<std::string> Names = analysis::kernelRoutines(Line))
        Others += (Others.empty() ? "" : ", ") + *Names;
      Rest = Next;
    }
    if (!Others.empty()) {
      Infos->push_back(P.Site + ": calls routines of other files (" + externalFortranNames(Others) +
                       "): analysed with their definitions when it first runs (JACC_DEBUG=" +
                       "analysis prints it)");
      return;
    }
    std::vector<std::string> Decls;
    for (llvm::StringRef A : P.Args) // each `{"<declaration>", <value>}`
      Decls.push_back(A.drop_front(2).take_until([](char C) { return C == '"'; }).str());
    auto Info = analysis::runAnalysis(P.Kernels.front().second, Decls);
    if (!Info) {
      Infos->push_back(P.Site +
                       ": not analysed before it runs: " + llvm::toString(Info.takeError()));
      return;
    }
    for (std::string &Line : analysis::describeConstruct(*Info))
      Infos->push_back(renameIdentifiers(
          Modules.spelledInFortran(Routines.spelledInFortran(std::move(Line))), Paths));
  }

  template <typename A> static constexpr size_t variantIndex() {
    return variantIndexOf<A, decltype(parser::AccClause::u)>();
  }
  template <typename A, typename V, size_t I = 0> static constexpr size_t variantIndexOf() {
    if constexpr (std::is_same_v<std::variant_alternative_t<I, V>, A>)
      return I;
    else
      return variantIndexOf<A, V, I + 1>();
  }

  void combined(const parser::OpenACCCombinedConstruct &X) {
    const auto &Begin = std::get<parser::AccBeginCombinedDirective>(X.t);
    const auto &Dir = std::get<parser::AccCombinedDirective>(Begin.t);
    const auto &Loop = std::get<std::optional<parser::DoConstruct>>(X.t);
    if (!Loop) {
      error(Begin.source, "a combined construct must be followed by a DO loop");
      return;
    }
    std::string Name = llvm::acc::getOpenACCDirectiveName(Dir.v).str();
    const char *Kind = Dir.v == llvm::acc::Directive::ACCD_kernels_loop ? "JACC_CONSTRUCT_KERNELS"
                       : Dir.v == llvm::acc::Directive::ACCD_serial_loop
                           ? "JACC_CONSTRUCT_SERIAL"
                           : "JACC_CONSTRUCT_PARALLEL";
    compute(Begin.source, spanOf(X), Kind, Name, std::get<parser::AccClauseList>(Begin.t), &*Loop,
            nullptr);
  }

  bool block(const parser::OpenACCBlockConstruct &X) {
    const auto &Begin = std::get<parser::AccBeginBlockDirective>(X.t);
    const auto &Dir = std::get<parser::AccBlockDirective>(Begin.t);
    const auto &Clauses = std::get<parser::AccClauseList>(Begin.t);
    std::string Name = llvm::acc::getOpenACCDirectiveName(Dir.v).str();
    using llvm::acc::Directive;
    if (Dir.v == Directive::ACCD_parallel || Dir.v == Directive::ACCD_kernels ||
        Dir.v == Directive::ACCD_serial) {
      const char *Kind = Dir.v == Directive::ACCD_kernels  ? "JACC_CONSTRUCT_KERNELS"
                         : Dir.v == Directive::ACCD_serial ? "JACC_CONSTRUCT_SERIAL"
                                                           : "JACC_CONSTRUCT_PARALLEL";
      compute(Begin.source, spanOf(X), Kind, Name, Clauses, nullptr, &std::get<parser::Block>(X.t));
      return false;
    }
    if (Dir.v == Directive::ACCD_host_data)
      return hostData(X);
    if (Dir.v != Directive::ACCD_data) {
      error(Begin.source, "'" + Name + "' is not translated for Fortran yet");
      return false;
    }
    // The region's entry at its directive, its exit at the end directive; the block between
    // is translated as the rest of the file (Post pops its deviceptr arrays).
    DataDeviceptrs.push_back(deviceptrArrays(Clauses));
    GlueCall G;
    std::vector<std::string> Entry, Exit;
    std::string Where = site(Begin.source);
    dataClauses(Clauses, G, Entry, Exit, Where);
    const auto &End = std::get<parser::AccEndBlockDirective>(X.t);
    std::string Call =
        ", \"" + File + "\", " + std::to_string(line(Begin.source)) + ", \"" + Procedure + "\");\n";
    auto [In, Out] = regionBodies(G, line(Begin.source), Entry, Exit,
                                  "  jacc_construct_begin(JACC_CONSTRUCT_DATA" + Call,
                                  "  jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT" + Call);
    std::string If = ifCondition(Clauses);
    emit(Begin.source, spanOf(Begin), G, In + "  jacc_construct_end();\n", If);
    emit(End.source, spanOf(End), G, Out + "  jacc_construct_end();\n", If);
    return true;
  }

  void Post(const parser::OpenACCBlockConstruct &X) {
    const auto &Begin = std::get<parser::AccBeginBlockDirective>(X.t);
    if (std::get<parser::AccBlockDirective>(Begin.t).v == llvm::acc::Directive::ACCD_data)
      DataDeviceptrs.pop_back();
  }

  /// The arrays a construct's deviceptr clauses name (pointers acc_malloc's memory is
  /// associated with); anything else is an error.
  std::set<const semantics::Symbol *> deviceptrArrays(const parser::AccClauseList &Clauses) {
    std::set<const semantics::Symbol *> Arrays;
    for (const parser::AccClause &C : Clauses.v)
      if (const auto *D = std::get_if<parser::AccClause::Deviceptr>(&C.u))
        for (const parser::AccObject &O : D->v.v) {
          const auto *Designator = std::get_if<parser::Designator>(&O.u);
          const parser::Name *N = Designator ? variableName(*Designator) : nullptr;
          if (N && N->symbol && N->symbol->Rank() > 0)
            Arrays.insert(&N->symbol->GetUltimate());
          else
            error(C.source, "deviceptr names arrays (pointers acc_malloc's memory is "
                            "associated with) in Fortran");
        }
    return Arrays;
  }

  /// The variables a construct's clauses name (their sections' and elements' too).
  static std::set<VariableKey> namedVariables(const parser::AccClauseList &Clauses) {
    ClauseObjects Walker;
    parser::Walk(Clauses, Walker);
    return Walker.Keys;
  }

  /// host_data use_device(list): inside the construct each listed array names its device copy
  /// (the current device's, as acc_deviceptr gives it), for the calls it makes (MPI, a CUDA
  /// library). The directive opens a BLOCK that asks the runtime for each copy's address, and
  /// an inner one declaring a pointer of the array's name, type and bounds at that address:
  /// the program's variable itself never changes. The end directive closes both.
  bool hostData(const parser::OpenACCBlockConstruct &X) {
    const auto &Begin = std::get<parser::AccBeginBlockDirective>(X.t);
    const auto &Clauses = std::get<parser::AccClauseList>(Begin.t);
    std::string Where = site(Begin.source);
    bool IfPresent = false;
    std::vector<const parser::AccObject *> Objects;
    for (const parser::AccClause &C : Clauses.v) {
      if (std::holds_alternative<parser::AccClause::IfPresent>(C.u))
        IfPresent = true;
      else if (const auto *U = std::get_if<parser::AccClause::UseDevice>(&C.u))
        for (const parser::AccObject &O : U->v.v)
          Objects.push_back(&O);
      else if (!std::holds_alternative<parser::AccClause::If>(C.u))
        error(C.source, "this clause is not translated for Fortran yet");
    }
    GlueCall G;
    std::string If = ifCondition(Clauses);
    std::string Use = If.empty() ? "" : G.value("merge(1, 0, " + If + ")");
    // Each block's declarations come before its statements.
    std::string Body, Outer, Copies, Pointers, Aims;
    for (const parser::AccObject *O : Objects) {
      const auto *D = std::get_if<parser::Designator>(&O->u);
      const auto *Ref = D ? std::get_if<parser::DataRef>(&D->u) : nullptr;
      const auto *N = Ref ? std::get_if<parser::Name>(&Ref->u) : nullptr;
      const semantics::Symbol *Symbol = N ? N->symbol : nullptr;
      if (!Symbol || Symbol->Rank() == 0 || !Symbol->GetType()) {
        error(D ? D->source : Begin.source,
              "'use_device' takes whole arrays in Fortran: name the array, not a scalar, a "
              "section or a component");
        continue;
      }
      auto S = section(*O, G);
      if (!S)
        continue;
      std::string F = N->ToString(), C = "jacc_ud_" + F;
      G.Params.push_back("void **" + C);
      G.Args.push_back(C);
      // The device's address when the data is present, the host's otherwise (if_present, a
      // false if clause); absent data without if_present is the program's error.
      std::string Found = "jacc_translated_use_device(" + S->Address + ", \"" + Where + "\")";
      std::string Check = presenceCheck(*S, Where);
      if (IfPresent)
        Found =
            "jacc_is_present(" + S->Address + ", " + S->Bytes + ") ? " + Found + " : " + S->Address;
      if (If.empty())
        Body += IfPresent ? "  *" + C + " = " + Found + ";\n"
                          : "  " + Check + "\n  *" + C + " = " + Found + ";\n";
      else
        Body += (IfPresent ? "" : "  if (" + Use + ")\n    " + Check + "\n") + "  *" + C + " = " +
                Use + " ? " + Found + " : " + S->Address + ";\n";
      std::string Rank = std::to_string(Symbol->Rank()), Deferred = "(:";
      for (int Dim = 1; Dim < Symbol->Rank(); ++Dim)
        Deferred += ",:";
      Deferred += ")";
      std::string Lower = "(", Type = Symbol->GetType()->AsFortran();
      for (int Dim = 1; Dim <= Symbol->Rank(); ++Dim)
        Lower += (Dim > 1 ? ", " : "") + ("jacc_udl_" + F + "(" + std::to_string(Dim) + "):");
      Lower += ")";
      Outer += "; type(jacc_c_ptr) :: " + C + "; integer(8) :: jacc_udl_" + F + "(" + Rank +
               "), jacc_uds_" + F + "(" + Rank + ")";
      Copies += "; jacc_udl_" + F + " = lbound(" + F + ", kind=8); jacc_uds_" + F + " = shape(" +
                F + ", kind=8)";
      Pointers += "; " + Type + ", pointer :: " + F + Deferred + ", jacc_udp_" + F + Deferred;
      Aims += "; call jacc_c_f_pointer(" + C + ", jacc_udp_" + F + ", jacc_uds_" + F + "); " + F +
              Lower + " => jacc_udp_" + F;
    }
    emit(Begin.source, spanOf(Begin), G, Body);
    std::optional<LineRange> Lines = spanOf(Begin);
    if (Lines && Replacements.count(Lines->First)) {
      std::string &Call = Replacements[Lines->First].Call;
      Call = "block; use, intrinsic :: iso_c_binding, only: jacc_c_ptr => c_ptr, jacc_c_f_pointer "
             "=> c_f_pointer" +
             Outer + "; " + Call + Copies + "; block" + Pointers + Aims;
    }
    const auto &End = std::get<parser::AccEndBlockDirective>(X.t);
    if (std::optional<LineRange> EndLines = spanOf(End))
      Replacements[EndLines->First] = {*EndLines, "end block; end block"};
    return true;
  }

  /// The entry and exit bodies of a region at Line whose data clauses gave Entry and Exit, each
  /// opened by Begin and End. The sections' bounds are the entry's (OpenACC evaluates them there;
  /// the region may change the variables they are written with): the entry keeps them, per
  /// thread and per nesting level of the region, for its exit.
  std::pair<std::string, std::string> regionBodies(const GlueCall &G, int Line,
                                                   const std::vector<std::string> &Entry,
                                                   const std::vector<std::string> &Exit,
                                                   const std::string &Begin,
                                                   const std::string &End) {
    std::vector<std::string> Values;
    for (const std::string &P : G.Params)
      if (llvm::StringRef(P).startswith("const long long *jacc_value_"))
        Values.push_back(llvm::StringRef(P).drop_front(17).str());
    std::string Saved = "jacc_saved_" + std::to_string(Line);
    std::string Keep, Restore;
    if (!Values.empty()) {
      std::string N = std::to_string(Values.size());
      Glue += "static _Thread_local long long " + Saved + "[64][" + N +
              "];\nstatic _Thread_local "
              "int " +
              Saved + "_depth;\n";
      Keep = "  if (" + Saved + "_depth < 64) {\n";
      Restore = "  --" + Saved + "_depth;\n";
      for (size_t K = 0; K < Values.size(); ++K) {
        std::string Index = "][" + std::to_string(K) + "]";
        Keep += "    " + Saved + "[" + Saved + "_depth" + Index + " = *" + Values[K] + ";\n";
        Restore += "  " + Values[K] + " = &" + Saved + "[" + Saved + "_depth < 64 ? " + Saved +
                   "_depth : 63" + Index + ";\n";
      }
      Keep += "  }\n  ++" + Saved + "_depth;\n";
    }
    std::string In = Begin + Keep, Out = End + Restore;
    for (const std::string &E : Entry)
      In += "  " + E + "\n";
    for (const std::string &E : Exit)
      Out += "  " + E + "\n";
    return {In, Out};
  }

  /// init, shutdown and set: the OpenACC runtime routines they stand for (the current device
  /// type, as OpenACC says when no device_type clause names one). A device type is read as
  /// written: flang 16 parses it as an expression (FortranSource drops what its semantics said
  /// of the names).
  void runtimeDirective(const parser::AccStandaloneDirective &Dir,
                        const parser::AccClauseList &Clauses, GlueCall &G) {
    using llvm::acc::Directive;
    RuntimeDirective R;
    R.K = Dir.v == Directive::ACCD_set    ? RuntimeDirective::Set
          : Dir.v == Directive::ACCD_init ? RuntimeDirective::Init
                                          : RuntimeDirective::Shutdown;
    bool Ok = true;
    for (const parser::AccClause &C : Clauses.v) {
      if (const auto *N = std::get_if<parser::AccClause::DeviceNum>(&C.u)) {
        R.Num = "(int)" + G.value(N->v.thing.thing.value().source.ToString());
      } else if (const auto *A = std::get_if<parser::AccClause::DefaultAsync>(&C.u)) {
        R.Async = "(int)" + G.value(A->v.thing.thing.value().source.ToString());
      } else if (const auto *T = std::get_if<parser::AccClause::DeviceType>(&C.u)) {
        for (const parser::AccDeviceTypeExpr &E : T->v.v) {
          const auto &Expr = std::get<std::optional<parser::ScalarIntExpr>>(E.t);
          std::string Name = Expr ? Expr->thing.thing.value().source.ToString() : "*";
          std::string K = deviceTypeConstant(Name);
          if (K.empty()) {
            error(Expr ? Expr->thing.thing.value().source : C.source, unknownDeviceType(Name));
            Ok = false;
          }
          R.Types.push_back(K);
        }
      } else if (!std::holds_alternative<parser::AccClause::If>(C.u)) {
        error(C.source, "this clause is not translated for Fortran yet");
      }
    }
    if (!Ok)
      return;
    std::string Body;
    for (const std::string &Call : runtimeDirectiveCalls(R))
      Body += "  " + Call + "\n";
    emit(Dir.source, Source.lines(Dir.source), G, Body, ifCondition(Clauses));
  }

  void standalone(const parser::OpenACCStandaloneConstruct &X) {
    const auto &Dir = std::get<parser::AccStandaloneDirective>(X.t);
    const auto &Clauses = std::get<parser::AccClauseList>(X.t);
    using llvm::acc::Directive;
    std::string Where = site(Dir.source);
    GlueCall G;
    std::string Body;
    bool Finalize = false, IfPresent = false;
    for (const parser::AccClause &C : Clauses.v) {
      Finalize |= std::holds_alternative<parser::AccClause::Finalize>(C.u);
      IfPresent |= std::holds_alternative<parser::AccClause::IfPresent>(C.u);
    }
    // One call per object: Call(address, bytes More), after the check that a section is
    // contiguous; with if_present, only for what the devices hold.
    auto Each = [&](const parser::AccObjectList &List, const std::string &Call,
                    const std::string &More = "") {
      for (const parser::AccObject &O : List.v)
        if (auto S = section(O, G)) {
          if (!S->Contiguous.empty())
            Body += "  " + contiguityCheck(*S, Where) + "\n";
          std::string Args = S->Address + ", " + S->Bytes;
          Body += std::string("  ") + (IfPresent ? "if (jacc_is_present(" + Args + ")) " : "") +
                  "jacc_translated_check(" + Call + "(" + Args + More + "), \"" + Where + "\");\n";
        }
    };
    auto ExitEach = [&](const parser::AccObjectList &List, bool CopyBack) {
      Each(List, "jacc_exit_data",
           std::string(", ") + (CopyBack ? "1" : "0") + ", " + (Finalize ? "1" : "0"));
    };
    auto List = [](const parser::AccObjectListWithModifier &L) -> const parser::AccObjectList & {
      return std::get<parser::AccObjectList>(L.t);
    };
    const char *Kind = Dir.v == Directive::ACCD_enter_data  ? "JACC_CONSTRUCT_ENTER_DATA"
                       : Dir.v == Directive::ACCD_exit_data ? "JACC_CONSTRUCT_EXIT_DATA"
                       : Dir.v == Directive::ACCD_update    ? "JACC_CONSTRUCT_UPDATE"
                                                            : nullptr;
    if (!Kind && (Dir.v == Directive::ACCD_init || Dir.v == Directive::ACCD_shutdown ||
                  Dir.v == Directive::ACCD_set)) {
      runtimeDirective(Dir, Clauses, G);
      return;
    }
    if (!Kind) {
      error(Dir.source, "'" + llvm::acc::getOpenACCDirectiveName(Dir.v).str() +
                            "' is not translated for Fortran yet");
      return;
    }
    for (const parser::AccClause &C : Clauses.v)
      std::visit(
          common::visitors{
              [&](const parser::AccClause::Copyin &Y) { Each(List(Y.v), "jacc_copyin"); },
              [&](const parser::AccClause::Create &Y) { Each(List(Y.v), "jacc_create"); },
              [&](const parser::AccClause::Copyout &Y) { ExitEach(List(Y.v), true); },
              [&](const parser::AccClause::Delete &Y) { ExitEach(Y.v, false); },
              [&](const parser::AccClause::Host &Y) { Each(Y.v, "jacc_update_self"); },
              [&](const parser::AccClause::Device &Y) { Each(Y.v, "jacc_update_device"); },
              [&](const parser::AccClause::Self &Y) {
                const parser::AccObjectList *Objects =
                    Y.v ? std::get_if<parser::AccObjectList>(&Y.v->u) : nullptr;
                if (Objects)
                  Each(*Objects, "jacc_update_self");
                else
                  error(C.source, "self without a list is not translated yet");
              },
              [&](const parser::AccClause::Attach &Y) { attachable(Y.v); },
              [&](const parser::AccClause::Detach &Y) { attachable(Y.v); },
              [&](const parser::AccClause::Finalize &) {},
              [&](const parser::AccClause::IfPresent &) {}, [&](const parser::AccClause::If &) {},
              [&](const parser::AccClause::Async &) {}, [&](const parser::AccClause::Wait &) {},
              [&](const auto &) {
                error(C.source, "this clause is not translated for Fortran yet");
              }},
          C.u);
    emit(Dir.source, spanOf(X), G,
         "  jacc_construct_begin(" + std::string(Kind) + ", \"" + File + "\", " +
             std::to_string(line(Dir.source)) + ", \"" + Procedure + "\");\n" + Body +
             "  jacc_construct_end();\n",
         ifCondition(Clauses));
  }
};

/// The helpers only the Fortran glue calls.
constexpr const char *FortranPrelude =
    R"(#include <jacc/openacc.h>
/* An implicit copy of a whole variable, mapped for the construct unless a mapping around it
   holds it; the bytes mapped, or 0. */
static inline size_t jacc_fortran_implicit(void *p, size_t bytes, const char *where) {
  if (!bytes || jacc_is_present(p, bytes))
    return 0;
  jacc_translated_check(jacc_copyin(p, bytes), where);
  return bytes;
}
/* A module variable of a declare directive: its device copy is made when a directive first
   passes it (created, or copied in for declare copyin) and lives until it is deallocated. */
static inline void jacc_fortran_declared(void *p, size_t bytes, int copyin, const char *where) {
  if (bytes && !jacc_is_present(p, bytes))
    jacc_translated_check(copyin ? jacc_copyin(p, bytes) : jacc_create(p, bytes), where);
}
/* An assumed-size array a kernel uses and no clause of its construct names: a mapping around
   it must hold it, as its extent is unknown. */
static inline void jacc_fortran_assumed_size(void *p, size_t element, const char *where,
                                             const char *what, const char *section) {
  if (jacc_is_present(p, element))
    return;
  fprintf(stderr, "%s: '%s' is an assumed-size array that is not present: name a section of it "
          "with an upper bound in a data clause, as %s\n", where, what, section);
  exit(1);
}
/* A data clause's section of a Fortran array: only one whose dimensions but the last are whole
   is contiguous, which jacc maps. */
static inline void jacc_fortran_contiguous(int contiguous, const char *where, const char *what) {
  if (contiguous)
    return;
  fprintf(stderr, "%s: '%s' is not contiguous: jacc maps a section whose dimensions but the "
          "last are whole, as a(:, lo:hi); map the whole array\n", where, what);
  exit(1);
}
/* A pointer array a directive passes: associated (state 0: not), with contiguous memory (1:
   not), which jacc maps and hands kernels as it does an allocatable's. */
static inline void jacc_fortran_pointer(int state, const char *where, const char *what) {
  if (state == 2)
    return;
  if (state == 0)
    fprintf(stderr, "%s: the pointer '%s' is not associated: associate it (=>) or allocate it "
            "before the directive\n", where, what);
  else
    fprintf(stderr, "%s: the pointer '%s' points to memory that is not contiguous (a section "
            "with a stride, or a part of each column): jacc maps contiguous memory; point it at "
            "a contiguous array, or copy the section into an allocatable\n", where, what);
  exit(1);
}
)";

/// Source with each replaced line range as its call line and blank lines, at the indentation
/// of the range's first line (column 7 at least in fixed form), and the calls of T.Prefixes
/// before their lines' text.
std::string replaceLines(llvm::StringRef Text, const Translation &T, bool FixedForm) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  auto prefixOf = [&](int Number) {
    auto P = T.Prefixes.find(Number);
    return P == T.Prefixes.end() ? std::string() : P->second;
  };
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    int Number = static_cast<int>(I) + 1;
    auto R = T.Replacements.find(Number);
    if (R == T.Replacements.end()) {
      std::string Prefix = prefixOf(Number);
      llvm::StringRef Text = Lines[I];
      if (!Prefix.empty()) {
        std::string Indent = Text.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
        if (FixedForm && Indent.size() < 6)
          Indent = "      ";
        Out += Indent + Prefix + Text.ltrim(" \t").str();
      } else {
        Out += Text.str();
      }
      Out += I + 1 < Lines.size() ? "\n" : "";
      continue;
    }
    const Translation::Replacement &Rep = R->second;
    std::string Indent = Lines[I].take_while([](char C) { return C == ' ' || C == '\t'; }).str();
    if (FixedForm && Indent.size() < 6)
      Indent = "      ";
    Out += Indent + prefixOf(Number) + Rep.Call + "\n";
    if (Rep.KeepStatements) {
      // The statements stay for the host; the construct's last line closes the if: an end
      // directive (a comment to the Fortran compiler) becomes `end if`, a statement gets it
      // after a `;`, or on a line of its own when the statement ends in a comment.
      for (int L = Rep.Lines.First + 1; L < Rep.Lines.Last; ++L)
        Out += Lines[L - 1].str() + "\n";
      llvm::StringRef Last = Lines[Rep.Lines.Last - 1];
      if (Last.ltrim().startswith_insensitive("!$acc"))
        Out += Indent + "end if\n";
      else if (Last.contains('!'))
        Out += Last.str() + "\n" + Indent + "end if\n";
      else
        Out += Last.str() + "; end if\n";
    } else {
      for (int L = Rep.Lines.First + 1; L <= Rep.Lines.Last; ++L)
        Out += "\n";
    }
    I = static_cast<size_t>(Rep.Lines.Last) - 1;
  }
  return Out;
}

} // namespace

llvm::Expected<FortranTranslation> translateFortran(llvm::StringRef Path,
                                                    const FortranOptions &Options,
                                                    std::vector<std::string> *Infos) {
  auto Source = parseFortran(Path, Options);
  if (!Source)
    return Source.takeError();
  Translation T(**Source, Options);
  T.Infos = Infos;
  parser::Walk((*Source)->program(), T);
  if (!T.Errors.empty())
    return makeError(ErrorCode::Unsupported, llvm::join(T.Errors, "\n"));
  if (llvm::Error E = T.Declares.write(Options.ModuleDir + "/.jacc-modules"))
    return E;
  exportModuleRoutines(**Source, T.Routines, T.Modules);
  if (llvm::Error E = T.Modules.write(Options.ModuleDir + "/.jacc-modules"))
    return E;
  FortranTranslation Out;
  Out.Host = replaceLines((*Source)->text(), T, Options.FixedForm);
  Out.Glue = translatedPrelude() + FortranPrelude + "/* The calls of " + T.File +
             "'s OpenACC directives (jaccc's Fortran translation). */\n" + T.Glue +
             externalRoutines(**Source, T.Routines, T.Modules, T.File);
  return Out;
}

} // namespace jacc::translate::fortran
