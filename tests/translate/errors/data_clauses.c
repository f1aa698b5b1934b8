void f(float *d, float a[4], int n) {
  int k = 0;
#pragma acc data deviceptr(d, k) device_type(host)
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++) d[i] = a[i % 4] + k;
  }
}
