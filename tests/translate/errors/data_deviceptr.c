void f(float *d, int n) {
#pragma acc data deviceptr(d) async(1)
  {
#pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] = 0;
  }
}
