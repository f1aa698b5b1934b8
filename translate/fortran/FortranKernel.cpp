// Fortran statements and expressions, typed by flang's semantics, printed as the C of a jacc
// kernel: a(i,j) of a(l1:u1,l2:u2) is a[j - l2][i - l1] of a `T (*a)[n1]`, DO loops are for
// loops, intrinsics are <math.h> calls, and every host variable the text names is recorded.
#include "translate/fortran/FortranKernel.h"

#include "translate/fortran/FortranRoutines.h"
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

using namespace Fortran;
using common::TypeCategory;
using evaluate::Expr;
using evaluate::SomeType;

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

/// The array a designator names whole or by a section or element of a plain name.
static const parser::Name *sectionBase(const parser::Designator &D) {
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

/// The C type of Fortran's intrinsic type Category(Kind); empty if none.
static std::string cTypeOf(TypeCategory Category, int Kind) {
  switch (Category) {
  case TypeCategory::Real:
    return Kind == 4 ? "float" : Kind == 8 ? "double" : "";
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

llvm::Expected<HostVariable> hostVariable(const semantics::Symbol &Symbol) {
  const semantics::Symbol &S = Symbol.GetUltimate();
  HostVariable V;
  V.Symbol = &S;
  V.Name = cName(S);
  V.CType = cType(S);
  std::string Name = S.name().ToString();
  if (V.CType.empty())
    return makeError(ErrorCode::Unsupported,
                     "'" + Name +
                         "': jacc's kernels take integer, logical and real variables of "
                         "kinds 1 to 8 (complex, character and derived types are not translated "
                         "yet)");
  V.Rank = S.Rank();
  if (V.Rank == 0)
    return V;
  if (semantics::IsAssumedSizeArray(S))
    return makeError(ErrorCode::Unsupported,
                     "'" + Name +
                         "' is an assumed-size array: jacc needs its extent; declare "
                         "it with an explicit shape, as " +
                         Name + "(n), or assumed shape, " + Name + "(:)");
  if (semantics::IsPointer(S))
    return makeError(ErrorCode::Unsupported,
                     "'" + Name +
                         "' is a pointer array, which may not be contiguous: use an "
                         "allocatable or a dummy array");
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

/// C text as an operand of any operator: a name or number as it is, else in parentheses
/// (unless one pair already holds it all).
static std::string operand(const std::string &Text) {
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

namespace {

/// The printer of one kernel: expressions and statements to C, recording host variables.
class KernelWriter {
public:
  KernelWriter(const FortranSource &Source) : Source(Source) {}

  FortranKernel Out;
  /// The indices of the loops around (each declared by its for), and the variables of private
  /// and reduction clauses.
  std::set<const semantics::Symbol *> Own, Private, Reductions;
  /// Scalars assigned inside a loop (private to it) and outside any or by an atomic construct
  /// (written through a pointer: the devices share them).
  std::set<const semantics::Symbol *> InLoop, OutsideLoops, Refs;
  /// Scalars assigned so far, and those read before any assignment (in the text's order).
  std::set<const semantics::Symbol *> Assigned, ReadFirst;
  bool Assigning = false; ///< printing an assignment's left side
  int LoopDepth = 0;
  /// An array of a private (First: firstprivate) clause, copied per loop body.
  struct Copy {
    const semantics::Symbol *Symbol;
    bool First;
  };
  /// The arrays of the private clauses read last (clauses()), and its collapse count.
  std::vector<Copy> ClauseCopies;
  int64_t Collapse = 1;
  /// Copies the next loop body declares, PendingLevels loops further in (a collapsed nest's
  /// innermost body); a parallel construct's, which each of its top-level loops declares.
  std::vector<Copy> Pending, ConstructCopies;
  int PendingLevels = 0;
  /// The private arrays whose copy the text being printed is inside.
  std::set<const semantics::Symbol *> InScope;
  /// Inside an array assignment: its rank, the number of its loop counters jacc_e1 ... (the
  /// first dimension's innermost); 0 elsewhere.
  int ElementalRank = 0;
  /// A top-level array assignment of this construct is a loop its devices share.
  bool SharesArrayAssignments = false;
  int Cases = 0; ///< SELECT CASE constructs printed (each selector's variable is numbered)
  parser::CharBlock Where; ///< the statement being printed, for errors

  /// How a routine takes one argument: a scalar by value (intent(in), value, or never
  /// assigned) or by address, an array by the address of its first element (with its extents
  /// after it when assumed-shape).
  struct Parameter {
    enum class Pass { Value, Address, Array, ShapedArray } How = Pass::Value;
    std::string CType;
    int Rank = 0;
    bool Out = false; ///< intent(out): the call does not read the actual
  };
  struct Signature {
    std::string CName;
    std::vector<Parameter> Parameters;
    bool Written = false; ///< false while its definition is being written (a recursion)
  };
  /// The file's routines and those a kernel carries (shared with the writers of the routines
  /// it calls): their definitions, each after those it calls, and their signatures.
  struct CalledRoutines {
    const RoutineIndex &Index;
    std::string Text;
    std::map<const Routine *, Signature> Signatures;
  };
  CalledRoutines *Called = nullptr;
  /// Writing a routine: its arguments', locals' and result's C text (a scalar taken by address
  /// is `(*x)`), and the bounds of its arrays.
  bool InRoutine = false;
  std::map<const semantics::Symbol *, std::string> Named;
  std::map<const semantics::Symbol *, HostVariable> NamedArrays;
  std::string Result;

  void error(const std::string &Message) {
    std::string Line = Source.where(Where) + ": error: " + Message;
    if (!llvm::is_contained(Out.Errors, Line)) // a name used twice in one statement
      Out.Errors.push_back(Line);
  }

  /// A host variable's C name, recorded on first use.
  std::string variable(const semantics::Symbol &Symbol) {
    const semantics::Symbol &S = Symbol.GetUltimate();
    if (auto It = Named.find(&S); It != Named.end())
      return It->second;
    if (Own.count(&S))
      return cName(S);
    if (InRoutine) {
      error("'" + S.name().ToString() +
            "' is neither an argument nor a local variable of the routine: pass it as an "
            "argument");
      return cName(S);
    }
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
    Out.Variables.push_back(*V);
    return V->Ref ? "jacc_ref_" + V->Name + "[0]" : V->Name;
  }

  /// Records the array S of a private (First: firstprivate) clause; false if S is a scalar.
  bool privateArray(const semantics::Symbol &Symbol, bool First) {
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
    Out.Variables.push_back(*V);
    return true;
  }
  /// The copies Here (taken from Pending when the loop at this level declares them) opening a
  /// loop body at Indent.
  std::vector<Copy> openCopies(std::string &Text, const std::string &Indent, bool Innermost) {
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
  void closeCopies(const std::vector<Copy> &Here) {
    for (const Copy &C : Here)
      InScope.erase(C.Symbol);
  }

  /// The host variable Symbol names, if recorded: a copy, as recording another (any printing of
  /// an expression may) moves the records.
  std::optional<HostVariable> find(const semantics::Symbol &Symbol) {
    if (auto It = NamedArrays.find(&Symbol.GetUltimate()); It != NamedArrays.end())
      return It->second;
    for (const HostVariable &V : Out.Variables)
      if (V.Symbol == &Symbol.GetUltimate())
        return V;
    return std::nullopt;
  }

  // ---- expressions ----
  template <typename A> std::string expr(const A &) {
    error("this expression is not translated into a kernel yet");
    return "0";
  }
  template <typename T> std::string expr(const Expr<T> &E) {
    return std::visit([&](const auto &X) { return expr(X); }, E.u);
  }
  template <typename T> std::string expr(const common::Indirection<T> &X) {
    return expr(X.value());
  }
  template <typename T> std::string expr(const evaluate::Parentheses<T> &X) {
    return "(" + expr(X.left()) + ")";
  }
  template <typename T> std::string expr(const evaluate::Negate<T> &X) {
    return "(-" + expr(X.left()) + ")";
  }
  template <typename T> std::string expr(const evaluate::Add<T> &X) { return binary(X, " + "); }
  template <typename T> std::string expr(const evaluate::Subtract<T> &X) {
    return binary(X, " - ");
  }
  template <typename T> std::string expr(const evaluate::Multiply<T> &X) {
    return binary(X, " * ");
  }
  template <typename T> std::string expr(const evaluate::Divide<T> &X) { return binary(X, " / "); }
  template <typename X> std::string binary(const X &Op, const char *C) {
    return "(" + expr(Op.left()) + C + expr(Op.right()) + ")";
  }
  template <typename T> std::string expr(const evaluate::Power<T> &X) {
    if constexpr (T::category == TypeCategory::Integer)
      return integerPower(expr(X.left()), evaluate::ToInt64(X.right()));
    return std::string(T::kind == 4 ? "powf(" : "pow(") + expr(X.left()) + ", " + expr(X.right()) +
           ")";
  }
  template <typename T> std::string expr(const evaluate::RealToIntPower<T> &X) {
    std::optional<int64_t> N =
        std::visit([](const auto &E) { return evaluate::ToInt64(E); }, X.right().u);
    if (N && *N >= 0 && *N <= 4)
      return integerPower(expr(X.left()), N);
    return std::string(T::kind == 4 ? "powf(" : "pow(") + expr(X.left()) + ", " + expr(X.right()) +
           ")";
  }
  /// B**N as products for small constant N (as compilers expand them).
  std::string integerPower(const std::string &B, std::optional<int64_t> N) {
    if (!N || *N < 0 || *N > 4) {
      error("an integer power with an exponent that is not a constant 0..4 is not translated "
            "into a kernel yet");
      return B;
    }
    if (*N == 0)
      return "1";
    std::string P = "(" + B;
    for (int64_t I = 1; I < *N; ++I)
      P += " * " + B;
    return P + ")";
  }
  template <typename T> std::string expr(const evaluate::Extremum<T> &X) {
    std::string L = expr(X.left()), R = expr(X.right());
    if constexpr (T::category == TypeCategory::Real)
      return std::string(X.ordering == evaluate::Ordering::Greater ? "fmax" : "fmin") +
             (T::kind == 4 ? "f(" : "(") + L + ", " + R + ")";
    const char *Op = X.ordering == evaluate::Ordering::Greater ? " > " : " < ";
    return "(" + L + Op + R + " ? " + L + " : " + R + ")";
  }
  template <typename TO, TypeCategory FROM> std::string expr(const evaluate::Convert<TO, FROM> &X) {
    std::string Type = cTypeOf(TO::category, TO::kind);
    if (Type.empty()) {
      error("a conversion to this type is not translated into a kernel yet");
      return "0";
    }
    return "((" + Type + ")" + expr(X.left()) + ")";
  }
  template <int K> std::string expr(const evaluate::Not<K> &X) {
    return "(!" + expr(X.left()) + ")";
  }
  template <int K> std::string expr(const evaluate::LogicalOperation<K> &X) {
    using common::LogicalOperator;
    const char *Op = X.logicalOperator == LogicalOperator::And   ? " && "
                     : X.logicalOperator == LogicalOperator::Or  ? " || "
                     : X.logicalOperator == LogicalOperator::Eqv ? " == "
                                                                 : " != ";
    return "(" + truth(expr(X.left())) + Op + truth(expr(X.right())) + ")";
  }
  static std::string truth(const std::string &E) { return "(" + E + " != 0)"; }
  template <typename T> std::string expr(const evaluate::Relational<T> &X) {
    using common::RelationalOperator;
    static const std::map<RelationalOperator, const char *> Ops = {
        {RelationalOperator::LT, " < "},  {RelationalOperator::LE, " <= "},
        {RelationalOperator::EQ, " == "}, {RelationalOperator::NE, " != "},
        {RelationalOperator::GE, " >= "}, {RelationalOperator::GT, " > "}};
    return "(" + expr(X.left()) + Ops.at(X.opr) + expr(X.right()) + ")";
  }
  std::string expr(const evaluate::Relational<SomeType> &X) {
    return std::visit([&](const auto &R) { return expr(R); }, X.u);
  }
  template <typename T> std::string expr(const evaluate::Constant<T> &X) {
    if constexpr (T::category == TypeCategory::Integer || T::category == TypeCategory::Real ||
                  T::category == TypeCategory::Logical) {
      if (X.Rank() != 0) {
        error("an array constant is not translated into a kernel yet");
        return "0";
      }
      auto Value = X.GetScalarValue();
      if constexpr (T::category == TypeCategory::Integer) {
        std::string Text = std::to_string(Value->ToInt64());
        return T::kind == 8 ? Text + "LL" : Text;
      } else if constexpr (T::category == TypeCategory::Logical) {
        return Value->IsTrue() ? "1" : "0";
      } else {
        // Fortran's own spelling ("1.5e-3_8"), without the kind suffix: C reads it.
        std::string Text;
        llvm::raw_string_ostream OS(Text);
        X.AsFortran(OS);
        OS.flush();
        size_t Kind = Text.rfind('_');
        if (Kind != std::string::npos)
          Text.resize(Kind);
        if (Text.find_first_of(".eE") == std::string::npos)
          Text += ".";
        return "(" + Text + (T::kind == 4 ? "f" : "") + ")";
      }
    } else {
      error("a constant of this type is not translated into a kernel yet");
      return "0";
    }
  }
  template <typename T> std::string expr(const evaluate::Designator<T> &X) {
    return std::visit(
        common::visitors{[&](const semantics::SymbolRef &S) {
                           return ElementalRank && S->Rank() > 0 ? wholeElement(*S) : variable(*S);
                         },
                         [&](const evaluate::ArrayRef &A) { return arrayElement(A); },
                         [&](const auto &) {
                           error("derived-type components, substrings and coarrays are not "
                                 "translated into kernels yet");
                           return std::string("0");
                         }},
        X.u);
  }
  std::string arrayElement(const evaluate::ArrayRef &A) {
    const semantics::SymbolRef *Ref = A.base().UnwrapSymbolRef();
    const semantics::Symbol *S = Ref ? &**Ref : nullptr;
    if (!S) {
      error("arrays in derived types are not translated into kernels yet");
      return "0";
    }
    std::string Name = variable(*S);
    std::optional<HostVariable> V = find(*S);
    if (!V)
      return Name;
    std::vector<std::string> Subs;
    int Section = 0; // the array assignment's counter the next triplet takes
    for (size_t D = 0; D < A.subscript().size(); ++D) {
      std::string Lower = D < V->Lower.size() ? V->Lower[D] : "1";
      const auto &Sub = A.subscript()[D].u;
      const auto *Index = std::get_if<evaluate::IndirectSubscriptIntegerExpr>(&Sub);
      const auto *Range = std::get_if<evaluate::Triplet>(&Sub);
      if ((Index && Index->value().Rank() > 0) || (Range && !ElementalRank) || (!Index && !Range)) {
        error(Range ? "array sections are translated in array assignments only: write the loop"
                    : "vector subscripts are not translated into kernels yet: write the loop");
        return Name;
      }
      if (Index) {
        std::string S = subscript(Index->value());
        Subs.push_back(Lower == "0" ? S : S + " - " + Lower);
        continue;
      }
      // l:u:s at counter k is element l + k * s.
      std::string Step = "jacc_e" + std::to_string(++Section);
      if (std::optional<int64_t> Stride = evaluate::ToInt64(Range->stride()); Stride != 1)
        Step += " * (" + subscript(Range->stride()) + ")";
      std::string From = Range->GetLower() ? subscript(*Range->GetLower()) : Lower;
      Subs.push_back(
          From == Lower ? Step : "(" + From + ") + " + Step + (Lower == "0" ? "" : " - " + Lower));
    }
    return indexed(Name, *V, Subs);
  }
  /// Name, the C text of V, at Subs (each dimension's offset from its lower bound, the first
  /// dimension's first). Column-major: the last selects the outermost C row; a flat array
  /// takes the one offset they make.
  static std::string indexed(std::string Name, const HostVariable &V,
                             const std::vector<std::string> &Subs) {
    if (V.Flat && Subs.size() > 1) {
      std::string Offset = Subs.back();
      for (size_t D = Subs.size() - 1; D-- > 0;)
        Offset = Subs[D] + " + " + operand(V.Extent[D]) + " * (" + Offset + ")";
      return Name + "[" + Offset + "]";
    }
    for (size_t D = Subs.size(); D-- > 0;)
      Name += "[" + Subs[D] + "]";
    return Name;
  }
  /// A whole array in an array assignment: its element at the assignment's counters.
  std::string wholeElement(const semantics::Symbol &S) {
    std::string Text = variable(S);
    if (S.Rank() != ElementalRank)
      error("'" + S.name().ToString() + "' has another rank than the array it is assigned to");
    std::vector<std::string> Subs;
    for (int D = 1; D <= S.Rank(); ++D)
      Subs.push_back("jacc_e" + std::to_string(D));
    std::optional<HostVariable> V = find(S);
    return V ? indexed(Text, *V, Subs) : Text;
  }
  /// The extents of an array assignment's left side, one per dimension of its rank (C text);
  /// empty when it is no array or section of a plain name.
  std::vector<std::string> assignedExtents(const evaluate::Expr<evaluate::SomeType> &Lhs) {
    std::optional<evaluate::DataRef> Ref = evaluate::ExtractDataRef(Lhs);
    const semantics::SymbolRef *Whole = Ref ? std::get_if<semantics::SymbolRef>(&Ref->u) : nullptr;
    const evaluate::ArrayRef *Part = Ref ? std::get_if<evaluate::ArrayRef>(&Ref->u) : nullptr;
    const semantics::SymbolRef *Base = Whole  ? Whole
                                       : Part ? Part->base().UnwrapSymbolRef()
                                              : nullptr;
    if (!Base)
      return {};
    variable(**Base);
    std::optional<HostVariable> V = find(**Base);
    if (!V)
      return {};
    if (Whole)
      return V->Extent;
    std::vector<std::string> Extents;
    for (size_t D = 0; D < Part->subscript().size(); ++D) {
      const auto *Range = std::get_if<evaluate::Triplet>(&Part->subscript()[D].u);
      if (!Range)
        continue;
      std::optional<int64_t> Stride = evaluate::ToInt64(Range->stride());
      if (!Range->GetLower() && !Range->GetUpper() && Stride == 1) {
        Extents.push_back(V->Extent[D]);
        continue;
      }
      std::string From = Range->GetLower() ? subscript(*Range->GetLower()) : V->Lower[D];
      std::string To = Range->GetUpper() ? subscript(*Range->GetUpper())
                                         : V->Lower[D] + " + " + V->Extent[D] + " - 1";
      std::string Count = "(" + To + ") - (" + From + ")";
      Extents.push_back(Stride == 1 ? Count + " + 1"
                                    : "(" + Count + " + (" + subscript(Range->stride()) + ")) / (" +
                                          subscript(Range->stride()) + ")");
    }
    return Extents;
  }
  /// A subscript, without the conversion to a kind 8 integer Fortran's semantics adds (C
  /// converts the index itself).
  std::string subscript(const Expr<evaluate::SubscriptInteger> &E) {
    using Widened = evaluate::Convert<evaluate::SubscriptInteger, TypeCategory::Integer>;
    if (const auto *C = std::get_if<Widened>(&E.u))
      return expr(C->left());
    return expr(E);
  }

  template <typename T> std::string expr(const evaluate::FunctionRef<T> &X) {
    if constexpr (std::is_same_v<T, evaluate::SomeDerived>) {
      error("functions of derived type are not translated into kernels yet");
      return "0";
    } else {
      const evaluate::SpecificIntrinsic *Intrinsic = X.proc().GetSpecificIntrinsic();
      // The openacc module's acc_on_device: the kernel language's own (a logical: 0 or 1).
      const semantics::Symbol *Proc = X.proc().GetSymbol();
      if (!Intrinsic && Proc && Proc->GetUltimate().name().ToString() == "acc_on_device" &&
          Proc->GetUltimate().owner().IsModule() && Proc->GetUltimate().owner().symbol() &&
          Proc->GetUltimate().owner().symbol()->name().ToString() == "openacc" &&
          X.arguments().size() == 1 && X.arguments()[0] && X.arguments()[0]->UnwrapExpr())
        return "(acc_on_device((int)" + expr(*X.arguments()[0]->UnwrapExpr()) + ") != 0)";
      if (!Intrinsic)
        return call(X);
      std::vector<std::string> Args;
      for (const auto &Arg : X.arguments())
        if (Arg)
          if (const Expr<SomeType> *E = Arg->UnwrapExpr())
            Args.push_back(expr(*E));
      return intrinsic(Intrinsic->name, Args, T::category, T::kind);
    }
  }
  std::string intrinsic(const std::string &Name, const std::vector<std::string> &Args,
                        TypeCategory Category, int Kind) {
    static const std::set<std::string> Math = {"sqrt", "exp",   "log",   "log10",  "sin",  "cos",
                                               "tan",  "asin",  "acos",  "atan",   "sinh", "cosh",
                                               "tanh", "atan2", "floor", "ceiling"};
    bool Real = Category == TypeCategory::Real;
    auto Call = [&](std::string C) {
      if (Real && Kind == 4)
        C += "f";
      std::string Text = C + "(";
      for (size_t I = 0; I < Args.size(); ++I)
        Text += (I ? ", " : "") + Args[I];
      return Text + ")";
    };
    if (Math.count(Name) && Real)
      return Call(Name == "ceiling" ? "ceil" : Name);
    if (Name == "abs" && Args.size() == 1)
      return Real ? Call("fabs") : "(" + Args[0] + " < 0 ? -" + Args[0] + " : " + Args[0] + ")";
    if (Name == "mod" && Args.size() == 2)
      return Real ? Call("fmod") : "(" + Args[0] + " % " + Args[1] + ")";
    if (Name == "sign" && Args.size() == 2)
      return Real ? Call("copysign")
                  : "(" + Args[1] + " >= 0 ? (" + Args[0] + " < 0 ? -" + Args[0] + " : " + Args[0] +
                        ") : (" + Args[0] + " < 0 ? " + Args[0] + " : -" + Args[0] + "))";
    if ((Name == "floor" || Name == "ceiling") && Category == TypeCategory::Integer)
      return "((" + cTypeOf(Category, Kind) + ")" + (Name == "floor" ? "floor(" : "ceil(") +
             Args[0] + "))";
    static const std::map<std::string, const char *> Bits = {
        {"iand", " & "}, {"ior", " | "}, {"ieor", " ^ "}};
    if (Bits.count(Name) && Args.size() == 2)
      return "(" + Args[0] + Bits.at(Name) + Args[1] + ")";
    if (Name == "nint" && Category == TypeCategory::Integer)
      return "((" + cTypeOf(Category, Kind) + ")lround(" + Args[0] + "))";
    if ((Name == "max" || Name == "min") && !Args.empty()) {
      std::string Text = Args[0];
      for (size_t I = 1; I < Args.size(); ++I)
        Text = Real ? std::string(Name == "max" ? "fmax" : "fmin") + (Kind == 4 ? "f(" : "(") +
                          Text + ", " + Args[I] + ")"
                    : "(" + Text + (Name == "max" ? " > " : " < ") + Args[I] + " ? " + Text +
                          " : " + Args[I] + ")";
      return Text;
    }
    error("the intrinsic '" + Name + "' is not translated into a kernel yet");
    return "0";
  }

  std::string expr(const parser::Expr &E) {
    if (!E.typedExpr || !E.typedExpr->v) {
      error("an expression flang could not type");
      return "0";
    }
    return expr(*E.typedExpr->v);
  }

  // ---- statements ----
  void line(std::string &Text, const std::string &Indent, const std::string &Code) {
    Text += Indent + Code + "\n";
  }

  void block(std::string &Text, const parser::Block &Body, const std::string &Indent) {
    for (const parser::ExecutionPartConstruct &C : Body)
      construct(Text, C, Indent);
  }

  void construct(std::string &Text, const parser::ExecutionPartConstruct &C,
                 const std::string &Indent) {
    const auto *E = std::get_if<parser::ExecutableConstruct>(&C.u);
    if (!E) {
      error("only executable statements are translated inside a compute construct");
      return;
    }
    std::visit(
        common::visitors{[&](const parser::Statement<parser::ActionStmt> &S) {
                           Where = S.source;
                           action(Text, S.statement, Indent);
                         },
                         [&](const common::Indirection<parser::DoConstruct> &D) {
                           doLoop(Text, D.value(), "", Indent);
                         },
                         [&](const common::Indirection<parser::IfConstruct> &If) {
                           ifConstruct(Text, If.value(), Indent);
                         },
                         [&](const common::Indirection<parser::OpenACCConstruct> &Acc) {
                           accLoop(Text, Acc.value(), Indent);
                         },
                         [&](const common::Indirection<parser::CaseConstruct> &Case) {
                           caseConstruct(Text, Case.value(), Indent);
                         },
                         [&](const common::Indirection<parser::BlockConstruct> &B) {
                           blockConstruct(Text, B.value(), Indent);
                         },
                         [&](const auto &) {
                           error("this construct is not translated inside a compute construct yet");
                         }},
        E->u);
  }

  void action(std::string &Text, const parser::ActionStmt &A, const std::string &Indent) {
    std::visit(
        common::visitors{
            [&](const common::Indirection<parser::AssignmentStmt> &S) {
              assignment(Text, S.value(), Indent);
            },
            [&](const parser::ContinueStmt &) {},
            [&](const common::Indirection<parser::CallStmt> &S) {
              if (!S.value().typedCall.get()) {
                error("a call flang could not resolve");
                return;
              }
              line(Text, Indent, call(*S.value().typedCall) + ";");
            },
            [&](const common::Indirection<parser::ReturnStmt> &S) {
              if (!InRoutine || S.value().v)
                error("RETURN inside a compute construct: only a routine returns");
              line(Text, Indent, Result.empty() ? "return;" : "return " + Result + ";");
            },
            [&](const common::Indirection<parser::CycleStmt> &S) {
              if (S.value().v)
                error("CYCLE with a construct name is not translated yet");
              line(Text, Indent, "continue;");
            },
            [&](const common::Indirection<parser::ExitStmt> &S) {
              if (S.value().v)
                error("EXIT with a construct name is not translated yet");
              line(Text, Indent, "break;");
            },
            [&](const common::Indirection<parser::IfStmt> &S) {
              const auto &Cond = std::get<parser::ScalarLogicalExpr>(S.value().t);
              line(Text, Indent, "if (" + expr(Cond.thing.thing.value()) + ") {");
              action(
                  Text,
                  std::get<parser::UnlabeledStatement<parser::ActionStmt>>(S.value().t).statement,
                  Indent + "  ");
              line(Text, Indent, "}");
            },
            [&](const auto &) {
              error("this statement is not translated inside a compute construct yet");
            }},
        A.u);
  }

  void assignment(std::string &Text, const parser::AssignmentStmt &S, const std::string &I) {
    if (!S.typedAssignment || !S.typedAssignment->v) {
      error("an assignment flang could not type");
      return;
    }
    const evaluate::Assignment &A = *S.typedAssignment->v;
    if (A.lhs.Rank() != 0) {
      arrayAssignment(Text, A, I);
      return;
    }
    std::string Rhs = expr(A.rhs); // its reads come first
    if (const semantics::Symbol *Base = evaluate::UnwrapWholeSymbolDataRef(A.lhs))
      if (!Own.count(&Base->GetUltimate())) {
        (LoopDepth > 0 ? InLoop : OutsideLoops).insert(&Base->GetUltimate());
        Assigned.insert(&Base->GetUltimate());
      }
    Assigning = true;
    std::string Lhs = expr(A.lhs);
    Assigning = false;
    line(Text, I, Lhs + " = " + Rhs + ";");
  }

  /// `a(l:u, j) = e`: a nest of loops over the left side's elements, the first dimension's
  /// innermost, each array of e indexed alike; at a construct's top level a loop its devices
  /// share (`loop independent`, as compilers parallelise array syntax in kernels).
  void arrayAssignment(std::string &Text, const evaluate::Assignment &A, const std::string &I) {
    int Rank = A.lhs.Rank();
    std::vector<std::string> Extents = assignedExtents(A.lhs);
    if (static_cast<int>(Extents.size()) != Rank) {
      error("this array assignment's left side is not translated into kernels yet (an array "
            "or a section of one): write the DO loop");
      return;
    }
    ElementalRank = Rank;
    std::string Rhs = expr(A.rhs);
    Assigning = true;
    std::string Lhs = expr(A.lhs);
    Assigning = false;
    ElementalRank = 0;
    // Fortran evaluates the right side before it assigns: a read of the assigned array at
    // other elements (a(2:n) = a(1:n-1)) would see elements the loop already wrote.
    std::string Name = Lhs.substr(0, Lhs.find('['));
    for (size_t At = Rhs.find(Name + "["); At != std::string::npos;
         At = Rhs.find(Name + "[", At + 1)) {
      bool Whole =
          At == 0 || !(std::isalnum(static_cast<unsigned char>(Rhs[At - 1])) || Rhs[At - 1] == '_');
      if (Whole && Rhs.compare(At, Lhs.size(), Lhs) != 0) {
        error("this array assignment reads the array it assigns at other elements: write the "
              "DO loop (with a temporary where the elements overlap)");
        return;
      }
    }
    std::string Indent = I;
    if (LoopDepth == 0 && SharesArrayAssignments)
      line(Text, Indent,
           "#pragma acc loop independent" +
               (Rank > 1 ? " collapse(" + std::to_string(Rank) + ")" : std::string()));
    for (int D = Rank; D >= 1; --D) {
      std::string K = "jacc_e" + std::to_string(D);
      line(Text, Indent,
           "for (long long " + K + " = 0; " + K + " < " + Extents[D - 1] + "; " + K + "++) {");
      Indent += "  ";
    }
    line(Text, Indent, Lhs + " = " + Rhs + ";");
    for (int D = Rank; D >= 1; --D) {
      Indent.resize(Indent.size() - 2);
      line(Text, Indent, "}");
    }
  }

  /// SELECT CASE as an if chain on the selector's value, evaluated once (`jacc_caseN`): each
  /// CASE's values and ranges (`lo:`, `:hi`, `lo:hi`), then CASE DEFAULT.
  void caseConstruct(std::string &Text, const parser::CaseConstruct &C, const std::string &I) {
    const auto &Select = std::get<parser::Statement<parser::SelectCaseStmt>>(C.t);
    Where = Select.source;
    const parser::Expr &E = std::get<parser::Scalar<parser::Expr>>(Select.statement.t).thing;
    std::optional<evaluate::DynamicType> Type =
        E.typedExpr && E.typedExpr->v ? E.typedExpr->v->GetType() : std::nullopt;
    if (!Type ||
        (Type->category() != TypeCategory::Integer && Type->category() != TypeCategory::Logical)) {
      error("SELECT CASE on a character selector is not translated into kernels yet");
      return;
    }
    std::string Value = "jacc_case" + std::to_string(Cases++);
    line(Text, I, "{");
    line(Text, I + "  ", "const long long " + Value + " = " + expr(E) + ";");
    std::string Chain;
    const parser::Block *Default = nullptr;
    for (const parser::CaseConstruct::Case &Case :
         std::get<std::list<parser::CaseConstruct::Case>>(C.t)) {
      const auto &Stmt = std::get<parser::Statement<parser::CaseStmt>>(Case.t);
      Where = Stmt.source;
      const auto &Selector = std::get<parser::CaseSelector>(Stmt.statement.t);
      const auto *Ranges = std::get_if<std::list<parser::CaseValueRange>>(&Selector.u);
      if (!Ranges) {
        Default = &std::get<parser::Block>(Case.t);
        continue;
      }
      auto Bound = [&](const parser::CaseValue &V) {
        return "(" + expr(V.thing.thing.value()) + ")";
      };
      std::string Cond;
      for (const parser::CaseValueRange &R : *Ranges) {
        std::string One;
        if (const auto *V = std::get_if<parser::CaseValue>(&R.u)) {
          One = Value + " == " + Bound(*V);
        } else {
          const auto &Range = std::get<parser::CaseValueRange::Range>(R.u);
          if (Range.lower)
            One = Value + " >= " + Bound(*Range.lower);
          if (Range.upper)
            One += (One.empty() ? "" : " && ") + Value + " <= " + Bound(*Range.upper);
        }
        Cond += (Cond.empty() ? "(" : " || (") + One + ")";
      }
      line(Text, I + "  ", (Chain.empty() ? "if (" : "} else if (") + Cond + ") {");
      Chain = "}";
      block(Text, std::get<parser::Block>(Case.t), I + "    ");
    }
    if (Default) {
      line(Text, I + "  ", Chain.empty() ? "{" : "} else {");
      Chain = "}";
      block(Text, *Default, I + "    ");
    }
    if (!Chain.empty())
      line(Text, I + "  ", Chain);
    line(Text, I, "}");
  }

  /// A BLOCK construct without declarations: its statements, in place (a parallel construct's
  /// loops inside it stay top-level loops).
  void blockConstruct(std::string &Text, const parser::BlockConstruct &B, const std::string &I) {
    const parser::SpecificationPart &Spec = std::get<parser::BlockSpecificationPart>(B.t).v;
    Where = std::get<parser::Statement<parser::BlockStmt>>(B.t).source;
    if (!std::get<std::list<parser::DeclarationConstruct>>(Spec.t).empty() ||
        !std::get<std::list<parser::Statement<common::Indirection<parser::UseStmt>>>>(Spec.t)
             .empty() ||
        !std::get<parser::ImplicitPart>(Spec.t).v.empty()) {
      error("a BLOCK construct with declarations is not translated into kernels yet: declare "
            "its variables in the procedure");
      return;
    }
    block(Text, std::get<parser::Block>(B.t), I);
  }

  void ifConstruct(std::string &Text, const parser::IfConstruct &If, const std::string &I) {
    const auto &Then = std::get<parser::Statement<parser::IfThenStmt>>(If.t);
    Where = Then.source;
    line(Text, I,
         "if (" + expr(std::get<parser::ScalarLogicalExpr>(Then.statement.t).thing.thing.value()) +
             ") {");
    block(Text, std::get<parser::Block>(If.t), I + "  ");
    for (const auto &ElseIf : std::get<std::list<parser::IfConstruct::ElseIfBlock>>(If.t)) {
      const auto &Stmt = std::get<parser::Statement<parser::ElseIfStmt>>(ElseIf.t);
      Where = Stmt.source;
      line(Text, I,
           "} else if (" +
               expr(std::get<parser::ScalarLogicalExpr>(Stmt.statement.t).thing.thing.value()) +
               ") {");
      block(Text, std::get<parser::Block>(ElseIf.t), I + "  ");
    }
    if (const auto &Else = std::get<std::optional<parser::IfConstruct::ElseBlock>>(If.t)) {
      line(Text, I, "} else {");
      block(Text, std::get<parser::Block>(Else->t), I + "  ");
    }
    line(Text, I, "}");
  }

  /// A DO loop as a for loop whose index it declares (Pragma, if any, on the line before).
  void doLoop(std::string &Text, const parser::DoConstruct &Do, const std::string &Pragma,
              const std::string &I) {
    const auto &Stmt = std::get<parser::Statement<parser::NonLabelDoStmt>>(Do.t);
    Where = Stmt.source;
    const auto &Control = Do.GetLoopControl();
    const auto *Bounds = Control ? std::get_if<parser::LoopControl::Bounds>(&Control->u) : nullptr;
    if (Control)
      if (const auto *C = std::get_if<parser::LoopControl::Concurrent>(&Control->u)) {
        doConcurrent(Text, Do, *C, Pragma, I);
        return;
      }
    if (Control)
      if (const auto *While = std::get_if<parser::ScalarLogicalExpr>(&Control->u)) {
        // DO WHILE: a loop the devices run sequentially, as written.
        if (!Pragma.empty())
          line(Text, I, Pragma);
        line(Text, I, "while (" + expr(While->thing.thing.value()) + ") {");
        ++LoopDepth;
        block(Text, std::get<parser::Block>(Do.t), I + "  ");
        --LoopDepth;
        line(Text, I, "}");
        return;
      }
    if (!Bounds) {
      error("a DO without control is not translated into kernels yet");
      return;
    }
    const semantics::Symbol *Index = Bounds->name.thing.symbol;
    if (!Index) {
      error("a DO loop index flang did not resolve");
      return;
    }
    const semantics::Symbol &S = Index->GetUltimate();
    std::optional<int64_t> Step = 1;
    std::string StepText = "1";
    if (Bounds->step) {
      const parser::Expr &E = Bounds->step->thing.value();
      Step = E.typedExpr && E.typedExpr->v ? evaluate::ToInt64(*E.typedExpr->v) : std::nullopt;
      if (!Step || *Step == 0) {
        error("a DO loop's step in a kernel must be a nonzero constant");
        return;
      }
      StepText = std::to_string(*Step);
    }
    std::string Lower = expr(Bounds->lower.thing.value()),
                Upper = expr(Bounds->upper.thing.value());
    bool Declared = Own.insert(&S).second;
    std::string Name = cName(S);
    if (!Pragma.empty())
      line(Text, I, Pragma);
    line(Text, I,
         "for (" + (Declared ? cType(S) + " " : std::string()) + Name + " = " + Lower + "; " +
             Name + (*Step > 0 ? " <= " : " >= ") + Upper + "; " + Name +
             (*Step == 1    ? "++"
              : *Step == -1 ? "--"
                            : " += " + StepText) +
             ") {");
    ++LoopDepth;
    std::vector<Copy> Copies = openCopies(Text, I + "  ", false);
    block(Text, std::get<parser::Block>(Do.t), I + "  ");
    closeCopies(Copies);
    if (!Copies.empty() || PendingLevels == 0)
      Pending.clear(); // a collapse whose nest was not perfect: reported by the analysis
    --LoopDepth;
    line(Text, I, "}");
    if (Declared)
      Own.erase(&S);
  }

  /// DO CONCURRENT (i = l:u[:s], j = ...[, mask]): its iterations are independent, a nest of
  /// for loops collapsed under one loop pragma (Pragma's, or `loop independent`), the mask an if
  /// around the body.
  void doConcurrent(std::string &Text, const parser::DoConstruct &Do,
                    const parser::LoopControl::Concurrent &C, const std::string &Pragma,
                    const std::string &I) {
    const auto &Header = std::get<parser::ConcurrentHeader>(C.t);
    const auto &Controls = std::get<std::list<parser::ConcurrentControl>>(Header.t);
    if (!std::get<std::list<parser::LocalitySpec>>(C.t).empty())
      error("DO CONCURRENT's locality specifiers (local, shared) are not translated yet");
    std::string Loop = Pragma.empty() ? "#pragma acc loop independent" : Pragma;
    if (Controls.size() > 1 && Loop.find("collapse(") == std::string::npos)
      Loop += " collapse(" + std::to_string(Controls.size()) + ")";
    line(Text, I, Loop);
    std::vector<const semantics::Symbol *> Declared;
    std::string Indent = I;
    for (const parser::ConcurrentControl &Control : Controls) {
      const parser::Name &Name = std::get<parser::Name>(Control.t);
      const auto &Step = std::get<std::optional<parser::ScalarIntExpr>>(Control.t);
      std::optional<int64_t> By = 1;
      if (Step) {
        const parser::Expr &E = Step->thing.thing.value();
        By = E.typedExpr && E.typedExpr->v ? evaluate::ToInt64(*E.typedExpr->v) : std::nullopt;
      }
      if (!Name.symbol || !By || *By == 0) {
        error("a DO CONCURRENT index needs a nonzero constant step in a kernel");
        return;
      }
      const semantics::Symbol &S = Name.symbol->GetUltimate();
      Own.insert(&S);
      Declared.push_back(&S);
      std::string N = cName(S), T = cType(S).empty() ? "int" : cType(S);
      line(Text, Indent,
           "for (" + T + " " + N + " = " + scalar(std::get<1>(Control.t)) + "; " + N +
               (*By > 0 ? " <= " : " >= ") + scalar(std::get<2>(Control.t)) + "; " + N +
               (*By == 1 ? "++" : " += " + std::to_string(*By)) + ") {");
      Indent += "  ";
    }
    const auto &Mask = std::get<std::optional<parser::ScalarLogicalExpr>>(Header.t);
    std::vector<Copy> Copies = openCopies(Text, Indent, true);
    if (Mask)
      line(Text, Indent, "if (" + expr(Mask->thing.thing.value()) + ") {");
    ++LoopDepth;
    block(Text, std::get<parser::Block>(Do.t), Indent + (Mask ? "  " : ""));
    --LoopDepth;
    closeCopies(Copies);
    if (Mask)
      line(Text, Indent, "}");
    for (size_t K = 0; K < Controls.size(); ++K) {
      Indent.resize(Indent.size() - 2);
      line(Text, Indent, "}");
    }
    for (const semantics::Symbol *S : Declared)
      Own.erase(S);
  }

  /// A loop directive inside a block construct: its pragma over the DO loop.
  void accLoop(std::string &Text, const parser::OpenACCConstruct &Acc, const std::string &I) {
    if (const auto *Atomic = std::get_if<parser::OpenACCAtomicConstruct>(&Acc.u)) {
      atomic(Text, *Atomic, I);
      return;
    }
    // A cache directive is a hint: the devices' memory is where the data is already.
    if (std::holds_alternative<parser::OpenACCCacheConstruct>(Acc.u))
      return;
    const auto *Loop = std::get_if<parser::OpenACCLoopConstruct>(&Acc.u);
    if (!Loop) {
      error("only loop, atomic and cache directives are translated inside a compute construct yet");
      return;
    }
    const auto &Begin = std::get<parser::AccBeginLoopDirective>(Loop->t);
    Where = Begin.source;
    const auto &Do = std::get<std::optional<parser::DoConstruct>>(Loop->t);
    if (!Do) {
      error("a loop directive must be followed by a DO loop");
      return;
    }
    if (InRoutine) { // each call runs the routine's loops in turn
      doLoop(Text, *Do, "", I);
      return;
    }
    std::string Pragma = "#pragma acc loop" + clauses(std::get<parser::AccClauseList>(Begin.t));
    // Each top-level loop the devices share is where a parallel construct's gangs run: each
    // declares the construct's copies.
    bool Shared = LoopDepth == 0 && Pragma.find(" seq") == std::string::npos;
    Pending = ClauseCopies;
    if (Shared)
      Pending.insert(Pending.end(), ConstructCopies.begin(), ConstructCopies.end());
    PendingLevels = static_cast<int>(Collapse) - 1;
    doLoop(Text, *Do, Pragma, I);
  }

  // ---- atomics ----
  /// An atomic construct as C's: its statements in the forms C's atomics take.
  void atomic(std::string &Text, const parser::OpenACCAtomicConstruct &A, const std::string &I) {
    Where = A.source;
    std::visit(common::visitors{[&](const parser::AccAtomicRead &R) {
                                  line(Text, I, "#pragma acc atomic read");
                                  line(Text, I, atomicStatement(statementOf(R), false));
                                },
                                [&](const parser::AccAtomicWrite &W) {
                                  line(Text, I, "#pragma acc atomic write");
                                  line(Text, I, atomicStatement(statementOf(W), false));
                                },
                                [&](const parser::AccAtomicUpdate &U) {
                                  line(Text, I, "#pragma acc atomic update");
                                  line(Text, I, atomicStatement(statementOf(U), true));
                                },
                                [&](const parser::AccAtomicCapture &C) {
                                  const auto &First =
                                      std::get<parser::AccAtomicCapture::Stmt1>(C.t).v.statement;
                                  const auto &Second =
                                      std::get<parser::AccAtomicCapture::Stmt2>(C.t).v.statement;
                                  line(Text, I, "#pragma acc atomic capture");
                                  line(Text, I,
                                       "{ " + atomicStatement(First, !isCopy(First)) + " " +
                                           atomicStatement(Second, !isCopy(Second)) + " }");
                                }},
               A.u);
  }
  template <typename T> static const parser::AssignmentStmt &statementOf(const T &X) {
    return std::get<parser::Statement<parser::AssignmentStmt>>(X.t).statement;
  }
  /// Whether S is `v = x` (a capture's read), not an update of x.
  static bool isCopy(const parser::AssignmentStmt &S) {
    return S.typedAssignment && S.typedAssignment->v &&
           evaluate::ExtractDataRef(S.typedAssignment->v->rhs).has_value();
  }
  /// `x = x op e` (or `e op x`, or an intrinsic iand/ior/ieor of x) as C's `x = x op (e)`;
  /// a plain assignment when Update is false.
  std::string atomicStatement(const parser::AssignmentStmt &S, bool Update, bool Written = false) {
    if (!S.typedAssignment || !S.typedAssignment->v) {
      error("an atomic statement flang could not type");
      return ";";
    }
    const evaluate::Assignment &A = *S.typedAssignment->v;
    // The atomic's variable x (assigned by an update or a write, read by `v = x`) is shared by
    // the devices' threads: a scalar is written through its pointer, whatever loop it is in.
    bool Read = !Update && isCopy(S) && !Written;
    if (const semantics::Symbol *X = evaluate::UnwrapWholeSymbolDataRef(Read ? A.rhs : A.lhs))
      OutsideLoops.insert(&X->GetUltimate());
    std::string X = expr(A.lhs);
    if (!Update)
      return X + " = " + expr(A.rhs) + ";";
    std::string Other, Op;
    bool XFirst = true;
    if (!atomicOperands(std::get<parser::Expr>(S.t), X, Other, Op, XFirst)) {
      error("this atomic update is not in a form jacc's atomics take (x = x op expr, x = "
            "expr op x, x = intrinsic(x, expr-list) with max, min, iand, ior or ieor)");
      return ";";
    }
    if (Op == "max" || Op == "min") // C's form of an extremum update: x = x > e ? x : e
      return X + " = " + X + (Op == "max" ? " > (" : " < (") + Other + ") ? " + X + " : (" + Other +
             ");";
    return X + " = " +
           (XFirst ? X + " " + Op + " (" + Other + ")" : "(" + Other + ") " + Op + " " + X) + ";";
  }
  /// Operand as 0 or 1: its truth (Cmp "!=") or its negation ("==").
  static bool truthOf(std::string &Operand, const char *Cmp) {
    Operand = "(" + Operand + ") " + Cmp + " 0";
    return true;
  }
  /// The operator of Rhs (as written: the parse tree keeps its operands apart) and its operand
  /// that is not X (XText); false if neither is X.
  bool atomicOperands(const parser::Expr &Rhs, const std::string &XText, std::string &Other,
                      std::string &Op, bool &XFirst) {
    auto Pair = [&](const char *O, const parser::Expr &L, const parser::Expr &R) {
      std::string LT = expr(L), RT = expr(R);
      if (LT != XText && RT != XText)
        return false;
      Op = O;
      XFirst = LT == XText;
      Other = XFirst ? RT : LT;
      return true;
    };
    auto Binary = [&](const char *O, const auto &B) {
      return Pair(O, std::get<0>(B.t).value(), std::get<1>(B.t).value());
    };
    return std::visit(
        common::visitors{
            [&](const parser::Expr::Add &B) { return Binary("+", B); },
            [&](const parser::Expr::Subtract &B) { return Binary("-", B); },
            [&](const parser::Expr::Multiply &B) { return Binary("*", B); },
            [&](const parser::Expr::Divide &B) { return Binary("/", B); },
            // Logicals are 0 or 1: bitwise operators on the operand's truth are C's atomics.
            [&](const parser::Expr::AND &B) { return Binary("&", B) && truthOf(Other, "!="); },
            [&](const parser::Expr::OR &B) { return Binary("|", B) && truthOf(Other, "!="); },
            [&](const parser::Expr::NEQV &B) { return Binary("^", B) && truthOf(Other, "!="); },
            [&](const parser::Expr::EQV &B) { return Binary("^", B) && truthOf(Other, "=="); },
            [&](const parser::Expr::Parentheses &P) {
              return atomicOperands(P.v.value(), XText, Other, Op, XFirst);
            },
            [&](const common::Indirection<parser::FunctionReference> &F) {
              const parser::Call &Call = F.value().v;
              const auto *Name =
                  std::get_if<parser::Name>(&std::get<parser::ProcedureDesignator>(Call.t).u);
              const auto &Args = std::get<std::list<parser::ActualArgSpec>>(Call.t);
              static const std::map<std::string, const char *> Ops = {
                  {"iand", "&"}, {"ior", "|"}, {"ieor", "^"}, {"max", "max"}, {"min", "min"}};
              auto Found = Name ? Ops.find(Name->ToString()) : Ops.end();
              if (Found == Ops.end() || Args.size() < 2)
                return false;
              std::vector<const parser::Expr *> Operands;
              for (const parser::ActualArgSpec &Arg : Args) {
                const auto *E = std::get_if<common::Indirection<parser::Expr>>(
                    &std::get<parser::ActualArg>(Arg.t).u);
                if (!E || std::get<std::optional<parser::Keyword>>(Arg.t))
                  return false;
                Operands.push_back(&E->value());
              }
              if (Operands.size() == 2)
                return Pair(Found->second, *Operands.front(), *Operands.back());
              // max(a, x, b) updates x with max(a, b): x is any one of the arguments.
              if (Found->second != std::string("max") && Found->second != std::string("min"))
                return false;
              std::vector<std::string> Rest;
              for (const parser::Expr *E : Operands)
                if (std::string T = expr(*E); T != XText)
                  Rest.push_back(T);
              if (Rest.size() != Operands.size() - 1)
                return false;
              Op = Found->second;
              XFirst = true;
              Other = Rest[0];
              for (size_t I = 1; I < Rest.size(); ++I)
                Other = "(" + Other + (Op == "max" ? " > " : " < ") + Rest[I] + " ? " + Other +
                        " : " + Rest[I] + ")";
              return true;
            },
            [&](const auto &) { return false; }},
        Rhs.u);
  }

  // ---- clauses ----
  /// A clause's variable as the pragma names it; empty (an error) for anything else.
  std::string objectName(const parser::AccObject &O) {
    const auto *D = std::get_if<parser::Designator>(&O.u);
    const parser::Name *N = D ? variableName(*D) : nullptr;
    if (!N || !N->symbol) {
      error("only variable names are translated in reduction clauses, and variables or array "
            "sections in private clauses");
      return "";
    }
    return cName(N->symbol->GetUltimate());
  }
  std::string names(const parser::AccObjectList &List) {
    std::string Text;
    for (const parser::AccObject &O : List.v)
      if (std::string N = objectName(O); !N.empty())
        Text += (Text.empty() ? "" : ", ") + N;
    return Text;
  }
  /// Records a clause's variable (the kernel receives it) as a private or reduction one.
  void ownObject(const parser::AccObject &O, bool Reduction) {
    if (const auto *D = std::get_if<parser::Designator>(&O.u))
      if (const parser::Name *N = variableName(*D))
        if (N->symbol) {
          (Reduction ? Reductions : Private).insert(&N->symbol->GetUltimate());
          variable(*N->symbol);
        }
  }
  void own(const parser::AccObjectList &List, bool Reduction) {
    for (const parser::AccObject &O : List.v)
      ownObject(O, Reduction);
  }
  std::string scalar(const parser::ScalarIntExpr &E) { return expr(E.thing.thing.value()); }
  std::string optionalScalar(const char *Name, const std::optional<parser::ScalarIntExpr> &E) {
    return std::string(" ") + Name + (E ? "(" + scalar(*E) + ")" : "");
  }

  /// A reduction clause's variable, or an element of a one-dimensional array (`a(k)`, k a value
  /// the kernel does not change), as the kernel's pragma names it; recorded as a reduction variable
  /// (the glue brings the host's value of a mapped one around the push).
  std::string reductionItem(const parser::AccObject &O) {
    const auto *D = std::get_if<parser::Designator>(&O.u);
    const auto *Ref = D ? std::get_if<parser::DataRef>(&D->u) : nullptr;
    const auto *Element =
        Ref ? std::get_if<common::Indirection<parser::ArrayElement>>(&Ref->u) : nullptr;
    if (!Element) {
      ownObject(O, true);
      return objectName(O);
    }
    const auto *Base = std::get_if<parser::Name>(&Element->value().base.u);
    if (!Base || !Base->symbol) {
      error("a reduction clause names a variable or an element of an array");
      return "";
    }
    const semantics::Symbol &S = Base->symbol->GetUltimate();
    Reductions.insert(&S);
    std::string Text = variable(S);
    std::optional<HostVariable> V = find(S);
    const auto &Subscripts = Element->value().subscripts;
    const auto *Index =
        Subscripts.size() == 1 ? std::get_if<parser::IntExpr>(&Subscripts.front().u) : nullptr;
    if (!V || V->Rank != 1 || !Index) {
      error("a reduction of an array element is translated for an element of a "
            "one-dimensional array (its elements contiguous): reduce into a scalar and store "
            "it");
      return "";
    }
    std::string E = expr(Index->thing.value());
    return Text + "[" + (V->Lower[0] == "0" ? E : E + " - " + V->Lower[0]) + "]";
  }

  /// A private or firstprivate clause: its scalars stay in the pragma; its arrays (named whole
  /// or by a section: each copy has the array's shape) are copied per loop body.
  std::string privateClause(const char *Name, const parser::AccObjectList &List) {
    std::string Text;
    for (const parser::AccObject &O : List.v) {
      const auto *D = std::get_if<parser::Designator>(&O.u);
      const parser::Name *N = D ? sectionBase(*D) : nullptr;
      if (N && N->symbol && privateArray(*N->symbol, Name[0] == 'f'))
        continue;
      ownObject(O, false);
      std::string One = objectName(O);
      if (!One.empty())
        Text += (Text.empty() ? "" : ", ") + One;
    }
    return Text.empty() ? "" : " " + std::string(Name) + "(" + Text + ")";
  }

  /// The clauses a kernel's pragma keeps, as its text (each after a space).
  std::string clauses(const parser::AccClauseList &List) {
    std::string Text;
    ClauseCopies.clear();
    Collapse = 1;
    for (const parser::AccClause &C : List.v) {
      Where = C.source;
      Text += std::visit(
          common::visitors{
              [&](const parser::AccClause::Seq &) { return std::string(" seq"); },
              [&](const parser::AccClause::Independent &) { return std::string(" independent"); },
              [&](const parser::AccClause::Auto &) { return std::string(" auto"); },
              [&](const parser::AccClause::Gang &G) {
                if (G.v && (std::get<std::optional<parser::ScalarIntExpr>>(G.v->t) ||
                            std::get<std::optional<parser::AccSizeExpr>>(G.v->t)))
                  error("gang arguments are not translated yet");
                return std::string(" gang");
              },
              [&](const parser::AccClause::Worker &W) { return optionalScalar("worker", W.v); },
              [&](const parser::AccClause::Vector &V) { return optionalScalar("vector", V.v); },
              [&](const parser::AccClause::NumGangs &N) {
                return " num_gangs(" + scalar(N.v) + ")";
              },
              [&](const parser::AccClause::NumWorkers &N) {
                return " num_workers(" + scalar(N.v) + ")";
              },
              [&](const parser::AccClause::VectorLength &N) {
                return " vector_length(" + scalar(N.v) + ")";
              },
              [&](const parser::AccClause::Tile &T) {
                std::string Sizes;
                for (const parser::AccTileExpr &E : T.v.v) {
                  const auto &Size = std::get<std::optional<parser::ScalarIntConstantExpr>>(E.t);
                  Sizes += (Sizes.empty() ? "" : ", ") +
                           (Size ? expr(Size->thing.thing.thing.value()) : std::string("*"));
                }
                return " tile(" + Sizes + ")";
              },
              [&](const parser::AccClause::Collapse &N) {
                const parser::Expr &E = N.v.thing.thing.thing.value();
                auto Count = E.typedExpr && E.typedExpr->v ? evaluate::ToInt64(*E.typedExpr->v)
                                                           : std::nullopt;
                if (!Count)
                  error("collapse needs a constant");
                Collapse = Count.value_or(1);
                return " collapse(" + std::to_string(Collapse) + ")";
              },
              [&](const parser::AccClause::Private &P) { return privateClause("private", P.v); },
              [&](const parser::AccClause::Firstprivate &P) {
                return privateClause("firstprivate", P.v);
              },
              [&](const parser::AccClause::Reduction &R) {
                const auto &Op = std::get<parser::AccReductionOperator>(R.v.t);
                const auto &List = std::get<parser::AccObjectList>(R.v.t);
                using O = parser::AccReductionOperator::Operator;
                static const std::map<O, const char *> Ops = {
                    {O::Plus, "+"},  {O::Multiply, "*"}, {O::Max, "max"},
                    {O::Min, "min"}, {O::Iand, "&"},     {O::Ior, "|"},
                    {O::Ieor, "^"},  {O::And, "&&"},     {O::Or, "||"}};
                auto Found = Ops.find(Op.v);
                if (Found == Ops.end()) {
                  error("reduction operators .eqv. and .neqv. are not translated yet");
                  return std::string();
                }
                std::string Items;
                for (const parser::AccObject &O : List.v) {
                  std::string Item = reductionItem(O);
                  if (!Item.empty())
                    Items += (Items.empty() ? "" : ", ") + Item;
                }
                return std::string(" reduction(") + Found->second + ":" + Items + ")";
              },
              // Data, queue and condition clauses are the glue's; default(...) is what jacc does.
              [&](const parser::AccClause::Copy &) { return std::string(); },
              [&](const parser::AccClause::Copyin &) { return std::string(); },
              [&](const parser::AccClause::Copyout &) { return std::string(); },
              [&](const parser::AccClause::Create &) { return std::string(); },
              [&](const parser::AccClause::Present &) { return std::string(); },
              [&](const parser::AccClause::NoCreate &) { return std::string(); },
              [&](const parser::AccClause::Default &) { return std::string(); },
              [&](const parser::AccClause::Async &) { return std::string(); },
              [&](const parser::AccClause::If &) { return std::string(); },
              [&](const parser::AccClause::Wait &) { return std::string(); },
              [&](const auto &) {
                error("this clause is not translated for Fortran yet");
                return std::string();
              }},
          C.u);
    }
    return Text;
  }

  // ---- routines ----
  /// A call of a routine of the file: the kernel carries its definition; the arguments are
  /// passed as the routine takes them.
  std::string call(const evaluate::ProcedureRef &Ref) {
    const semantics::Symbol *Proc = Ref.proc().GetSymbol();
    std::string Name = Ref.proc().GetName();
    const Routine *R = Proc && Called ? Called->Index.find(*Proc) : nullptr;
    if (!R) {
      error(Proc && Called && Called->Index.defines(*Proc)
                ? "'" + Name + "' is called in a kernel: put '!$acc routine seq' in its definition"
                : "'" + Name +
                      "' is called in a kernel but this file defines no routine of that name: "
                      "define it here under '!$acc routine seq' (each kernel carries the "
                      "routines it calls)");
      return "0";
    }
    const Signature *Sig = routine(*R);
    if (!Sig)
      return "0";
    const auto &Args = Ref.arguments();
    if (Args.size() != Sig->Parameters.size()) {
      error("'" + Name + "' is called with " + std::to_string(Args.size()) +
            " arguments and takes " + std::to_string(Sig->Parameters.size()));
      return "0";
    }
    std::string Text = Sig->CName + "(";
    for (size_t I = 0; I < Args.size(); ++I) {
      const Expr<SomeType> *E = Args[I] ? Args[I]->UnwrapExpr() : nullptr;
      if (!E) {
        error("argument " + std::to_string(I + 1) + " of '" + Name +
              "' is omitted or not a value: pass every argument of a routine");
        return "0";
      }
      Text += (I ? ", " : "") + argument(*E, Sig->Parameters[I], Name, I + 1);
    }
    return Text + ")";
  }
  std::string argument(const Expr<SomeType> &E, const Parameter &P, const std::string &Callee,
                       size_t Position) {
    std::string Which = "argument " + std::to_string(Position) + " of '" + Callee + "'";
    if (P.How == Parameter::Pass::Value)
      return expr(E);
    if (std::optional<evaluate::DynamicType> Type = E.GetType())
      if (cTypeOf(Type->category(), Type->kind()) != P.CType) {
        error(Which + " is not of its dummy argument's type and kind");
        return "0";
      }
    const semantics::Symbol *Whole = evaluate::UnwrapWholeSymbolDataRef(E);
    if (P.How == Parameter::Pass::Address) {
      if (!evaluate::IsVariable(E)) {
        error(Which + " is an expression, and the routine assigns its dummy argument: pass a "
                      "variable");
        return "0";
      }
      // Assigned by the call, as by an assignment: private to a loop around it, or shared.
      if (Whole && !Own.count(&Whole->GetUltimate())) {
        (LoopDepth > 0 ? InLoop : OutsideLoops).insert(&Whole->GetUltimate());
        if (P.Out)
          Assigned.insert(&Whole->GetUltimate());
      }
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
  /// An array, or a section of one its elements fill without gaps (whole columns, then one
  /// range, then single indices: a(:, j), a(l:u, j), a(:, l:u)): the address of its first
  /// element and its extents.
  struct ContiguousPart {
    std::string First;
    std::vector<std::string> Extents;
  };
  std::optional<ContiguousPart> contiguousPart(const Expr<SomeType> &E) {
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
    if (Whole) {
      Out.First = "&" + indexed(Name, *V, std::vector<std::string>(V->Rank, "0"));
      Out.Extents = V->Extent;
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
      bool Full = !Triplet->GetLower() && !Triplet->GetUpper();
      if (!Full)
        Now = Range;
      std::string From = Triplet->GetLower() ? subscript(*Triplet->GetLower()) : Lower;
      std::string To = Triplet->GetUpper() ? subscript(*Triplet->GetUpper())
                                           : Lower + " + " + V->Extent[D] + " - 1";
      Out.Extents.push_back(Full ? V->Extent[D] : "(" + To + ") - (" + From + ") + 1");
      Subs.push_back(From == Lower ? "0" : Lower == "0" ? From : "(" + From + ") - " + Lower);
    }
    Out.First = "&" + indexed(Name, *V, Subs);
    return Out;
  }

  /// R's signature, its definition written into the kernel's text first (after the routines
  /// it calls); null after an error. Written twice when it assigns a scalar argument whose
  /// intent it does not state: then that argument is taken by address.
  const Signature *routine(const Routine &R) {
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
      Called->Text += Text;
      Sig.Written = true;
      It->second = Sig;
      return W.Out.Errors.empty() ? &It->second : nullptr;
    }
    return nullptr;
  }

  /// R as a C function of the kernel language; Assigns: the scalar arguments it assigns.
  std::string writeRoutine(const Routine &R, const std::set<const semantics::Symbol *> &Assigns,
                           Signature &Sig) {
    const auto &Details = R.Symbol->get<semantics::SubprogramDetails>();
    Where = R.Symbol->name();
    Sig.CName = R.CName;
    // Each argument's parameters, in the arguments' order.
    std::vector<std::string> Params(Details.dummyArgs().size()), Prologue;
    auto Typed = [&](const semantics::Symbol &S, const char *What) {
      std::string T = cType(S);
      if (T.empty())
        error("'" + S.name().ToString() + "', " + What +
              " of a routine, is not an integer, logical or real of kind 1 to 8 (complex, "
              "character and derived types are not translated yet)");
      return T.empty() ? std::string("int") : T;
    };
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
      P.CType = Typed(S, "an argument");
      P.Rank = S.Rank();
      if (P.Rank)
        continue;
      bool ByValue =
          S.attrs().test(semantics::Attr::VALUE) || semantics::IsIntentIn(S) ||
          (!semantics::IsIntentOut(S) && !semantics::IsIntentInOut(S) && !Assigns.count(&S));
      P.How = ByValue ? Parameter::Pass::Value : Parameter::Pass::Address;
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
      bool Shaped = semantics::IsAssumedShape(S);
      P.How = Shaped ? Parameter::Pass::ShapedArray : Parameter::Pass::Array;
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
      Return = Typed(Res, "the result");
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
        local(*Ref, Prologue, Typed);
    std::string Body;
    block(Body, R.Body->v, "  ");
    Where = R.Symbol->name();
    if (!Result.empty())
      Body += "  return " + Result + ";\n";
    std::string Text = "#pragma acc routine seq\nstatic " + Return + " " + R.CName + "(" +
                       llvm::join(Params, ", ") + ") {\n";
    for (const std::string &L : Prologue)
      Text += "  " + L + "\n";
    return Text + Body + "}\n";
  }
  /// An array argument or local of a routine: its bounds as C text of the routine's arguments
  /// (ShapedPrefix: an assumed-shape array's extents are arguments of that prefix).
  HostVariable routineArray(const semantics::Symbol &S, const std::string &CType,
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
  /// A bound of a routine's array in C: a number, a name, or an expression in parentheses (an
  /// index minus it stays right).
  std::string bound(const Expr<evaluate::SubscriptInteger> &E) {
    if (std::optional<int64_t> N = evaluate::ToInt64(E))
      return *N < 0 ? "(" + std::to_string(*N) + ")" : std::to_string(*N);
    return operand(subscript(E));
  }
  /// A local variable of a routine, declared in its prologue (arguments, its result and named
  /// constants are not).
  template <typename TypeOf>
  void local(const semantics::Symbol &Symbol, std::vector<std::string> &Prologue,
             const TypeOf &Typed) {
    const semantics::Symbol &S = Symbol.GetUltimate();
    if (&S != &Symbol || !S.has<semantics::ObjectEntityDetails>() || semantics::IsDummy(S) ||
        Named.count(&S) || semantics::IsNamedConstant(S))
      return;
    if (semantics::IsSaved(S))
      error("'" + S.name().ToString() +
            "' is saved (SAVE, or initialized in its declaration): a routine's locals are each "
            "call's own; assign its first value instead");
    std::string T = Typed(S, "a local variable");
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

private:
  const FortranSource &Source;
};

} // namespace

FortranKernel writeKernel(const FortranSource &Source, const RoutineIndex &Routines,
                          const std::string &Directive, const parser::AccClauseList &Clauses,
                          const parser::DoConstruct *Loop, const parser::Block *Body) {
  // Printed twice when a scalar is assigned outside the loops: the second time through its
  // pointer, as the C translator's device scalars are.
  std::set<const semantics::Symbol *> Refs;
  for (int Pass = 0; Pass < 2; ++Pass) {
    KernelWriter W(Source);
    KernelWriter::CalledRoutines Called{Routines, "", {}};
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
    if (!Private.empty()) {
      // On the loop of a combined construct, else on the block's first line.
      size_t End = Text.find('\n');
      Text.insert(End, " private(" + Private + ")");
    }
    W.Out.Text = Called.Text + Text;
    W.Out.Reductions = W.Reductions;
    return W.Out;
  }
  return {};
}

} // namespace jacc::translate::fortran
