void f(float *a, int n, int onhost) {
#pragma acc parallel loop self(onhost) device_type(*)
  for (int i = 0; i < n; i++) a[i] = i;
}
