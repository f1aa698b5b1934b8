#pragma acc serial
{
  for (int i = 1; i < n; i++) y[i] = y[i - 1] + x[i];
}
