void matvec(int n, int m, const double *a, const double *x, double *y) {
#pragma acc parallel loop gang copyin(a[0:n*m], x[0:m]) copyout(y[0:n]) private(i)
  for (int i = 0; i < n; i++) {
    double s = 0;
#pragma acc loop vector reduction(+:s)
    for (int j = 0; j < m; j++)
      s += a[i * m + j] * x[j];
    y[i] = s;
  }
#pragma acc parallel loop tile(8, 8) copy(y[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      y[i] += j;
}
