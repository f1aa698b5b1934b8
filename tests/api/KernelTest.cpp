// End to end: kernels of every supported shape, run on every device configuration and checked
// against a serial reference computed here.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using jacc_test::lastError;
using jacc_test::stats;

class KernelTest : public DeviceTest {};

// ---- routines of other files -------------------------------------------------------------------

// A routine another file defines (registered as jaccc registers it): a kernel naming it in
// `#pragma jacc routines(...)` calls it on every device; one naming a routine no file defines
// fails to compile, naming it.
TEST_P(KernelTest, RoutinesOfOtherFilesAreLinkedIntoTheKernel) {
  ASSERT_JACC(jacc_define_routine("kt_cube",
                                  "#pragma acc routine seq\n"
                                  "static double kt_cube(double v) { return v * v * v; }\n"
                                  "// jacc-site: lib.c:4\n"));
  int n = 1001;
  std::vector<double> yv(n);
  for (int i = 0; i < n; i++)
    yv[i] = 0.5 * (i % 13);
  double *y = yv.data();
  ASSERT_JACC(jacc_copyin(y, n * sizeof(double)));
  jacc_arg args[] = {{"int n", &n}, {"double *y", &y}};
  ASSERT_JACC(jacc_kernel_push("#pragma jacc routines(kt_cube)\n"
                               "#pragma acc parallel loop present(y)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  y[i] = kt_cube(y[i]);\n",
                               2, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(double)));
  for (int i = 0; i < n; i++) {
    double v = 0.5 * (i % 13);
    ASSERT_EQ(yv[i], v * v * v) << i;
  }
  ASSERT_JACC(jacc_copyin(y, n * sizeof(double)));
  EXPECT_EQ(jacc_kernel_push("#pragma jacc routines(kt_nowhere)\n"
                             "#pragma acc parallel loop present(y)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  y[i] = kt_nowhere(y[i]);\n"
                             "// jacc-site: main.c:7\n",
                             2, args, JACC_DEFAULT),
            JACC_ERROR_COMPILE);
  EXPECT_NE(lastError().find("the kernel at main.c:7 calls 'kt_nowhere', which is declared but "
                             "defined in no file"),
            std::string::npos)
      << lastError();
  ASSERT_JACC(jacc_delete(y, n * sizeof(double)));
}

// ---- saxpy -----------------------------------------------------------------------------------

TEST_P(KernelTest, Saxpy) {
  int n = 10007; // not a multiple of any team size
  float a = 2.5f;
  std::vector<float> xv(n), yv(n), ref(n);
  for (int i = 0; i < n; i++) {
    xv[i] = 0.001f * (i % 1000);
    yv[i] = ref[i] = static_cast<float>(i % 7) - 3.0f;
  }
  float *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(float)));
  ASSERT_JACC(jacc_copyin(y, n * sizeof(float)));
  jacc_arg args[] = {{"int n", &n}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}};
  for (int r = 0; r < 3; r++) {
    ASSERT_JACC(jacc_kernel_push(jacc_test::SaxpyKernel, 4, args, JACC_DEFAULT));
    for (int i = 0; i < n; i++)
      ref[i] = a * xv[i] + ref[i];
  }
  ASSERT_JACC(jacc_copyout(y, n * sizeof(float)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(float)));
  for (int i = 0; i < n; i++)
    ASSERT_REL(yv[i], ref[i], 1e-6) << "i=" << i;
  jacc_stats s = stats();
  EXPECT_EQ(s.kernels_pushed, 3u);
  // Each push runs in one mode: duplicate, or split between several devices.
  EXPECT_EQ(s.duplicate_launches + s.split_launches, 3u);
  if (devices() == 1) {
    EXPECT_EQ(s.split_launches, 0u);
  }
}

// ---- 2-D Jacobi --------------------------------------------------------------------------------

constexpr int JM = 514; // the constant row length in "double (*a)[514]"

const char *JacobiConstSweep =
    "#pragma acc parallel loop collapse(2) present(a, b)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";
const char *JacobiConstCopy = "#pragma acc parallel loop present(a, b)\n"
                              "for (int i = 1; i < n - 1; i++) {\n"
                              "  #pragma acc loop vector\n"
                              "  for (int j = 1; j < m - 1; j++)\n"
                              "    a[i][j] = b[i][j];\n"
                              "}\n";

template <typename Grid> void jacobiInit(Grid &g, int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      g[i * m + j] = (i == 0 || j == 0 || i == n - 1 || j == m - 1) ? 1.0 + 0.001 * (i + 3 * j)
                                                                    : 0.01 * ((i * 7 + j) % 13);
}

void jacobiReference(std::vector<double> &a, int n, int m, int iters) {
  std::vector<double> b = a;
  for (int t = 0; t < iters; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        b[i * m + j] = 0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] +
                               a[i * m + j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        a[i * m + j] = b[i * m + j];
  }
}

TEST_P(KernelTest, Jacobi2DConstantRowLength) {
  int n = 40, m = JM, iters = 12;
  std::vector<double> av(n * m), bv(n * m), ref(n * m);
  jacobiInit(av, n, m);
  bv = av;
  ref = av;
  jacobiReference(ref, n, m, iters);
  double(*a)[JM] = reinterpret_cast<double(*)[JM]>(av.data());
  double(*b)[JM] = reinterpret_cast<double(*)[JM]>(bv.data());
  size_t bytes = sizeof(double) * n * m;
  ASSERT_JACC(jacc_copyin(a, bytes));
  ASSERT_JACC(jacc_copyin(b, bytes));
  jacc_arg args[] = {{"int n", &n}, {"int m", &m}, {"double (*a)[514]", &a},
                     {"double (*b)[514]", &b}};
  for (int t = 0; t < iters; t++) {
    ASSERT_JACC(jacc_kernel_push(JacobiConstSweep, 4, args, JACC_DEFAULT));
    ASSERT_JACC(jacc_kernel_push(JacobiConstCopy, 4, args, JACC_DEFAULT));
  }
  ASSERT_JACC(jacc_copyout(a, bytes));
  ASSERT_JACC(jacc_delete(b, bytes));
  // Same operations in the same order: exact.
  for (int i = 0; i < n * m; i++)
    ASSERT_EQ(av[i], ref[i]) << "row " << i / m << " col " << i % m;
}

const char *JacobiVlaSweep =
    "#pragma acc parallel loop collapse(2) present(a, b)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";

TEST_P(KernelTest, Jacobi2DVariableRowLength) {
  // "double (*a)[m]" with m an argument; ping-pong by swapping the arrays between pushes.
  int n = 37, m = 53, iters = 10; // iters even: the result ends in a
  std::vector<double> av(n * m), bv(n * m), ref(n * m);
  jacobiInit(av, n, m);
  bv = av;
  ref = av;
  jacobiReference(ref, n, m, iters);
  double *a = av.data(), *b = bv.data();
  size_t bytes = sizeof(double) * n * m;
  ASSERT_JACC(jacc_copyin(a, bytes));
  ASSERT_JACC(jacc_copyin(b, bytes));
  for (int t = 0; t < iters; t++) {
    // The user's args in a different order from the kernel's parameter order.
    jacc_arg args[] = {{"double (*a)[m]", t % 2 ? &b : &a},
                       {"int n", &n},
                       {"double (*b)[m]", t % 2 ? &a : &b},
                       {"int m", &m}};
    ASSERT_JACC(jacc_kernel_push(JacobiVlaSweep, 4, args, JACC_DEFAULT));
  }
  ASSERT_JACC(jacc_copyout(a, bytes));
  ASSERT_JACC(jacc_delete(b, bytes));
  for (int i = 0; i < n * m; i++)
    ASSERT_EQ(av[i], ref[i]) << "row " << i / m << " col " << i % m;
}

// ---- stencils ----------------------------------------------------------------------------------

const char *Stencil1DSrc = "#pragma acc parallel loop present(in, out)\n"
                           "for (int i = 1; i < n - 1; i++)\n"
                           "  out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;\n";

TEST_P(KernelTest, Stencil1DIterations) {
  int n = 4099, iters = 9;
  std::vector<double> uv(n), vv(n);
  for (int i = 0; i < n; i++)
    uv[i] = vv[i] = (i * 37 % 101) * 0.5;
  std::vector<double> ru = uv, rv = vv;
  for (int t = 0; t < iters; t++) {
    std::vector<double> &in = t % 2 ? rv : ru, &out = t % 2 ? ru : rv;
    for (int i = 1; i < n - 1; i++)
      out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
  }
  double *u = uv.data(), *v = vv.data();
  ASSERT_JACC(jacc_copyin(u, n * sizeof(double)));
  ASSERT_JACC(jacc_copyin(v, n * sizeof(double)));
  for (int t = 0; t < iters; t++) {
    jacc_arg args[] = {{"int n", &n}, {"const double *in", t % 2 ? &v : &u},
                       {"double *out", t % 2 ? &u : &v}};
    ASSERT_JACC(jacc_kernel_push(Stencil1DSrc, 3, args, JACC_DEFAULT));
  }
  ASSERT_JACC(jacc_copyout(u, n * sizeof(double)));
  ASSERT_JACC(jacc_copyout(v, n * sizeof(double)));
  for (int i = 0; i < n; i++) {
    ASSERT_EQ(uv[i], ru[i]) << i;
    ASSERT_EQ(vv[i], rv[i]) << i;
  }
}

const char *Stencil2DSrc =
    "#pragma acc parallel loop present(in, out)\n"
    "for (int i = 1; i < n - 1; i++) {\n"
    "  #pragma acc loop\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    out[i * m + j] = (in[(i - 1) * m + j] + in[(i + 1) * m + j] + in[i * m + j - 1] +\n"
    "                      in[i * m + j + 1] + 4 * in[i * m + j]) / 8;\n"
    "}\n";

TEST_P(KernelTest, Stencil2DIterations) {
  int n = 61, m = 45, iters = 7;
  std::vector<int> uv(n * m), vv(n * m);
  for (int i = 0; i < n * m; i++)
    uv[i] = vv[i] = (i * 7919) % 100003;
  std::vector<int> ru = uv, rv = vv;
  for (int t = 0; t < iters; t++) {
    std::vector<int> &in = t % 2 ? rv : ru, &out = t % 2 ? ru : rv;
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = (in[(i - 1) * m + j] + in[(i + 1) * m + j] + in[i * m + j - 1] +
                          in[i * m + j + 1] + 4 * in[i * m + j]) / 8;
  }
  int *u = uv.data(), *v = vv.data();
  size_t bytes = sizeof(int) * n * m;
  ASSERT_JACC(jacc_copyin(u, bytes));
  ASSERT_JACC(jacc_copyin(v, bytes));
  for (int t = 0; t < iters; t++) {
    jacc_arg args[] = {{"int n", &n}, {"int m", &m}, {"const int *in", t % 2 ? &v : &u},
                       {"int *out", t % 2 ? &u : &v}};
    ASSERT_JACC(jacc_kernel_push(Stencil2DSrc, 4, args, JACC_DEFAULT));
  }
  ASSERT_JACC(jacc_copyout(u, bytes));
  ASSERT_JACC(jacc_copyout(v, bytes));
  EXPECT_EQ(uv, ru);
  EXPECT_EQ(vv, rv);
}

// ---- collapse ----------------------------------------------------------------------------------

const char *Collapse2Src = "#pragma acc parallel loop collapse(2) present(c)\n"
                           "for (int i = 1; i < n; i++)\n"
                           "  for (int j = 2; j <= m; j++)\n"
                           "    c[i * (m + 1) + j] += i * 1000 + j;\n";

TEST_P(KernelTest, Collapse2) {
  // += shows an iteration run twice or not at all; odd sizes split rows between threads.
  int n = 23, m = 17;
  std::vector<int> cv((n + 1) * (m + 1), 5), ref = cv;
  for (int i = 1; i < n; i++)
    for (int j = 2; j <= m; j++)
      ref[i * (m + 1) + j] += i * 1000 + j;
  int *c = cv.data();
  ASSERT_JACC(jacc_copyin(c, cv.size() * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"int m", &m}, {"int *c", &c}};
  ASSERT_JACC(jacc_kernel_push(Collapse2Src, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(c, cv.size() * sizeof(int)));
  EXPECT_EQ(cv, ref);
}

// ---- a 5x5 block per cell, every access strided (its host loop is not vectorised) -----------

const char *Block5Src = "#pragma acc parallel loop present(A, x, y)\n"
                        "for (int c = 0; c < cells; c++)\n"
                        "  for (int r = 0; r < 5; r++) {\n"
                        "    double s = 0.0;\n"
                        "    for (int k = 0; k < 5; k++)\n"
                        "      s += A[c][r][k] * x[c][k];\n"
                        "    y[c][r] = s;\n"
                        "  }\n";

TEST_P(KernelTest, BlockMatVecPerCell) {
  int cells = 1001; // small integers: every sum is exact, whatever the order
  std::vector<double> Av(cells * 25), xv(cells * 5), yv(cells * 5, -1.0), ref(yv.size());
  for (size_t I = 0; I < Av.size(); ++I)
    Av[I] = double(I % 7) - 3;
  for (size_t I = 0; I < xv.size(); ++I)
    xv[I] = double(I % 5);
  for (int c = 0; c < cells; c++)
    for (int r = 0; r < 5; r++) {
      double s = 0.0;
      for (int k = 0; k < 5; k++)
        s += Av[c * 25 + r * 5 + k] * xv[c * 5 + k];
      ref[c * 5 + r] = s;
    }
  double *A = Av.data(), *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(A, Av.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(x, xv.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(y, yv.size() * sizeof(double)));
  jacc_arg args[] = {{"int cells", &cells}, {"const double (*A)[5][5]", &A},
                     {"const double (*x)[5]", &x}, {"double (*y)[5]", &y}};
  ASSERT_JACC(jacc_kernel_push(Block5Src, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, yv.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(A, Av.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(x, xv.size() * sizeof(double)));
  EXPECT_EQ(yv, ref);
}

// ---- sums of products over an inner loop: not fused, as in ISO C ------------------------------

const char *MatMulSrc = "#pragma acc parallel loop collapse(2) present(a, b, c)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  for (int j = 0; j < n; j++) {\n"
                        "    double s = 0.0;\n"
                        "    for (int k = 0; k < n; k++)\n"
                        "      s += a[i][k] * b[k][j];\n"
                        "    c[i][j] = s;\n"
                        "  }\n";

TEST_P(KernelTest, SumOfProductsIsRoundedLikeUnfusedC) {
  // Each element's sum runs in k order on one thread: with every product rounded before it is
  // added (no fused multiply-add), it equals this reference bit for bit.
  int n = 37;
  std::vector<double> av(n * n), bv(n * n), cv(n * n, 0.0), ref(n * n);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      av[i * n + k] = 0.1 * (i + k + 1), bv[i * n + k] = 1.0 / (i + 2 * k + 3);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++) {
        volatile double Product = av[i * n + k] * bv[k * n + j]; // rounded on its own
        s += Product;
      }
      ref[i * n + j] = s;
    }
  double *a = av.data(), *b = bv.data(), *c = cv.data();
  size_t Bytes = av.size() * sizeof(double);
  ASSERT_JACC(jacc_copyin(a, Bytes));
  ASSERT_JACC(jacc_copyin(b, Bytes));
  ASSERT_JACC(jacc_copyin(c, Bytes));
  jacc_arg args[] = {{"int n", &n}, {"const double (*a)[n]", &a}, {"const double (*b)[n]", &b},
                     {"double (*c)[n]", &c}};
  ASSERT_JACC(jacc_kernel_push(MatMulSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(c, Bytes));
  ASSERT_JACC(jacc_delete(a, Bytes));
  ASSERT_JACC(jacc_delete(b, Bytes));
  EXPECT_EQ(cv, ref);
}

const char *Collapse3Src = "#pragma acc parallel loop collapse(3) present(a)\n"
                           "for (int i = 0; i < nx; i++)\n"
                           "  for (int j = 0; j < ny; j++) {\n"
                           "    for (int k = 0; k < nz; k++) {\n"
                           "      a[(i * ny + j) * nz + k] += i * 10000 + j * 100 + k;\n"
                           "    }\n"
                           "  }\n";

TEST_P(KernelTest, Collapse3) {
  int nx = 5, ny = 7, nz = 9;
  std::vector<long long> av(nx * ny * nz, 1), ref = av;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++)
        ref[(i * ny + j) * nz + k] += i * 10000 + j * 100 + k;
  long long *a = av.data();
  ASSERT_JACC(jacc_copyin(a, av.size() * sizeof(long long)));
  jacc_arg args[] = {{"int nx", &nx}, {"int ny", &ny}, {"int nz", &nz}, {"long long *a", &a}};
  ASSERT_JACC(jacc_kernel_push(Collapse3Src, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, av.size() * sizeof(long long)));
  EXPECT_EQ(av, ref);
}

const char *Collapse2BracedInRegionSrc = "#pragma acc parallel present(a, b)\n"
                                        "{\n"
                                        "  #pragma acc loop collapse(2)\n"
                                        "  for (int i = 0; i < n; i++) {\n"
                                        "    for (int j = 0; j < m; j++) {\n"
                                        "      a[i * m + j] = i - 2 * j;\n"
                                        "    }\n"
                                        "  }\n"
                                        "  #pragma acc loop\n"
                                        "  for (int k = 0; k < n * m; k++)\n"
                                        "    b[k] = a[n * m - 1 - k] * 3;\n"
                                        "}\n";

TEST_P(KernelTest, Collapse2WithBracedBodiesFollowedByALoop) {
  int n = 31, m = 29;
  std::vector<int> av(n * m, 0), bv(n * m, 0), ra(n * m), rb(n * m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      ra[i * m + j] = i - 2 * j;
  for (int k = 0; k < n * m; k++)
    rb[k] = ra[n * m - 1 - k] * 3;
  int *a = av.data(), *b = bv.data();
  ASSERT_JACC(jacc_create(a, av.size() * sizeof(int)));
  ASSERT_JACC(jacc_create(b, bv.size() * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"int m", &m}, {"int *a", &a}, {"int *b", &b}};
  ASSERT_JACC(jacc_kernel_push(Collapse2BracedInRegionSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, av.size() * sizeof(int)));
  ASSERT_JACC(jacc_copyout(b, bv.size() * sizeof(int)));
  EXPECT_EQ(av, ra);
  EXPECT_EQ(bv, rb);
}

// ---- regions with several loops --------------------------------------------------------------

const char *KernelsRegionSrc = "#pragma acc kernels present(x, a, b)\n"
                               "{\n"
                               "  #pragma acc loop independent\n"
                               "  for (int i = 0; i < n; i++)\n"
                               "    a[i] = 2 * x[i] + 1;\n"
                               "  #pragma acc loop independent\n"
                               "  for (int i = 0; i < n; i++)\n"
                               "    b[i] = a[n - 1 - i] - a[i];\n"
                               "}\n";

TEST_P(KernelTest, KernelsRegionTwoLoopsInSequence) {
  // The second loop reads elements the first wrote on other threads: it must see all of them.
  int n = 20011;
  std::vector<int> xv(n), av(n, -1), bv(n, -1), ra(n), rb(n);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 31) % 977;
  for (int i = 0; i < n; i++)
    ra[i] = 2 * xv[i] + 1;
  for (int i = 0; i < n; i++)
    rb[i] = ra[n - 1 - i] - ra[i];
  int *x = xv.data(), *a = av.data(), *b = bv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_copyin(a, n * sizeof(int)));
  ASSERT_JACC(jacc_create(b, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"const int *x", &x}, {"int *a", &a}, {"int *b", &b}};
  // One push: a second one would read a's values from the first and hide a missing barrier.
  ASSERT_JACC(jacc_kernel_push(KernelsRegionSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, n * sizeof(int)));
  ASSERT_JACC(jacc_copyout(b, n * sizeof(int)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
  EXPECT_EQ(av, ra);
  EXPECT_EQ(bv, rb);
}

const char *ParallelRegionSrc = "#pragma acc parallel present(x, a, b)\n"
                                "{\n"
                                "  int shift = n / 3;\n"
                                "  #pragma acc loop\n"
                                "  for (int i = 0; i < n; i++)\n"
                                "    a[i] = x[i] * x[i];\n"
                                "  #pragma acc loop\n"
                                "  for (int i = 0; i < n; i++)\n"
                                "    b[i] = a[(i + shift) % n] - a[i];\n"
                                "}\n";

TEST_P(KernelTest, ParallelRegionTwoLoopsInSequence) {
  int n = 15013;
  std::vector<long long> xv(n), av(n), bv(n), ra(n), rb(n);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 13) % 1009 - 500;
  for (int i = 0; i < n; i++)
    ra[i] = xv[i] * xv[i];
  for (int i = 0; i < n; i++)
    rb[i] = ra[(i + n / 3) % n] - ra[i];
  long long *x = xv.data(), *a = av.data(), *b = bv.data();
  size_t bytes = n * sizeof(long long);
  ASSERT_JACC(jacc_copyin(x, bytes));
  ASSERT_JACC(jacc_create(a, bytes));
  ASSERT_JACC(jacc_create(b, bytes));
  jacc_arg args[] = {{"long long *b", &b}, {"long long *a", &a}, {"const long long *x", &x},
                     {"int n", &n}};
  ASSERT_JACC(jacc_kernel_push(ParallelRegionSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, bytes));
  ASSERT_JACC(jacc_copyout(b, bytes));
  ASSERT_JACC(jacc_delete(x, bytes));
  EXPECT_EQ(av, ra);
  EXPECT_EQ(bv, rb);
}

const char *RegionStatementsSrc = "#pragma acc parallel present(x, a, b, total)\n"
                                  "{\n"
                                  "  long long s = 0;\n"
                                  "  for (int i = 0; i < n; i++)\n"
                                  "    s += x[i];\n"
                                  "  #pragma acc loop\n"
                                  "  for (int i = 0; i < n; i++)\n"
                                  "    a[i] = x[i] + s;\n"
                                  "  a[0] = -5;\n"
                                  "  total[0] = s;\n"
                                  "  #pragma acc loop\n"
                                  "  for (int i = 0; i < n; i++)\n"
                                  "    b[i] = a[i] * 2 + a[0] + a[n - 1 - i];\n"
                                  "}\n";

TEST_P(KernelTest, ParallelRegionWithStatementsOutsideTheLoops) {
  // A scalar computed by every thread, statements that write memory (one thread, then a barrier)
  // between two shared loops.
  int n = 9973;
  std::vector<long long> xv(n), av(n, 0), bv(n, 0), tv(1, 0), ra(n), rb(n);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 11) % 101 - 50;
  long long s = 0;
  for (int i = 0; i < n; i++)
    s += xv[i];
  for (int i = 0; i < n; i++)
    ra[i] = xv[i] + s;
  ra[0] = -5;
  for (int i = 0; i < n; i++)
    rb[i] = ra[i] * 2 + ra[0] + ra[n - 1 - i];
  long long *x = xv.data(), *a = av.data(), *b = bv.data(), *total = tv.data();
  size_t bytes = n * sizeof(long long);
  ASSERT_JACC(jacc_copyin(x, bytes));
  ASSERT_JACC(jacc_copyin(a, bytes));
  ASSERT_JACC(jacc_copyin(b, bytes));
  ASSERT_JACC(jacc_copyin(total, sizeof(long long)));
  jacc_arg args[] = {{"int n", &n}, {"const long long *x", &x}, {"long long *a", &a},
                     {"long long *b", &b}, {"long long *total", &total}};
  ASSERT_JACC(jacc_kernel_push(RegionStatementsSrc, 5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, bytes));
  ASSERT_JACC(jacc_copyout(b, bytes));
  ASSERT_JACC(jacc_copyout(total, sizeof(long long)));
  ASSERT_JACC(jacc_delete(x, bytes));
  EXPECT_EQ(tv[0], s);
  EXPECT_EQ(av, ra);
  EXPECT_EQ(bv, rb);
}

const char *MixedWritesRegionSrc = "#pragma acc kernels present(x, run)\n"
                                   "{\n"
                                   "  long long s = 0;\n"
                                   "  for (int i = 0; i < n; i++) {\n"
                                   "    s += x[i];\n"
                                   "    run[i] = s;\n"
                                   "  }\n"
                                   "  #pragma acc loop independent\n"
                                   "  for (int i = 0; i < n; i++)\n"
                                   "    run[i] -= x[i];\n"
                                   "}\n";

TEST_P(KernelTest, RegionThatMustRunOnOneThread) {
  // A statement that writes memory and a region scalar makes the region run on one thread; the
  // result is still exact.
  int n = 7001;
  std::vector<long long> xv(n), rv(n, 0), ref(n);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 5) % 17 - 8;
  long long s = 0;
  for (int i = 0; i < n; i++) {
    s += xv[i];
    ref[i] = s - xv[i];
  }
  long long *x = xv.data(), *run = rv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(long long)));
  ASSERT_JACC(jacc_create(run, n * sizeof(long long)));
  jacc_arg args[] = {{"int n", &n}, {"const long long *x", &x}, {"long long *run", &run}};
  ASSERT_JACC(jacc_kernel_push(MixedWritesRegionSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(run, n * sizeof(long long)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(long long)));
  EXPECT_EQ(rv, ref);
}

const char *TuningClausesSrc =
    "#pragma acc kernels loop independent gang vector num_gangs(4) vector_length(128) present(y)\n"
    "for (int i = 0; i < n; i++) {\n"
    "  int acc = 0;\n"
    "  #pragma acc loop seq\n"
    "  for (int j = 0; j <= i % 10; j++)\n"
    "    acc += j;\n"
    "  y[i] = acc;\n"
    "}\n";

TEST_P(KernelTest, KernelsLoopWithMappingClausesAndSeqInnerLoop) {
  int n = 3333;
  std::vector<int> yv(n, -1);
  int *y = yv.data();
  ASSERT_JACC(jacc_copyin(y, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"int *y", &y}};
  ASSERT_JACC(jacc_kernel_push(TuningClausesSrc, 2, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(int)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], (i % 10) * (i % 10 + 1) / 2) << i;
}

// ---- serial ------------------------------------------------------------------------------------

const char *PrefixSumSrc = "#pragma acc serial present(a)\n"
                           "for (int i = 1; i < n; i++)\n"
                           "  a[i] += a[i - 1];\n";

TEST_P(KernelTest, SerialPrefixSum) {
  // Each iteration depends on the previous one: only a sequential run gets this right.
  int n = 30001;
  std::vector<long long> av(n), ref(n);
  for (int i = 0; i < n; i++)
    av[i] = ref[i] = (i * 17) % 23 - 11;
  for (int i = 1; i < n; i++)
    ref[i] += ref[i - 1];
  long long *a = av.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(long long)));
  jacc_arg args[] = {{"int n", &n}, {"long long *a", &a}};
  ASSERT_JACC(jacc_kernel_push(PrefixSumSrc, 2, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, n * sizeof(long long)));
  EXPECT_EQ(av, ref);
}

const char *SerialBlockSrc = "#pragma acc serial present(a, out)\n"
                             "{\n"
                             "  long long run = 0;\n"
                             "  for (int i = 0; i < n; i++) {\n"
                             "    run = run * 3 + a[i];\n"
                             "    out[i] = run % 1000003;\n"
                             "    run = out[i];\n"
                             "  }\n"
                             "}\n";

TEST_P(KernelTest, SerialBlockWithLocalState) {
  int n = 5000;
  std::vector<long long> av(n), ov(n, 0), ref(n);
  for (int i = 0; i < n; i++)
    av[i] = (i * 101) % 997;
  long long run = 0;
  for (int i = 0; i < n; i++) {
    run = run * 3 + av[i];
    ref[i] = run % 1000003;
    run = ref[i];
  }
  long long *a = av.data(), *out = ov.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(long long)));
  ASSERT_JACC(jacc_create(out, n * sizeof(long long)));
  jacc_arg args[] = {{"int n", &n}, {"const long long *a", &a}, {"long long *out", &out}};
  ASSERT_JACC(jacc_kernel_push(SerialBlockSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(out, n * sizeof(long long)));
  ASSERT_JACC(jacc_delete(a, n * sizeof(long long)));
  EXPECT_EQ(ov, ref);
}

// ---- scalar argument types ---------------------------------------------------------------------

const char *AllScalarsSrc = "#pragma acc serial present(o, uo, d)\n"
                            "{\n"
                            "  o[0] = c; o[1] = sc; o[2] = uc; o[3] = s; o[4] = us;\n"
                            "  o[5] = i; o[6] = u; o[7] = l; o[8] = ll; o[9] = b;\n"
                            "  uo[0] = ul; uo[1] = ull;\n"
                            "  d[0] = f; d[1] = x;\n"
                            "}\n";

TEST_P(KernelTest, ScalarsOfEveryBasicType) {
  char c = -77; // negative: catches a char passed zero-extended (char is signed on this ABI)
  signed char sc = -128;
  unsigned char uc = 250;
  short s = -32000;
  unsigned short us = 65000;
  int i = -2000000001;
  unsigned u = 4000000001u;
  long l = -8000000000000000001L;
  unsigned long ul = 18000000000000000001UL;
  long long ll = -9000000000000000003LL;
  unsigned long long ull = 18446744073709551557ULL;
  float f = -1.75e30f;
  double x = 6.02214076e-223;
  bool b = 1; // C _Bool: one byte, 0 or 1
  std::vector<long long> ov(10, 0);
  std::vector<unsigned long long> uov(2, 0);
  std::vector<double> dv(2, 0);
  long long *o = ov.data();
  unsigned long long *uo = uov.data();
  double *d = dv.data();
  ASSERT_JACC(jacc_create(o, ov.size() * sizeof(long long)));
  ASSERT_JACC(jacc_create(uo, uov.size() * sizeof(unsigned long long)));
  ASSERT_JACC(jacc_create(d, dv.size() * sizeof(double)));
  // Interleaved with the pointers, and in an order unlike the kernel's use.
  jacc_arg args[] = {{"double *d", &d},
                     {"unsigned long long ull", &ull},
                     {"char c", &c},
                     {"long long *o", &o},
                     {"_Bool b", &b},
                     {"float f", &f},
                     {"signed char sc", &sc},
                     {"unsigned char uc", &uc},
                     {"short s", &s},
                     {"unsigned long long *uo", &uo},
                     {"unsigned short us", &us},
                     {"int i", &i},
                     {"unsigned u", &u},
                     {"long l", &l},
                     {"unsigned long ul", &ul},
                     {"long long ll", &ll},
                     {"double x", &x}};
  ASSERT_JACC(jacc_kernel_push(AllScalarsSrc, sizeof args / sizeof args[0], args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(o, ov.size() * sizeof(long long)));
  ASSERT_JACC(jacc_copyout(uo, uov.size() * sizeof(unsigned long long)));
  ASSERT_JACC(jacc_copyout(d, dv.size() * sizeof(double)));
  EXPECT_EQ(ov[0], c);
  EXPECT_EQ(ov[1], sc);
  EXPECT_EQ(ov[2], uc);
  EXPECT_EQ(ov[3], s);
  EXPECT_EQ(ov[4], us);
  EXPECT_EQ(ov[5], i);
  EXPECT_EQ(ov[6], static_cast<long long>(u));
  EXPECT_EQ(ov[7], l);
  EXPECT_EQ(ov[8], ll);
  EXPECT_EQ(ov[9], 1);
  EXPECT_EQ(uov[0], ul);
  EXPECT_EQ(uov[1], ull);
  EXPECT_EQ(dv[0], static_cast<double>(f));
  EXPECT_EQ(dv[1], x);
}

const char *MixedScalarArithSrc =
    "#pragma acc parallel loop present(y)\n"
    "for (int k = 0; k < n; k++)\n"
    "  y[k] = (b ? k : -k) + c + sc + uc + s + us + (long long)(u % 1000u) + (l % 1000) +\n"
    "         (long long)(ul % 1000ul) + (ll % 1000) + (long long)(ull % 1000ull) +\n"
    "         (long long)(f * 4.0f) + (long long)(x * 8.0);\n";

TEST_P(KernelTest, ScalarsOfEveryBasicTypeInParallelArithmetic) {
  // Every thread of every device must receive every scalar intact.
  int n = 3001;
  char c = 'A';
  signed char sc = -3;
  unsigned char uc = 200;
  short s = -1234;
  unsigned short us = 54321;
  unsigned u = 3999999999u;
  long l = -123456789012L;
  unsigned long ul = 9876543210123UL;
  long long ll = -98765432109876LL;
  unsigned long long ull = 12345678901234567890ULL;
  float f = 2.75f;
  double x = -3.125;
  bool b = 0; // C _Bool: one byte, 0 or 1
  std::vector<long long> yv(n, 0);
  long long *y = yv.data();
  ASSERT_JACC(jacc_create(y, n * sizeof(long long)));
  jacc_arg args[] = {{"int n", &n},
                     {"char c", &c},
                     {"signed char sc", &sc},
                     {"unsigned char uc", &uc},
                     {"short s", &s},
                     {"unsigned short us", &us},
                     {"unsigned int u", &u},
                     {"long l", &l},
                     {"unsigned long ul", &ul},
                     {"long long ll", &ll},
                     {"unsigned long long ull", &ull},
                     {"float f", &f},
                     {"double x", &x},
                     {"_Bool b", &b},
                     {"long long *y", &y}};
  ASSERT_JACC(
      jacc_kernel_push(MixedScalarArithSrc, sizeof args / sizeof args[0], args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(long long)));
  for (int k = 0; k < n; k++) {
    long long want = (b ? k : -k) + c + sc + uc + s + us + (long long)(u % 1000u) + (l % 1000) +
                     (long long)(ul % 1000ul) + (ll % 1000) + (long long)(ull % 1000ull) +
                     (long long)(f * 4.0f) + (long long)(x * 8.0);
    ASSERT_EQ(yv[k], want) << "k=" << k;
  }
}

// ---- math, helpers and macros ------------------------------------------------------------------

const char *MathWithIncludeSrc =
    "#include <math.h>\n"
    "#pragma acc parallel loop present(x, y)\n"
    "for (int i = 0; i < n; i++)\n"
    "  y[i] = sqrt(x[i]) + exp(-x[i]) + sin(x[i]) + pow(x[i], 1.5) + fabs(x[i] - 2.0);\n";
const char *MathWithoutIncludeSrc =
    "#pragma acc parallel loop present(x, y)\n"
    "for (int i = 0; i < n; i++)\n"
    "  y[i] = sqrt(x[i]) + exp(-x[i]) + sin(x[i]) + pow(x[i], 1.5) + fabs(x[i] - 2.0);\n";

void runMath(const char *Src) {
  int n = 2049;
  std::vector<double> xv(n), yv(n, 0);
  for (int i = 0; i < n; i++)
    xv[i] = 0.003 * i;
  double *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  ASSERT_JACC(jacc_create(y, n * sizeof(double)));
  jacc_arg args[] = {{"int n", &n}, {"const double *x", &x}, {"double *y", &y}};
  ASSERT_JACC(jacc_kernel_push(Src, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(double)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(double)));
  for (int i = 0; i < n; i++) {
    double v = xv[i];
    double want = std::sqrt(v) + std::exp(-v) + std::sin(v) + std::pow(v, 1.5) + std::fabs(v - 2.0);
    ASSERT_REL(yv[i], want, 1e-13) << "i=" << i;
  }
}

TEST_P(KernelTest, MathFunctionsWithMathH) { runMath(MathWithIncludeSrc); }
TEST_P(KernelTest, MathFunctionsWithoutMathH) { runMath(MathWithoutIncludeSrc); }

const char *MathFloatSrc = "#include <math.h>\n"
                           "#pragma acc parallel loop present(x, y)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  y[i] = sqrtf(x[i]) + fabsf(-x[i]) + floorf(x[i] * 3.5f);\n";

TEST_P(KernelTest, FloatMathFunctions) {
  int n = 1000;
  std::vector<float> xv(n), yv(n);
  for (int i = 0; i < n; i++)
    xv[i] = 0.25f * i;
  float *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(float)));
  ASSERT_JACC(jacc_create(y, n * sizeof(float)));
  jacc_arg args[] = {{"int n", &n}, {"float *x", &x}, {"float *y", &y}};
  ASSERT_JACC(jacc_kernel_push(MathFloatSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(float)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(float)));
  for (int i = 0; i < n; i++)
    ASSERT_REL(yv[i], std::sqrt(xv[i]) + std::fabs(-xv[i]) + std::floor(xv[i] * 3.5f), 1e-6)
        << i;
}

const char *HelperAndMacroSrc = "#define SQ(v) ((v) * (v))\n"
                                "#define OFFSET 17\n"
                                "static inline int clampi(int v, int lo, int hi) {\n"
                                "  return v < lo ? lo : v > hi ? hi : v;\n"
                                "}\n"
                                "\n"
                                "#pragma acc parallel loop present(x, y)\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  y[i] = clampi(SQ(x[i]) - OFFSET, lo, hi);\n";

TEST_P(KernelTest, StaticInlineHelperAndMacro) {
  int n = 4003, lo = 10, hi = 900;
  std::vector<int> xv(n), yv(n, 0);
  for (int i = 0; i < n; i++)
    xv[i] = i % 41 - 20;
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_create(y, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"int lo", &lo}, {"int hi", &hi}, {"int *x", &x},
                     {"int *y", &y}};
  ASSERT_JACC(jacc_kernel_push(HelperAndMacroSrc, 5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(int)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
  for (int i = 0; i < n; i++) {
    int v = xv[i] * xv[i] - 17;
    ASSERT_EQ(yv[i], v < lo ? lo : v > hi ? hi : v) << i;
  }
}

// ---- loop shapes -------------------------------------------------------------------------------

const char *StepSrc = "#pragma acc parallel loop present(a)\n"
                      "for (int i = lo; i < hi; i += 2)\n"
                      "  a[i] += 3 * i + 1;\n";
const char *StepNotDividingSrc = "#pragma acc parallel loop present(a)\n"
                                 "for (int i = lo; i < hi; i = i + 7)\n"
                                 "  a[i] += 3 * i + 1;\n";
const char *DecreasingSrc = "#pragma acc parallel loop present(a)\n"
                            "for (int i = hi; i >= lo; i--)\n"
                            "  a[i] += 3 * i + 1;\n";
const char *DecreasingStepSrc = "#pragma acc parallel loop present(a)\n"
                                "for (int i = hi; i > lo; i -= 3)\n"
                                "  a[i] += 3 * i + 1;\n";
const char *LessOrEqualSrc = "#pragma acc parallel loop present(a)\n"
                             "for (int i = lo + 1; i <= hi; i++)\n"
                             "  a[i] += 3 * i + 1;\n";
const char *NotEqualSrc = "#pragma acc parallel loop present(a)\n"
                          "for (long i = lo; i != hi; ++i)\n"
                          "  a[i] += 3 * i + 1;\n";

/// Runs Src (which adds a marker to a[i] for each iteration i it runs) over a zeroed array and
/// compares with Ref, the iterations a serial run visits.
void runLoopShape(const char *Src, int lo, int hi, int n, const std::vector<int> &Visited,
                  unsigned Flags = JACC_DEFAULT) {
  std::vector<int> av(n, 0), ref(n, 0);
  for (int i : Visited)
    ref[i] += 3 * i + 1;
  int *a = av.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(int)));
  jacc_arg args[] = {{"int lo", &lo}, {"int hi", &hi}, {"int *a", &a}};
  ASSERT_JACC(jacc_kernel_push(Src, 3, args, Flags));
  ASSERT_JACC(jacc_copyout(a, n * sizeof(int)));
  EXPECT_EQ(av, ref) << "flags " << Flags << ":\n" << Src;
}

TEST_P(KernelTest, LoopWithStep) {
  std::vector<int> V;
  for (int i = 3; i < 1001; i += 2)
    V.push_back(i);
  runLoopShape(StepSrc, 3, 1001, 1001, V);
}

TEST_P(KernelTest, LoopWithStepNotDividingRange) {
  std::vector<int> V;
  for (int i = 5; i < 999; i = i + 7)
    V.push_back(i);
  runLoopShape(StepNotDividingSrc, 5, 999, 1000, V);
}

TEST_P(KernelTest, DecreasingLoop) {
  std::vector<int> V;
  for (int i = 998; i >= 2; i--)
    V.push_back(i);
  runLoopShape(DecreasingSrc, 2, 998, 1000, V);
}

TEST_P(KernelTest, DecreasingLoopWithStep) {
  std::vector<int> V;
  for (int i = 997; i > 4; i -= 3)
    V.push_back(i);
  runLoopShape(DecreasingStepSrc, 4, 997, 1000, V);
}

TEST_P(KernelTest, LessOrEqualBoundWithNonZeroLowerBound) {
  std::vector<int> V;
  for (int i = 8; i <= 999; i++)
    V.push_back(i);
  runLoopShape(LessOrEqualSrc, 7, 999, 1000, V);
}

TEST_P(KernelTest, NotEqualBoundAndLongLoopVariable) {
  std::vector<int> V;
  for (int i = 11; i != 990; ++i)
    V.push_back(i);
  runLoopShape(NotEqualSrc, 11, 990, 1000, V);
}

TEST_P(KernelTest, IntLoopsOverTheWholeIntRange) {
  // The host code counts an int iterator in int from its first value: ranges near INT_MIN and
  // INT_MAX, with steps of hundreds of millions, both directions, alone and collapsed.
  const char *Src = "#pragma acc parallel loop collapse(2) present(a)\n"
                    "for (int r = 0; r < 2; r++)\n"
                    "  for (int i = lo; i < hi; i += 400000000)\n"
                    "    a[r * 16 + ((long long)i - lo) / 400000000] = i % 1000 + 1000 * r;\n";
  const char *Down = "#pragma acc parallel loop present(a)\n"
                     "for (int i = hi; i > lo; i -= 300000000)\n"
                     "  a[32 + ((long long)hi - i) / 300000000] = i % 997;\n";
  int lo = INT_MIN + 5, hi = INT_MAX - 5;
  std::vector<int> av(64, -1), ref(64, -1);
  for (int r = 0; r < 2; r++)
    for (long long i = lo; i < hi; i += 400000000)
      ref[r * 16 + (i - lo) / 400000000] = int(i % 1000 + 1000 * r);
  for (long long i = hi; i > lo; i -= 300000000)
    ref[32 + (hi - i) / 300000000] = int(i % 997);
  int *a = av.data();
  ASSERT_JACC(jacc_copyin(a, av.size() * sizeof(int)));
  jacc_arg args[] = {{"int lo", &lo}, {"int hi", &hi}, {"int *a", &a}};
  ASSERT_JACC(jacc_kernel_push(Src, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_kernel_push(Down, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(a, av.size() * sizeof(int)));
  EXPECT_EQ(av, ref);
}

const char *ReverseWriteSrc = "#pragma acc parallel loop present(a, b)\n"
                              "for (int i = 0; i < n; i++)\n"
                              "  b[n - 1 - i] = 2 * a[i] + i;\n";

TEST_P(KernelTest, LoopShapesInForcedSplitAndDuplicateModes) {
  // Both execution modes on every loop shape, whatever the adaptive choice would be.
  struct Shape {
    const char *Src;
    int lo, hi, n;
    std::vector<int> V;
  };
  std::vector<Shape> Shapes = {{StepSrc, 3, 1001, 1001, {}},
                               {StepNotDividingSrc, 5, 999, 1000, {}},
                               {DecreasingSrc, 2, 998, 1000, {}},
                               {DecreasingStepSrc, 4, 997, 1000, {}},
                               {LessOrEqualSrc, 7, 999, 1000, {}},
                               {NotEqualSrc, 11, 990, 1000, {}}};
  for (int i = 3; i < 1001; i += 2)
    Shapes[0].V.push_back(i);
  for (int i = 5; i < 999; i = i + 7)
    Shapes[1].V.push_back(i);
  for (int i = 998; i >= 2; i--)
    Shapes[2].V.push_back(i);
  for (int i = 997; i > 4; i -= 3)
    Shapes[3].V.push_back(i);
  for (int i = 8; i <= 999; i++)
    Shapes[4].V.push_back(i);
  for (int i = 11; i != 990; ++i)
    Shapes[5].V.push_back(i);
  for (unsigned Flags : {JACC_FORCE_DUPLICATE, JACC_FORCE_SPLIT, JACC_DEFAULT})
    for (const Shape &S : Shapes)
      runLoopShape(S.Src, S.lo, S.hi, S.n, S.V, Flags);

  int n = 1237;
  std::vector<int> av(n), bv(n, 0), ref(n);
  for (int i = 0; i < n; i++)
    av[i] = i % 91;
  for (int i = 0; i < n; i++)
    ref[n - 1 - i] = 2 * av[i] + i;
  int *a = av.data(), *b = bv.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(int)));
  ASSERT_JACC(jacc_create(b, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"const int *a", &a}, {"int *b", &b}};
  for (unsigned Flags : {JACC_FORCE_DUPLICATE, JACC_FORCE_SPLIT}) {
    ASSERT_JACC(jacc_kernel_push(ReverseWriteSrc, 3, args, Flags));
    ASSERT_JACC(jacc_update_self(b, n * sizeof(int)));
    EXPECT_EQ(bv, ref) << "flags " << Flags;
    std::fill(bv.begin(), bv.end(), 0);
    ASSERT_JACC(jacc_update_device(b, n * sizeof(int)));
  }
  ASSERT_JACC(jacc_delete(a, n * sizeof(int)));
  ASSERT_JACC(jacc_delete(b, n * sizeof(int)));
}

TEST_P(KernelTest, EmptyAndSingleIterationLoops) {
  const char *Src = "#pragma acc parallel loop present(a)\n"
                    "for (int i = lo; i < hi; i++)\n"
                    "  a[i] += 3 * i + 1;\n";
  runLoopShape(Src, 50, 50, 100, {});   // no iteration
  runLoopShape(Src, 60, 10, 100, {});   // lower bound above upper bound
  runLoopShape(Src, 42, 43, 100, {42}); // fewer iterations than threads
}

// ---- private -------------------------------------------------------------------------------------

const char *PrivateArgSrc = "#pragma acc parallel loop private(t) present(x, y)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  t = x[i] * 3;\n"
                            "  y[i] = t + t / 2;\n"
                            "}\n";

TEST_P(KernelTest, PrivateScalarArgument) {
  int n = 9001, t = 123456;
  std::vector<int> xv(n), yv(n, 0);
  for (int i = 0; i < n; i++)
    xv[i] = i % 333 - 100;
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_create(y, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"int t", &t}, {"const int *x", &x}, {"int *y", &y}};
  ASSERT_JACC(jacc_kernel_push(PrivateArgSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(int)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
  EXPECT_EQ(t, 123456); // a private variable is not written back
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], xv[i] * 3 + xv[i] * 3 / 2) << i;
}

const char *PrivateInRegionSrc = "#pragma acc parallel present(x, y)\n"
                                 "{\n"
                                 "  double t;\n"
                                 "  #pragma acc loop private(t)\n"
                                 "  for (int i = 0; i < n; i++) {\n"
                                 "    t = x[i] + 1.0;\n"
                                 "    y[i] = t * t;\n"
                                 "  }\n"
                                 "}\n";

TEST_P(KernelTest, PrivateVariableDeclaredInRegion) {
  int n = 7777;
  std::vector<double> xv(n), yv(n, 0);
  for (int i = 0; i < n; i++)
    xv[i] = 0.5 * (i % 101);
  double *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  ASSERT_JACC(jacc_create(y, n * sizeof(double)));
  jacc_arg args[] = {{"int n", &n}, {"const double *x", &x}, {"double *y", &y}};
  ASSERT_JACC(jacc_kernel_push(PrivateInRegionSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(double)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(double)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], (xv[i] + 1.0) * (xv[i] + 1.0)) << i;
}

// ---- interior pointers and structs ---------------------------------------------------------------

const char *InteriorSrc = "#pragma acc parallel loop present(p, q)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  p[i] = 10 * q[i] + i;\n";

TEST_P(KernelTest, InteriorPointerArguments) {
  int total = 100, n = 20;
  std::vector<double> xv(total), zv(total);
  for (int i = 0; i < total; i++) {
    xv[i] = -1.0 - i;
    zv[i] = i;
  }
  std::vector<double> ref = xv;
  for (int i = 0; i < n; i++)
    ref[10 + i] = 10 * zv[55 + i] + i;
  double *x = xv.data(), *z = zv.data();
  ASSERT_JACC(jacc_copyin(x, total * sizeof(double)));
  ASSERT_JACC(jacc_copyin(z, total * sizeof(double)));
  double *p = x + 10, *q = z + 55;
  jacc_arg args[] = {{"int n", &n}, {"double *p", &p}, {"const double *q", &q}};
  ASSERT_JACC(jacc_kernel_push(InteriorSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(x, total * sizeof(double)));
  ASSERT_JACC(jacc_delete(z, total * sizeof(double)));
  EXPECT_EQ(xv, ref);
}

const char *StructSrc = "typedef struct { double a, b; } coef_t;\n"
                        "typedef struct { char tag; int k; short s; long long big; } mix_t;\n"
                        "#pragma acc parallel loop present(x, y, z)\n"
                        "for (int i = 0; i < n; i++) {\n"
                        "  y[i] = c.a * x[i] + c.b;\n"
                        "  z[i] = m.tag + m.k * i + m.s + m.big;\n"
                        "}\n";

TEST_P(KernelTest, StructsPassedByValue) {
  struct coef_t {
    double a, b;
  } c = {1.5, -0.25};
  struct mix_t {
    char tag;
    int k;
    short s;
    long long big;
  } m = {'z', -7, 1234, 5000000000LL};
  int n = 5003;
  std::vector<double> xv(n), yv(n, 0);
  std::vector<long long> zv(n, 0);
  for (int i = 0; i < n; i++)
    xv[i] = 0.125 * (i % 64);
  double *x = xv.data(), *y = yv.data();
  long long *z = zv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  ASSERT_JACC(jacc_create(y, n * sizeof(double)));
  ASSERT_JACC(jacc_create(z, n * sizeof(long long)));
  jacc_arg args[] = {{"mix_t m", &m}, {"int n", &n}, {"coef_t c", &c}, {"const double *x", &x},
                     {"double *y", &y}, {"long long *z", &z}};
  ASSERT_JACC(jacc_kernel_push(StructSrc, 6, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(double)));
  ASSERT_JACC(jacc_copyout(z, n * sizeof(long long)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(double)));
  for (int i = 0; i < n; i++) {
    ASSERT_REL(yv[i], c.a * xv[i] + c.b, 1e-15) << i;
    ASSERT_EQ(zv[i], m.tag + m.k * i + m.s + m.big) << i;
  }
}

// ---- flags and repeated launches ---------------------------------------------------------------

const char *IncrementSrc = "#pragma acc parallel loop present(a)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  a[i] += 1 + i % 3;\n";

TEST_P(KernelTest, ForceDuplicateGivesTheSameResult) {
  int n = 1234;
  std::vector<int> av(n, 0);
  int *a = av.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"int *a", &a}};
  ASSERT_JACC(jacc_kernel_push(IncrementSrc, 2, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_kernel_push(IncrementSrc, 2, args, JACC_FORCE_DUPLICATE));
  ASSERT_JACC(jacc_copyout(a, n * sizeof(int)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(av[i], 2 * (1 + i % 3)) << i;
}

TEST_P(KernelTest, NumberOfDevicesMatchesConfiguration) {
  EXPECT_EQ(devices(), jacc_test::configuredDevices(GetParam()));
}

JACC_DEVICE_CONFIGS(KernelTest);

} // namespace
