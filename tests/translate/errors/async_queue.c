/* Queue values OpenACC does not allow, when written as literals: errors at their column. */
void f(double *x, int n) {
#pragma acc parallel loop copy(x[0:n]) async(-99)
  for (int i = 0; i < n; i++)
    x[i] = i;
#pragma acc wait(1, -4)
}
