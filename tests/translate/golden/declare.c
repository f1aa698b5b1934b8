/* declare: globals mapped at program start; in a function, a data region to the end of its
   block, left by every return, break and goto. */
float table[64];
int scale = 3;
#pragma acc declare copyin(table) create(scale)
double coefficient;
#pragma acc declare device_resident(coefficient)

void fill(float *x, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) x[i] = table[i % 64] * scale;
}

int scaled(float *x, float *y, int n) {
  if (n <= 0)
    return 0;
#pragma acc declare copy(x[0:n]) create(y[0:n])
  for (int k = 0; k < 4; k++) {
    float z[8];
#pragma acc declare copyout(z)
    if (k == n)
      break;
#pragma acc parallel loop
    for (int i = 0; i < n; i++) y[i] = x[i] + z[i % 8];
  }
  if (n > 100)
    goto out;
#pragma acc parallel loop
  for (int i = 0; i < n; i++) x[i] += y[i];
  return 1;
out:
  return 2;
}
