#include <stdio.h>
#include <stdlib.h>
#include "grid.h"

int main(void) {
  double *u = malloc(sizeof(double) * NX * NY), *v = malloc(sizeof(double) * NX * NY);
  for (int i = 0; i < NX * NY; i++)
    u[i] = v[i] = (i % 17) * 0.25;
  smooth(20, u, v);
  printf("sum %.6f\n", weighted_sum(u, 0.5));
  free(u);
  free(v);
  return 0;
}
