/* The baselines: the benchmarked loops compiled ahead of time by the system compiler with
 * -O3 -march=native -fopenmp (see meson.build), called directly. */
#include "tests/bench/AotLoops.h"

void aot_tiny(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

void aot_saxpy_omp(int n, float a, const float *x, float *y) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

void aot_stencil_omp(int n, int m, const double *restrict a, double *restrict b) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[(long)i * m + j] = 0.2 * (a[(long)i * m + j] + a[(long)(i - 1) * m + j] +
                                  a[(long)(i + 1) * m + j] + a[(long)i * m + j - 1] +
                                  a[(long)i * m + j + 1]);
}

/* The same stencil on one thread. */
void aot_stencil(int n, int m, const double *restrict a, double *restrict b) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[(long)i * m + j] = 0.2 * (a[(long)i * m + j] + a[(long)(i - 1) * m + j] +
                                  a[(long)(i + 1) * m + j] + a[(long)i * m + j - 1] +
                                  a[(long)i * m + j + 1]);
}
