/* Loop nests compiled ahead of time by the system compiler (-O3 -march=native -fopenmp), the
 * baselines of CodegenBench: each runs on one thread, or on every OpenMP thread when parallel. */
#ifndef JACC_TESTS_BENCH_AOTNESTS_H
#define JACC_TESTS_BENCH_AOTNESTS_H
#ifdef __cplusplus
extern "C" {
#endif
void aot_stencil2d(int parallel, int n, int m, const double *a, double *b);
void aot_stencil3d(int parallel, int n, const double *a, double *b);
void aot_block5(int parallel, int cells, const double *A, const double *x, double *y);
void aot_spmv(int parallel, int n, const int *rowptr, const int *col, const double *val,
              const double *x, double *y);
void aot_matmul(int parallel, int n, const double *a, const double *b, double *c);
void aot_black_scholes(int parallel, int n, double r, double v, const double *s, const double *x,
                       const double *t, double *call, double *put);
double aot_dot(int parallel, int n, const double *a, const double *b);
#ifdef __cplusplus
}
#endif
#endif
