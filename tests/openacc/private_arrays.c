/* Private arrays declared outside the construct, as older codes declare their scratch space: a
   per-iteration work array on a combined construct (a small polynomial evaluated by Horner's
   rule from a coefficient table built per point), a 2-D private array, and a private array on a
   loop directly inside a parallel construct. */
#include <stdio.h>
#include <stdlib.h>

#define N 5000
#define DEG 6

int main(void) {
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *z = malloc(N * sizeof *z);
  for (int i = 0; i < N; i++)
    x[i] = (i % 200) * 0.01 - 1.0;

  double coef[DEG + 1];
  int tile[3][4];
#pragma acc data copyin(x[0:N]) copyout(y[0:N], z[0:N])
  {
#pragma acc parallel loop private(coef, tile)
    for (int i = 0; i < N; i++) {
      for (int k = 0; k <= DEG; k++)
        coef[k] = 1.0 / (k + 1 + i % 3);
      double p = coef[DEG];
      for (int k = DEG - 1; k >= 0; k--)
        p = p * x[i] + coef[k];
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
          tile[r][c] = (i + r * c) % 7;
      y[i] = p + tile[2][3] + tile[1][1];
    }

#pragma acc parallel
    {
#pragma acc loop gang private(coef)
      for (int i = 0; i < N; i++) {
        coef[0] = x[i];
        coef[1] = coef[0] * coef[0];
        z[i] = coef[1] - coef[0];
      }
    }
  }

  double sy = 0.0, sz = 0.0;
  for (int i = 0; i < N; i++) {
    sy += y[i] * (1 + i % 4);
    sz += z[i];
  }
  printf("private_arrays: sy=%.9f sz=%.9f y[77]=%.9f\n", sy, sz, y[77]);
  free(x);
  free(y);
  free(z);
  return 0;
}
