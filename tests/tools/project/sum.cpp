// The C++ part of the user project the build tests compile with jaccc: a weighted sum of the grid.
#include "grid.h"

#include <cmath>

extern "C" double weighted_sum(const double *u, double weight) {
  double s = 0;
#pragma acc parallel loop reduction(+ : s) copyin(u[0:NX * NY])
  for (int i = 0; i < NX * NY; i++)
    s += weight * std::sqrt(u[i] * u[i]);
  return s;
}
