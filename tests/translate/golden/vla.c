void f(int n) {
  double a[n];
#pragma acc parallel loop
  for (int i = 0; i < n; i++) a[i] = i;
}
