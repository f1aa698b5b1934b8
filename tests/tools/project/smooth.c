#include "grid.h"

void smooth(int steps, double *u, double *v) {
#pragma acc data copy(u[0:NX * NY]) create(v[0:NX * NY])
  for (int s = 0; s < steps; s++) {
#pragma acc parallel loop present(u, v)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        v[i * NY + j] = relax(omega * u[i * NY + j],
                              quarter(u[(i - 1) * NY + j] + u[(i + 1) * NY + j] +
                                      u[i * NY + j - 1] + u[i * NY + j + 1]));
#pragma acc parallel loop present(u, v)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        u[i * NY + j] = v[i * NY + j];
  }
}
