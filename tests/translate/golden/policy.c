/* #pragma jacc policy(...) right above a compute construct goes into its kernel (other compilers
   ignore it); a construct without one gets none. */
void scale(float *x, float *y, int n) {
#pragma jacc policy(weights:[1,3])

#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = 2 * x[i];
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 2 * y[i];
}
