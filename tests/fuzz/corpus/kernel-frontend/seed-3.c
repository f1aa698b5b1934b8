#pragma acc kernels
{
  for (int i = 0; i < n; i++) y[i] = x[i];
  for (int i = 0; i < n; i++) x[i] = 2 * y[n - 1 - i];
}
