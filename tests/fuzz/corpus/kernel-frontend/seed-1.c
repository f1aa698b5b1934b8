#pragma acc parallel loop reduction(+:s)
for (int i = 0; i < n; i++)
  s += x[i] * y[i];
