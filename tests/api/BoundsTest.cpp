// JACC_CHECK=bounds end to end: an access outside its argument's mapping stops the kernel and
// fails the push with JACC_ERROR_BOUNDS naming the kernel location, the array, the index, the
// range and the device; the runtime stays usable and the mappings as they were.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using jacc_test::lastError;

class BoundsTest : public DeviceTest {
protected:
  void SetUp() override { DeviceTest::SetUp(); }
  jacc::ScopedEnv Check{"JACC_CHECK", "bounds"};

  /// Map N ints in X and Y (Y[i] = i, X[i] = 2 i).
  void mapArrays(int N) {
    X.resize(N);
    Y.resize(N);
    for (int I = 0; I < N; ++I)
      X[I] = 2 * I, Y[I] = I;
    ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(int)));
    ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(int)));
  }
  void unmapArrays() {
    EXPECT_JACC(jacc_delete(X.data(), X.size() * sizeof(int)));
    EXPECT_JACC(jacc_copyout(Y.data(), Y.size() * sizeof(int)));
  }
  /// Push Src over (int n, int *y, const int *x if Src reads it) with Flags.
  jacc_status push(const char *Src, int N, unsigned Flags = JACC_DEFAULT) {
    int *Yp = Y.data(), *Xp = X.data();
    jacc_arg Args[] = {{"int n", &N}, {"int *y", &Yp}, {"const int *x", &Xp}};
    return jacc_kernel_push(Src, std::string(Src).find("x[") == std::string::npos ? 2 : 3, Args,
                            Flags);
  }
  /// A correct push after the failure works and updates every element.
  void expectHealthyPush() {
    int N = Y.size();
    ASSERT_JACC(push("#pragma acc parallel loop present(x, y)\n"
                     "for (int i = 0; i < n; i++) y[i] = x[i] + 1;\n",
                     N));
    ASSERT_JACC(jacc_update_self(Y.data(), N * sizeof(int)));
    for (int I = 0; I < N; ++I)
      ASSERT_EQ(Y[I], 2 * I + 1) << I;
  }
  std::vector<int> X, Y;
};

TEST_P(BoundsTest, OffByOneWriteNamesTheKernelLocationArrayIndexAndRange) {
  mapArrays(1000);
  jacc_status S = push("#pragma acc parallel loop present(y)\n"
                       "for (int i = 0; i <= n; i++)\n"
                       "  y[i] = 7;\n",
                       1000, JACC_FORCE_DUPLICATE);
  EXPECT_EQ(S, JACC_ERROR_BOUNDS);
  // Every device runs it whole: device 0's violation is reported (the first waited for).
  EXPECT_EQ(lastError(), "kernel:3:3: write y[1000] outside its mapping [0, 1000) on device 0");
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, OffByOneReadIsReportedAsARead) {
  mapArrays(500);
  EXPECT_EQ(push("#pragma acc parallel loop present(x, y)\n"
                 "for (int i = 0; i < n; i++) y[i] = x[i + 1];\n",
                 500, JACC_FORCE_DUPLICATE),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:36: read x[500] outside its mapping [0, 500) on device 0");
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, NullPointerArgumentHasNothingToReach) {
  // OpenACC lets a null pointer through a data clause; a kernel touching it is caught.
  mapArrays(16);
  int N = 1, *Yp = Y.data(), *Null = nullptr; // one iteration: the first violation is x[0]
  jacc_arg Args[] = {{"int n", &N}, {"int *y", &Yp}, {"const int *x", &Null}};
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop present(x, y)\n"
                             "for (int i = 0; i < n; i++) y[i] = x[i];\n",
                             3, Args, JACC_FORCE_DUPLICATE),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:36: read x[0] outside its mapping [0, 0) on device 0");
  N = 0; // untouched: fine
  EXPECT_JACC(jacc_kernel_push("#pragma acc parallel loop present(x, y)\n"
                               "for (int i = 0; i < n; i++) y[i] = x[i];\n",
                               3, Args, JACC_FORCE_DUPLICATE));
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, NegativeIndexIsReported) {
  mapArrays(64);
  EXPECT_EQ(push("#pragma acc parallel loop present(x, y)\n"
                 "for (int i = 0; i < n; i++) y[i] = x[i - 3];\n",
                 64, JACC_FORCE_DUPLICATE),
            JACC_ERROR_BOUNDS);
  std::string E = lastError();
  EXPECT_EQ(E.find("kernel:2:36: read x[-3]"), 0u) << E;
  EXPECT_NE(E.find("] outside its mapping [0, 64) on device 0"), std::string::npos) << E;
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, RangeIsRelativeToAnInteriorPointer) {
  mapArrays(100);
  int N = 95;
  int *Yp = Y.data() + 10; // the mapping is [y - 10, y + 90)
  jacc_arg Args[] = {{"int n", &N}, {"int *y", &Yp}};
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop present(y)\n"
                             "for (int i = 0; i < n; i++) y[i] = 0;\n",
                             2, Args, JACC_FORCE_DUPLICATE),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:29: write y[90] outside its mapping [-10, 90) on device 0");
  // Within the mapping, negative indices of an interior pointer are fine.
  jacc_arg Ok[] = {{"int *y", &Yp}};
  // Statements that start with the access: thread 0 runs each (its wrapper around the check).
  EXPECT_JACC(jacc_kernel_push("#pragma acc parallel present(y)\n"
                               "{\n"
                               "  y[-10] = -1;\n"
                               "  y[89] = 89;\n"
                               "}\n",
                               1, Ok, JACC_DEFAULT));
  EXPECT_EQ(jacc_kernel_push("#pragma acc serial present(y)\n"
                             "y[90] = 0;\n",
                             1, Ok, JACC_DEFAULT),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:1: write y[90] outside its mapping [-10, 90) on device 0");
  unmapArrays();
  EXPECT_EQ(Y[0], -1);
  EXPECT_EQ(Y[99], 89);
}

TEST_P(BoundsTest, RowsOfAVariableLengthArrayAreCheckedAsTheirElements) {
  int N = 10, M = 100;
  std::vector<double> A(N * M, 1);
  double *Ap = A.data(); // the kernel declares it double (*a)[m]
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  jacc_arg Args[] = {{"int n", &N}, {"int m", &M}, {"double (*a)[m]", &Ap}};
  // j <= m: the last row's a[n - 1][m] is one past the mapping (the others land in the next row).
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop present(a)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  for (int j = 0; j <= m; j++) a[i][j] = 2;\n",
                             3, Args, JACC_FORCE_DUPLICATE),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(),
            "kernel:3:32: write element 1000 of a outside its mapping [0, 1000) on device 0");
  EXPECT_JACC(jacc_delete(A.data(), A.size() * sizeof(double)));
}

TEST_P(BoundsTest, SplitLaunchNamesTheDeviceThatReadOutside) {
  mapArrays(999);
  // The last device owns y's last elements: it reads x[n].
  EXPECT_EQ(push("#pragma acc parallel loop present(x, y)\n"
                 "for (int i = 0; i < n; i++) y[i] = x[i] + x[i + 1];\n",
                 999, JACC_FORCE_SPLIT),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:43: read x[999] outside its mapping [0, 999) on device " +
                             std::to_string(devices() - 1));
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, SplitLaunchNamesTheDeviceThatWroteOutside) {
  // A write past either end of the array is in no device's owned range: the first device, which
  // owns what precedes the array, and the last, what follows it, report it as one device would.
  mapArrays(1000);
  EXPECT_EQ(push("#pragma acc parallel loop present(y)\n"
                 "for (int i = 0; i < n; i++) y[i + 1] = 1;\n",
                 1000, JACC_FORCE_SPLIT),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:29: write y[1000] outside its mapping [0, 1000) on device " +
                             std::to_string(devices() - 1));
  EXPECT_EQ(push("#pragma acc parallel loop present(y)\n"
                 "for (int i = 0; i < n; i++) y[i - 1] = 1;\n",
                 1000, JACC_FORCE_SPLIT),
            JACC_ERROR_BOUNDS);
  EXPECT_EQ(lastError(), "kernel:2:29: write y[-1] outside its mapping [0, 1000) on device 0");
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, ColumnSplitNamesASubscriptPastItsRow) {
  // a[i][j + 1] at j = m - 1 is a[i + 1][0] in memory: inside the mapping, so one device writes
  // it there; split along the columns, it is past the last device's row and no device owns it.
  int Rows = 4, Cols = 30;
  std::vector<double> A(Rows * Cols, 0);
  double *Ap = A.data();
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  jacc_arg Grid[] = {{"int n", &Rows}, {"int m", &Cols}, {"double (*a)[m]", &Ap}};
  jacc_status S = jacc_kernel_push("#pragma acc parallel loop present(a)\n"
                                   "for (int j = 0; j < m; j++)\n"
                                   "  for (int i = 0; i < n - 1; i++) a[i][j + 1] = 1;\n",
                                   3, Grid, JACC_FORCE_SPLIT);
  if (devices() == 1) {
    EXPECT_EQ(S, JACC_SUCCESS) << lastError();
  } else {
    EXPECT_EQ(S, JACC_ERROR_BOUNDS);
    EXPECT_NE(lastError().find("kernel:3:35: write element "), std::string::npos) << lastError();
    EXPECT_NE(lastError().find(" of a on device " + std::to_string(devices() - 1) +
                               ": its subscript of dimension 1 of a is outside [0, 30)"),
              std::string::npos)
        << lastError();
  }
  EXPECT_JACC(jacc_delete(A.data(), A.size() * sizeof(double)));
}

TEST_P(BoundsTest, CorrectSplitKernelsWriteOnlyTheirOwnedRanges) {
  // Split launches check each guarded write against the device's owned range: a stencil, a
  // write needed outside the owned range (y[i + 1] for z[i]), a column split; none reports.
  mapArrays(1001);
  ASSERT_JACC(push("#pragma acc parallel loop present(x, y)\n"
                   "for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] + x[i + 1];\n",
                   1001, JACC_FORCE_SPLIT));
  ASSERT_JACC(jacc_update_self(Y.data(), Y.size() * sizeof(int)));
  for (int I = 1; I < 1000; ++I)
    ASSERT_EQ(Y[I], 4 * I) << I;
  std::vector<int> Z(1001, -1);
  ASSERT_JACC(jacc_copyin(Z.data(), Z.size() * sizeof(int)));
  int N = 1000, *Yp = Y.data(), *Zp = Z.data();
  jacc_arg Args[] = {{"int n", &N}, {"int *y", &Yp}, {"int *z", &Zp}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(y, z)\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  y[i + 1] = 3 * i;\n"
                               "  z[i] = y[i + 1] + 1;\n"
                               "}\n",
                               3, Args, JACC_FORCE_SPLIT));
  ASSERT_JACC(jacc_copyout(Z.data(), Z.size() * sizeof(int)));
  for (int I = 0; I < 1000; ++I)
    ASSERT_EQ(Z[I], 3 * I + 1) << I;
  int Rows = 6, Cols = 301;
  std::vector<double> A(Rows * Cols, 0);
  double *Ap = A.data();
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  jacc_arg Grid[] = {{"int n", &Rows}, {"int m", &Cols}, {"double (*a)[m]", &Ap}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(a)\n"
                               "for (int j = 0; j < m; j++)\n"
                               "  for (int i = 0; i < n; i++) a[i][j] = i * m + j;\n",
                               3, Grid, JACC_FORCE_SPLIT));
  ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  for (int I = 0; I < Rows * Cols; ++I)
    ASSERT_EQ(A[I], I) << I;
  unmapArrays();
}

TEST_P(BoundsTest, AsyncViolationIsReportedByTheWait) {
  mapArrays(128);
  ASSERT_JACC(push("#pragma acc parallel loop present(y)\n"
                   "for (int i = 0; i < n; i++) y[2 * i] = 1;\n",
                   128, JACC_ASYNC | JACC_FORCE_DUPLICATE));
  EXPECT_EQ(jacc_wait(), JACC_ERROR_BOUNDS);
  EXPECT_NE(lastError().find("write y[128] outside its mapping [0, 128)"), std::string::npos)
      << lastError();
  // Each device reported its own once: the runtime is clean afterwards.
  while (jacc_wait() != JACC_SUCCESS) {
  }
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, AtomicsOfEveryFormAreChecked) {
  mapArrays(64);
  // Each kernel's last iteration alone is outside: one violation whatever the threads' order.
  struct {
    const char *Src, *Error;
  } Cases[] = {
      {"for (int i = 0; i <= n; i++) {\n"
       "  #pragma acc atomic update\n"
       "  y[i] += 1;\n",
       "kernel:5:3: write y[64]"},
      {"for (int i = 0; i <= n; i++) {\n"
       "  #pragma acc atomic read\n"
       "  v = y[i];\n",
       "kernel:5:7: read y[64]"},
      {"for (int i = 0; i <= n; i++) {\n"
       "  #pragma acc atomic write\n"
       "  y[i + (i == n) * n] = i;\n",
       "kernel:5:3: write y[128]"},
      // x of a capture is written; its index (an indirect one) is read, and checked too.
      {"for (int i = 0; i < n; i++) {\n"
       "  #pragma acc atomic capture\n"
       "  v = y[x[i] / 2 + (i == n - 1)]++;\n",
       "kernel:5:7: write y[64]"},
      // A structured capture's x is the one its second statement writes.
      {"for (int i = 0; i < n; i++) {\n"
       "  #pragma acc atomic capture\n"
       "  { v = y[i + 1]; y[i + 1] = 0; }\n",
       "kernel:5:19: write y[64]"},
  };
  for (const auto &C : Cases) {
    bool ReadsX = std::string(C.Src).find("x[") != std::string::npos;
    std::string Src = std::string("#pragma acc parallel loop present(") +
                      (ReadsX ? "x, y" : "y") + ")\n" + C.Src +
                      "  if (v < 0) y[0] = v;\n"
                      "}\n";
    // v is the kernel's: a private scalar of each iteration.
    Src.insert(Src.find('\n', Src.find("for")) + 1, "  int v = 0;\n");
    EXPECT_EQ(push(Src.c_str(), 64, JACC_FORCE_DUPLICATE), JACC_ERROR_BOUNDS) << Src;
    EXPECT_EQ(lastError(), std::string(C.Error) + " outside its mapping [0, 64) on device 0");
  }
  expectHealthyPush();
  unmapArrays();
}

TEST_P(BoundsTest, CheckedAtomicsComputeExactResults) {
  mapArrays(1000);
  // A histogram of x[i] % 8 = 2 i % 8 into y: 250 more in each even bin (split launches too).
  ASSERT_JACC(push("#pragma acc parallel loop present(x, y)\n"
                   "for (int i = 0; i < n; i++) {\n"
                   "  #pragma acc atomic update\n"
                   "  y[x[i] % 8] += 1;\n"
                   "}\n",
                   1000));
  ASSERT_JACC(jacc_update_self(Y.data(), Y.size() * sizeof(int)));
  for (int I = 0; I < 1000; ++I)
    ASSERT_EQ(Y[I], I + (I < 8 && I % 2 == 0 ? 250 : 0)) << I;
  unmapArrays();
}

TEST_P(BoundsTest, CheckedKernelsComputeTheSameResults) {
  mapArrays(2049);
  ASSERT_JACC(push("#pragma acc parallel loop present(x, y)\n"
                   "for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] + x[i + 1];\n",
                   2049));
  ASSERT_JACC(jacc_update_self(Y.data(), Y.size() * sizeof(int)));
  for (int I = 1; I < 2048; ++I)
    ASSERT_EQ(Y[I], 4 * I) << I;
  unmapArrays();
}

TEST_P(BoundsTest, UncheckedPointerArithmeticFaultsAtTheGuiltyKernel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  mapArrays(100);
  // *(y + i) is no subscript: no check, but the guard page after y's copy stops it.
  EXPECT_DEATH(push("#pragma acc parallel loop present(y)\n"
                    "for (int i = 0; i < n; i++) *(y + i) = 0;\n",
                    100000, JACC_FORCE_DUPLICATE),
               "segmentation fault in kernel 'for \\(int i = 0; i < n; i\\+\\+\\) "
               "\\*\\(y \\+ i\\) = 0;' on device");
  unmapArrays();
}

JACC_DEVICE_CONFIGS(BoundsTest);

TEST(BoundsSetting, UnknownValueNamesTheAcceptedOnes) {
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  jacc::ScopedEnv Check("JACC_CHECK", "bound");
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  std::string E = lastError();
  EXPECT_NE(E.find("JACC_CHECK"), std::string::npos) << E;
  EXPECT_NE(E.find("off or bounds"), std::string::npos) << E;
}

} // namespace
