/* An existing OpenACC C program, unchanged for jacc: 2-D heat diffusion by Jacobi iteration.
 * Build it with `make` (jaccc, see Makefile and README.md) or `make reference` (plain cc, the
 * pragmas ignored); both print the same result. */
#include <math.h>
#include <stdio.h>
#ifdef _OPENACC
#include <openacc.h>
#endif

#define N 256
#define STEPS 200

static double t[N][N], tnew[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      t[i][j] = (i == 0) ? 100.0 : 0.0; /* a hot top edge */

  double change = 0.0;
  int step;
#pragma acc data copy(t) create(tnew)
  {
    for (step = 0; step < STEPS; step++) {
      change = 0.0;
#pragma acc parallel loop collapse(2) reduction(max : change)
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++) {
          tnew[i][j] = 0.25 * (t[i - 1][j] + t[i + 1][j] + t[i][j - 1] + t[i][j + 1]);
          change = fmax(change, fabs(tnew[i][j] - t[i][j]));
        }
#pragma acc parallel loop collapse(2)
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
          t[i][j] = tnew[i][j];
      if (step % 50 == 0) {
#pragma acc update self(t[1:1][0:N])
        printf("step %3d: change %.6e, t[1][%d] = %.6f\n", step, change, N / 2, t[1][N / 2]);
      }
    }
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += t[i][j];
  printf("after %d steps: change %.6e, total heat %.6f\n", step, change, sum);
#ifdef _OPENACC
  /* stderr: stdout must match the reference build's */
  fprintf(stderr, "ran on %d host device(s)\n", acc_get_num_devices(acc_device_host));
#endif
  return 0;
}
