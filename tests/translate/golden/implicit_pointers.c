/* Pointers no clause maps: NVHPC's implicit copy (written) or copyin (only read) of the section
   their subscripts reach in the construct's for loops, mapped unless present at the entry. */
#define W 16

void sections(int n, int m, const float *a, float *b, float *c, float *d, int *idx) {
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i - 1] + a[i + 1];
#pragma acc serial
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= i; j++)
      c[i * W + j] += b[j];
#pragma acc kernels
  for (int i = n - 1; i >= 0; i--)
    d[n - 1 - i] = a[i];
  /* A data region around maps b: only c is implicit; idx is named. */
#pragma acc data copy(b[0:n])
#pragma acc parallel loop copyin(idx[0:n])
  for (int i = 0; i < n; i++)
    b[i] += c[i];
  /* Unknown sections: a warning, and the data must be present. */
#pragma acc parallel loop copyin(idx[0:n])
  for (int i = 0; i < n; i++)
    d[idx[i]] = *a;
}
