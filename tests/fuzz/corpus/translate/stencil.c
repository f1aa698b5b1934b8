void jacobi(int n, int m, float *restrict a, float *restrict b, int steps) {
#pragma acc data copy(a[0:n*m]) create(b[0:n*m])
  for (int t = 0; t < steps; t++) {
#pragma acc parallel loop collapse(2) present(a, b)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        b[i * m + j] = 0.25f * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
#pragma acc parallel loop collapse(2) present(a, b)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        a[i * m + j] = b[i * m + j];
  }
}
