void f(float *a, int n) {
#pragma acc host_data use_device(n)
  { a[0] = 1; }
}
