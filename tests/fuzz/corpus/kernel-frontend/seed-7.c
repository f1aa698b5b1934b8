#pragma acc parallel loop private(t)
for (int i = 0; i < n; i += 2) {
  t = x[i];
  y[i / 2] = t * t;
}
