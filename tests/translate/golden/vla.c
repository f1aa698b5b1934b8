/* Variable-length arrays: a 1-D local, a 2-D local (present-or-copy), a pointer to VLA rows. */
void f(int n, int m, double (*b)[m]) {
  double a[n];
  double g[n][m + 1];
#pragma acc parallel loop
  for (int i = 0; i < n; i++) a[i] = i;
#pragma acc parallel loop collapse(2) copy(b[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) g[i][j] = b[i][j] + a[i];
}
