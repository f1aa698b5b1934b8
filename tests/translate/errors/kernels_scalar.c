void f(const float *a, int n, float *out) {
  float last = 0;
#pragma acc kernels
  {
    for (int i = 0; i < n; i++) last = a[i];
  }
  *out = last;
}
