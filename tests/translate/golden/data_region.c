/* Fig. 1 of the JACC paper: a data region around a combined construct. */
#define N 1024

void square(float *x, const float *y) {
#pragma acc data copyout(x[0:N]) present(y[0:N])
#pragma acc parallel loop
  for (int i = 0; i < N; i++) x[i] = y[i] * y[i];
}
