/* Variable-length arrays, as C99 codes size their grids: a function taking pointers to VLA rows
   (`double (*u)[m]`), a local VLA used in compute constructs with its implicit present-or-copy
   attribute, a 3-D VLA whose extents are expressions, and a data clause on a heap VLA. */
#include <stdio.h>
#include <stdlib.h>

/* One Jacobi sweep on an n x m grid, the boundary kept. */
static void sweep(int n, int m, double (*restrict next)[m], const double (*restrict u)[m]) {
#pragma acc parallel loop collapse(2) present(next[0:n][0:m], u[0:n][0:m])
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      next[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}

int main(void) {
  int n = 96, m = 70;
  double (*u)[m] = malloc(n * sizeof *u), (*v)[m] = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      u[i][j] = v[i][j] = (i == 0 || j == m - 1) ? 1.0 : 0.0;
#pragma acc data copy(u[0:n][0:m]) copyin(v[0:n][0:m])
  for (int it = 0; it < 40; it++) {
    sweep(n, m, v, (const double (*)[m])u);
    sweep(n, m, u, (const double (*)[m])v);
  }

  /* A local VLA: present-or-copy, as OpenACC's implicit attribute for an array has it. */
  int k = 5;
  double w[n / 2][m + 3];
  for (int i = 0; i < n / 2; i++)
    for (int j = 0; j < m + 3; j++)
      w[i][j] = i + 0.5 * j;
#pragma acc parallel loop collapse(2) copyin(u[0:n][0:m])
  for (int i = 0; i < n / 2; i++)
    for (int j = 0; j < m + 3; j++)
      w[i][j] = w[i][j] * k + u[2 * i][j % m];

  /* 3-D, extents written as expressions. */
  int d = 6;
  float c[d][d + 1][2 * d];
#pragma acc parallel loop collapse(3) copyout(c)
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d + 1; j++)
      for (int l = 0; l < 2 * d; l++)
        c[i][j][l] = (float)(100 * i + 10 * j + l);

  double su = 0.0, sw = 0.0, sc = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      su += u[i][j] * (1 + (i * 7 + j) % 5);
  for (int i = 0; i < n / 2; i++)
    for (int j = 0; j < m + 3; j++)
      sw += w[i][j];
  for (int i = 0; i < d; i++)
    for (int j = 0; j < d + 1; j++)
      for (int l = 0; l < 2 * d; l++)
        sc += c[i][j][l] * (l + 1);
  printf("vla: su=%.6f sw=%.3f sc=%.1f c[5][6][11]=%.1f\n", su, sw, sc, (double)c[5][6][11]);
  free(u);
  free(v);
  return 0;
}
