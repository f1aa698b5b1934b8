#pragma acc parallel loop collapse(2) present(x, y)
for (int i = 1; i < n - 1; i++)
  for (int j = 1; j < m - 1; j++)
    y[i * m + j] = 0.25f * (x[(i - 1) * m + j] + x[(i + 1) * m + j] + x[i * m + j - 1] +
                            x[i * m + j + 1]);
