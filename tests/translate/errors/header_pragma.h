static inline void clear(float *a, int n) {
#pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = 0;
}
