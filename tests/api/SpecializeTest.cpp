// End to end: kernel specialization (JACC_SPECIALIZE). Each test sets its own policy (restored
// afterwards: the api suite also runs whole under always and off) and pushes a kernel of its own
// (kernels and their variants outlive jacc_finalize in the kernel cache).
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using jacc::ScopedEnv;
using jacc_test::lastError;
using jacc_test::stats;

class SpecializeTest : public DeviceTest {
protected:
  /// Re-initialise jacc with JACC_SPECIALIZE=Mode (the push waits for a new variant's compile,
  /// so that the counts below are exact) and the other settings given.
  void policy(const char *Mode, const char *After = nullptr, const char *Max = nullptr,
              const char *Args = nullptr, const char *Wait = "1") {
    Env.clear();
    Env.push_back(std::make_unique<ScopedEnv>("JACC_SPECIALIZE", Mode));
    Env.push_back(std::make_unique<ScopedEnv>("JACC_SPECIALIZE_WAIT", Wait));
    Env.push_back(std::make_unique<ScopedEnv>("JACC_SPECIALIZE_AFTER", After));
    Env.push_back(std::make_unique<ScopedEnv>("JACC_SPECIALIZE_MAX", Max));
    Env.push_back(std::make_unique<ScopedEnv>("JACC_SPECIALIZE_ARGS", Args));
    ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
    ASSERT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
    jacc_reset_stats();
  }
  void TearDown() override {
    DeviceTest::TearDown();
    Env.clear();
  }
  /// A kernel source unique to this test and device configuration.
  std::string source(const std::string &Body) const {
    const auto *T = ::testing::UnitTest::GetInstance()->current_test_info();
    return "/* " + std::string(T->name()) + " */\n" + Body;
  }
  /// The kernel axpyMod pushes, y[i] = a * x[i] + i % m, with Tail added to the right-hand side.
  std::string axpySource(const char *Tail = "") const {
    return source("#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++) y[i] = a * x[i] + i % m" +
                  std::string(Tail) + ";\n");
  }

  std::vector<std::unique_ptr<ScopedEnv>> Env;
};

/// y[i] = a * x[i] + i % m for i < n, pushed with the values given.
void axpyMod(const std::string &Src, int n, float a, int m, float *x, float *y) {
  jacc_arg Args[] = {
      {"int n", &n}, {"float a", &a}, {"int m", &m}, {"const float *x", &x}, {"float *y", &y}};
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 5, Args, JACC_DEFAULT));
}

/// axpyMod's arrays: X copied in, Y only created (every push writes all of it).
struct AxpyArrays {
  std::vector<float> X, Y;
  float *x, *y;
  explicit AxpyArrays(std::vector<float> Init)
      : X(std::move(Init)), Y(X.size()), x(X.data()), y(Y.data()) {}
  size_t bytes() const { return X.size() * sizeof(float); }
  void map() const {
    ASSERT_JACC(jacc_copyin(x, bytes()));
    ASSERT_JACC(jacc_create(y, bytes()));
  }
  void unmap() const {
    ASSERT_JACC(jacc_delete(y, bytes()));
    ASSERT_JACC(jacc_delete(x, bytes()));
  }
  /// Copies y out and deletes x; then y[I] must be Want(I) for every I.
  template <typename Fn> void expectY(Fn Want) {
    ASSERT_JACC(jacc_copyout(y, bytes()));
    ASSERT_JACC(jacc_delete(x, bytes()));
    for (int I = 0; I < static_cast<int>(Y.size()); ++I)
      ASSERT_EQ(Y[I], Want(I)) << I;
  }
};

TEST_P(SpecializeTest, AlwaysFoldsFromTheFirstPushAndCompilesOnce) {
  policy("always");
  const int N = 3000;
  std::vector<float> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = 0.25f * I;
  AxpyArrays V(X);
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Src = axpySource();
  for (int K = 0; K < 5; ++K)
    axpyMod(Src, N, 3.0f, 7, V.x, V.y);
  ASSERT_NO_FATAL_FAILURE(V.expectY([&](int I) { return 3.0f * X[I] + I % 7; }));
  jacc_stats S = stats();
  EXPECT_EQ(S.variants_compiled, 1u) << "one variant, compiled once";
  EXPECT_EQ(S.specialized_launches, 5u) << "every push ran it";
}

// Without JACC_SPECIALIZE_WAIT the variant compiles in the background: the push that creates it
// runs the generic kernel, a later push the variant.
TEST_P(SpecializeTest, VariantsCompileInTheBackground) {
  policy("always", nullptr, nullptr, nullptr, "0");
  const int N = 2000;
  AxpyArrays V(std::vector<float>(N, 1.0f));
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Src = axpySource();
  axpyMod(Src, N, 4.0f, 9, V.x, V.y);
  EXPECT_EQ(stats().specialized_launches, 0u) << "the generic kernel while it compiles";
  for (int K = 0; K < 600 && stats().specialized_launches == 0; ++K) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    axpyMod(Src, N, 4.0f, 9, V.x, V.y);
  }
  EXPECT_EQ(stats().specialized_launches, 1u) << "the variant, once compiled";
  EXPECT_EQ(stats().variants_compiled, 1u);
  ASSERT_NO_FATAL_FAILURE(V.expectY([](int I) { return 4.0f + I % 9; }));
}

TEST_P(SpecializeTest, AutoFoldsAfterRepeatedValuesOnly) {
  policy("auto", "3");
  const int N = 1000;
  AxpyArrays V(std::vector<float>(N, 1.0f));
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Src = axpySource();
  for (int K = 0; K < 2; ++K)
    axpyMod(Src, N, 2.0f, 5, V.x, V.y);
  EXPECT_EQ(stats().specialized_launches, 0u) << "two pushes: the generic kernel";
  axpyMod(Src, N, 2.0f, 5, V.x, V.y);
  EXPECT_EQ(stats().variants_compiled, 1u) << "the third push with the same values";
  EXPECT_EQ(stats().specialized_launches, 1u);
  ASSERT_NO_FATAL_FAILURE(V.expectY([](int I) { return 2.0f + I % 5; }));
}

TEST_P(SpecializeTest, AChangingValueRunsTheGenericKernel) {
  policy("auto", "2");
  const int N = 600;
  std::vector<int> X(N, 0);
  int *x = X.data();
  ASSERT_JACC(jacc_copyin(x, N * sizeof(int)));
  std::string Src = source("#pragma acc parallel loop\n"
                           "for (int i = 0; i < n; i++) x[i] += 1;\n");
  for (int n = 1; n <= 40; ++n) {
    jacc_arg Args[] = {{"int n", &n}, {"int *x", &x}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 2, Args, JACC_DEFAULT));
  }
  ASSERT_JACC(jacc_copyout(x, N * sizeof(int)));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(X[I], I < 40 ? 40 - I : 0) << I;
  jacc_stats S = stats();
  EXPECT_EQ(S.variants_compiled, 0u);
  EXPECT_EQ(S.specialized_launches, 0u);
}

TEST_P(SpecializeTest, VariantLimitHolds) {
  policy("always", nullptr, "3");
  const int N = 500;
  std::vector<long> X(N, 0);
  long *x = X.data();
  ASSERT_JACC(jacc_copyin(x, N * sizeof(long)));
  std::string Src = source("#pragma acc parallel loop\n"
                           "for (int i = 0; i < 500; i++) x[i] += s;\n");
  long Sum = 0;
  for (long s = 1; s <= 8; ++s) {
    jacc_arg Args[] = {{"long s", &s}, {"long *x", &x}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 2, Args, JACC_DEFAULT));
    Sum += s;
  }
  for (long s = 1; s <= 3; ++s) { // the variants still run their values
    jacc_arg Args[] = {{"long s", &s}, {"long *x", &x}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 2, Args, JACC_DEFAULT));
    Sum += s;
  }
  ASSERT_JACC(jacc_copyout(x, N * sizeof(long)));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(X[I], Sum) << I;
  jacc_stats S = stats();
  EXPECT_EQ(S.variants_compiled, 3u) << "JACC_SPECIALIZE_MAX=3";
  EXPECT_EQ(S.specialized_launches, 6u) << "s = 1, 2, 3 twice; the generic kernel for 4 to 8";
}

// A variant declares the pointers restrict only for pushes whose pointers the present table
// finds in mappings of their own: a push passing one array twice runs the generic code, then a
// variant without restrict. (A dense matrix-vector product: restrict is declared for kernels
// whose nests it lets the host code jam.)
TEST_P(SpecializeTest, RestrictVariantsRunOnlyPointersInMappingsOfTheirOwn) {
  policy("always");
  int n = 96;
  std::vector<double> A(size_t(n) * n), X(n), Y(n, 0.0);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 1.0 / double(1 + I % 9);
  for (int I = 0; I < n; ++I)
    X[I] = double(I % 5);
  double *a = A.data(), *x = X.data(), *y = Y.data();
  ASSERT_JACC(jacc_copyin(a, A.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(x, X.size() * sizeof(double)));
  ASSERT_JACC(jacc_create(y, Y.size() * sizeof(double)));
  std::string Src = source("#pragma acc parallel loop present(a, x, y)\n"
                           "for (int i = 0; i < n; i++) {\n"
                           "  double s = 0.0;\n"
                           "  for (int j = 0; j < n; j++) s += a[i][j] * x[j];\n"
                           "  y[i] = s;\n"
                           "}\n");
  auto Push = [&](double *XArg) {
    jacc_arg Args[] = {{"int n", &n}, {"const double (*a)[n]", &a}, {"const double *x", &XArg},
                       {"double *y", &y}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 4, Args, JACC_DEFAULT));
  };
  Push(x);
  EXPECT_EQ(stats().variants_compiled, 1u);
  EXPECT_EQ(stats().specialized_launches, 1u);
  Push(a); // x is a's first row: both in a's mapping
  EXPECT_EQ(stats().variants_compiled, 1u);
  EXPECT_EQ(stats().specialized_launches, 1u) << "the restrict variant must not run it";
  Push(a);
  EXPECT_EQ(stats().variants_compiled, 2u) << "the same values, without restrict";
  EXPECT_EQ(stats().specialized_launches, 2u);
  ASSERT_JACC(jacc_copyout(y, Y.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(x, X.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(a, A.size() * sizeof(double)));
  for (int I = 0; I < n; ++I) {
    double S = 0.0;
    for (int J = 0; J < n; ++J) {
      volatile double P = A[size_t(I) * n + J] * A[J]; // unfused, as the kernel computes it
      S = S + P;
    }
    ASSERT_EQ(Y[I], S) << I;
  }
}

// A variant assuming the pointers 64-byte aligned (device copies are, at their starts) runs only
// pushes whose every device copy is: pointers into the arrays' middles run the generic code,
// then a variant without that assumption.
TEST_P(SpecializeTest, AlignedVariantsRunOnlyAlignedPointers) {
  policy("always");
  const int N = 1000;
  AxpyArrays V(std::vector<float>(N, 1.0f));
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Src = axpySource();
  axpyMod(Src, N - 1, 2.0f, 4, V.x, V.y);
  EXPECT_EQ(stats().specialized_launches, 1u);
  axpyMod(Src, N - 1, 2.0f, 4, V.x + 1, V.y + 1); // the same values, 4 bytes into each copy
  EXPECT_EQ(stats().variants_compiled, 1u);
  EXPECT_EQ(stats().specialized_launches, 1u) << "the aligned variant must not run it";
  axpyMod(Src, N - 1, 2.0f, 4, V.x + 1, V.y + 1);
  EXPECT_EQ(stats().variants_compiled, 2u) << "a variant that does not assume it";
  EXPECT_EQ(stats().specialized_launches, 2u);
  ASSERT_NO_FATAL_FAILURE(V.expectY([](int I) { return I == 0 ? 2.0f : 2.0f + (I - 1) % 4; }));
}

// The dense product that a restrict variant jams (four columns' sums side by side, each in its
// own order): bit for bit the generic kernel's result, split or not.
TEST_P(SpecializeTest, JammedProductEqualsTheGenericKernelBitForBit) {
  const int n = 67, m = 45, l = 131;
  std::vector<double> A(size_t(n) * l), B(size_t(l) * m);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 1.0 / double(3 + I % 17);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = double(I % 13) / 7;
  std::string Src = source("#pragma acc parallel loop collapse(2) present(a, b, c)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  for (int j = 0; j < m; j++) {\n"
                           "    double s = 0.0;\n"
                           "    for (int k = 0; k < l; k++) s += a[i][k] * b[k][j];\n"
                           "    c[i][j] = s;\n"
                           "  }\n");
  auto Product = [&](const char *Mode) {
    policy(Mode);
    std::vector<double> C(size_t(n) * m, -1.0);
    double *a = A.data(), *b = B.data(), *c = C.data();
    jacc_arg Args[] = {{"int n", (void *)&n},        {"int m", (void *)&m},
                       {"int l", (void *)&l},        {"const double (*a)[l]", &a},
                       {"const double (*b)[m]", &b}, {"double (*c)[m]", &c}};
    EXPECT_EQ(jacc_copyin(a, A.size() * sizeof(double)), JACC_SUCCESS);
    EXPECT_EQ(jacc_copyin(b, B.size() * sizeof(double)), JACC_SUCCESS);
    EXPECT_EQ(jacc_create(c, C.size() * sizeof(double)), JACC_SUCCESS);
    EXPECT_EQ(jacc_kernel_push(Src.c_str(), 6, Args, JACC_FORCE_SPLIT), JACC_SUCCESS)
        << jacc_last_error();
    EXPECT_EQ(jacc_kernel_push(Src.c_str(), 6, Args, JACC_DEFAULT), JACC_SUCCESS)
        << jacc_last_error();
    EXPECT_EQ(jacc_copyout(c, C.size() * sizeof(double)), JACC_SUCCESS);
    EXPECT_EQ(jacc_delete(b, B.size() * sizeof(double)), JACC_SUCCESS);
    EXPECT_EQ(jacc_delete(a, A.size() * sizeof(double)), JACC_SUCCESS);
    return C;
  };
  std::vector<double> Generic = Product("off");
  EXPECT_EQ(stats().specialized_launches, 0u);
  std::vector<double> Jammed = Product("always");
  EXPECT_EQ(stats().specialized_launches, 2u);
  EXPECT_EQ(Generic, Jammed);
  double S = 0.0; // c[n-1][m-1] in the kernel's order
  for (int k = 0; k < l; k++) {
    volatile double P = A[size_t(n - 1) * l + k] * B[size_t(k) * m + m - 1]; // unfused
    S = S + P;
  }
  EXPECT_EQ(Jammed.back(), S);
}

TEST_P(SpecializeTest, ForbiddenArgumentsAndOff) {
  policy("always", nullptr, nullptr, "-n");
  const int N = 800;
  AxpyArrays V(std::vector<float>(N, 2.0f));
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Src = axpySource();
  for (int n = N - 3; n <= N; ++n) // n changes, forbidden anyway: one variant (a, m)
    axpyMod(Src, n, 0.5f, 3, V.x, V.y);
  EXPECT_EQ(stats().variants_compiled, 1u);
  EXPECT_EQ(stats().specialized_launches, 4u);
  ASSERT_NO_FATAL_FAILURE(V.expectY([](int I) { return 1.0f + I % 3; }));
  policy("off");
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Other = axpySource(" + 1");
  for (int K = 0; K < 4; ++K)
    axpyMod(Other, N, 0.5f, 3, V.x, V.y);
  EXPECT_EQ(stats().variants_compiled, 0u);
  EXPECT_EQ(stats().specialized_launches, 0u);
  ASSERT_NO_FATAL_FAILURE(V.unmap());
}

// Folded extents of a pointer to variable-length rows, and a reduction (never folded).
TEST_P(SpecializeTest, VlaExtentsAndReductions) {
  policy("always");
  const int Rows = 30, M = 17;
  std::vector<double> A(Rows * M);
  for (int I = 0; I < Rows * M; ++I)
    A[I] = I % 11;
  double *a = A.data();
  ASSERT_JACC(jacc_copyin(a, A.size() * sizeof(double)));
  std::string Src = source("#pragma acc parallel loop collapse(2) reduction(+:s)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  for (int j = 0; j < m; j++) { g[i][j] *= 2.0; s += g[i][j]; }\n");
  int n = Rows, m = M;
  double Expected = 0;
  for (int K = 0; K < 3; ++K) {
    double s = 1.0;
    jacc_arg Args[] = {{"int n", &n}, {"int m", &m}, {"double (*g)[m]", &a}, {"double s", &s}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 4, Args, JACC_DEFAULT));
    Expected = 1.0;
    for (int I = 0; I < Rows * M; ++I)
      Expected += (I % 11) * double(2 << K);
    EXPECT_EQ(s, Expected) << "push " << K;
  }
  ASSERT_JACC(jacc_delete(a, A.size() * sizeof(double)));
  EXPECT_EQ(stats().variants_compiled, 1u);
  EXPECT_EQ(stats().specialized_launches, 3u);
}

// Variables of the program first assigned inside the kernel (a loop counter, a temporary) are
// pushed with whatever they held: those values are not folded, nor do they make new variants.
TEST_P(SpecializeTest, ValuesTheKernelNeverReadsAreNotFolded) {
  policy("always");
  const int N = 500;
  AxpyArrays V(std::vector<float>(N, 2.0f));
  ASSERT_NO_FATAL_FAILURE(V.map());
  std::string Src = source("#pragma acc parallel loop\n"
                           "for (i = 0; i < n; i++) { t = a * x[i]; y[i] = t + 1; }\n");
  int n = N;
  float a = 3.0f;
  for (int K = 0; K < 3; ++K) {
    int i = 1000 + K; // garbage that changes at every push
    float t = -1.5f * K;
    jacc_arg Args[] = {{"int n", &n},   {"float a", &a},          {"int i", &i},
                       {"float t", &t}, {"const float *x", &V.x}, {"float *y", &V.y}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 6, Args, JACC_DEFAULT));
  }
  ASSERT_NO_FATAL_FAILURE(V.expectY([](int) { return 7.0f; }));
  EXPECT_EQ(stats().variants_compiled, 1u) << "n and a folded, i and t left out of the key";
  EXPECT_EQ(stats().specialized_launches, 3u);
}

TEST_P(SpecializeTest, BadSettingsAreErrors) {
  ScopedEnv Mode("JACC_SPECIALIZE", "sometimes");
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("JACC_SPECIALIZE"), std::string::npos) << lastError();
  EXPECT_NE(lastError().find("sometimes"), std::string::npos) << lastError();
  ScopedEnv Good("JACC_SPECIALIZE", "auto");
  ScopedEnv Wait("JACC_SPECIALIZE_WAIT", "maybe");
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("JACC_SPECIALIZE_WAIT='maybe'"), std::string::npos) << lastError();
  ScopedEnv GoodWait("JACC_SPECIALIZE_WAIT", nullptr);
  ScopedEnv Block("JACC_CUDA_BLOCK_SIZE", "100");
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("JACC_CUDA_BLOCK_SIZE='100' is not valid"), std::string::npos)
      << lastError();
}

JACC_DEVICE_CONFIGS(SpecializeTest);

} // namespace
