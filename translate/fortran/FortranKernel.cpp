// A Fortran compute construct as a kernel: the host variables its text names (how the glue
// passes each), and the kernel printed (KernelWriter.h), twice when a scalar assigned outside
// its loops must be written through a pointer.
#include "translate/fortran/FortranKernel.h"

#include "translate/fortran/DerivedTypes.h"
#include "translate/fortran/KernelWriter.h"
#include "translate/fortran/PrivateCopies.h"

#include "support/Error.h"

#include <flang/Evaluate/expression.h>
#include <flang/Evaluate/fold.h>
#include <flang/Evaluate/tools.h>
#include <flang/Parser/parse-tree.h>
#include <flang/Semantics/symbol.h>
#include <flang/Semantics/tools.h>
#include <flang/Semantics/type.h>

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

#include <map>
#include <set>

namespace jacc::translate::fortran {

static const std::set<std::string> CKeywords = {
    "auto",     "break",  "case",   "char",     "const",    "continue", "default",  "do",
    "double",   "else",   "enum",   "extern",   "float",    "for",      "goto",     "if",
    "inline",   "int",    "long",   "register", "restrict", "return",   "short",    "signed",
    "sizeof",   "static", "struct", "switch",   "typedef",  "union",    "unsigned", "void",
    "volatile", "while",  "bool",   "true",     "false",    "main"};

const parser::Name *variableName(const parser::Designator &D) {
  const auto *Ref = std::get_if<parser::DataRef>(&D.u);
  return Ref ? std::get_if<parser::Name>(&Ref->u) : nullptr;
}

const parser::Name *sectionBase(const parser::Designator &D) {
  if (const parser::Name *N = variableName(D))
    return N;
  const auto *Ref = std::get_if<parser::DataRef>(&D.u);
  const auto *Element =
      Ref ? std::get_if<common::Indirection<parser::ArrayElement>>(&Ref->u) : nullptr;
  return Element ? std::get_if<parser::Name>(&Element->value().base.u) : nullptr;
}

std::string cName(const semantics::Symbol &Symbol) {
  std::string Name = Symbol.name().ToString();
  if (CKeywords.count(Name) || llvm::StringRef(Name).startswith("jacc_"))
    Name += "_f";
  return Name;
}

std::string cTypeOf(TypeCategory Category, int Kind) {
  switch (Category) {
  case TypeCategory::Real:
    return Kind == 4 ? "float" : Kind == 8 ? "double" : "";
  case TypeCategory::Complex: // gfortran lays a complex out as C does (two reals)
    return Kind == 4 ? "float _Complex" : Kind == 8 ? "double _Complex" : "";
  case TypeCategory::Integer:
  case TypeCategory::Logical:
    return Kind == 1   ? "signed char"
           : Kind == 2 ? "short"
           : Kind == 4 ? "int"
           : Kind == 8 ? "long long"
                       : "";
  default:
    return "";
  }
}

std::string cType(const semantics::Symbol &Symbol) {
  const semantics::DeclTypeSpec *Type = Symbol.GetType();
  const semantics::IntrinsicTypeSpec *Intrinsic = Type ? Type->AsIntrinsic() : nullptr;
  if (!Intrinsic)
    return "";
  auto Kind = evaluate::ToInt64(Intrinsic->kind());
  return Kind ? cTypeOf(Intrinsic->category(), static_cast<int>(*Kind)) : "";
}

/// How the glue passes the variable S as the C variable CName (Name: the program's name).
static llvm::Expected<HostVariable> variableNamed(const semantics::Symbol &S, std::string CName,
                                                  const std::string &Name) {
  HostVariable V;
  V.Symbol = &S;
  V.Name = std::move(CName);
  V.CType = cType(S);
  if (const semantics::DerivedTypeSpec *Type = V.CType.empty() ? derivedType(S) : nullptr) {
    auto Structs = structsOf(*Type);
    if (!Structs)
      return makeError(ErrorCode::Unsupported,
                       "'" + Name + "': " + llvm::toString(Structs.takeError()));
    V.Structs = std::move(*Structs);
    V.CType = V.Structs.back().Name;
  }
  if (V.CType.empty())
    return makeError(ErrorCode::Unsupported,
                     "'" + Name +
                         "': jacc's kernels take integer, logical, real and complex variables "
                         "of kinds 1 to 8 and derived types of them (character variables are "
                         "not translated yet)");
  V.Rank = S.Rank();
  if (V.Rank == 0)
    return V;
  V.AssumedSize = semantics::IsAssumedSizeArray(S);
  V.Pointer = semantics::IsPointer(S);
  const auto *Object = S.detailsIf<semantics::ObjectEntityDetails>();
  for (int D = 0; D < V.Rank; ++D) {
    std::optional<int64_t> Lower;
    if (Object && D < static_cast<int>(Object->shape().size()) &&
        Object->shape()[D].lbound().isExplicit())
      if (const auto &E = Object->shape()[D].lbound().GetExplicit())
        Lower = evaluate::ToInt64(*E);
    // An assumed-shape dummy without a lower bound starts at 1.
    if (!Lower && semantics::IsAssumedShape(S) && Object &&
        !Object->shape()[D].lbound().GetExplicit())
      Lower = 1;
    V.Lower.push_back(Lower ? std::to_string(*Lower)
                            : "jacc_lb_" + V.Name + "_" + std::to_string(D + 1));
    std::optional<int64_t> Upper;
    if (Lower && Object && D < static_cast<int>(Object->shape().size()))
      if (const auto &E = Object->shape()[D].ubound().GetExplicit())
        Upper = evaluate::ToInt64(*E);
    V.Extent.push_back(Upper ? std::to_string(std::max<int64_t>(*Upper - *Lower + 1, 0))
                             : "jacc_n_" + V.Name + "_" + std::to_string(D + 1));
  }
  return V;
}

llvm::Expected<HostVariable> hostVariable(const semantics::Symbol &Symbol) {
  const semantics::Symbol &S = Symbol.GetUltimate();
  return variableNamed(S, cName(S), S.name().ToString());
}

llvm::Expected<HostVariable>
componentVariable(const semantics::Symbol &Base,
                  const std::vector<const semantics::Symbol *> &Components) {
  std::string Path = Base.name().ToString(), CName = "jacc_c_" + Base.name().ToString();
  bool Scalars = Base.Rank() == 0;
  for (const semantics::Symbol *C : Components) {
    Scalars = Scalars && (C == Components.back() || C->Rank() == 0);
    Path += "%" + C->name().ToString();
    CName += "_" + C->name().ToString();
  }
  if (!Scalars)
    return makeError(ErrorCode::Unsupported,
                     "'" + Path +
                         "' is a component of an array's elements, which the glue cannot pass "
                         "as one array: copy it into an array of its own");
  auto V = variableNamed(Components.back()->GetUltimate(), CName, Path);
  if (V)
    V->Path = Path;
  return V;
}

std::string operand(const std::string &Text) {
  if (llvm::all_of(Text, [](char C) { return std::isalnum(C) || C == '_'; }))
    return Text;
  int Depth = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    Depth += Text[I] == '(' ? 1 : Text[I] == ')' ? -1 : 0;
    if (Depth == 0 && I + 1 < Text.size())
      return "(" + Text + ")";
  }
  return Text;
}

void KernelWriter::error(const std::string &Message) {
  std::string Line = Source.where(Where) + ": error: " + Message;
  if (!llvm::is_contained(Out.Errors, Line)) // a name used twice in one statement
    Out.Errors.push_back(Line);
}

std::string KernelWriter::variable(const semantics::Symbol &Symbol) {
  const semantics::Symbol &S = Symbol.GetUltimate();
  if (Assigning && InRoutine && llvm::is_contained(Captures, &S)) {
    if (NamedArrays.count(&S))
      WrittenCaptures.insert(&S); // its elements, in place
    else
      error("the routine assigns '" + S.name().ToString() +
            "', a variable of its module or host: pass it as an argument");
  }
  if (auto It = Named.find(&S); It != Named.end())
    return It->second;
  if (Own.count(&S))
    return cName(S);
  if (InRoutine)
    return capture(S);
  // A scalar read before the kernel assigns it carries its value in: never private.
  if (!Assigning && !Assigned.count(&S))
    ReadFirst.insert(&S);
  for (const HostVariable &V : Out.Variables) {
    if (V.Symbol != &S)
      continue;
    if (V.Share != HostVariable::Sharing::Shared && !InScope.count(&S))
      error("'" + S.name().ToString() +
            "' is private to the loops of the clause that names it and used outside them: "
            "name it in a private clause of a loop around every use");
    return V.Ref ? "jacc_ref_" + V.Name + "[0]" : V.Name;
  }
  auto V = hostVariable(S);
  if (!V) {
    error(llvm::toString(V.takeError()));
    return cName(S);
  }
  V->Ref = V->Rank == 0 && Refs.count(&S);
  record(*V);
  return V->Ref ? "jacc_ref_" + V->Name + "[0]" : V->Name;
}

void KernelWriter::record(const HostVariable &V) {
  for (const CStruct &S : V.Structs)
    if (Called)
      Called->define(S.Name, S.Definition);
  Out.Variables.push_back(V);
}

bool KernelWriter::privateArray(const semantics::Symbol &Symbol, bool First) {
  const semantics::Symbol &S = Symbol.GetUltimate();
  if (S.Rank() == 0)
    return false;
  ClauseCopies.push_back({&S, First});
  auto Share = First ? HostVariable::Sharing::Firstprivate : HostVariable::Sharing::Private;
  for (HostVariable &V : Out.Variables)
    if (V.Symbol == &S) {
      if (V.Share == HostVariable::Sharing::Shared)
        error("'" + S.name().ToString() +
              "' is private here and shared elsewhere in the "
              "construct: use another array for one of them");
      else if (First)
        V.Share = Share;
      return true;
    }
  auto V = hostVariable(S);
  if (!V) {
    error(llvm::toString(V.takeError()));
    return true;
  }
  V->Share = Share;
  record(*V);
  return true;
}

std::vector<KernelWriter::Copy>
KernelWriter::openCopies(std::string &Text, const std::string &Indent, bool Innermost) {
  std::vector<Copy> Here;
  if (Pending.empty())
    return Here;
  if (PendingLevels > 0 && !Innermost) {
    --PendingLevels;
    return Here;
  }
  Here.swap(Pending);
  PendingLevels = 0;
  for (const Copy &C : Here) {
    InScope.insert(C.Symbol);
    for (const std::string &L : privateCopyLines(*find(*C.Symbol), C.First))
      line(Text, Indent, L);
  }
  return Here;
}

void KernelWriter::closeCopies(const std::vector<Copy> &Here) {
  for (const Copy &C : Here)
    InScope.erase(C.Symbol);
}

std::optional<HostVariable> KernelWriter::find(const semantics::Symbol &Symbol) {
  if (auto It = NamedArrays.find(&Symbol.GetUltimate()); It != NamedArrays.end())
    return It->second;
  for (const HostVariable &V : Out.Variables)
    if (V.Symbol == &Symbol.GetUltimate())
      return V;
  return std::nullopt;
}

FortranKernel writeKernel(const FortranSource &Source, const RoutineIndex &Routines,
                          ModuleRoutines &Modules, const std::string &Directive,
                          const parser::AccClauseList &Clauses, const parser::DoConstruct *Loop,
                          const parser::Block *Body,
                          const std::set<const semantics::Symbol *> &Deviceptrs) {
  // Printed twice when a scalar is assigned outside the loops: the second time through its
  // pointer, as the C translator's device scalars are.
  std::set<const semantics::Symbol *> Refs;
  for (int Pass = 0; Pass < 2; ++Pass) {
    KernelWriter W(Source);
    KernelWriter::CalledRoutines Called(Routines, Modules);
    W.Called = &Called;
    W.Refs = Refs;
    W.Where = Clauses.source;
    std::string Pragma = "#pragma acc " + Directive + W.clauses(Clauses);
    std::string Text;
    // Private arrays: a combined construct's loop body (its collapsed nest's innermost) holds
    // their copies; a serial construct's body; each top-level shared loop of another's.
    W.Pending = W.ClauseCopies;
    W.PendingLevels = static_cast<int>(W.Collapse) - 1;
    W.SharesArrayAssignments = !llvm::StringRef(Directive).startswith("serial");
    if (Loop) {
      W.doLoop(Text, *Loop, Pragma, "");
    } else {
      Text = Pragma + "\n{\n";
      std::vector<KernelWriter::Copy> Copies;
      if (llvm::StringRef(Directive).startswith("serial"))
        Copies = W.openCopies(Text, "  ", true);
      W.ConstructCopies.swap(W.Pending);
      W.block(Text, *Body, "  ");
      W.closeCopies(Copies);
      Text += "}\n";
    }
    // Scalars assigned outside the loops, or in a loop after a read of their value (a value
    // carried from one iteration to the next, or in from the host), are shared: written
    // through a pointer, as the C translation's device scalars (the analysis then runs such a
    // loop as its dependence requires).
    std::set<const semantics::Symbol *> Outside;
    for (const semantics::Symbol *S : W.OutsideLoops)
      if (!W.Reductions.count(S) && !W.Private.count(S))
        Outside.insert(S);
    for (const semantics::Symbol *S : W.InLoop)
      if (!W.Reductions.count(S) && !W.Private.count(S) && W.ReadFirst.count(S) && S->Rank() == 0)
        Outside.insert(S);
    // Scalars assigned in a loop before any read are private to it: the loop body's locals.
    std::string Private;
    for (const semantics::Symbol *S : W.InLoop)
      if (!W.Reductions.count(S) && !W.Private.count(S) && !Outside.count(S) && S->Rank() == 0)
        Private += (Private.empty() ? "" : ", ") + cName(*S);
    if (Pass == 0 && Outside != Refs && !Outside.empty()) {
      Refs = Outside;
      continue;
    }
    std::string Inherited; // an enclosing data construct's deviceptr arrays the kernel uses
    for (const HostVariable &V : W.Out.Variables)
      if (V.Path.empty() && Deviceptrs.count(V.Symbol))
        Inherited += (Inherited.empty() ? "" : ", ") + V.Name;
    // On the loop of a combined construct, else on the block's first line.
    size_t End = Text.find('\n');
    if (!Inherited.empty())
      Text.insert(End, " deviceptr(" + Inherited + ")");
    if (!Private.empty())
      Text.insert(End, " private(" + Private + ")");
    W.Out.Text = Called.Text + Text;
    W.Out.Reductions = W.Reductions;
    return W.Out;
  }
  return {};
}

} // namespace jacc::translate::fortran
