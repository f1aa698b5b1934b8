void f(float **a, int n) {
#pragma acc parallel loop copyin(a[0:n][0:n][0:2]) no_create(a[0:n][0:n]) copy(a[0:n][:])
  for (int i = 0; i < n; i++) a[i][0] = 0;
}
