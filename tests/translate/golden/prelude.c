/* The helpers jacc-translate puts at the top of every translated file, compared here once. */
void scale(int n, float *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= 2;
}
