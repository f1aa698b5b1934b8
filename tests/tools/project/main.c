#include <stdio.h>
#include <stdlib.h>
#include "grid.h"

double omega = 0.5;

#pragma acc routine seq
double relax(double centre, double around) { return 0.5 * (centre + around); }

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
