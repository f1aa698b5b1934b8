void f(int n, double *out, double *c, double (*rows)[4]) {
  double t[8];
#pragma acc parallel loop private(c[1:n])
  for (int i = 0; i < n; i++) out[i] = c[i];
#pragma acc parallel private(c[0:n])
  {
    c[0] = 1;
#pragma acc loop
    for (int i = 0; i < n; i++) out[i] = c[i];
  }
#pragma acc serial loop firstprivate(c[0:n])
  for (int i = 0; i < n; i++) out[i] = c[i];
#pragma acc parallel loop
  for (int i = 0; i < n; i++) {
#pragma acc loop private(c[0:n])
    for (int k = 0; k < n; k++) out[i] += c[k];
  }
#pragma acc parallel loop private(rows[0:n], t[0:4])
  for (int i = 0; i < n; i++) out[i] = rows[i][0] + t[0];
}
