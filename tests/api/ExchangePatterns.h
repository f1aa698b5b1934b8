// Kernels of three access patterns the demand exchange is measured on, shared by the
// end-to-end tests (DemandExchangeTest, CudaMockTest) and the benchmarks
// (tests/bench/ExchangeBench.cpp, SplitBench.cpp): a 3-D 7-point stencil, a Jacobi sweep on flat
// arrays, a Black-Scholes map, and the kernels of a conjugate-gradient iteration over a CSR matrix
// (a mat-vec whose reads are data-dependent, dot products, axpys).
#ifndef JACC_TESTS_API_EXCHANGEPATTERNS_H
#define JACC_TESTS_API_EXCHANGEPATTERNS_H

#include <vector>

namespace jacc_patterns {

/// b = the 7-point average of a, over the interior of nx x ny x nz.
inline const char *Stencil3DSrc =
    "#pragma acc parallel loop present(a, b)\n"
    "for (int i = 1; i < nx - 1; i++)\n"
    "  for (int j = 1; j < ny - 1; j++)\n"
    "    for (int k = 1; k < nz - 1; k++)\n"
    "      b[i][j][k] = (a[i-1][j][k] + a[i+1][j][k] + a[i][j-1][k] + a[i][j+1][k] +\n"
    "                    a[i][j][k-1] + a[i][j][k+1] + a[i][j][k]) / 7.0;\n";

/// A 5-point Jacobi sweep on flat r x c arrays (rows linearized by their length c, as most C
/// codes write them), and its copy back.
inline const char *FlatJacobiSrc =
    "#pragma acc parallel loop present(a, anew)\n"
    "for (int i = 1; i < r - 1; i++)\n"
    "  for (int j = 1; j < c - 1; j++)\n"
    "    anew[i * c + j] = 0.25 * (a[(i - 1) * c + j] + a[(i + 1) * c + j] + a[i * c + j - 1] +\n"
    "                              a[i * c + j + 1]);\n";
inline const char *FlatCopyBackSrc = "#pragma acc parallel loop present(a, anew)\n"
                                     "for (int i = 1; i < r - 1; i++)\n"
                                     "  for (int j = 1; j < c - 1; j++)\n"
                                     "    a[i * c + j] = anew[i * c + j];\n";

/// European call and put prices of n options (a logistic approximation of the normal CDF).
inline const char *BlackScholesSrc =
    "#pragma acc parallel loop present(s, x, t, call, put)\n"
    "for (int i = 0; i < n; i++) {\n"
    "  double sq = sqrt(t[i]);\n"
    "  double d1 = (log(s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sq);\n"
    "  double d2 = d1 - v * sq;\n"
    "  double n1 = 1.0 / (1.0 + exp(-1.702 * d1)), n2 = 1.0 / (1.0 + exp(-1.702 * d2));\n"
    "  double disc = x[i] * exp(-r * t[i]);\n"
    "  call[i] = s[i] * n1 - disc * n2;\n"
    "  put[i] = disc * (1.0 - n2) - s[i] * (1.0 - n1);\n"
    "}\n";

/// q = A p for A in CSR (rowptr, col, val).
inline const char *MatVecSrc = "#pragma acc parallel loop present(rowptr, col, val, p, q)\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  double sum = 0.0;\n"
                               "  for (int k = rowptr[i]; k < rowptr[i + 1]; k++)\n"
                               "    sum += val[k] * p[col[k]];\n"
                               "  q[i] = sum;\n"
                               "}\n";
/// d += a . b
inline const char *DotSrc = "#pragma acc parallel loop present(a, b) reduction(+:d)\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  d += a[i] * b[i];\n";
/// y += alpha x
inline const char *AxpySrc = "#pragma acc parallel loop present(x, y)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  y[i] = y[i] + alpha * x[i];\n";
/// p = r + beta p
inline const char *DirectionSrc = "#pragma acc parallel loop present(r, p)\n"
                                  "for (int i = 0; i < n; i++)\n"
                                  "  p[i] = r[i] + beta * p[i];\n";

/// A CSR matrix: a 1-D Laplacian (4 on the diagonal, -1 beside it) with one long-range
/// coupling per row (to row i + n/2), so that a mat-vec reads p at data-dependent places.
struct Csr {
  std::vector<int> RowPtr, Col;
  std::vector<double> Val;
  explicit Csr(int N) : RowPtr(N + 1) {
    for (int I = 0; I < N; I++) {
      RowPtr[I] = static_cast<int>(Col.size());
      for (int J : {I - 1, I, I + 1, (I + N / 2) % N})
        if (J >= 0 && J < N) {
          Col.push_back(J);
          Val.push_back(J == I ? 4.0 : -1.0);
        }
    }
    RowPtr[N] = static_cast<int>(Col.size());
  }
};

/// Black-Scholes inputs of n options: spot, strike, years.
struct Options {
  std::vector<double> S, X, T;
  explicit Options(int N) : S(N), X(N), T(N) {
    for (int I = 0; I < N; I++) {
      S[I] = 50.0 + (I % 50);
      X[I] = 40.0 + (I % 70);
      T[I] = 0.25 + 0.01 * (I % 200);
    }
  }
};

} // namespace jacc_patterns

#endif
