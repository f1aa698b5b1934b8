// Derived types as C structs (DerivedTypes.h): gfortran lays out a type without type parameters
// as C lays out a struct of the same members in the same order.
#include "translate/fortran/DerivedTypes.h"

#include "support/Error.h"

#include <flang/Evaluate/tools.h>
#include <flang/Semantics/scope.h>
#include <flang/Semantics/symbol.h>
#include <flang/Semantics/tools.h>
#include <flang/Semantics/type.h>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/xxhash.h>

namespace jacc::translate::fortran {

namespace semantics = Fortran::semantics;
namespace evaluate = Fortran::evaluate;

const semantics::DerivedTypeSpec *derivedType(const semantics::Symbol &Symbol) {
  const semantics::DeclTypeSpec *Type = Symbol.GetType();
  return Type && Type->category() == semantics::DeclTypeSpec::TypeDerived ? Type->AsDerived()
                                                                          : nullptr;
}

bool takenByComponents(const semantics::Symbol &Symbol) {
  const semantics::DerivedTypeSpec *Type = derivedType(Symbol);
  if (!Type)
    return false;
  auto Structs = structsOf(*Type);
  if (Structs)
    return false;
  llvm::consumeError(Structs.takeError()); // taken by components, or the variable's own error
  return true;
}

HostVariable componentArray(const semantics::Symbol &Component) {
  HostVariable V;
  V.Symbol = &Component;
  V.Name = cName(Component);
  V.Rank = Component.Rank();
  const auto *Object = Component.detailsIf<semantics::ObjectEntityDetails>();
  for (int D = 0; Object && D < V.Rank && D < static_cast<int>(Object->shape().size()); ++D) {
    const semantics::ShapeSpec &Dim = Object->shape()[D];
    std::optional<int64_t> Lower = 1, Upper;
    if (const auto &E = Dim.lbound().GetExplicit())
      Lower = evaluate::ToInt64(*E);
    if (const auto &E = Dim.ubound().GetExplicit())
      Upper = evaluate::ToInt64(*E);
    if (!Lower || !Upper)
      return HostVariable{};
    V.Lower.push_back(std::to_string(*Lower));
    V.Extent.push_back(std::to_string(*Upper - *Lower + 1));
  }
  return V;
}

llvm::Expected<std::vector<CStruct>> structsOf(const semantics::DerivedTypeSpec &Spec) {
  std::string Type = Spec.typeSymbol().name().ToString();
  auto Unsupported = [&](const std::string &Why) {
    return makeError(ErrorCode::Unsupported,
                     "type '" + Type + "' " + Why +
                         ": jacc's kernels take derived types whose components are integer, "
                         "logical, real or such derived types, scalars or arrays of constant "
                         "shape, and the components of a scalar variable of any type (m%u), not "
                         "those of an array's elements");
  };
  if (!Spec.parameters().empty())
    return Unsupported("has type parameters");
  const semantics::Scope *Scope = Spec.scope() ? Spec.scope() : Spec.typeSymbol().scope();
  const auto *Details = Spec.typeSymbol().detailsIf<semantics::DerivedTypeDetails>();
  if (!Scope || !Details)
    return Unsupported("is not defined here");
  std::vector<CStruct> Structs;
  std::string Body;
  for (const semantics::SourceName &Name : Details->componentNames()) {
    auto Found = Scope->find(Name);
    if (Found == Scope->end())
      return Unsupported("has a component flang did not resolve");
    const semantics::Symbol &C = *Found->second;
    std::string What = "the component '" + Name.ToString() + "'";
    if (!C.has<semantics::ObjectEntityDetails>())
      return Unsupported("has " + What + ", a procedure pointer");
    if (semantics::IsAllocatable(C))
      return Unsupported("has " + What + ", an allocatable");
    if (semantics::IsPointer(C))
      return Unsupported("has " + What + ", a pointer");
    std::string CType = cType(C);
    if (CType.empty()) {
      const semantics::DerivedTypeSpec *Inner = derivedType(C);
      if (!Inner)
        return Unsupported("has " + What +
                           ", of a type jacc's kernels have no C type for "
                           "(complex, character, polymorphic)");
      auto InnerStructs = structsOf(*Inner);
      if (!InnerStructs)
        return InnerStructs.takeError();
      CType = InnerStructs->back().Name;
      for (CStruct &S : *InnerStructs)
        if (llvm::none_of(Structs, [&](const CStruct &Had) { return Had.Name == S.Name; }))
          Structs.push_back(std::move(S));
    }
    std::string Dimensions;
    if (C.Rank() > 0) {
      HostVariable A = componentArray(C);
      if (A.Rank != C.Rank() || static_cast<int>(A.Extent.size()) != A.Rank)
        return Unsupported("has " + What + ", an array whose bounds are not constant");
      for (int D = A.Rank; D-- > 0;) {
        if (std::stoll(A.Extent[D]) <= 0)
          return Unsupported("has " + What + ", an array of no elements");
        Dimensions += "[" + A.Extent[D] + "]";
      }
    }
    Body += "  " + CType + " " + cName(C) + Dimensions + ";\n";
  }
  if (Body.empty())
    return Unsupported("has no components");
  // Types of one name in two scopes of a file differ: the name carries the members' hash.
  std::string CName = "jacc_t_" + llvm::StringRef(Type).lower() + "_" +
                      llvm::utohexstr(llvm::xxHash64(Body) & 0xffffffff, /*LowerCase=*/true);
  Structs.push_back({CName, "typedef struct {\n" + Body + "} " + CName + ";\n"});
  return Structs;
}

} // namespace jacc::translate::fortran
