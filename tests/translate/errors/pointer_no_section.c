void f(float *a, int n) {
#pragma acc data copy(a)
  for (int i = 0; i < n; i++) a[i] = i;
}
