// Tests of the host combination of reduction partial results: every operator on every scalar type,
// identity values, signed extremes, unsigned wrap-around and the bytes a combination may touch.
#include "src/launch/Reduction.h"

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace jacc;
using analysis::ReductionOp;
using analysis::ScalarType;

namespace {

/// Acc op Partial through combineReduction, with T the C type of ST.
template <typename T> T combine(ScalarType ST, ReductionOp Op, T Acc, T Partial) {
  combineReduction(Op, ST, &Acc, &Partial);
  return Acc;
}

template <typename T, ScalarType S> struct Case {
  using Type = T;
  static constexpr ScalarType ST = S;
};

template <typename C> class ReductionNumericTest : public ::testing::Test {};
using NumericTypes =
    ::testing::Types<Case<int8_t, ScalarType::I8>, Case<uint8_t, ScalarType::U8>,
                     Case<int16_t, ScalarType::I16>, Case<uint16_t, ScalarType::U16>,
                     Case<int32_t, ScalarType::I32>, Case<uint32_t, ScalarType::U32>,
                     Case<int64_t, ScalarType::I64>, Case<uint64_t, ScalarType::U64>,
                     Case<float, ScalarType::F32>, Case<double, ScalarType::F64>,
                     Case<long double, ScalarType::F80>>;
TYPED_TEST_SUITE(ReductionNumericTest, NumericTypes);

template <typename C> class ReductionIntegralTest : public ::testing::Test {};
using IntegralTypes =
    ::testing::Types<Case<int8_t, ScalarType::I8>, Case<uint8_t, ScalarType::U8>,
                     Case<int16_t, ScalarType::I16>, Case<uint16_t, ScalarType::U16>,
                     Case<int32_t, ScalarType::I32>, Case<uint32_t, ScalarType::U32>,
                     Case<int64_t, ScalarType::I64>, Case<uint64_t, ScalarType::U64>>;
TYPED_TEST_SUITE(ReductionIntegralTest, IntegralTypes);

#define COMBINE(Op, A, B)                                                                          \
  combine<typename TypeParam::Type>(TypeParam::ST, ReductionOp::Op,                                \
                                    static_cast<typename TypeParam::Type>(A),                      \
                                    static_cast<typename TypeParam::Type>(B))
#define VAL(X) static_cast<typename TypeParam::Type>(X)

TYPED_TEST(ReductionNumericTest, Add) {
  EXPECT_EQ(COMBINE(Add, 3, 4), VAL(7));
  EXPECT_EQ(COMBINE(Add, 0, 9), VAL(9));
  EXPECT_EQ(COMBINE(Add, 100, 27), VAL(127));
}

TYPED_TEST(ReductionNumericTest, Mul) {
  EXPECT_EQ(COMBINE(Mul, 3, 4), VAL(12));
  EXPECT_EQ(COMBINE(Mul, 5, 0), VAL(0));
  EXPECT_EQ(COMBINE(Mul, 1, 11), VAL(11));
}

TYPED_TEST(ReductionNumericTest, MaxAndMin) {
  EXPECT_EQ(COMBINE(Max, 3, 4), VAL(4));
  EXPECT_EQ(COMBINE(Max, 4, 3), VAL(4));
  EXPECT_EQ(COMBINE(Max, 5, 5), VAL(5));
  EXPECT_EQ(COMBINE(Min, 3, 4), VAL(3));
  EXPECT_EQ(COMBINE(Min, 4, 3), VAL(3));
  EXPECT_EQ(COMBINE(Min, 0, 120), VAL(0));
}

TYPED_TEST(ReductionNumericTest, LogicalAndOr) {
  // The result is the truth value, 0 or 1, in the variable's type.
  EXPECT_EQ(COMBINE(LogAnd, 3, 4), VAL(1));
  EXPECT_EQ(COMBINE(LogAnd, 3, 0), VAL(0));
  EXPECT_EQ(COMBINE(LogAnd, 0, 4), VAL(0));
  EXPECT_EQ(COMBINE(LogAnd, 0, 0), VAL(0));
  EXPECT_EQ(COMBINE(LogOr, 3, 4), VAL(1));
  EXPECT_EQ(COMBINE(LogOr, 0, 7), VAL(1));
  EXPECT_EQ(COMBINE(LogOr, 7, 0), VAL(1));
  EXPECT_EQ(COMBINE(LogOr, 0, 0), VAL(0));
}

TYPED_TEST(ReductionNumericTest, IdentityLeavesTheOtherOperand) {
  using T = typename TypeParam::Type;
  constexpr bool Float = !std::numeric_limits<T>::is_integer;
  const T Lowest = Float ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  const T Highest = Float ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  for (T X : {VAL(0), VAL(1), VAL(42), VAL(std::numeric_limits<T>::max()),
              VAL(std::numeric_limits<T>::lowest())}) {
    // identity op X and X op identity are X.
    EXPECT_EQ(COMBINE(Add, 0, X), X);
    EXPECT_EQ(COMBINE(Add, X, 0), X);
    EXPECT_EQ(COMBINE(Mul, 1, X), X);
    EXPECT_EQ(COMBINE(Mul, X, 1), X);
    EXPECT_EQ(COMBINE(Max, Lowest, X), X);
    EXPECT_EQ(COMBINE(Max, X, Lowest), X);
    EXPECT_EQ(COMBINE(Min, Highest, X), X);
    EXPECT_EQ(COMBINE(Min, X, Highest), X);
    // Logical: the identity keeps X's truth value.
    EXPECT_EQ(COMBINE(LogAnd, 1, X), VAL(X != 0));
    EXPECT_EQ(COMBINE(LogOr, 0, X), VAL(X != 0));
  }
}

TYPED_TEST(ReductionNumericTest, TouchesOnlyTheValueBytes) {
  using T = typename TypeParam::Type;
  // Slots are 8 bytes (16 for long double); the bytes after the value must stay as they are.
  unsigned char Acc[32], Partial[32];
  std::memset(Acc, 0xab, sizeof Acc);
  std::memset(Partial, 0xcd, sizeof Partial);
  T A = 5, B = 6;
  std::memcpy(Acc, &A, sizeof A);
  std::memcpy(Partial, &B, sizeof B);
  combineReduction(ReductionOp::Add, TypeParam::ST, Acc, Partial);
  T R;
  std::memcpy(&R, Acc, sizeof R);
  EXPECT_EQ(R, VAL(11));
  for (size_t I = sizeof(T); I < sizeof Acc; ++I)
    EXPECT_EQ(Acc[I], 0xab) << "byte " << I;
  for (size_t I = sizeof(T); I < sizeof Partial; ++I)
    EXPECT_EQ(Partial[I], 0xcd) << "byte " << I;
  std::memcpy(&R, Partial, sizeof R);
  EXPECT_EQ(R, VAL(6)); // the partial is not modified
}

TYPED_TEST(ReductionIntegralTest, Bitwise) {
  EXPECT_EQ(COMBINE(BitAnd, 0x0c, 0x0a), VAL(0x08));
  EXPECT_EQ(COMBINE(BitOr, 0x0c, 0x0a), VAL(0x0e));
  EXPECT_EQ(COMBINE(BitXor, 0x0c, 0x0a), VAL(0x06));
  EXPECT_EQ(COMBINE(BitXor, 0x5a, 0x5a), VAL(0));
  EXPECT_EQ(COMBINE(BitAnd, 0x7f, 0), VAL(0));
}

TYPED_TEST(ReductionIntegralTest, BitwiseIdentity) {
  using T = typename TypeParam::Type;
  const T AllOnes = static_cast<T>(~static_cast<T>(0));
  for (T X : {VAL(0), VAL(1), VAL(0x5a), VAL(std::numeric_limits<T>::max()),
              VAL(std::numeric_limits<T>::lowest())}) {
    EXPECT_EQ(COMBINE(BitAnd, AllOnes, X), X);
    EXPECT_EQ(COMBINE(BitAnd, X, AllOnes), X);
    EXPECT_EQ(COMBINE(BitOr, 0, X), X);
    EXPECT_EQ(COMBINE(BitOr, X, 0), X);
    EXPECT_EQ(COMBINE(BitXor, 0, X), X);
    EXPECT_EQ(COMBINE(BitXor, X, 0), X);
  }
}

TYPED_TEST(ReductionIntegralTest, BitwiseUsesEveryBit) {
  using T = typename TypeParam::Type;
  const T High = static_cast<T>(static_cast<T>(1) << (8 * sizeof(T) - 1)); // the top bit
  EXPECT_EQ(COMBINE(BitOr, High, 1), VAL(High | 1));
  EXPECT_EQ(COMBINE(BitXor, High, High | 1), VAL(1));
  EXPECT_EQ(COMBINE(BitAnd, High | 3, High | 6), VAL(High | 2));
}

/// reductionIdentity's value of Op for TypeParam, read back as the type.
#define IDENTITY(Op)                                                                               \
  [] {                                                                                             \
    typename TypeParam::Type V;                                                                    \
    std::memset(&V, 0x5c, sizeof V);                                                               \
    reductionIdentity(ReductionOp::Op, TypeParam::ST, &V);                                         \
    return V;                                                                                      \
  }()

TYPED_TEST(ReductionNumericTest, ReductionIdentityIsEachOperatorsIdentity) {
  using T = typename TypeParam::Type;
  for (T X : {VAL(0), VAL(1), VAL(42), VAL(std::numeric_limits<T>::max()),
              VAL(std::numeric_limits<T>::lowest())}) {
    EXPECT_EQ(COMBINE(Add, IDENTITY(Add), X), X);
    EXPECT_EQ(COMBINE(Mul, IDENTITY(Mul), X), X);
    EXPECT_EQ(COMBINE(Max, IDENTITY(Max), X), X);
    EXPECT_EQ(COMBINE(Min, IDENTITY(Min), X), X);
    EXPECT_EQ(COMBINE(LogAnd, IDENTITY(LogAnd), X), VAL(X != 0));
    EXPECT_EQ(COMBINE(LogOr, IDENTITY(LogOr), X), VAL(X != 0));
  }
  if (!std::numeric_limits<T>::is_integer) {
    EXPECT_EQ(IDENTITY(Max), -std::numeric_limits<T>::infinity());
    EXPECT_EQ(IDENTITY(Min), std::numeric_limits<T>::infinity());
  }
}

TYPED_TEST(ReductionIntegralTest, ReductionIdentityOfBitwiseOperators) {
  using T = typename TypeParam::Type;
  EXPECT_EQ(IDENTITY(BitAnd), static_cast<T>(~static_cast<T>(0)));
  EXPECT_EQ(IDENTITY(BitOr), VAL(0));
  EXPECT_EQ(IDENTITY(BitXor), VAL(0));
}

#undef IDENTITY
#undef COMBINE
#undef VAL

TEST(ReductionTest, ReductionIdentityOfBoolAndComplexValues) {
  auto BoolIdentity = [](ReductionOp Op) {
    uint8_t B = 0x5c;
    reductionIdentity(Op, ScalarType::Bool, &B);
    return B;
  };
  for (ReductionOp Op : {ReductionOp::Add, ReductionOp::Max, ReductionOp::BitOr,
                         ReductionOp::BitXor, ReductionOp::LogOr})
    EXPECT_EQ(BoolIdentity(Op), 0);
  for (ReductionOp Op : {ReductionOp::Mul, ReductionOp::Min, ReductionOp::BitAnd,
                         ReductionOp::LogAnd})
    EXPECT_EQ(BoolIdentity(Op), 1);
  std::complex<double> Z(7, 7);
  reductionIdentity(ReductionOp::Add, ScalarType::C64, &Z);
  EXPECT_EQ(Z, std::complex<double>(0, 0));
  reductionIdentity(ReductionOp::Mul, ScalarType::C64, &Z);
  EXPECT_EQ(Z, std::complex<double>(1, 0));
}

TEST(ReductionTest, Bool) {
  auto B = [](ReductionOp Op, bool A, bool P) { return combine<bool>(ScalarType::Bool, Op, A, P); };
  // + on _Bool saturates at true, as C converts the sum to _Bool.
  EXPECT_EQ(B(ReductionOp::Add, false, false), false);
  EXPECT_EQ(B(ReductionOp::Add, false, true), true);
  EXPECT_EQ(B(ReductionOp::Add, true, true), true);
  EXPECT_EQ(B(ReductionOp::Mul, true, true), true);
  EXPECT_EQ(B(ReductionOp::Mul, true, false), false);
  EXPECT_EQ(B(ReductionOp::Max, false, true), true);
  EXPECT_EQ(B(ReductionOp::Max, false, false), false);
  EXPECT_EQ(B(ReductionOp::Min, true, false), false);
  EXPECT_EQ(B(ReductionOp::Min, true, true), true);
  EXPECT_EQ(B(ReductionOp::BitAnd, true, false), false);
  EXPECT_EQ(B(ReductionOp::BitAnd, true, true), true);
  EXPECT_EQ(B(ReductionOp::BitOr, false, true), true);
  EXPECT_EQ(B(ReductionOp::BitOr, false, false), false);
  EXPECT_EQ(B(ReductionOp::BitXor, true, true), false);
  EXPECT_EQ(B(ReductionOp::BitXor, true, false), true);
  EXPECT_EQ(B(ReductionOp::LogAnd, true, true), true);
  EXPECT_EQ(B(ReductionOp::LogAnd, true, false), false);
  EXPECT_EQ(B(ReductionOp::LogOr, false, true), true);
  EXPECT_EQ(B(ReductionOp::LogOr, false, false), false);
  // Identities: 0 for + | ^ || max, 1 for * & && min.
  for (bool X : {false, true}) {
    EXPECT_EQ(B(ReductionOp::Add, false, X), X);
    EXPECT_EQ(B(ReductionOp::Mul, true, X), X);
    EXPECT_EQ(B(ReductionOp::Max, false, X), X);
    EXPECT_EQ(B(ReductionOp::Min, true, X), X);
    EXPECT_EQ(B(ReductionOp::BitAnd, true, X), X);
    EXPECT_EQ(B(ReductionOp::BitOr, false, X), X);
    EXPECT_EQ(B(ReductionOp::BitXor, false, X), X);
    EXPECT_EQ(B(ReductionOp::LogAnd, true, X), X);
    EXPECT_EQ(B(ReductionOp::LogOr, false, X), X);
  }
}

TEST(ReductionTest, BoolPartialsAreReadAsBytes) {
  // A device's partial may hold any non-zero byte for true (a mock or garbage-free GPU result
  // alike): it counts as true, and the accumulator is left a valid bool.
  uint8_t Acc = 0, Partial = 190;
  combineReduction(ReductionOp::LogOr, ScalarType::Bool, &Acc, &Partial);
  EXPECT_EQ(Acc, 1);
  Acc = 1;
  combineReduction(ReductionOp::BitXor, ScalarType::Bool, &Acc, &Partial);
  EXPECT_EQ(Acc, 0);
}

TEST(ReductionTest, SignedMaxMinWithNegatives) {
  EXPECT_EQ(combine<int8_t>(ScalarType::I8, ReductionOp::Max, -5, -3), -3);
  EXPECT_EQ(combine<int8_t>(ScalarType::I8, ReductionOp::Min, -5, 3), -5);
  EXPECT_EQ(combine<int8_t>(ScalarType::I8, ReductionOp::Max, -128, -1), -1);
  EXPECT_EQ(combine<int16_t>(ScalarType::I16, ReductionOp::Max, -30000, -29999), -29999);
  EXPECT_EQ(combine<int16_t>(ScalarType::I16, ReductionOp::Min, 1, -1), -1);
  EXPECT_EQ(combine<int32_t>(ScalarType::I32, ReductionOp::Max, -7, 0), 0);
  EXPECT_EQ(combine<int32_t>(ScalarType::I32, ReductionOp::Min, -7, -8), -8);
  EXPECT_EQ(combine<int32_t>(ScalarType::I32, ReductionOp::Min, INT32_MIN, INT32_MAX), INT32_MIN);
  EXPECT_EQ(combine<int64_t>(ScalarType::I64, ReductionOp::Max, INT64_MIN, -1), -1);
  EXPECT_EQ(combine<int64_t>(ScalarType::I64, ReductionOp::Min, -1, INT64_MIN), INT64_MIN);
  EXPECT_EQ(combine<float>(ScalarType::F32, ReductionOp::Max, -2.5f, -1.5f), -1.5f);
  EXPECT_EQ(combine<float>(ScalarType::F32, ReductionOp::Min, -2.5f, 1.5f), -2.5f);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::Max, -1e300, -1e299), -1e299);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::Min, 0.0, -0.25), -0.25);
  EXPECT_EQ(combine<long double>(ScalarType::F80, ReductionOp::Max, -3.0L, -4.0L), -3.0L);
  EXPECT_EQ(combine<long double>(ScalarType::F80, ReductionOp::Min, -3.0L, -4.0L), -4.0L);
}

TEST(ReductionTest, SignedArithmetic) {
  EXPECT_EQ(combine<int8_t>(ScalarType::I8, ReductionOp::Add, -5, 3), -2);
  EXPECT_EQ(combine<int16_t>(ScalarType::I16, ReductionOp::Mul, -3, 4), -12);
  EXPECT_EQ(combine<int32_t>(ScalarType::I32, ReductionOp::Mul, -3, -4), 12);
  EXPECT_EQ(combine<int64_t>(ScalarType::I64, ReductionOp::Add, -(1LL << 40), 1), -(1LL << 40) + 1);
  EXPECT_EQ(combine<int64_t>(ScalarType::I64, ReductionOp::Mul, 1LL << 31, 1LL << 31), 1LL << 62);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::Add, 0.5, -2.25), -1.75);
  EXPECT_EQ(combine<float>(ScalarType::F32, ReductionOp::Mul, -0.5f, 8.0f), -4.0f);
  // Negative values are true for && and ||.
  EXPECT_EQ(combine<int32_t>(ScalarType::I32, ReductionOp::LogAnd, -1, -2), 1);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::LogOr, 0.0, -0.5), 1.0);
  // Signed bitwise on negative values (two's complement).
  EXPECT_EQ(combine<int8_t>(ScalarType::I8, ReductionOp::BitAnd, -1, 0x35), 0x35);
  EXPECT_EQ(combine<int16_t>(ScalarType::I16, ReductionOp::BitXor, -1, 0), -1);
  EXPECT_EQ(combine<int32_t>(ScalarType::I32, ReductionOp::BitOr, INT32_MIN, 1), INT32_MIN + 1);
}

TEST(ReductionTest, UnsignedWrapAround) {
  EXPECT_EQ(combine<uint8_t>(ScalarType::U8, ReductionOp::Add, 200, 100), 44);
  EXPECT_EQ(combine<uint8_t>(ScalarType::U8, ReductionOp::Mul, 16, 16), 0);
  EXPECT_EQ(combine<uint8_t>(ScalarType::U8, ReductionOp::Mul, 17, 17), 33); // 289 - 256
  EXPECT_EQ(combine<uint16_t>(ScalarType::U16, ReductionOp::Add, 65535, 1), 0);
  EXPECT_EQ(combine<uint16_t>(ScalarType::U16, ReductionOp::Mul, 256, 257), 256);
  EXPECT_EQ(combine<uint32_t>(ScalarType::U32, ReductionOp::Add, 0xffffffffu, 2), 1u);
  EXPECT_EQ(combine<uint32_t>(ScalarType::U32, ReductionOp::Mul, 0x10000u, 0x10001u), 0x10000u);
  EXPECT_EQ(combine<uint64_t>(ScalarType::U64, ReductionOp::Add, UINT64_MAX, 1), 0u);
  EXPECT_EQ(combine<uint64_t>(ScalarType::U64, ReductionOp::Mul, 1ULL << 32, 1ULL << 32), 0u);
}

TEST(ReductionTest, UnsignedMaxMinAreUnsigned) {
  // The high values are large, not negative.
  EXPECT_EQ(combine<uint8_t>(ScalarType::U8, ReductionOp::Max, 255, 1), 255);
  EXPECT_EQ(combine<uint8_t>(ScalarType::U8, ReductionOp::Min, 255, 1), 1);
  EXPECT_EQ(combine<uint16_t>(ScalarType::U16, ReductionOp::Max, 1, 0x8000), 0x8000);
  EXPECT_EQ(combine<uint32_t>(ScalarType::U32, ReductionOp::Max, 0x80000000u, 7), 0x80000000u);
  EXPECT_EQ(combine<uint64_t>(ScalarType::U64, ReductionOp::Min, UINT64_MAX, 3), 3u);
  EXPECT_EQ(combine<uint64_t>(ScalarType::U64, ReductionOp::Max, UINT64_MAX, 3), UINT64_MAX);
}

TEST(ReductionTest, SignedWrapAroundOfNarrowTypes) {
  // The sum is computed in int and converted back, as C does for char and short.
  EXPECT_EQ(combine<int8_t>(ScalarType::I8, ReductionOp::Add, 127, 1), -128);
  EXPECT_EQ(combine<int16_t>(ScalarType::I16, ReductionOp::Add, 32767, 2), -32767);
}

TEST(ReductionTest, FloatingPrecisionIsKept) {
  // Each type is combined at its own precision: float rounds, double and long double do not.
  EXPECT_EQ(combine<float>(ScalarType::F32, ReductionOp::Add, 16777216.0f, 1.0f), 16777216.0f);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::Add, 16777216.0, 1.0), 16777217.0);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::Add, 9007199254740992.0, 1.0),
            9007199254740992.0);
  EXPECT_EQ(combine<long double>(ScalarType::F80, ReductionOp::Add, 9007199254740992.0L, 1.0L),
            9007199254740993.0L);
  EXPECT_EQ(combine<double>(ScalarType::F64, ReductionOp::Mul, 1e200, 1e200),
            std::numeric_limits<double>::infinity());
}

TEST(ReductionTest, LongDoubleKeepsItsPrecisionInItsSixteenBytes) {
  long double Acc = 1.0L, Partial = 0x1p-60L; // lost in a double
  combineReduction(ReductionOp::Add, ScalarType::F80, &Acc, &Partial);
  EXPECT_EQ(Acc, 1.0L + 0x1p-60L);
}

template <typename T> class ReductionComplexTest : public ::testing::Test {};
using ComplexTypes = ::testing::Types<Case<std::complex<float>, ScalarType::C32>,
                                      Case<std::complex<double>, ScalarType::C64>,
                                      Case<std::complex<long double>, ScalarType::C80>>;
TYPED_TEST_SUITE(ReductionComplexTest, ComplexTypes);

TYPED_TEST(ReductionComplexTest, AddAndMultiplyAsComplexNumbers) {
  using T = typename TypeParam::Type;
  EXPECT_EQ(combine<T>(TypeParam::ST, ReductionOp::Add, T(1, 2), T(3, -5)), T(4, -3));
  // (1 + 2i)(3 - 5i) = 3 - 5i + 6i + 10 = 13 + i
  EXPECT_EQ(combine<T>(TypeParam::ST, ReductionOp::Mul, T(1, 2), T(3, -5)), T(13, 1));
  EXPECT_EQ(combine<T>(TypeParam::ST, ReductionOp::Mul, T(0, 1), T(0, 1)), T(-1, 0));
}

TYPED_TEST(ReductionComplexTest, TouchesOnlyTheValueBytes) {
  using T = typename TypeParam::Type;
  unsigned char Acc[48], Partial[48];
  std::memset(Acc, 0xab, sizeof Acc);
  std::memset(Partial, 0xcd, sizeof Partial);
  T A(1, 1), B(2, -3);
  std::memcpy(Acc, &A, sizeof A);
  std::memcpy(Partial, &B, sizeof B);
  combineReduction(ReductionOp::Add, TypeParam::ST, Acc, Partial);
  T R;
  std::memcpy(&R, Acc, sizeof R);
  EXPECT_EQ(R, T(3, -2));
  for (size_t I = sizeof(T); I < sizeof Acc; ++I)
    EXPECT_EQ(Acc[I], 0xab) << "byte " << I;
}

} // namespace
