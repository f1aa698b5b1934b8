/* #pragma jacc policy(...) and location(...) right above a compute construct go into its kernel
   (other compilers ignore them); a construct without one gets none. */
void scale(float *x, float *y, int n) {
#pragma jacc policy(weights:[1,3])

#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = 2 * x[i];
#pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 2 * y[i];
}
void shift(float *z, int n) {
#pragma jacc location(gpus)
#pragma jacc policy(flatten)
#pragma acc parallel loop copy(z[0:n])
  for (int i = 0; i < n; i++)
    z[i] = z[i] + 1;
}
