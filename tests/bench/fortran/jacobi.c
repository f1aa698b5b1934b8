/* The C twin of jacobi.f90 (tests/bench/fortran_bench.sh): the same grid, sweeps and arithmetic,
   rows of the C array being the Fortran columns. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 2048
#define SWEEPS 60

int main(void) {
  double (*a)[N] = malloc(sizeof(double[N][N])), (*anew)[N] = malloc(sizeof(double[N][N]));
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      anew[j][i] = a[j][i] = (i == 0 || j == 0) ? 1 : 0;
  struct timespec t0, t1;
#pragma acc data copy(a[0:N][0:N]) copyin(anew[0:N][0:N])
  {
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int s = 0; s < SWEEPS; s++) {
#pragma acc parallel loop
      for (int j = 1; j < N - 1; j++)
        for (int i = 1; i < N - 1; i++)
          anew[j][i] = 0.25 * (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]);
#pragma acc parallel loop
      for (int j = 1; j < N - 1; j++)
        for (int i = 1; i < N - 1; i++)
          a[j][i] = anew[j][i];
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
  }
  double total = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      total += a[j][i];
  printf("sum %16.6f seconds %10.4f\n", total,
         (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec));
  free(a);
  free(anew);
  return 0;
}
