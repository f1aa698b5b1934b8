/* Reductions on arrays: a bare C array becomes its whole section, a section and an element pass
   as written, a mapped element is brought to the host around the push, and an inner loop's
   reduction on a gang's private array stays in the kernel as written. */
void f(const double *a, int n, int *errors) {
  double h[8] = {0}, c[10];
  double t[4];
#pragma acc parallel loop copyin(a[0:n]) reduction(+:h) reduction(max: c[2:4])
  for (int i = 0; i < n; i++) {
    h[i % 8] += a[i];
    c[2 + i % 4] = a[i] > c[2 + i % 4] ? a[i] : c[2 + i % 4];
  }
#pragma acc data copy(errors[0:10])
  for (int x = 0; x < 10; x++) {
#pragma acc parallel loop copyin(a[0:n]) reduction(+:errors[x])
    for (int i = 0; i < n; i++)
      errors[x] += a[i] < 0;
  }
#pragma acc parallel loop copyin(a[0:n]) private(t)
  for (int r = 0; r < 4; r++) {
#pragma acc loop vector reduction(+:t)
    for (int i = 0; i < n; i++)
      t[i % 4] += a[i];
  }
}
