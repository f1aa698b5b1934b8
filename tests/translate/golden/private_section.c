/* private and firstprivate sections of pointers: an array per gang (per gang-loop iteration)
   in the kernel, firstprivate copies initialised from the section on the devices. */
void rows(const double *a, double *d, double *c, double *w, int n) {
#pragma acc parallel num_gangs(10) private(c[0:n]) firstprivate(w[:n])
  {
#pragma acc loop gang
    for (int x = 0; x < 10; ++x) {
#pragma acc loop worker
      for (int y = 0; y < n; ++y)
        c[y] = a[x * n + y] + w[y];
#pragma acc loop seq
      for (int y = 0; y < n; ++y)
        d[x] += c[y];
    }
  }
#pragma acc serial private(c[0:n])
  {
    for (int y = 0; y < n; ++y)
      c[y] = y;
    for (int y = 0; y < n; ++y)
      d[0] += c[y];
  }
#pragma acc parallel loop firstprivate(c[0:n])
  for (int x = 0; x < 10; ++x)
#pragma acc loop vector
    for (int y = 0; y < n; ++y)
      d[x] += c[y];
}

#define M 32
/* A constant length (after macro expansion) gives a constant-size array: CUDA devices too. */
void constant(double *c, double *d) {
#pragma acc parallel loop private(c[0:M])
  for (int x = 0; x < 10; ++x) {
    for (int y = 0; y < M; ++y)
      c[y] = x + y;
    d[x] = c[M - 1];
  }
}
