// The ahead-of-time loops the benchmarks compare jacc with (AotLoops.c, compiled by cc -O3).
#ifndef JACC_TESTS_BENCH_AOTLOOPS_H
#define JACC_TESTS_BENCH_AOTLOOPS_H
#ifdef __cplusplus
extern "C" {
#endif
void aot_tiny(int n, float a, const float *x, float *y);
void aot_saxpy_omp(int n, float a, const float *x, float *y);
void aot_stencil_omp(int n, int m, const double *a, double *b);
void aot_stencil(int n, int m, const double *a, double *b);
#ifdef __cplusplus
}
#endif
#endif
