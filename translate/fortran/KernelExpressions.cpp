// Fortran expressions as C: operators, constants, designators (column-major subscripts from
// each dimension's lower bound, or one offset into a flat array), intrinsics as <math.h> calls.
#include "translate/fortran/DerivedTypes.h"
#include "translate/fortran/KernelWriter.h"

#include <flang/Evaluate/fold.h>
#include <flang/Evaluate/shape.h>
#include <flang/Evaluate/tools.h>
#include <flang/Semantics/tools.h>

namespace jacc::translate::fortran {

template <typename A> std::string KernelWriter::expr(const A &) {
  error("this expression is not translated into a kernel yet");
  return "0";
}

template <typename T> std::string KernelWriter::expr(const Expr<T> &E) {
  return std::visit([&](const auto &X) { return expr(X); }, E.u);
}

template <typename T> std::string KernelWriter::expr(const common::Indirection<T> &X) {
  return expr(X.value());
}

template <typename T> std::string KernelWriter::expr(const evaluate::Parentheses<T> &X) {
  return "(" + expr(X.left()) + ")";
}

template <typename T> std::string KernelWriter::expr(const evaluate::Negate<T> &X) {
  return "(-" + expr(X.left()) + ")";
}

template <typename T> std::string KernelWriter::expr(const evaluate::Add<T> &X) {
  return binary(X, " + ");
}

template <typename T> std::string KernelWriter::expr(const evaluate::Subtract<T> &X) {
  return binary(X, " - ");
}

template <typename T> std::string KernelWriter::expr(const evaluate::Multiply<T> &X) {
  return binary(X, " * ");
}

template <typename T> std::string KernelWriter::expr(const evaluate::Divide<T> &X) {
  return binary(X, " / ");
}

template <typename X> std::string KernelWriter::binary(const X &Op, const char *C) {
  return "(" + expr(Op.left()) + C + expr(Op.right()) + ")";
}

template <typename T> std::string KernelWriter::expr(const evaluate::Power<T> &X) {
  if constexpr (T::category == TypeCategory::Integer)
    return integerPower(expr(X.left()), expr(X.right()), evaluate::ToInt64(X.right()), T::kind);
  if constexpr (T::category == TypeCategory::Complex) {
    includeComplex();
    return std::string(T::kind == 4 ? "cpowf(" : "cpow(") + expr(X.left()) + ", " +
           expr(X.right()) + ")";
  }
  return std::string(T::kind == 4 ? "powf(" : "pow(") + expr(X.left()) + ", " + expr(X.right()) +
         ")";
}

template <typename T> std::string KernelWriter::expr(const evaluate::RealToIntPower<T> &X) {
  std::optional<int64_t> N =
      std::visit([](const auto &E) { return evaluate::ToInt64(E); }, X.right().u);
  if (N && *N >= 0 && *N <= 4)
    return integerPower(expr(X.left()), "", N, T::kind);
  if constexpr (T::category == TypeCategory::Complex)
    includeComplex();
  return std::string(T::category == TypeCategory::Complex ? "c" : "") +
         (T::kind == 4 ? "powf(" : "pow(") + expr(X.left()) + ", " + expr(X.right()) + ")";
}

template <typename T> std::string KernelWriter::expr(const evaluate::Extremum<T> &X) {
  std::string L = expr(X.left()), R = expr(X.right());
  if constexpr (T::category == TypeCategory::Real)
    return std::string(X.ordering == evaluate::Ordering::Greater ? "fmax" : "fmin") +
           (T::kind == 4 ? "f(" : "(") + L + ", " + R + ")";
  const char *Op = X.ordering == evaluate::Ordering::Greater ? " > " : " < ";
  return "(" + L + Op + R + " ? " + L + " : " + R + ")";
}

template <typename TO, TypeCategory FROM>
std::string KernelWriter::expr(const evaluate::Convert<TO, FROM> &X) {
  std::string Type = cTypeOf(TO::category, TO::kind);
  if (Type.empty()) {
    error("a conversion to this type is not translated into a kernel yet");
    return "0";
  }
  return "((" + Type + ")" + expr(X.left()) + ")";
}

template <int K> std::string KernelWriter::expr(const evaluate::Not<K> &X) {
  return "(!" + expr(X.left()) + ")";
}

template <int K> std::string KernelWriter::expr(const evaluate::LogicalOperation<K> &X) {
  using common::LogicalOperator;
  const char *Op = X.logicalOperator == LogicalOperator::And   ? " && "
                   : X.logicalOperator == LogicalOperator::Or  ? " || "
                   : X.logicalOperator == LogicalOperator::Eqv ? " == "
                                                               : " != ";
  return "(" + truth(expr(X.left())) + Op + truth(expr(X.right())) + ")";
}

template <typename T> std::string KernelWriter::expr(const evaluate::Relational<T> &X) {
  using common::RelationalOperator;
  static const std::map<RelationalOperator, const char *> Ops = {
      {RelationalOperator::LT, " < "},  {RelationalOperator::LE, " <= "},
      {RelationalOperator::EQ, " == "}, {RelationalOperator::NE, " != "},
      {RelationalOperator::GE, " >= "}, {RelationalOperator::GT, " > "}};
  return "(" + expr(X.left()) + Ops.at(X.opr) + expr(X.right()) + ")";
}

std::string KernelWriter::expr(const evaluate::Relational<SomeType> &X) {
  return std::visit([&](const auto &R) { return expr(R); }, X.u);
}

template <typename T> std::string KernelWriter::expr(const evaluate::Constant<T> &X) {
  if constexpr (T::category == TypeCategory::Complex) {
    if (X.Rank() != 0) {
      error("an array constant is not translated into a kernel yet");
      return "0";
    }
    auto Value = X.GetScalarValue();
    using Part = evaluate::Type<TypeCategory::Real, T::kind>;
    includeComplex();
    return "(" + expr(evaluate::Constant<Part>(Value->REAL())) + " + " +
           expr(evaluate::Constant<Part>(Value->AIMAG())) + " * I)";
  } else if constexpr (T::category == TypeCategory::Integer || T::category == TypeCategory::Real ||
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

template <typename T> std::string KernelWriter::expr(const evaluate::Designator<T> &X) {
  return std::visit([&](const auto &Part) { return part(Part); }, X.u);
}

std::string KernelWriter::dataRef(const evaluate::DataRef &R) {
  return std::visit([&](const auto &Part) { return part(Part); }, R.u);
}

std::string KernelWriter::part(const semantics::SymbolRef &S) {
  return ElementalRank && S->Rank() > 0 ? wholeElement(*S) : variable(*S);
}

std::string KernelWriter::part(const evaluate::ComplexPart &P) {
  // `z%re`, `z%im`, which may be assigned: C lays a complex value out as an array of its two
  // parts (C11 6.2.5), as does the template CUDA kernels spell it as.
  std::string Complex = cType(P.GetLastSymbol());
  if (Complex.empty()) {
    error("this complex part's kind is not translated into a kernel");
    return "0";
  }
  std::string Real = Complex.substr(0, Complex.find(' '));
  return "((" + Real + " *)&(" + dataRef(P.complex()) + "))[" +
         (P.part() == evaluate::ComplexPart::Part::IM ? "1" : "0") + "]";
}

template <typename A> std::string KernelWriter::part(const A &) {
  error("substrings and coarrays are not translated into kernels yet");
  return "0";
}

/// The variable and components of C's path when its variable's type has no C struct (it has an
/// allocatable component): the glue passes the path as a variable of its own. Null Base else.
static const semantics::Symbol *passedPath(const evaluate::Component &C,
                                           std::vector<const semantics::Symbol *> &Components) {
  Components = {&C.GetLastSymbol()};
  const evaluate::DataRef *At = &C.base();
  while (const auto *Inner = std::get_if<evaluate::Component>(&At->u)) {
    Components.insert(Components.begin(), &Inner->GetLastSymbol());
    At = &Inner->base();
  }
  const auto *Whole = std::get_if<semantics::SymbolRef>(&At->u);
  return Whole && takenByComponents(**Whole) ? &**Whole : nullptr;
}

std::optional<HostVariable> KernelWriter::passedComponent(const evaluate::Component &C) {
  std::vector<const semantics::Symbol *> Components;
  const semantics::Symbol *Base = passedPath(C, Components);
  if (!Base)
    return std::nullopt;
  auto V = componentVariable(Base->GetUltimate(), Components);
  if (!V) {
    error(llvm::toString(V.takeError()));
    return HostVariable{};
  }
  if (InRoutine)
    error("a routine reads '" + V->Path +
          "', a component of a variable of its module or host: "
          "pass it as an argument");
  else if (Assigning && V->Rank == 0)
    error("the kernel assigns '" + V->Path +
          "', a component of a variable whose type has allocatable components: assign a "
          "variable of its own, then the component after the construct");
  else if (V->Rank && ElementalRank)
    error("'" + V->Path + "' is a whole array in an array assignment: write the DO loop");
  for (const HostVariable &Had : Out.Variables)
    if (Had.key() == V->key())
      return Had;
  record(*V);
  return *V;
}

std::string KernelWriter::component(const evaluate::Component &C) {
  if (std::optional<HostVariable> Passed = passedComponent(C))
    return Passed->Name.empty() ? "0" : Passed->Name;
  const semantics::Symbol &Member = C.GetLastSymbol();
  if (Member.Rank() > 0 && ElementalRank) {
    error("'" + Member.name().ToString() +
          "' is an array component in an array assignment: write the DO loop");
    return "0";
  }
  return dataRef(C.base()) + "." + cName(Member);
}

template <int K> std::string KernelWriter::expr(const evaluate::ComplexComponent<K> &X) {
  includeComplex();
  return std::string(X.isImaginaryPart ? "cimag" : "creal") + (K == 4 ? "f(" : "(") +
         expr(X.left()) + ")";
}

template <int K> std::string KernelWriter::expr(const evaluate::ComplexConstructor<K> &X) {
  includeComplex();
  return "(" + expr(X.left()) + " + " + expr(X.right()) + " * I)";
}

void KernelWriter::includeComplex() {
  if (Called)
    Called->define("<complex.h>", "#include <complex.h>\n");
}

std::string KernelWriter::complexIntrinsic(const std::string &Name,
                                           const std::vector<std::string> &Args, int ArgKind) {
  static const std::map<std::string, std::string> Functions = {
      {"abs", "cabs"},   {"sqrt", "csqrt"}, {"exp", "cexp"},   {"log", "clog"},   {"sin", "csin"},
      {"cos", "ccos"},   {"tan", "ctan"},   {"sinh", "csinh"}, {"cosh", "ccosh"}, {"tanh", "ctanh"},
      {"conjg", "conj"}, {"asin", "casin"}, {"acos", "cacos"}, {"atan", "catan"}};
  auto It = Functions.find(Name);
  if (It == Functions.end() || Args.size() != 1)
    return "";
  includeComplex();
  return It->second + (ArgKind == 4 ? "f(" : "(") + Args[0] + ")";
}

std::string KernelWriter::expr(const evaluate::DescriptorInquiry &X) {
  using Field = evaluate::DescriptorInquiry::Field;
  const semantics::SymbolRef *Base = X.base().UnwrapSymbolRef();
  if (Base && (X.field() == Field::Extent || X.field() == Field::LowerBound)) {
    variable(**Base); // the kernel takes the array's bounds with it
    std::optional<HostVariable> V = find(**Base);
    size_t D = static_cast<size_t>(X.dimension());
    if (V && D < V->Extent.size() && D < V->Lower.size())
      return "(long long)" + operand(X.field() == Field::Extent ? V->Extent[D] : V->Lower[D]);
  }
  error("this inquiry of an array's descriptor (of a component, or its stride or length) is "
        "not translated into a kernel yet");
  return "0";
}

std::string KernelWriter::arrayElement(const evaluate::ArrayRef &A) {
  std::string Name;
  std::optional<HostVariable> V;
  if (const evaluate::Component *C = A.base().UnwrapComponent()) {
    if ((V = passedComponent(*C))) {
      // An allocatable component: an array of its own.
      if (V->Name.empty())
        return "0";
      Name = V->Name;
    } else {
      // An array component of a struct: constant bounds (DerivedTypes.h).
      Name = dataRef(C->base()) + "." + cName(C->GetLastSymbol());
      V = componentArray(C->GetLastSymbol());
    }
  } else {
    const semantics::Symbol &S = **A.base().UnwrapSymbolRef();
    Name = variable(S);
    V = find(S);
  }
  if (!V)
    return Name;
  std::vector<std::string> Subs;
  int Section = 0; // the array assignment's counter the next triplet takes
  for (size_t D = 0; D < A.subscript().size(); ++D) {
    std::string Lower = D < V->Lower.size() ? V->Lower[D] : "1";
    const auto &Sub = A.subscript()[D].u;
    const auto *Index = std::get_if<evaluate::IndirectSubscriptIntegerExpr>(&Sub);
    const auto *Range = std::get_if<evaluate::Triplet>(&Sub);
    bool Vector = Index && Index->value().Rank() > 0;
    if ((Vector && (!ElementalRank || Index->value().Rank() != 1)) || (Range && !ElementalRank) ||
        (!Index && !Range)) {
      error(Range    ? "array sections are translated in array assignments only: write the loop"
            : Vector ? "vector subscripts are translated in array assignments only: write the "
                       "loop"
                     : "this subscript is not translated into kernels yet: write the loop");
      return Name;
    }
    if (Vector) {
      // v(k) of the vector at this place's counter: its own section counts from there.
      int Base = CounterBase, Rank = ElementalRank;
      CounterBase += Section++;
      ElementalRank = 1;
      std::string S = subscript(Index->value());
      CounterBase = Base;
      ElementalRank = Rank;
      Subs.push_back(Lower == "0" ? S : S + " - " + Lower);
      continue;
    }
    if (Index) {
      std::string S = subscript(Index->value());
      Subs.push_back(Lower == "0" ? S : S + " - " + Lower);
      continue;
    }
    // l:u:s at counter k is element l + k * s.
    std::string Step = counter(CounterBase + ++Section);
    if (std::optional<int64_t> Stride = evaluate::ToInt64(Range->stride()); Stride != 1)
      Step += " * (" + subscript(Range->stride()) + ")";
    std::string From = Range->GetLower() ? subscript(*Range->GetLower()) : Lower;
    Subs.push_back(
        From == Lower ? Step : "(" + From + ") + " + Step + (Lower == "0" ? "" : " - " + Lower));
  }
  return indexed(Name, *V, Subs);
}

std::string KernelWriter::indexed(std::string Name, const HostVariable &V,
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

std::string KernelWriter::counter(int N) const {
  if (N >= 1 && N <= static_cast<int>(Counters.size()))
    return Counters[N - 1];
  return "jacc_e" + std::to_string(N);
}

std::string KernelWriter::wholeElement(const semantics::Symbol &S) {
  std::string Text = variable(S);
  if (S.Rank() != ElementalRank)
    error("'" + S.name().ToString() + "' has another rank than the array it is assigned to");
  std::vector<std::string> Subs;
  for (int D = 1; D <= S.Rank(); ++D)
    Subs.push_back(counter(CounterBase + D));
  std::optional<HostVariable> V = find(S);
  return V ? indexed(Text, *V, Subs) : Text;
}

std::vector<std::string>
KernelWriter::assignedExtents(const evaluate::Expr<evaluate::SomeType> &Lhs) {
  // `z(:)%re`'s extents are those of z(:).
  std::optional<evaluate::DataRef> Ref =
      evaluate::ExtractDataRef(Lhs, /*intoSubstring=*/false, /*intoComplexPart=*/true);
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
    const auto *Index =
        std::get_if<evaluate::IndirectSubscriptIntegerExpr>(&Part->subscript()[D].u);
    if (Index && Index->value().Rank() == 1) {
      // A vector subscript (`b(idx) = ...`): as many elements as the vector has.
      std::optional<evaluate::Shape> Shape = evaluate::GetShape(Index->value());
      if (!Shape || Shape->size() != 1 || !(*Shape)[0])
        return {};
      Extents.push_back(expr(*(*Shape)[0]));
      continue;
    }
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

std::string KernelWriter::subscript(const Expr<evaluate::SubscriptInteger> &E) {
  using Widened = evaluate::Convert<evaluate::SubscriptInteger, TypeCategory::Integer>;
  if (const auto *C = std::get_if<Widened>(&E.u))
    return expr(C->left());
  return expr(E);
}

template <typename T> std::string KernelWriter::expr(const evaluate::FunctionRef<T> &X) {
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
    if (std::optional<std::string> R =
            arrayReduction(Intrinsic->name, X.arguments(), T::category, T::kind))
      return *R;
    if (std::optional<std::string> R =
            matrixIntrinsic(Intrinsic->name, X.arguments(), T::category, T::kind))
      return *R;
    std::vector<std::string> Args;
    std::optional<evaluate::DynamicType> First; // the first argument's type
    std::optional<int> ComplexKind;             // its kind, when complex
    for (const auto &Arg : X.arguments())
      if (Arg)
        if (const Expr<SomeType> *E = Arg->UnwrapExpr()) {
          if (std::optional<evaluate::DynamicType> Type = E->GetType(); Args.empty() && Type) {
            First = Type;
            if (Type->category() == TypeCategory::Complex)
              ComplexKind = Type->kind();
          }
          Args.push_back(expr(*E));
        }
    if (ComplexKind) {
      std::string Text = complexIntrinsic(Intrinsic->name, Args, *ComplexKind);
      if (Text.empty())
        error("the intrinsic '" + Intrinsic->name +
              "' of a complex value is not translated into a kernel yet");
      return Text.empty() ? "0" : Text;
    }
    return intrinsic(Intrinsic->name, Args, T::category, T::kind, First ? First->kind() : T::kind);
  }
}

std::optional<std::string> KernelWriter::arrayReduction(const std::string &Name,
                                                        const evaluate::ActualArguments &Args,
                                                        TypeCategory Category, int Kind) {
  static const std::set<std::string> Names = {"sum",         "product", "maxval", "minval",
                                              "dot_product", "count",   "any",    "all"};
  if (!Names.count(Name))
    return std::nullopt;
  size_t Arrays = Name == "dot_product" ? 2 : 1;
  std::vector<const Expr<SomeType> *> Operands;
  const Expr<SomeType> *Mask = nullptr;
  std::optional<int64_t> Dim; // the dimension reduced, when not all of them
  // Flang gives the arguments in the intrinsic's order: (array, dim, mask), count's (mask,
  // dim, kind: the result's kind), dot_product's two vectors.
  for (size_t I = 0; I < Args.size(); ++I) {
    const Expr<SomeType> *E = Args[I] ? Args[I]->UnwrapExpr() : nullptr;
    bool DimArg = I == 1 && Arrays == 1, MaskArg = I == 2 && Name != "count";
    if (I < Arrays)
      Operands.push_back(E);
    else if (MaskArg && E)
      Mask = E;
    else if (DimArg && E && !Operands.empty() && Operands[0] && Operands[0]->Rank() == 1 &&
             evaluate::ToInt64(*E) == 1)
      continue; // along the only dimension: the whole array's
    else if (DimArg && E && (Dim = evaluate::ToInt64(*E)))
      continue;
    else if (Args[I] && !(I == 2 && Name == "count")) {
      error("'" + Name +
            "' along a dimension (dim) that is not a constant is not translated "
            "into a kernel: write the loop");
      return "0";
    }
  }
  if (Operands.size() != Arrays || !Operands[0] || (Arrays == 2 && !Operands[1]))
    return std::nullopt;
  std::string T = cTypeOf(Category, Kind);
  bool Real = Category == TypeCategory::Real;
  std::optional<evaluate::Shape> Shape = evaluate::GetShape(*Operands[0]);
  int Rank = Operands[0]->Rank();
  if (T.empty() || !Shape || static_cast<int>(Shape->size()) != Rank || Rank == 0 ||
      (Real && Kind != 4 && Kind != 8)) {
    error("this '" + Name + "' is not translated into a kernel yet: write the loop");
    return "0";
  }
  // Along a dimension, each element of the result is a reduction of its own, computed in the
  // innermost loop of the array assignment (or reduction) whose element it is: the other
  // dimensions take that loop's counters in order, the reduced one its own (jacc_e0).
  if (Dim && (ElementalRank != Rank - 1 || CounterBase != 0 || !Counters.empty() || *Dim < 1 ||
              *Dim > Rank)) {
    error("'" + Name +
          "' along a dimension (dim) is translated as the right side of an array "
          "assignment of the result's rank: write the loop");
    return "0";
  }
  std::vector<std::string> Extents;
  for (const evaluate::MaybeExtentExpr &E : *Shape) {
    if (!E) {
      error("the extent of '" + Name + "''s argument is not known: write the loop");
      return "0";
    }
    Extents.push_back(expr(*E));
  }
  // The first and last values of a type, as maxval and minval of nothing give.
  std::string Huge = Real               ? (Kind == 4 ? "3.40282347e38f" : "1.7976931348623157e308")
                     : T == "long long" ? "9223372036854775807LL"
                     : T == "short"     ? "32767"
                     : T == "signed char" ? "127"
                                          : "2147483647";
  std::string Lowest = Real ? "-" + Huge : "(-" + Huge + " - 1)";
  // Its own counters, in loops before the statement (inside an array assignment too: Fortran
  // evaluates the reduction whole, before it assigns).
  int OuterRank = ElementalRank;
  ElementalRank = Rank;
  std::vector<std::string> OuterElementLines, OuterCounters; // its counters are jacc_e<n>
  OuterElementLines.swap(ElementLines);
  OuterCounters.swap(Counters);
  for (int D = 1; Dim && D <= Rank; ++D) // (the assignment's counters are jacc_e1 ...)
    Counters.push_back(D == *Dim ? "jacc_e0" : "jacc_e" + std::to_string(D < *Dim ? D : D - 1));
  std::string A = expr(*Operands[0]), B = Arrays == 2 ? expr(*Operands[1]) : "";
  std::string If = Mask ? "if (" + expr(*Mask) + ") " : "";
  std::vector<std::string> Inner = std::move(ElementLines); // its operands' own reductions
  ElementLines = std::move(OuterElementLines);
  Counters = std::move(OuterCounters);
  ElementalRank = OuterRank;
  std::string R = "jacc_r" + std::to_string(++Hoists);
  std::string Init = Name == "product" || Name == "all" ? "1"
                     : Name == "maxval"                 ? Lowest
                     : Name == "minval"                 ? Huge
                                                        : "0";
  if (Category == TypeCategory::Complex)
    includeComplex(); // conj
  std::string Update =
      Name == "sum"           ? R + " += " + A + ";"
      : Name == "product"     ? R + " *= " + A + ";"
      : Name == "dot_product" ? R + " += " +
                                    (Category == TypeCategory::Complex
                                         ? std::string(Kind == 4 ? "conjf(" : "conj(") + A + ")"
                                         : A) +
                                    " * " + B + ";"
      : Name == "count" ? "if (" + A + ") " + R + "++;"
      : Name == "any"   ? "if (" + A + ") " + R + " = 1;"
      : Name == "all"   ? "if (!(" + A + ")) " + R + " = 0;"
                        : "{ " + T + " jacc_v = " + A + "; if (jacc_v " +
                            (Name == "maxval" ? ">" : "<") + " " + R + ") " + R + " = jacc_v; }";
  std::vector<std::string> &Out = Dim ? ElementLines : Hoisted;
  Out.push_back(T + " " + R + " = " + Init + ";");
  std::string Indent;
  for (int D = Rank; D >= 1; --D) {
    if (Dim && D != *Dim)
      continue;
    std::string K = "jacc_e" + std::to_string(Dim ? 0 : D);
    Out.push_back(Indent + "for (long long " + K + " = 0; " + K + " < " + Extents[D - 1] + "; " +
                  K + "++) {");
    Indent += "  ";
  }
  for (const std::string &L : Inner)
    Out.push_back(Indent + L);
  Out.push_back(Indent + If + (If.empty() ? Update : "{ " + Update + " }"));
  for (int D = Rank; D >= 1; --D) {
    if (Dim && D != *Dim)
      continue;
    Indent.resize(Indent.size() - 2);
    Out.push_back(Indent + "}");
  }
  return R;
}

std::optional<std::string> KernelWriter::matrixIntrinsic(const std::string &Name,
                                                         const evaluate::ActualArguments &Args,
                                                         TypeCategory Category, int Kind) {
  if (Name != "matmul" && Name != "transpose")
    return std::nullopt;
  std::vector<const Expr<SomeType> *> Operands;
  for (const auto &Arg : Args)
    Operands.push_back(Arg ? Arg->UnwrapExpr() : nullptr);
  if (Operands.size() != (Name == "matmul" ? 2u : 1u) || llvm::is_contained(Operands, nullptr))
    return std::nullopt;
  const Expr<SomeType> &X = *Operands[0];
  int ResultRank = Name == "transpose" ? 2 : X.Rank() + Operands.back()->Rank() - 2;
  std::string T = cTypeOf(Category, Kind);
  if (ElementalRank != ResultRank || CounterBase != 0 || T.empty() ||
      Category == TypeCategory::Logical) {
    error("'" + Name +
          "' is translated as the right side of an array assignment of its "
          "result's rank (c(:, :) = matmul(a, b)), of numbers: write the loop");
    return "0";
  }
  // Each operand's element at the counters its dimensions take.
  auto At = [&](const Expr<SomeType> &E, std::vector<std::string> Names) {
    std::vector<std::string> Outer = std::move(Counters);
    int OuterRank = ElementalRank;
    Counters = std::move(Names);
    ElementalRank = E.Rank();
    std::string Text = expr(E);
    Counters = std::move(Outer);
    ElementalRank = OuterRank;
    return Text;
  };
  if (Name == "transpose")
    return At(X, {counter(2), counter(1)});
  // matmul: each element of the result is the sum over the inner dimension, in the innermost
  // loop of the assignment whose element it is.
  const Expr<SomeType> &Y = *Operands[1];
  std::optional<evaluate::Shape> Shape = evaluate::GetShape(Y);
  if (!Shape || Shape->empty() || !(*Shape)[0]) {
    error("the extent of matmul's second argument is not known: write the loop");
    return "0";
  }
  std::string Inner = expr(*(*Shape)[0]);
  std::string K = "jacc_k" + std::to_string(++Hoists);
  std::vector<std::string> OuterElementLines = std::move(ElementLines);
  ElementLines.clear();
  std::string A = X.Rank() == 2 ? At(X, {counter(1), K}) : At(X, {K});
  std::string B = Y.Rank() == 2 ? At(Y, {K, counter(X.Rank() == 2 ? ResultRank : 1)}) : At(Y, {K});
  std::vector<std::string> OperandLines = std::move(ElementLines);
  ElementLines = std::move(OuterElementLines);
  std::string R = "jacc_r" + std::to_string(++Hoists);
  ElementLines.push_back(T + " " + R + " = 0;");
  ElementLines.push_back("for (long long " + K + " = 0; " + K + " < " + Inner + "; " + K + "++) {");
  for (const std::string &L : OperandLines)
    ElementLines.push_back("  " + L);
  ElementLines.push_back("  " + R + " += " + A + " * " + B + ";");
  ElementLines.push_back("}");
  return R;
}

std::string KernelWriter::expr(const parser::Expr &E) {
  if (!E.typedExpr || !E.typedExpr->v) {
    error("an expression flang could not type");
    return "0";
  }
  return expr(*E.typedExpr->v);
}

// The expressions the other parts print: every operand type reaches the templates above.
template std::string KernelWriter::expr(const Expr<SomeType> &);

} // namespace jacc::translate::fortran
