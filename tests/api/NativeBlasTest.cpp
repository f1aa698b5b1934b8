// Native implementations calling a BLAS library (the Multi-Device Controllers' CPU wrappers):
// each host device runs cblas_dgemv on its rows of a matrix-vector product and cblas_ddot on
// its share of a dot product, jacc moving the data and combining the partial sums as for its
// own code. Built when Meson finds a CBLAS (Debian's libblas-dev, which scripts/dev.sh
// installs).
#include "tests/api/Fixture.h"
#include "tests/api/NativeCalls.h"

#include <cblas.h>
#include <gtest/gtest.h>

#include <vector>

namespace {

const char *const Dgemv = jacc_test::DgemvKernel;

/// Dgemv's rows [begin, end) of this device: y = alpha A x + beta y through the library.
int blasDgemv(const jacc_native_part *P, void *User) {
  static_cast<jacc_test::NativeCalls *>(User)->add(P);
  if (P->step != 1)
    return 1;
  int Rows = int(P->end - P->begin), M = JACC_NATIVE_ARG(P, 1, int);
  if (Rows > 0)
    cblas_dgemv(CblasRowMajor, CblasNoTrans, Rows, M, JACC_NATIVE_ARG(P, 2, double),
                JACC_NATIVE_ARG(P, 3, const double *) + P->begin * M, M,
                JACC_NATIVE_ARG(P, 4, const double *), 1, JACC_NATIVE_ARG(P, 5, double),
                JACC_NATIVE_ARG(P, 6, double *) + P->begin, 1);
  return 0;
}

const char *const Ddot = "#pragma acc parallel loop present(x, y) reduction(+:s)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  s += x[i] * y[i];\n";

/// This device's partial dot product over its reduction share, into its copy of s.
int blasDdot(const jacc_native_part *P, void *User) {
  static_cast<jacc_test::NativeCalls *>(User)->add(P);
  long long B = P->reduce_begin, Count = P->reduce_end - P->reduce_begin;
  if (P->step != 1)
    return 1;
  JACC_NATIVE_ARG(P, 3, double) += cblas_ddot(int(Count), JACC_NATIVE_ARG(P, 1, const double *) + B,
                                              1, JACC_NATIVE_ARG(P, 2, const double *) + B, 1);
  return 0;
}

class NativeBlasTest : public DeviceTest {
protected:
  void TearDown() override {
    EXPECT_JACC(jacc_kernel_native(Dgemv, "host", nullptr, nullptr));
    EXPECT_JACC(jacc_kernel_native(Ddot, "host", nullptr, nullptr));
    DeviceTest::TearDown();
  }
};

TEST_P(NativeBlasTest, DgemvRowsThroughTheLibraryEqualTheGeneratedCodes) {
  int N = 301, M = 45;
  double Alpha = 2, Beta = -1;
  std::vector<double> A(size_t(N) * M), X(M), Y0(N);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = double(I % 9) - 4;
  for (int J = 0; J < M; ++J)
    X[J] = J % 4;
  for (int I = 0; I < N; ++I)
    Y0[I] = I % 10;
  double *Ap = A.data(), *Xp = X.data();
  ASSERT_JACC(jacc_copyin(Ap, A.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(Xp, M * sizeof(double)));
  jacc_test::NativeCalls Calls;
  std::vector<double> Results[2];
  for (int Native = 0; Native < 2; ++Native) {
    if (Native) {
      ASSERT_JACC(jacc_kernel_native(Dgemv, "multicore", blasDgemv, &Calls));
    }
    std::vector<double> Y = Y0;
    double *Yp = Y.data();
    ASSERT_JACC(jacc_copyin(Yp, N * sizeof(double)));
    jacc_arg Args[] = {{"int n", &N},           {"int m", &M},
                       {"double alpha", &Alpha}, {"const double *a", &Ap},
                       {"const double *x", &Xp}, {"double beta", &Beta},
                       {"double *y", &Yp}};
    ASSERT_JACC(jacc_kernel_push(Dgemv, 7, Args, JACC_DEFAULT));
    ASSERT_JACC(jacc_copyout(Yp, N * sizeof(double)));
    Results[Native] = Y;
  }
  EXPECT_EQ(Results[1], Results[0]); // small whole numbers: exact
  EXPECT_NE(Results[1], Y0);
  EXPECT_TRUE(jacc_test::partsAre(Calls.take(), jacc_test::evenCuts(N, devices())));
  ASSERT_JACC(jacc_delete(Ap, A.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(Xp, M * sizeof(double)));
}

TEST_P(NativeBlasTest, DdotPartialSumsThroughTheLibraryAreCombinedOnce) {
  int N = 10001;
  std::vector<double> X(N), Y(N);
  double Want = 1.5;
  for (int I = 0; I < N; ++I) {
    X[I] = I % 7;
    Y[I] = (I % 5) - 2;
    Want += X[I] * Y[I];
  }
  double *Xp = X.data(), *Yp = Y.data(), S = 1.5;
  ASSERT_JACC(jacc_copyin(Xp, N * sizeof(double)));
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(double)));
  jacc_test::NativeCalls Calls;
  ASSERT_JACC(jacc_kernel_native(Ddot, "host", blasDdot, &Calls));
  jacc_arg Args[] = {{"int n", &N}, {"const double *x", &Xp}, {"const double *y", &Yp},
                     {"double s", &S}};
  ASSERT_JACC(jacc_kernel_push(Ddot, 4, Args, JACC_DEFAULT));
  EXPECT_EQ(S, Want);
  EXPECT_TRUE(jacc_test::partsAre(Calls.take(), jacc_test::evenCuts(N, devices()), true));
  ASSERT_JACC(jacc_delete(Xp, N * sizeof(double)));
  ASSERT_JACC(jacc_delete(Yp, N * sizeof(double)));
}

JACC_DEVICE_CONFIGS(NativeBlasTest);

} // namespace
