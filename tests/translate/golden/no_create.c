/* no_create: on a compute construct, and on a data construct with an if clause. */
void f(int n, double *x, const double *y, int flag) {
#pragma acc parallel loop no_create(x[0:n], y[0:n])
  for (int i = 0; i < n; i++) x[i] += y[i];
#pragma acc data no_create(x[0:n]) if(flag)
  {
#pragma acc parallel loop present(x[0:n])
    for (int i = 0; i < n; i++) x[i] *= 2.0;
  }
}
