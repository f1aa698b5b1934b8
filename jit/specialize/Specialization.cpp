// Specialization keys, exact C literals of scalar values, and the check of what may be folded.
#include "jit/specialize/Specialization.h"

#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/Twine.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace jacc::jit {

using namespace analysis;

namespace {

template <typename T> T load(const void *Bytes) {
  T V;
  std::memcpy(&V, Bytes, sizeof V);
  return V;
}

/// `((Type)V)`: the types narrower than int, whose literals C has not.
std::string castLiteral(const char *Type, long long V) {
  return std::string("((") + Type + ")" + std::to_string(V) + ")";
}

/// An IEEE binary value of FracBits fraction bits and bias Bias (Bits in the low bits) as an exact
/// hexadecimal floating literal with Suffix, or a bit cast from its integer image when it is a NaN
/// or an infinity.
std::string floatLiteral(uint64_t Bits, unsigned FracBits, unsigned ExpBits, const char *Suffix) {
  const uint64_t FracMask = (uint64_t(1) << FracBits) - 1;
  const uint64_t ExpMax = (uint64_t(1) << ExpBits) - 1;
  const int Bias = int(ExpMax >> 1);
  bool Neg = (Bits >> (FracBits + ExpBits)) & 1;
  uint64_t E = (Bits >> FracBits) & ExpMax, M = Bits & FracMask;
  if (E == ExpMax) { // both compilers fold the bit cast: exact sign and payload
    bool Double = FracBits > 32;
    return std::string("__builtin_bit_cast(") + (Double ? "double, 0x" : "float, 0x") +
           llvm::utohexstr(Bits, /*LowerCase=*/true) + (Double ? "ULL)" : "U)");
  }
  std::string Text;
  if (E == 0 && M == 0) {
    Text = "0x0p+0";
  } else {
    int Exp = int(E) - Bias;
    if (E == 0) { // subnormal: normalised, the literal is exact all the same
      Exp = 1 - Bias;
      while (!(M >> FracBits)) {
        M <<= 1;
        --Exp;
      }
      M &= FracMask;
    }
    unsigned Digits = (FracBits + 3) / 4;
    M <<= Digits * 4 - FracBits; // whole hexadecimal digits
    std::string Frac;
    for (unsigned D = Digits; D-- > 0;)
      Frac += llvm::hexdigit((M >> (4 * D)) & 0xf, /*LowerCase=*/true);
    Frac.erase(Frac.find_last_not_of('0') + 1);
    Text = "0x1" + (Frac.empty() ? "" : "." + Frac) + "p" + (Exp < 0 ? "-" : "+") +
           std::to_string(Exp < 0 ? -Exp : Exp);
  }
  Text += Suffix;
  return Neg ? "(-" + Text + ")" : Text;
}

} // namespace

std::string Specialization::key() const {
  std::vector<const ArgSpecialization *> Sorted;
  for (const ArgSpecialization &A : Args)
    Sorted.push_back(&A);
  std::stable_sort(
      Sorted.begin(), Sorted.end(),
      [](const ArgSpecialization *L, const ArgSpecialization *R) { return L->Param < R->Param; });
  std::string Key;
  for (const ArgSpecialization *A : Sorted) {
    if (!Key.empty())
      Key += ";";
    Key += A->Name.empty() ? "#" + std::to_string(A->Param) : A->Name;
    Key += "=" + A->Literal;
  }
  for (auto [Holds, Name] :
       {std::pair{Pointers.Disjoint, "restrict"}, std::pair{Pointers.Aligned, "aligned64"}})
    if (Holds)
      Key += (Key.empty() ? "" : ";") + std::string(Name);
  return Key;
}

std::optional<long long> foldedInteger(const Specialization &Spec, llvm::StringRef Name) {
  for (const ArgSpecialization &A : Spec.Args) {
    if (A.Name != Name)
      continue;
    llvm::StringRef L = A.Literal;
    // `((type)value)`: the value after the cast.
    if (L.consume_front("((")) {
      size_t Close = L.find(')');
      if (Close == llvm::StringRef::npos || !L.endswith(")"))
        return std::nullopt;
      L = L.drop_front(Close + 1).drop_back();
    }
    L = L.rtrim("uUlL");
    long long V;
    if (L.getAsInteger(10, V))
      return std::nullopt; // a floating literal, a value beyond long long
    return V;
  }
  return std::nullopt;
}

unsigned scalarTypeSize(ScalarType T) {
  switch (T) {
  case ScalarType::Bool:
  case ScalarType::I8:
  case ScalarType::U8:
    return 1;
  case ScalarType::I16:
  case ScalarType::U16:
    return 2;
  case ScalarType::I32:
  case ScalarType::U32:
  case ScalarType::F32:
    return 4;
  case ScalarType::I64:
  case ScalarType::U64:
  case ScalarType::F64:
    return 8;
  case ScalarType::F80:
    return 16;
  case ScalarType::C32:
    return 8;
  case ScalarType::C64:
    return 16;
  case ScalarType::C80:
    return 32;
  }
  return 0;
}

bool isFoldable(ScalarType T) {
  return T != ScalarType::F80 && !isComplex(T);
}

llvm::Expected<std::string> scalarLiteral(ScalarType T, const void *Bytes) {
  switch (T) {
  case ScalarType::Bool:
    return std::string(load<uint8_t>(Bytes) ? "((_Bool)1)" : "((_Bool)0)");
  case ScalarType::I8:
    return castLiteral("signed char", load<int8_t>(Bytes));
  case ScalarType::U8:
    return castLiteral("unsigned char", load<uint8_t>(Bytes));
  case ScalarType::I16:
    return castLiteral("short", load<int16_t>(Bytes));
  case ScalarType::U16:
    return castLiteral("unsigned short", load<uint16_t>(Bytes));
  case ScalarType::I32: {
    // -2147483648 is the negation of a long literal: in range for the cast.
    int32_t V = load<int32_t>(Bytes);
    return V < 0 ? castLiteral("int", V) : std::to_string(V);
  }
  case ScalarType::U32:
    return std::to_string(load<uint32_t>(Bytes)) + "U";
  case ScalarType::I64: {
    int64_t V = load<int64_t>(Bytes);
    if (V == INT64_MIN) // 9223372036854775808LL does not fit
      return std::string("(-9223372036854775807LL-1)");
    return V < 0 ? "(" + std::to_string(V) + "LL)" : std::to_string(V) + "LL";
  }
  case ScalarType::U64:
    return std::to_string(load<uint64_t>(Bytes)) + "ULL";
  case ScalarType::F32:
    return floatLiteral(load<uint32_t>(Bytes), 23, 8, "f");
  case ScalarType::F64:
    return floatLiteral(load<uint64_t>(Bytes), 52, 11, "");
  case ScalarType::F80:
    break;
  case ScalarType::C32:
  case ScalarType::C64:
  case ScalarType::C80:
    return makeError(ErrorCode::Unsupported,
                     "a complex value cannot be folded into a kernel (C has no complex literal)");
  }
  return makeError(ErrorCode::Unsupported,
                   "a long double value cannot be folded into a kernel (CUDA devices have no long "
                   "double, and the host literal would not be exact)");
}

llvm::Error checkSpecialization(const KernelInfo &K, const Specialization &Spec) {
  std::vector<const ArgInfo *> ByParam(K.Args.size(), nullptr);
  for (const ArgInfo &A : K.Args)
    if (A.Param < ByParam.size())
      ByParam[A.Param] = &A;
  std::vector<bool> Seen(K.Args.size(), false);
  for (const ArgSpecialization &S : Spec.Args) {
    if (S.Param >= ByParam.size() || !ByParam[S.Param])
      return makeError(ErrorCode::InvalidArgument,
                       "specialization: no argument is parameter " + llvm::Twine(S.Param) +
                           " of the kernel (it has " + llvm::Twine(K.Args.size()) + ")");
    const ArgInfo &A = *ByParam[S.Param];
    std::string Where = "specialization of argument '" + A.Decl + "'";
    if (Seen[S.Param])
      return makeError(ErrorCode::InvalidArgument, Where + ": the argument is folded twice");
    Seen[S.Param] = true;
    if (A.ArgKind != ArgInfo::Kind::Scalar)
      return makeError(ErrorCode::InvalidArgument,
                       Where + ": only scalar arguments can be folded to constants");
    if (!isFoldable(A.Scalar))
      return makeError(ErrorCode::Unsupported,
                       Where + ": " + scalarTypeName(A.Scalar) + " values cannot be folded");
    for (const ReductionVar &R : K.Reductions)
      if (R.Name == A.Name)
        return makeError(ErrorCode::InvalidArgument,
                         Where + ": it is a reduction variable (reduction(" +
                             reductionOpName(R.Op) + ":" + R.Name +
                             ")), whose value the kernel computes");
    if (S.Literal.empty())
      return makeError(ErrorCode::InvalidArgument, Where + ": no value");
  }
  if (Spec.Pointers.Disjoint && !K.MayRestrict)
    return makeError(ErrorCode::InvalidArgument,
                     "specialization: the kernel's pointer arguments cannot be declared restrict "
                     "(fewer than two, deviceptr ones, or data holding pointers)");
  if (Spec.Pointers.Aligned && !K.MayAlign)
    return makeError(ErrorCode::InvalidArgument,
                     "specialization: the kernel has no pointer argument to declare aligned");
  return llvm::Error::success();
}

llvm::Expected<Specialization> makeSpecialization(const KernelInfo &K,
                                                  llvm::ArrayRef<ArgValue> Values) {
  Specialization Spec;
  for (const ArgValue &V : Values) {
    const ArgInfo *Arg = nullptr;
    for (const ArgInfo &A : K.Args)
      if (A.Param == V.Param)
        Arg = &A;
    if (!Arg || Arg->ArgKind != ArgInfo::Kind::Scalar) { // checkSpecialization names the problem
      Spec.Args.push_back({V.Param, "?", Arg ? Arg->Name : ""});
      continue;
    }
    auto Literal = scalarLiteral(Arg->Scalar, V.Bytes);
    if (!Literal)
      return makeError(ErrorCode::Unsupported, "specialization of argument '" + Arg->Decl +
                                                   "': " + llvm::toString(Literal.takeError()));
    Spec.Args.push_back({V.Param, std::move(*Literal), Arg->Name});
  }
  if (auto E = checkSpecialization(K, Spec))
    return E;
  return Spec;
}

} // namespace jacc::jit
