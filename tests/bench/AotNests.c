/* The loop nests of CodegenBench as a C programmer writes them for gcc -O3 (and -fopenmp): the
 * same statements as the kernels CodegenBench pushes to jacc. */
#include "tests/bench/AotNests.h"

#include <math.h>

void aot_stencil2d(int parallel, int n, int m, const double *a, double *b) {
#pragma omp parallel for schedule(static) if (parallel)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[(long)i * m + j] = 0.25 * (a[(long)(i - 1) * m + j] + a[(long)(i + 1) * m + j] +
                                   a[(long)i * m + j - 1] + a[(long)i * m + j + 1]);
}

void aot_stencil3d(int parallel, int n, const double *a, double *b) {
  long p = (long)n * n;
#pragma omp parallel for schedule(static) if (parallel)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = 1; k < n - 1; k++) {
        long c = i * p + (long)j * n + k;
        b[c] = (a[c - p] + a[c + p] + a[c - n] + a[c + n] + a[c - 1] + a[c + 1] + a[c]) / 7.0;
      }
}

void aot_block5(int parallel, int cells, const double *A, const double *x,
                double *y) {
#pragma omp parallel for schedule(static) if (parallel)
  for (int c = 0; c < cells; c++)
    for (int r = 0; r < 5; r++) {
      double s = 0.0;
      for (int k = 0; k < 5; k++)
        s += A[(long)c * 25 + r * 5 + k] * x[(long)c * 5 + k];
      y[(long)c * 5 + r] = s;
    }
}

void aot_spmv(int parallel, int n, const int *rowptr, const int *col,
              const double *val, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (parallel)
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * x[col[k]];
    y[i] = s;
  }
}

void aot_matmul(int parallel, int n, const double *a, const double *b,
                double *c) {
#pragma omp parallel for schedule(static) if (parallel)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int k = 0; k < n; k++)
        s += a[(long)i * n + k] * b[(long)k * n + j];
      c[(long)i * n + j] = s;
    }
}

void aot_black_scholes(int parallel, int n, double r, double v, const double *s,
                       const double *x, const double *t, double *call,
                       double *put) {
#pragma omp parallel for schedule(static) if (parallel)
  for (int i = 0; i < n; i++) {
    double sq = sqrt(t[i]);
    double d1 = (log(s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sq);
    double d2 = d1 - v * sq;
    double n1 = 1.0 / (1.0 + exp(-1.702 * d1)), n2 = 1.0 / (1.0 + exp(-1.702 * d2));
    double disc = x[i] * exp(-r * t[i]);
    call[i] = s[i] * n1 - disc * n2;
    put[i] = disc * (1.0 - n2) - s[i] * (1.0 - n1);
  }
}

double aot_dot(int parallel, int n, const double *a, const double *b) {
  double d = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : d) if (parallel)
  for (int i = 0; i < n; i++)
    d += a[i] * b[i];
  return d;
}
