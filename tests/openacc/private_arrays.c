/* Private arrays declared outside the construct, as older codes declare their scratch space: a
   per-iteration work array on a combined construct (a small polynomial evaluated by Horner's
   rule from a coefficient table built per point), a 2-D private array, and a private array on a
   loop directly inside a parallel construct; private and firstprivate sections of pointers
   (`private(c[0:n])`) on parallel, parallel loop and serial. */
#include <stdio.h>
#include <stdlib.h>

#define N 5000
#define DEG 6
#define LEN (N / 10)

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

  /* Sections of pointers: each gang's own scratch row (written, then read), a firstprivate
     row each gang changes and restores, a serial construct's single copy (integer values: the
     sums are exact in any order). */
  int rows = 10, len = N / 10;
  double *c = malloc(len * sizeof *c), *w = malloc(len * sizeof *w), *d = malloc(rows * sizeof *d);
  /* A constant length (LEN) gives a constant-size array in the kernel: CUDA devices too. */
  for (int k = 0; k < len; k++)
    w[k] = k % 9;
#pragma acc data copyout(d[0:rows])
  {
#pragma acc parallel num_gangs(rows) private(c[0:LEN]) firstprivate(w[0:LEN])
    {
#pragma acc loop gang
      for (int r = 0; r < rows; r++) {
        d[r] = 0;
#pragma acc loop worker
        for (int k = 0; k < len; k++) {
          w[k] += r;
          c[k] = (r * len + k) % 13 * w[k];
          w[k] -= r;
        }
#pragma acc loop seq
        for (int k = 0; k < len; k++)
          d[r] += c[k];
      }
    }
#pragma acc serial private(c[0:LEN])
    {
      for (int k = 0; k < len; k++)
        c[k] = k % 5;
      for (int k = 1; k < len; k++)
        c[k] += c[k - 1];
      d[0] += c[len - 1];
    }
  }
  double sd = 0.0;
#pragma acc parallel loop firstprivate(w[0:LEN]) copyin(d[0:rows]) reduction(+:sd)
  for (int r = 0; r < rows; r++) {
    for (int k = 0; k < len; k++)
      w[k] *= 2;
    for (int k = 0; k < len; k++) {
      sd += w[k] * (d[r] + r);
      w[k] /= 2;
    }
  }

  double sy = 0.0, sz = 0.0;
  for (int i = 0; i < N; i++) {
    sy += y[i] * (1 + i % 4);
    sz += z[i];
  }
  printf("private_arrays: sy=%.9f sz=%.9f y[77]=%.9f sd=%.0f\n", sy, sz, y[77], sd);
  free(c);
  free(w);
  free(d);
  free(x);
  free(y);
  free(z);
  return 0;
}
