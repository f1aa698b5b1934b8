/* Sections of pointers to pointers map the rows and the pointer array and attach the rows;
   orphaned loops in routines run sequentially. */
#pragma acc routine worker
static double row_product(double **rows, int r, int len) {
  double p = 1;
#pragma acc loop worker reduction(*:p)
  for (int k = 0; k < len; k++) p *= rows[r][k];
  return p;
}

void sums(double **a, const float **c, double *b, int n, int m) {
#pragma acc data copyin(a[0:n][0:m]) copyout(b[0:n])
  {
#pragma acc parallel loop present(a[0:n][0:m])
    for (int i = 0; i < n; i++)
      b[i] = row_product(a, i, m) + c[i][0];
  }
#pragma acc parallel loop copy(a[1:n - 1][0:m]) copyin(c[0:n][0:m])
  for (int i = 1; i < n; i++)
    a[i][0] = c[i][1];
#pragma acc enter data create(a[0:n][0:m])
#pragma acc update device(a[2:1][0:m]) if_present
#pragma acc update self(a[0:n][0:m])
#pragma acc exit data copyout(a[0:n][0:m]) finalize
}
