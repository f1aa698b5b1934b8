// Routines in kernels: a call prints the routine, once per kernel, as a C function taking
// Fortran's arguments by reference in C's forms (a scalar it assigns by address, an array by
// its first element and, assumed-shape, its extents), and passes the actuals that way.
#include "translate/fortran/DerivedTypes.h"
#include "translate/fortran/KernelWriter.h"

#include "analysis/KernelSource.h"
#include "translate/RoutineRegistration.h"

#include <flang/Evaluate/tools.h>
#include <flang/Semantics/scope.h>
#include <flang/Semantics/tools.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/xxhash.h>

namespace jacc::translate::fortran {

std::string KernelWriter::call(const evaluate::ProcedureRef &Ref) {
  const semantics::Symbol *Proc = Ref.proc().GetSymbol();
  std::string Name = Ref.proc().GetName();
  const Routine *R = Proc && Called ? Called->Index.find(*Proc) : nullptr;
  if (!R && Proc && Called)
    if (std::optional<Signature> Sig = imported(*Proc, Name))
      return Sig->CName.empty() ? "0" : callWith(*Sig, Ref, Name);
  if (!R && Proc && Called)
    if (std::optional<Signature> Sig = external(*Proc, Ref, Name))
      return Sig->CName.empty() ? "0" : callWith(*Sig, Ref, Name);
  if (!R) {
    error(Proc && Called && Called->Index.defines(*Proc)
              ? "'" + Name + "' is called in a kernel: put '!$acc routine seq' in its definition"
              : "'" + Name +
                    "' is called in a kernel but no routine of that name is defined in this "
                    "file or in a module jaccc translated: define it under '!$acc routine seq' "
                    "(each kernel carries the routines it calls)");
    return "0";
  }
  const Signature *Sig = routine(*R);
  return Sig ? callWith(*Sig, Ref, Name) : "0";
}

std::string KernelWriter::callWith(const Signature &Sig, const evaluate::ProcedureRef &Ref,
                                   const std::string &Name) {
  const auto &Args = Ref.arguments();
  if (Args.size() != Sig.Parameters.size()) {
    error("'" + Name + "' is called with " + std::to_string(Args.size()) + " arguments and takes " +
          std::to_string(Sig.Parameters.size()));
    return "0";
  }
  std::string Text = Sig.CName + "(";
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr<SomeType> *E = Args[I] ? Args[I]->UnwrapExpr() : nullptr;
    if (!E) {
      error("argument " + std::to_string(I + 1) + " of '" + Name +
            "' is omitted or not a value: pass every argument of a routine");
      return "0";
    }
    Text += (I ? ", " : "") + argument(*E, Sig.Parameters[I], Sig, Name, I + 1);
  }
  for (const semantics::Symbol *S : Sig.Captures) { // where the call is
    Text += (Text.back() == '(' ? "" : ", ") + capturedValues(*S);
    if (InRoutine && Sig.WrittenCaptures.count(S))
      WrittenCaptures.insert(&S->GetUltimate()); // the callee assigns it: so does its caller
  }
  return Text + ")";
}

std::optional<KernelWriter::Signature> KernelWriter::imported(const semantics::Symbol &Callee,
                                                              const std::string &Name) {
  const semantics::Symbol &U = Callee.GetUltimate();
  const semantics::Scope &Module = U.owner();
  if (!Module.IsModule() || !Module.symbol())
    return std::nullopt;
  const ModuleRoutine *M =
      Called->Modules.find(Module.symbol()->name().ToString(), U.name().ToString());
  if (!M)
    return std::nullopt;
  Signature Sig;
  if (!M->Error.empty()) {
    error("'" + Name + "' cannot run in a kernel (its module's translation said: " + M->Error +
          ")");
    return Sig;
  }
  for (const auto &[CName, Text] : M->Definitions)
    Called->define(CName, Text);
  Sig.CName = M->CName;
  Sig.Parameters = M->Parameters;
  for (const std::string &Capture : M->Captures) {
    const semantics::Symbol *S = Module.FindSymbol(parser::CharBlock(Capture));
    if (!S) {
      error("'" + Name + "' reads '" + Capture + "', which its module no longer has: rebuild it");
      return Signature();
    }
    Sig.Captures.push_back(S);
    if (llvm::is_contained(M->WrittenCaptures, Capture))
      Sig.WrittenCaptures.insert(S);
  }
  Sig.Written = true;
  return Sig;
}

/// The C type of an actual argument of Type: its intrinsic type's or its struct's; empty if
/// none.
static std::string actualType(const evaluate::DynamicType &Type) {
  if (Type.category() != TypeCategory::Derived)
    return cTypeOf(Type.category(), Type.kind());
  if (Type.IsPolymorphic())
    return "";
  auto Structs = structsOf(Type.GetDerivedTypeSpec());
  if (!Structs) {
    llvm::consumeError(Structs.takeError()); // no C type: not the dummy's
    return "";
  }
  return Structs->back().Name;
}

/// How a routine takes its dummy argument S as S's declaration says: a scalar by value when
/// `value` or `intent(in)`, else by address; an array by its first element, with its extents
/// when assumed-shape.
static RoutineParameter::Pass declaredPass(const semantics::Symbol &S) {
  using Pass = RoutineParameter::Pass;
  if (S.Rank() > 0)
    return semantics::IsAssumedShape(S) ? Pass::ShapedArray : Pass::Array;
  return S.attrs().test(semantics::Attr::VALUE) || semantics::IsIntentIn(S) ? Pass::Value
                                                                            : Pass::Address;
}

/// The name other files' kernels call an external routine by: its Fortran name and a hash of
/// how it takes its arguments and what it returns (a caller whose interface is not the
/// definition's finds no routine of that name, rather than a wrong one).
static std::string externalName(const std::string &Name,
                                const std::vector<RoutineParameter> &Parameters,
                                const std::string &Return, bool ByAddress) {
  // Without an interface a caller knows each argument's type only, every one by address.
  std::string Key = (ByAddress ? "by address:" : "") + Return;
  for (const RoutineParameter &P : Parameters)
    Key +=
        "," + P.CType +
        (ByAddress ? std::string()
                   : ":" + std::to_string(static_cast<int>(P.How)) + ":" + std::to_string(P.Rank));
  return "jacc_external_" + Name + "_sig" +
         llvm::utohexstr(llvm::xxHash64(Key) & 0xffffffffu, /*LowerCase=*/true, 8);
}

std::string externalFortranNames(llvm::StringRef CNames) {
  llvm::SmallVector<llvm::StringRef, 4> Names;
  CNames.split(Names, ',', -1, false);
  std::string Out;
  for (llvm::StringRef N : Names) {
    N = N.trim();
    if (N.consume_front("jacc_external_"))
      N = N.take_front(N.rfind("_sig"));
    Out += (Out.empty() ? "" : ", ") + N.str();
  }
  return Out;
}

std::optional<KernelWriter::Signature> KernelWriter::external(const semantics::Symbol &Callee,
                                                              const evaluate::ProcedureRef &Ref,
                                                              const std::string &Name) {
  const semantics::Symbol &U = Callee.GetUltimate();
  if (U.owner().IsModule() || Called->Index.defines(U) || !Called->Index.declaredRoutine(U) ||
      semantics::IsDummy(U))
    return std::nullopt;
  Signature Sig;
  Sig.AsDeclared = true;
  Sig.Written = true;
  std::string Return = "void";
  const auto *Interface = U.detailsIf<semantics::SubprogramDetails>();
  if (Interface) {
    for (const semantics::Symbol *D : Interface->dummyArgs()) {
      if (!D) {
        error("alternate returns are not translated into kernels");
        return Sig;
      }
      const semantics::Symbol &S = D->GetUltimate();
      Parameter P;
      P.CType = routineType(S, "an argument");
      P.Rank = S.Rank();
      P.Out = semantics::IsIntentOut(S);
      P.How = declaredPass(S);
      Sig.Parameters.push_back(P);
    }
    if (Interface->isFunction())
      Return = routineType(Interface->result().GetUltimate(), "the result");
  } else {
    // No interface (`external f`): every argument by address, of its actual's type.
    for (const auto &Arg : Ref.arguments()) {
      const Expr<SomeType> *E = Arg ? Arg->UnwrapExpr() : nullptr;
      std::optional<evaluate::DynamicType> Type = E ? E->GetType() : std::nullopt;
      Parameter P;
      P.CType = Type ? actualType(*Type) : "";
      if (P.CType.empty()) {
        error("argument " + std::to_string(Sig.Parameters.size() + 1) + " of '" + Name +
              "' is not an integer, logical or real variable or array, or a derived type of "
              "them: give the routine an interface, or pass one of those");
        return Sig;
      }
      P.Rank = E->Rank();
      P.How = P.Rank ? Parameter::Pass::Array : Parameter::Pass::Address;
      Sig.Parameters.push_back(P);
    }
    if (U.test(semantics::Symbol::Flag::Function))
      Return = routineType(U, "the result");
  }
  Sig.CName = externalName(U.name().ToString(), Sig.Parameters, Return, !Interface);
  // Linked into the kernel, before the routines that call it, when the kernel first runs.
  Called->define("routines " + Sig.CName, "#pragma jacc routines(" + Sig.CName + ")\n");
  return Sig;
}

void exportModuleRoutines(const FortranSource &Source, const RoutineIndex &Routines,
                          ModuleRoutines &Modules) {
  for (const Routine *R : Routines.all()) {
    const semantics::Scope &Module = R->Symbol->owner();
    if (!Module.IsModule() || !Module.symbol())
      continue;
    KernelWriter W(Source);
    KernelWriter::CalledRoutines Called(Routines, Modules);
    W.Called = &Called;
    ModuleRoutine M;
    if (const KernelWriter::Signature *Sig = W.routine(*R)) {
      M.CName = Sig->CName;
      M.Parameters = Sig->Parameters;
      for (const semantics::Symbol *S : Sig->Captures) {
        M.Captures.push_back(S->name().ToString()); // the module's, or one it uses
        if (Sig->WrittenCaptures.count(S))
          M.WrittenCaptures.push_back(S->name().ToString());
      }
      M.Definitions = Called.Definitions;
    } else {
      M.Error = W.Out.Errors.empty() ? "it cannot be translated" : W.Out.Errors.front();
    }
    Modules.add(Module.symbol()->name().ToString(), R->Symbol->name().ToString(), std::move(M));
  }
}

/// Whether a caller without an interface can call the routine S: no argument it must know of
/// (`value`, assumed shape: Fortran requires an interface for those).
static bool callableWithoutInterface(const semantics::Symbol &S) {
  for (const semantics::Symbol *D : S.get<semantics::SubprogramDetails>().dummyArgs())
    if (!D || D->attrs().test(semantics::Attr::VALUE) || semantics::IsAssumedShape(*D))
      return false;
  return true;
}

std::string externalRoutines(const FortranSource &Source, const RoutineIndex &Routines,
                             ModuleRoutines &Modules, const std::string &File) {
  using Passing = KernelWriter::Passing;
  std::string Calls;
  for (const Routine *R : Routines.all()) {
    if (!R->Symbol->owner().IsGlobal()) // a module's (ModuleRoutines.h) or a host's own
      continue;
    std::optional<LineRange> Lines = Source.lines(R->Symbol->name());
    std::string Site = File + ":" + std::to_string(Lines ? Lines->First : 0);
    // As callers with its interface pass the arguments, and as callers without one do.
    for (Passing How : {Passing::Declared, Passing::ByAddress}) {
      if (How == Passing::ByAddress && !callableWithoutInterface(*R->Symbol))
        continue;
      KernelWriter W(Source);
      KernelWriter::CalledRoutines Called(Routines, Modules);
      W.Called = &Called;
      W.routine(*R, How);
      const KernelWriter::Signature &Sig = Called.Signatures[R];
      if (Sig.CName.empty()) // it calls itself: the error is this file's kernels' to report
        break;
      // What a kernel calling it needs, each declaration once (jit/KernelRoutines.h); a
      // routine no kernel can carry is registered as the error, which a kernel calling it
      // reports.
      std::string Text;
      if (W.Out.Errors.empty())
        for (const auto &[CName, Definition] : Called.Definitions)
          Text += Definition + analysis::RoutineItemEnd;
      else
        Text = routineError(W.Out.Errors.front());
      Calls += routineRegistration(Sig.CName, Text, Site);
    }
  }
  return registrationConstructor(Calls, "external routines");
}

void KernelWriter::CalledRoutines::define(const std::string &CName, const std::string &Definition) {
  for (const auto &D : Definitions)
    if (D.first == CName)
      return;
  Definitions.emplace_back(CName, Definition);
  Text += Definition;
}

std::string KernelWriter::argument(const Expr<SomeType> &E, const Parameter &P,
                                   const Signature &Sig, const std::string &Callee,
                                   size_t Position) {
  std::string Which = "argument " + std::to_string(Position) + " of '" + Callee + "'";
  if (P.How == Parameter::Pass::Value)
    return expr(E);
  if (std::optional<evaluate::DynamicType> Type = E.GetType())
    if (actualType(*Type) != P.CType) {
      error(Which + " is not of its dummy argument's type and kind");
      return "0";
    }
  const semantics::Symbol *Whole = evaluate::UnwrapWholeSymbolDataRef(E);
  if (P.How == Parameter::Pass::Address) {
    if (!evaluate::IsVariable(E) && Sig.AsDeclared) {
      // Fortran passes an expression's value in a temporary, which the routine may not assign.
      std::string Temporary = "jacc_a" + std::to_string(++Hoists);
      std::string Value = expr(E);
      Hoisted.push_back(P.CType + " " + Temporary + " = " + Value + ";");
      return "&" + Temporary;
    }
    if (!evaluate::IsVariable(E)) {
      error(Which + " is an expression, and the routine assigns its dummy argument: pass a "
                    "variable");
      return "0";
    }
    if (Whole) // assigned by the call
      assigns(*Whole, P.Out);
    bool Was = Assigning;
    Assigning = P.Out;
    std::string Text = "&" + expr(E);
    Assigning = Was;
    return Text;
  }
  if (E.Rank() == 0 && P.How == Parameter::Pass::Array && evaluate::IsVariable(E))
    return "&" + expr(E); // an element: the routine's array starts there
  std::optional<ContiguousPart> Part = contiguousPart(E);
  if (!Part) {
    error(Which + " is not a whole array, an element or a contiguous section of one (a(:, j), "
                  "a(l:u)): pass one of those");
    return "0";
  }
  std::string Text = Part->First;
  if (P.How == Parameter::Pass::ShapedArray) {
    if (static_cast<int>(Part->Extents.size()) != P.Rank) {
      error(Which + " has another rank than its dummy argument");
      return "0";
    }
    for (const std::string &Extent : Part->Extents)
      Text += ", (long long)(" + Extent + ")";
  }
  return Text;
}

std::optional<KernelWriter::ContiguousPart> KernelWriter::contiguousPart(const Expr<SomeType> &E) {
  std::optional<evaluate::DataRef> Ref = evaluate::ExtractDataRef(E);
  const semantics::SymbolRef *Whole = Ref ? std::get_if<semantics::SymbolRef>(&Ref->u) : nullptr;
  const evaluate::ArrayRef *Part = Ref ? std::get_if<evaluate::ArrayRef>(&Ref->u) : nullptr;
  const semantics::SymbolRef *Base = Whole  ? Whole
                                     : Part ? Part->base().UnwrapSymbolRef()
                                            : nullptr;
  if (!Base || (*Base)->Rank() == 0)
    return std::nullopt;
  std::string Name = variable(**Base);
  std::optional<HostVariable> V = find(**Base);
  if (!V)
    return std::nullopt;
  ContiguousPart Out;
  Out.Extents = assignedExtents(E);
  if (Whole) {
    Out.First = "&" + indexed(Name, *V, std::vector<std::string>(V->Rank, "0"));
    return Out;
  }
  enum { Columns, Range, Indices } Now = Columns; // what may come next
  std::vector<std::string> Subs;
  for (size_t D = 0; D < Part->subscript().size() && D < V->Lower.size(); ++D) {
    const std::string &Lower = V->Lower[D];
    const auto &Sub = Part->subscript()[D].u;
    const auto *Index = std::get_if<evaluate::IndirectSubscriptIntegerExpr>(&Sub);
    const auto *Triplet = std::get_if<evaluate::Triplet>(&Sub);
    if (Index) {
      if (Index->value().Rank() > 0)
        return std::nullopt;
      Now = Indices;
      std::string S = subscript(Index->value());
      Subs.push_back(Lower == "0" ? S : S + " - " + Lower);
      continue;
    }
    if (!Triplet || Now != Columns || evaluate::ToInt64(Triplet->stride()) != 1)
      return std::nullopt;
    if (Triplet->GetLower() || Triplet->GetUpper()) // not the whole dimension
      Now = Range;
    std::string From = Triplet->GetLower() ? subscript(*Triplet->GetLower()) : Lower;
    Subs.push_back(From == Lower ? "0" : Lower == "0" ? From : "(" + From + ") - " + Lower);
  }
  Out.First = "&" + indexed(Name, *V, Subs);
  return Out;
}

const KernelWriter::Signature *KernelWriter::routine(const Routine &R, Passing How) {
  auto [It, New] = Called->Signatures.try_emplace(&R);
  if (!New) {
    if (It->second.Written)
      return &It->second;
    error("'" + R.Symbol->name().ToString() +
          "' calls itself: recursive routines are not translated into kernels");
    return nullptr;
  }
  std::set<const semantics::Symbol *> Assigns;
  for (int Pass = 0; Pass < 2; ++Pass) {
    KernelWriter W(Source);
    W.Called = Called;
    W.InRoutine = true;
    W.RoutinePassing = How;
    Signature Sig;
    std::string Text = W.writeRoutine(R, Assigns, Sig);
    std::set<const semantics::Symbol *> Now;
    for (const semantics::Symbol *D : R.Symbol->get<semantics::SubprogramDetails>().dummyArgs())
      if (D && D->Rank() == 0 && W.Assigned.count(&D->GetUltimate()))
        Now.insert(&D->GetUltimate());
    if (Pass == 0 && !llvm::all_of(Now, [&](auto *D) { return Assigns.count(D); })) {
      Assigns.insert(Now.begin(), Now.end());
      continue;
    }
    Out.Errors.insert(Out.Errors.end(), W.Out.Errors.begin(), W.Out.Errors.end());
    Called->define(Sig.CName, Text);
    Sig.Written = true;
    It->second = Sig;
    return W.Out.Errors.empty() ? &It->second : nullptr;
  }
  return nullptr;
}

std::string KernelWriter::writeRoutine(const Routine &R,
                                       const std::set<const semantics::Symbol *> &Assigns,
                                       Signature &Sig) {
  const auto &Details = R.Symbol->get<semantics::SubprogramDetails>();
  Where = R.Symbol->name();
  Sig.CName = R.CName;
  // Each argument's parameters, in the arguments' order.
  std::vector<std::string> Params(Details.dummyArgs().size()), Prologue;
  // Scalars first: array bounds name them.
  Sig.Parameters.resize(Details.dummyArgs().size());
  for (size_t I = 0; I < Details.dummyArgs().size(); ++I) {
    const semantics::Symbol *D = Details.dummyArgs()[I];
    if (!D) {
      error("alternate returns are not translated into kernels");
      continue;
    }
    const semantics::Symbol &S = D->GetUltimate();
    Parameter &P = Sig.Parameters[I];
    P.CType = routineType(S, "an argument");
    P.Rank = S.Rank();
    if (P.Rank)
      continue;
    P.How = RoutinePassing == Passing::ByAddress ? Parameter::Pass::Address : declaredPass(S);
    // In its own file's kernels, a scalar of unstated intent it never assigns is a value too.
    if (P.How == Parameter::Pass::Address && RoutinePassing == Passing::Analysed &&
        !semantics::IsIntentOut(S) && !semantics::IsIntentInOut(S) && !Assigns.count(&S))
      P.How = Parameter::Pass::Value;
    bool ByValue = P.How == Parameter::Pass::Value;
    P.Out = semantics::IsIntentOut(S);
    Params[I] = P.CType + (ByValue ? " " : " *") + cName(S);
    Named[&S] = ByValue ? cName(S) : "(*" + cName(S) + ")";
  }
  for (size_t I = 0; I < Details.dummyArgs().size(); ++I) {
    const semantics::Symbol *D = Details.dummyArgs()[I];
    if (!D || D->Rank() == 0)
      continue;
    const semantics::Symbol &S = D->GetUltimate();
    Parameter &P = Sig.Parameters[I];
    if (semantics::IsPointer(S) || semantics::IsAllocatable(S))
      error("'" + S.name().ToString() +
            "' is a pointer or allocatable argument of a routine: declare it with an "
            "explicit or assumed shape");
    P.How = declaredPass(S);
    bool Shaped = P.How == Parameter::Pass::ShapedArray;
    HostVariable V = routineArray(S, P.CType, Shaped ? "jacc_rn_" + cName(S) + "_" : "");
    // Flat: its rows' length is known as the routine runs, and CUDA C++ has no type for it.
    V.Flat = true;
    NamedArrays[&S] = V;
    Params[I] = P.CType + " *" + V.Name;
    if (Shaped)
      for (const std::string &Extent : V.Extent)
        Params[I] += ", long long " + Extent;
  }
  std::string Return = "void";
  if (Details.isFunction()) {
    const semantics::Symbol &Res = Details.result().GetUltimate();
    Return = routineType(Res, "the result");
    if (Res.Rank() > 0)
      error("'" + R.Symbol->name().ToString() +
            "' returns an array: a routine called in a kernel returns a scalar (make it a "
            "subroutine assigning an array argument)");
    Result = "jacc_result";
    Named[&Res] = Result;
    Prologue.push_back(Return + " " + Result + ";");
  }
  if (const semantics::Scope *Scope = R.Symbol->scope())
    for (const auto &[Name, Ref] : *Scope)
      local(*Ref, Prologue);
  std::string Body;
  block(Body, R.Body->v, "  ");
  Where = R.Symbol->name();
  if (!Result.empty())
    Body += "  return " + Result + ";\n";
  for (const semantics::Symbol *S : Captures)
    Params.push_back(captureParameters(*S));
  Sig.Captures = Captures;
  Sig.WrittenCaptures = WrittenCaptures;
  if (RoutinePassing != Passing::Analysed) {
    Sig.CName = externalName(R.Symbol->name().ToString(), Sig.Parameters, Return,
                             RoutinePassing == Passing::ByAddress);
    if (!Captures.empty()) // a caller in another file sees its interface alone
      error("'" + R.Symbol->name().ToString() + "' uses '" + Captures.front()->name().ToString() +
            "' of a module or host, which a kernel of another file cannot pass it: pass it as "
            "an argument, or put the routine in a module");
  }
  std::string Text = "#pragma acc routine seq\nstatic " + Return + " " + Sig.CName + "(" +
                     llvm::join(Params, ", ") + ") {\n";
  for (const std::string &L : Prologue)
    Text += "  " + L + "\n";
  return Text + Body + "}\n";
}

HostVariable KernelWriter::routineArray(const semantics::Symbol &S, const std::string &CType,
                                        const std::string &ShapedPrefix) {
  HostVariable V;
  V.Symbol = &S;
  V.Name = cName(S);
  V.CType = CType;
  V.Rank = S.Rank();
  const auto *Object = S.detailsIf<semantics::ObjectEntityDetails>();
  for (int D = 0; D < V.Rank; ++D) {
    const semantics::ShapeSpec *Spec =
        Object && D < static_cast<int>(Object->shape().size()) ? &Object->shape()[D] : nullptr;
    std::string Lower = "1";
    if (Spec && Spec->lbound().isExplicit())
      if (const auto &E = Spec->lbound().GetExplicit())
        Lower = bound(*E);
    V.Lower.push_back(Lower);
    if (!ShapedPrefix.empty()) {
      V.Extent.push_back(ShapedPrefix + std::to_string(D + 1));
      continue;
    }
    std::string Extent = "1"; // an assumed-size array's last: never read
    if (Spec && Spec->ubound().isExplicit())
      if (const auto &E = Spec->ubound().GetExplicit())
        Extent = Lower == "1"   ? bound(*E)
                 : Lower == "0" ? bound(*E) + " + 1"
                                : bound(*E) + " - " + Lower + " + 1";
    V.Extent.push_back(Extent);
  }
  Named[&S] = V.Name;
  NamedArrays[&S] = V;
  return V;
}

std::string KernelWriter::bound(const Expr<evaluate::SubscriptInteger> &E) {
  if (std::optional<int64_t> N = evaluate::ToInt64(E))
    return *N < 0 ? "(" + std::to_string(*N) + ")" : std::to_string(*N);
  return operand(subscript(E));
}

std::string KernelWriter::capture(const semantics::Symbol &S) {
  bool Array = S.Rank() > 0 && !semantics::IsPointer(S);
  // A scalar is passed by value: what the routine assigns would not reach the variable.
  if (Assigning && !Array)
    error("the routine assigns '" + S.name().ToString() +
          "', a variable of its module or host: pass it as an argument");
  if ((S.Rank() > 0 && !Array) || cType(S).empty() || !S.has<semantics::ObjectEntityDetails>()) {
    error("'" + S.name().ToString() +
          "' is neither an argument nor a local variable of the routine, nor a scalar or "
          "non-pointer array of an intrinsic type of its module or host: pass it as an argument");
    return cName(S);
  }
  std::string Name = "jacc_use_" + cName(S);
  Named[&S] = Name;
  Captures.push_back(&S);
  if (Array) {
    // Its bounds are the caller's (an allocatable's are known only as the program runs).
    HostVariable V;
    V.Symbol = &S;
    V.Name = Name;
    V.CType = cType(S);
    V.Rank = S.Rank();
    V.Flat = true;
    for (int D = 1; D <= V.Rank; ++D) {
      V.Lower.push_back(Name + "_l" + std::to_string(D));
      V.Extent.push_back(Name + "_n" + std::to_string(D));
    }
    NamedArrays[&S] = V;
    if (Assigning)
      WrittenCaptures.insert(&S);
  }
  return Name;
}

std::string KernelWriter::captureParameters(const semantics::Symbol &S) {
  auto Array = NamedArrays.find(&S);
  if (Array == NamedArrays.end())
    return cType(S) + " " + Named[&S];
  const HostVariable &V = Array->second;
  // const when the routine (and what it calls) only reads it: the kernel's analysis then knows
  // the call writes nothing through it.
  std::string Text = (WrittenCaptures.count(&S) ? "" : "const ") + V.CType + " *" + V.Name;
  for (int D = 0; D < V.Rank; ++D)
    Text += ", long long " + V.Lower[D] + ", long long " + V.Extent[D];
  return Text;
}

std::string KernelWriter::capturedValues(const semantics::Symbol &S) {
  std::string Name = variable(S);
  if (S.Rank() == 0)
    return Name;
  std::optional<HostVariable> V = find(S);
  if (!V)
    return "0";
  std::string Text = "&" + indexed(Name, *V, std::vector<std::string>(V->Rank, "0"));
  for (int D = 0; D < V->Rank; ++D)
    Text += ", (long long)(" + V->Lower[D] + "), (long long)(" + V->Extent[D] + ")";
  return Text;
}

std::string KernelWriter::routineType(const semantics::Symbol &S, const char *What) {
  std::string T = cType(S);
  if (const semantics::DerivedTypeSpec *Type = T.empty() ? derivedType(S) : nullptr) {
    auto Structs = structsOf(*Type);
    if (!Structs) {
      error("'" + S.name().ToString() + "', " + What +
            " of a routine: " + llvm::toString(Structs.takeError()));
      return "int";
    }
    // Defined before the routine, which is defined when written.
    for (const CStruct &Struct : *Structs)
      Called->define(Struct.Name, Struct.Definition);
    return Structs->back().Name;
  }
  if (T.empty())
    error("'" + S.name().ToString() + "', " + What +
          " of a routine, is not an integer, logical, real or complex of kind 1 to 8, or a "
          "derived type of them (character variables are not translated yet)");
  return T.empty() ? std::string("int") : T;
}

void KernelWriter::local(const semantics::Symbol &Symbol, std::vector<std::string> &Prologue) {
  const semantics::Symbol &S = Symbol.GetUltimate();
  if (&S != &Symbol || !S.has<semantics::ObjectEntityDetails>() || semantics::IsDummy(S) ||
      Named.count(&S) || semantics::IsNamedConstant(S))
    return;
  if (semantics::IsSaved(S))
    error("'" + S.name().ToString() +
          "' is saved (SAVE, or initialized in its declaration): a routine's locals are each "
          "call's own; assign its first value instead");
  std::string T = routineType(S, "a local variable");
  if (const semantics::DerivedTypeSpec *Type = derivedType(S))
    if (Type->HasDefaultInitialization())
      error("'" + S.name().ToString() +
            "' is a local of a type with initialized components: a routine's locals start "
            "undefined in a kernel; assign its components");
  if (S.Rank() == 0) {
    Prologue.push_back(T + " " + cName(S) + ";");
    Named[&S] = cName(S);
    Own.insert(&S);
    return;
  }
  HostVariable V = routineArray(S, T, "");
  const auto &Shape = S.get<semantics::ObjectEntityDetails>().shape();
  std::string Dims;
  for (int D = V.Rank - 1; D >= 0; --D) {
    std::optional<int64_t> Lower, Upper;
    if (D < static_cast<int>(Shape.size()) && Shape[D].lbound().GetExplicit() &&
        Shape[D].ubound().GetExplicit()) {
      Lower = evaluate::ToInt64(*Shape[D].lbound().GetExplicit());
      Upper = evaluate::ToInt64(*Shape[D].ubound().GetExplicit());
    }
    if (!Lower || !Upper) {
      error("'" + S.name().ToString() +
            "' is a local array of a routine whose shape is not constant: give it constant "
            "bounds or make it an argument");
      return;
    }
    V.Lower[D] = std::to_string(*Lower);
    V.Extent[D] = std::to_string(std::max<int64_t>(*Upper - *Lower + 1, 0));
    Dims += "[" + V.Extent[D] + "]";
  }
  NamedArrays[&S] = V;
  Prologue.push_back(T + " " + V.Name + Dims + ";");
}

} // namespace jacc::translate::fortran
