// Tests that need a real GPU: every kernel runs on the CUDA devices and its results are compared
// with a host computation. Without a CUDA device each test is skipped with "no CUDA device"; on a
// GPU machine `meson test -C build api` runs them (docs/gpu.md).
#include "tests/ScopedEnv.h"
#include "tests/api/Fixture.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

class GpuTest : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    ASSERT_JACC(jacc_finalize());
    setenv("JACC_DEVICES", GetParam(), 1);
    jacc_status S = jacc_init();
    if (S == JACC_ERROR_DEVICE) {
      std::string Why = jacc_last_error();
      unsetenv("JACC_DEVICES");
      GTEST_SKIP() << "no CUDA device (" << Why << ")";
    }
    ASSERT_EQ(S, JACC_SUCCESS) << jacc_last_error();
    jacc_reset_stats();
  }
  void TearDown() override {
    EXPECT_JACC(jacc_finalize());
    unsetenv("JACC_DEVICES");
  }
};

TEST_P(GpuTest, Saxpy) {
  int N = 1 << 20;
  float A = 2.5f;
  std::vector<float> X(N), Y(N), Ref(N);
  for (int I = 0; I < N; ++I)
    X[I] = I % 97, Y[I] = 1, Ref[I] = A * X[I] + 1;
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  float *Yp = Y.data(), *Xp = X.data();
  jacc_arg Args[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(x, y)\n"
                               "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
                               4, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(Y.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(float)));
  EXPECT_EQ(Y, Ref);
}

TEST_P(GpuTest, ReductionsOfSeveralOperatorsAndTypes) {
  int N = 100003;
  std::vector<int> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = (I * 7919) % 1000 - 500;
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(int)));
  long long Sum = 0, RefSum = 0;
  int Max = -1000000, RefMax = -1000000;
  double Dsum = 0.5, RefDsum = 0.5;
  unsigned Or = 0, RefOr = 0;
  for (int V : X) {
    RefSum += V;
    RefMax = V > RefMax ? V : RefMax;
    RefDsum += V * 0.25;
    RefOr |= unsigned(V) & 0xff;
  }
  const int *Xp = X.data();
  jacc_arg Args[] = {{"const int *x", &Xp}, {"int n", &N}, {"long long s", &Sum},
                     {"int m", &Max},       {"double d", &Dsum}, {"unsigned o", &Or}};
  ASSERT_JACC(jacc_kernel_push(
      "#pragma acc parallel loop reduction(+:s) reduction(max:m) reduction(+:d) reduction(|:o)\n"
      "for (int i = 0; i < n; i++) {\n"
      "  s += x[i]; m = x[i] > m ? x[i] : m; d += x[i] * 0.25; o |= (unsigned)x[i] & 0xff;\n"
      "}\n",
      6, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(int)));
  EXPECT_EQ(Sum, RefSum);
  EXPECT_EQ(Max, RefMax);
  EXPECT_DOUBLE_EQ(Dsum, RefDsum);
  EXPECT_EQ(Or, RefOr);
}

TEST_P(GpuTest, JacobiSweepsSplitAcrossDevicesMatchTheHost) {
  int N = 514, M = 258, Iters = 20;
  std::vector<double> A(N * M), B(N * M), Ref(N * M), Tmp(N * M);
  for (int I = 0; I < N * M; ++I)
    A[I] = B[I] = Ref[I] = Tmp[I] = (I % 13) * 0.5;
  for (int K = 0; K < Iters; ++K) {
    for (int I = 1; I < N - 1; ++I)
      for (int J = 1; J < M - 1; ++J)
        Tmp[I * M + J] = 0.25 * (Ref[(I - 1) * M + J] + Ref[(I + 1) * M + J] +
                                 Ref[I * M + J - 1] + Ref[I * M + J + 1]);
    std::swap(Ref, Tmp);
  }
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(B.data(), B.size() * sizeof(double)));
  const char *Sweep = "#pragma acc parallel loop collapse(2) present(in, out)\n"
                      "for (int i = 1; i < n - 1; i++)\n"
                      "  for (int j = 1; j < m - 1; j++)\n"
                      "    out[i][j] = 0.25 * (in[i-1][j] + in[i+1][j] + in[i][j-1] + in[i][j+1]);\n";
  double *In = A.data(), *Out = B.data();
  for (int K = 0; K < Iters; ++K) {
    jacc_arg Args[] = {{"int n", &N}, {"int m", &M}, {"const double (*in)[m]", &In},
                       {"double (*out)[m]", &Out}};
    ASSERT_JACC(jacc_kernel_push(Sweep, 4, Args, JACC_DEFAULT));
    std::swap(In, Out);
  }
  ASSERT_JACC(jacc_copyout(In, A.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(Out, B.size() * sizeof(double)));
  const std::vector<double> &Got = In == A.data() ? A : B;
  for (int I = 0; I < N * M; ++I)
    ASSERT_NEAR(Got[I], Ref[I], 1e-12) << I;
}

/// Pushes Kernel (over `int n`, `int m`, `const double (*a)[m]`, `double (*b)[m]`, b copied in
/// and out) three times and expects b to be what Reference makes of it on the host each time.
void expectGridKernelMatches(
    const char *Kernel, const std::function<void(int, int, const double *, double *)> &Reference) {
  int N = 130, M = 300;
  std::vector<double> A(N * M), B(N * M), Ref(N * M);
  for (int I = 0; I < N * M; ++I)
    A[I] = (I * 37 % 101) * 0.25, B[I] = Ref[I] = (I % 7) * 0.5;
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(B.data(), B.size() * sizeof(double)));
  double *Ap = A.data(), *Bp = B.data();
  for (int Push = 0; Push < 3; ++Push) {
    jacc_arg Args[] = {
        {"int n", &N}, {"int m", &M}, {"const double (*a)[m]", &Ap}, {"double (*b)[m]", &Bp}};
    ASSERT_JACC(jacc_kernel_push(Kernel, 4, Args, JACC_DEFAULT));
    Reference(N, M, A.data(), Ref.data());
  }
  ASSERT_JACC(jacc_copyout(B.data(), B.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(A.data(), A.size() * sizeof(double)));
  for (int I = 0; I < N * M; ++I)
    ASSERT_EQ(B[I], Ref[I]) << "element " << I << " of\n" << Kernel;
}

// Inner loops the GPU shares among its threads (ParallelNest::InnerParallel): proven
// independent (the stencil, in a variant for disjoint pointers from the first push), asserted by
// a loop directive (three levels), and one carried along its row, which must stay sequential.
TEST_P(GpuTest, IndependentInnerLoopsSharedAmongTheThreadsMatchTheHost) {
  ASSERT_JACC(jacc_finalize());
  jacc::ScopedEnv Always("JACC_SPECIALIZE", "always"), Wait("JACC_SPECIALIZE_WAIT", "1"),
      Restrict("JACC_SPECIALIZE_ARGS", "+restrict");
  ASSERT_JACC(jacc_init());
  expectGridKernelMatches("#pragma acc parallel loop present(a, b)\n"
                          "for (int i = 1; i < n - 1; i++)\n"
                          "  for (int j = 1; j < m - 1; j++)\n"
                          "    b[i][j] = 0.25 * (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);\n",
                          [](int N, int M, const double *A, double *B) {
                            for (int I = 1; I < N - 1; ++I)
                              for (int J = 1; J < M - 1; ++J)
                                B[I * M + J] = 0.25 * (A[(I - 1) * M + J] + A[(I + 1) * M + J] +
                                                       A[I * M + J - 1] + A[I * M + J + 1]);
                          });
  expectGridKernelMatches("#pragma acc parallel loop gang present(a, b)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  #pragma acc loop worker\n"
                          "  for (int j = 0; j < m / 10; j++)\n"
                          "    #pragma acc loop vector\n"
                          "    for (int k = 0; k < 10; k++)\n"
                          "      b[i][j * 10 + k] = a[i][j * 10 + (9 - k)] + b[i][j * 10 + k];\n",
                          [](int N, int M, const double *A, double *B) {
                            for (int I = 0; I < N; ++I)
                              for (int J = 0; J < M / 10; ++J)
                                for (int K = 0; K < 10; ++K)
                                  B[I * M + J * 10 + K] =
                                      A[I * M + J * 10 + (9 - K)] + B[I * M + J * 10 + K];
                          });
  expectGridKernelMatches("#pragma acc parallel loop present(a, b)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 1; j < m; j++)\n"
                          "    b[i][j] = b[i][j - 1] * 0.5 + a[i][j];\n",
                          [](int N, int M, const double *A, double *B) {
                            for (int I = 0; I < N; ++I)
                              for (int J = 1; J < M; ++J)
                                B[I * M + J] = B[I * M + J - 1] * 0.5 + A[I * M + J];
                          });
}

TEST_P(GpuTest, AtomicHistogram) {
  int N = 200000, Bins = 64;
  std::vector<int> X(N), H(Bins, 0), Ref(Bins, 0);
  for (int I = 0; I < N; ++I)
    X[I] = (I * 31) % 1021, Ref[X[I] % Bins]++;
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(int)));
  ASSERT_JACC(jacc_copyin(H.data(), Bins * sizeof(int)));
  const int *Xp = X.data();
  int *Hp = H.data();
  jacc_arg Args[] = {{"const int *x", &Xp}, {"int *h", &Hp}, {"int n", &N}, {"int bins", &Bins}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  #pragma acc atomic update\n"
                               "  h[x[i] % bins]++;\n}\n",
                               4, Args, JACC_FORCE_DUPLICATE));
  ASSERT_JACC(jacc_copyout(H.data(), Bins * sizeof(int)));
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(int)));
  EXPECT_EQ(H, Ref);
}

TEST_P(GpuTest, RegionStatementsSeparatedByGridBarriers) {
  int N = 1 << 16;
  std::vector<double> A(N, 0), B(N, 0);
  ASSERT_JACC(jacc_copyin(A.data(), N * sizeof(double)));
  ASSERT_JACC(jacc_copyin(B.data(), N * sizeof(double)));
  double *Ap = A.data(), *Bp = B.data();
  jacc_arg Args[] = {{"double *a", &Ap}, {"double *b", &Bp}, {"int n", &N}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel\n{\n"
                               "  #pragma acc loop\n  for (int i = 0; i < n; i++) a[i] = i;\n"
                               "  a[0] = -1;\n"
                               "  #pragma acc loop\n"
                               "  for (int i = 1; i < n; i++) b[i] = a[i] + a[i - 1];\n}\n",
                               3, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(B.data(), N * sizeof(double)));
  ASSERT_JACC(jacc_delete(A.data(), N * sizeof(double)));
  EXPECT_EQ(B[1], 1 + -1.0);
  for (int I = 2; I < N; ++I)
    ASSERT_EQ(B[I], 2.0 * I - 1) << I;
}

TEST_P(GpuTest, AsyncPushesOverlapHostWorkUntilWait) {
  int N = 1 << 22;
  std::vector<float> X(N, 1);
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  float *Xp = X.data();
  jacc_arg Args[] = {{"float *x", &Xp}, {"int n", &N}};
  for (int K = 0; K < 10; ++K)
    ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop\n"
                                 "for (int i = 0; i < n; i++) x[i] = x[i] * 1.5f + 1;\n",
                                 2, Args, JACC_ASYNC));
  double Host = 0; // host work while the GPU runs the queue
  for (int I = 0; I < 1000000; ++I)
    Host += std::sqrt(double(I));
  EXPECT_GT(Host, 0);
  ASSERT_JACC(jacc_wait());
  ASSERT_JACC(jacc_copyout(X.data(), N * sizeof(float)));
  float Ref = 1;
  for (int K = 0; K < 10; ++K)
    Ref = Ref * 1.5f + 1;
  EXPECT_EQ(X[N - 1], Ref);
}

INSTANTIATE_TEST_SUITE_P(Devices, GpuTest,
                         ::testing::Values("cuda:0", "cuda:all", "cuda:all,host:1"),
                         deviceConfigName);

} // namespace
