double dot(int n, const double *x, const double *y) {
  double s = 0;
#pragma acc parallel loop reduction(+:s) copyin(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
