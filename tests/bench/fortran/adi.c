/* The C twin of adi.f90 (tests/bench/fortran_bench.sh): the same grid, steps and arithmetic,
   rows of the C array being the Fortran columns. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 1024
#define STEPS 20

int main(void) {
  double (*u)[N] = malloc(sizeof(double[N][N]));
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      u[j][i] = ((i + 1) * 7 + (j + 1) * 3) % 11;
  struct timespec t0, t1;
#pragma acc data copy(u[0:N][0:N])
  {
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int s = 0; s < STEPS; s++) {
#pragma acc parallel loop
      for (int j = 0; j < N; j++)
        for (int i = 1; i < N; i++)
          u[j][i] = 0.5 * u[j][i] + 0.25 * u[j][i - 1] + 0.125;
#pragma acc parallel loop
      for (int i = 0; i < N; i++)
        for (int j = 1; j < N; j++)
          u[j][i] = 0.5 * u[j][i] + 0.25 * u[j - 1][i] + 0.125;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
  }
  double total = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      total += u[j][i];
  printf("sum %16.6f seconds %10.4f\n", total,
         (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
  free(u);
  return 0;
}
