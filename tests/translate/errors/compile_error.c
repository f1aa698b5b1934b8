void f(float *a, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) a[i] = undeclared;
}
