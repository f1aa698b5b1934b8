void f(float ***planes, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) planes[i][0][0] = 0;
}
