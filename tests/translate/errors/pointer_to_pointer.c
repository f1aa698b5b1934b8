void f(float **rows, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) rows[i][0] = 0;
}
