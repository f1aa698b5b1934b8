void f(int n, double *out, double *p) {
  double scratch[8];
#pragma acc parallel loop firstprivate(scratch)
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 8; k++) scratch[k] += i + k;
    out[i] = scratch[n % 8];
  }
#pragma acc parallel loop present(out[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc loop private(p)
    for (int k = 0; k < 2; k++) out[i] += p[k];
  }
#pragma acc parallel loop present(out[0:n])
  for (int i = 0; i < n; i++) {
#pragma acc loop private(scratch)
    for (int k = 0; k < 8; k++) scratch[k] = k;
    out[i] = scratch[i % 8];
  }
#pragma acc parallel present(out[0:n])
  {
#pragma acc loop private(scratch)
    for (int i = 0; i < n; i++) {
      scratch[0] = i;
      out[i] = scratch[0];
    }
    out[0] = scratch[1];
  }
}
