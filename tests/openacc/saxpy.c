/* saxpy in a data region; the result is printed so that the run can be compared with plain cc. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 100000;
  float a = 2.5f;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 97);
    y[i] = (float)(i % 13);
  }
#pragma acc data copyin(x[0:n]) copy(y[0:n])
  {
    for (int rep = 0; rep < 3; rep++) {
#pragma acc parallel loop
      for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += y[i];
  printf("saxpy: y[0]=%g y[n-1]=%g sum=%.1f\n", y[0], y[n - 1], sum);
  free(x);
  free(y);
  return 0;
}
