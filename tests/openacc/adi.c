/* An alternating-direction sweep (the shape of NPB BT's and SP's solvers): each time step runs a
   recurrence along x, then along y, then along z, each parallel over the other two dimensions,
   so a kernel split along one axis leaves the data decomposed the wrong way for the next. Long
   enough (4 kernels x 80 steps) for the runtime to time the program spread over the devices and
   on one device, and to run the rest of it the cheaper way: the results must not depend on it.
   Also: a data region over the time loop, update self of one plane every 20 steps. */
#include <stdio.h>

#define N 24
#define STEPS 80

static double u[N][N][N], f[N][N][N];

int main(void) {
  int n = N;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        u[i][j][k] = (double)((i * 7 + j * 5 + k * 3) % 17) / 16.0;
        f[i][j][k] = (double)((i + 2 * j + 3 * k) % 5) / 64.0;
      }
  double probe = 0.0;
#pragma acc data copy(u) copyin(f)
  {
    for (int step = 0; step < STEPS; step++) {
      /* The right-hand side: pointwise, any decomposition will do. */
#pragma acc parallel loop collapse(3) present(u, f)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < n; k++)
            u[i][j][k] = 0.75 * u[i][j][k] + f[i][j][k];
            /* Along x: parallel over (j, k), a recurrence over i. */
#pragma acc parallel loop collapse(2) present(u)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
          for (int i = 1; i < n; i++)
            u[i][j][k] = 0.5 * (u[i][j][k] + u[i - 1][j][k]);
            /* Along y. */
#pragma acc parallel loop collapse(2) present(u)
      for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
          for (int j = 1; j < n; j++)
            u[i][j][k] = 0.5 * (u[i][j][k] + u[i][j - 1][k]);
            /* Along z. */
#pragma acc parallel loop collapse(2) present(u)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 1; k < n; k++)
            u[i][j][k] = 0.5 * (u[i][j][k] + u[i][j][k - 1]);
      if (step % 20 == 19) {
#pragma acc update self(u [n / 2:1])
        probe += u[n / 2][n / 3][n / 4];
      }
    }
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        sum += u[i][j][k] * (double)(1 + (i + j + k) % 3);
  printf("adi: sum %.12e probe %.12e corner %.12e\n", sum, probe, u[n - 1][n - 1][n - 1]);
  return 0;
}
