void f(int n, double *x) {
  double *rows[n];
  rows[0] = x;
#pragma acc parallel loop
  for (int i = 0; i < n; i++) rows[0][i] = i;
}
