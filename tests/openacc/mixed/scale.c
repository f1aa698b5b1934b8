/* The C half of the mixed C and Fortran program (main.f90): a kernel on the array the Fortran
   caller mapped. */
void scale_on_devices(int n, double *x, double factor) {
#pragma acc parallel loop present(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= factor;
}
