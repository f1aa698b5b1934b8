// Kernels several benchmark drivers push, one text each: a saxpy, a 5-point stencil over
// `double (*)[m]` arrays, and the two kernels of a Jacobi sweep.
#ifndef JACC_TESTS_BENCH_BENCHKERNELS_H
#define JACC_TESTS_BENCH_BENCHKERNELS_H

/// y = a * x + y over n elements (int n, float a, const float *x, float *y).
inline const char *const SaxpyKernel = "#pragma acc parallel loop present(x, y)\n"
                                       "for (int i = 0; i < n; i++)\n"
                                       "  y[i] = a * x[i] + y[i];\n";

/// b = the 5-point average of a inside the border (int n, int m, a and b of m columns).
inline const char *const StencilKernel =
    "#pragma acc parallel loop present(a, b)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";

/// One Jacobi sweep: anew from a's four neighbours, then a from anew (int n, int m, a, anew).
inline const char *const JacobiStep =
    "#pragma acc parallel loop present(a, anew)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    anew[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";
inline const char *const JacobiCopy = "#pragma acc parallel loop present(a, anew)\n"
                                      "for (int i = 1; i < n - 1; i++)\n"
                                      "  for (int j = 1; j < m - 1; j++)\n"
                                      "    a[i][j] = anew[i][j];\n";

#endif
