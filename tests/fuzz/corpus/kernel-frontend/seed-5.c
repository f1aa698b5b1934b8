#pragma acc parallel loop gang
for (int i = 0; i < n; i++) {
#pragma acc loop vector reduction(max:a)
  for (int j = 0; j < m; j++)
    a = a > x[i * m + j] ? a : x[i * m + j];
  y[i] = a;
}
