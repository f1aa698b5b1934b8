void f(float *a, int n) {
#pragma acc parallel loop bogus(3) present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = 0;
}
