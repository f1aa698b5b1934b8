void saxpy(int n, float a, const float *x, float *y) {
#pragma acc data copyin(x[0:n]) copy(y[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      y[i] = a * x[i] + y[i];
  }
}
