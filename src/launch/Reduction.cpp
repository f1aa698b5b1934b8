// Each reduction operator over each C scalar type (a bool by its byte), the operators' identities,
// and a push's results combined from its launches' partials.
#include "src/launch/Reduction.h"

#include "src/launch/KernelLaunch.h"

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace jacc {

using analysis::ReductionOp;
using analysis::ScalarType;

template <typename T> struct IsComplex : std::false_type {};
template <typename T> struct IsComplex<std::complex<T>> : std::true_type {};

template <typename T> static T apply(ReductionOp Op, T A, T B) {
  if (Op == ReductionOp::Add)
    return static_cast<T>(A + B);
  if (Op == ReductionOp::Mul)
    return static_cast<T>(A * B);
  if constexpr (!IsComplex<T>::value) { // complex variables: + and * only (the frontend)
    switch (Op) {
    case ReductionOp::Max: return B > A ? B : A;
    case ReductionOp::Min: return B < A ? B : A;
    case ReductionOp::LogAnd: return static_cast<T>(A && B);
    case ReductionOp::LogOr: return static_cast<T>(A || B);
    default: break;
    }
  }
  if constexpr (std::is_integral_v<T>) {
    switch (Op) {
    case ReductionOp::BitAnd: return static_cast<T>(A & B);
    case ReductionOp::BitOr: return static_cast<T>(A | B);
    case ReductionOp::BitXor: return static_cast<T>(A ^ B);
    default: break;
    }
  }
  return A; // bitwise operators on floating types are rejected by the frontend
}

template <typename T> static void combineAs(ReductionOp Op, void *Acc, const void *Partial) {
  T A, B;
  std::memcpy(&A, Acc, sizeof A);
  std::memcpy(&B, Partial, sizeof B);
  A = apply<T>(Op, A, B);
  std::memcpy(Acc, &A, sizeof A);
}

/// A bool partial is read as its byte: a device may leave any non-zero byte for true (and a bool
/// object holding one is undefined behaviour in C++).
static void combineBool(ReductionOp Op, void *Acc, const void *Partial) {
  uint8_t A, B;
  std::memcpy(&A, Acc, 1);
  std::memcpy(&B, Partial, 1);
  uint8_t R = apply<bool>(Op, A != 0, B != 0) ? 1 : 0;
  std::memcpy(Acc, &R, 1);
}

void combineReduction(ReductionOp Op, ScalarType T, void *Acc, const void *Partial) {
  switch (T) {
  case ScalarType::Bool: return combineBool(Op, Acc, Partial);
  case ScalarType::I8: return combineAs<int8_t>(Op, Acc, Partial);
  case ScalarType::U8: return combineAs<uint8_t>(Op, Acc, Partial);
  case ScalarType::I16: return combineAs<int16_t>(Op, Acc, Partial);
  case ScalarType::U16: return combineAs<uint16_t>(Op, Acc, Partial);
  case ScalarType::I32: return combineAs<int32_t>(Op, Acc, Partial);
  case ScalarType::U32: return combineAs<uint32_t>(Op, Acc, Partial);
  case ScalarType::I64: return combineAs<int64_t>(Op, Acc, Partial);
  case ScalarType::U64: return combineAs<uint64_t>(Op, Acc, Partial);
  case ScalarType::F32: return combineAs<float>(Op, Acc, Partial);
  case ScalarType::F64: return combineAs<double>(Op, Acc, Partial);
  case ScalarType::F80: return combineAs<long double>(Op, Acc, Partial);
  // std::complex<T> has C's T _Complex layout (C++ [complex.numbers]).
  case ScalarType::C32: return combineAs<std::complex<float>>(Op, Acc, Partial);
  case ScalarType::C64: return combineAs<std::complex<double>>(Op, Acc, Partial);
  case ScalarType::C80: return combineAs<std::complex<long double>>(Op, Acc, Partial);
  }
}

template <typename T> static T identity(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Mul:
  case ReductionOp::LogAnd:
    return T(1);
  case ReductionOp::Max:
  case ReductionOp::Min:
    if constexpr (!IsComplex<T>::value) {
      bool Max = Op == ReductionOp::Max; // the identity of max is the lowest value
      if constexpr (std::numeric_limits<T>::has_infinity)
        return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
      else
        return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
    return T(0);
  case ReductionOp::BitAnd:
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(~T(0));
    return T(0);
  default: // + | ^ ||
    return T(0);
  }
}

template <typename T> static void identityAs(ReductionOp Op, void *Out) {
  T V = identity<T>(Op);
  std::memcpy(Out, &V, sizeof V);
}

void reductionIdentity(ReductionOp Op, ScalarType T, void *Out) {
  switch (T) {
  case ScalarType::Bool: {
    // false for || | ^ and max, true for && & * and min (as the generated code's identities).
    bool One = Op == ReductionOp::LogAnd || Op == ReductionOp::BitAnd ||
               Op == ReductionOp::Mul || Op == ReductionOp::Min;
    uint8_t B = One ? 1 : 0;
    std::memcpy(Out, &B, 1);
    return;
  }
  case ScalarType::I8: return identityAs<int8_t>(Op, Out);
  case ScalarType::U8: return identityAs<uint8_t>(Op, Out);
  case ScalarType::I16: return identityAs<int16_t>(Op, Out);
  case ScalarType::U16: return identityAs<uint16_t>(Op, Out);
  case ScalarType::I32: return identityAs<int32_t>(Op, Out);
  case ScalarType::U32: return identityAs<uint32_t>(Op, Out);
  case ScalarType::I64: return identityAs<int64_t>(Op, Out);
  case ScalarType::U64: return identityAs<uint64_t>(Op, Out);
  case ScalarType::F32: return identityAs<float>(Op, Out);
  case ScalarType::F64: return identityAs<double>(Op, Out);
  case ScalarType::F80: return identityAs<long double>(Op, Out);
  case ScalarType::C32: return identityAs<std::complex<float>>(Op, Out);
  case ScalarType::C64: return identityAs<std::complex<double>>(Op, Out);
  case ScalarType::C80: return identityAs<std::complex<long double>>(Op, Out);
  }
}

/// Acc op= every partial of Parts in slot Slot.
static void combineParts(const analysis::ReductionVar &R, unsigned Slot, void *Acc,
                         llvm::ArrayRef<const KernelLaunch *> Parts) {
  for (const KernelLaunch *L : Parts)
    for (unsigned T = 0; T < L->partials(); ++T)
      combineReduction(R.Op, R.Type, Acc, L->reductionSlot(T, Slot));
}

void ReductionResults::combine(const analysis::KernelInfo &Info,
                               llvm::ArrayRef<const KernelLaunch *> Parts) const {
  for (size_t I = 0; I < Info.Reductions.size(); ++I) {
    const analysis::ReductionVar &R = Info.Reductions[I];
    if (!R.isArray()) {
      ReductionValue Acc = Initial[I];
      combineParts(R, R.Slot, &Acc, Parts);
      std::memcpy(Results[I], &Acc, Info.Args[R.Arg].Size);
      continue;
    }
    if (Parts.empty() || Parts.front()->partials() == 0)
      continue;
    // Every thread evaluated the same first index.
    long long Lower;
    std::memcpy(&Lower, Parts.front()->reductionSlot(0, R.Slot + R.Count * R.words()),
                sizeof Lower);
    uint64_t Size = Info.Args[R.Arg].PointeeSize;
    char *First = static_cast<char *>(Results[I]) + Lower * static_cast<long long>(Size);
    for (unsigned E = 0; E < R.Count; ++E) {
      ReductionValue Acc{};
      std::memcpy(&Acc, First + E * Size, Size);
      combineParts(R, R.Slot + E * R.words(), &Acc, Parts);
      std::memcpy(First + E * Size, &Acc, Size);
    }
  }
}

} // namespace jacc
