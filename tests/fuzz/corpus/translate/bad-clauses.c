void f(int n, float *x) {
#pragma acc parallel loop copyin(x[0:) num_gangs(1, 2, 3, 4) async(-99)
  for (int i = 0; i < n; i++)
    x[i] = 0;
#pragma acc update
#pragma acc loop
  for (;;) break;
}
