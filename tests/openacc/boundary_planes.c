/* The shapes of NPB SP's right-hand side: a sweep over the interior planes, then the boundary
   planes k = 1, 2, nz - 3 and nz - 2 one at a time, each a kernel over j and i that reads the
   planes next to it (the split cuts j there, and only those planes move); values computed by a
   `max` macro and elements named by an `I3D` macro, as NPB writes them (the writes are guarded
   through the macros). The results must not depend on how the kernels are spread. */
#include <stdio.h>

#define NZ 20
#define NY 18
#define NX 16
#define STEPS 30
#define max(a, b) ((a) > (b) ? (a) : (b))
#define I3D(p, ny, nx, k, j, i) (p[((k) * (ny) + (j)) * (nx) + (i)])

static double u[2][NZ][NY][NX], rhs[2][NZ][NY][NX], rho[NZ * NY * NX];

int main(void) {
  int nz = NZ, ny = NY, nx = NX, k;
  for (int m = 0; m < 2; m++)
    for (int kk = 0; kk < nz; kk++)
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
          u[m][kk][j][i] = (double)((m * 5 + kk * 7 + j * 3 + i) % 19) / 19.0;
#pragma acc data copy(u, rhs) create(rho[0:NZ * NY * NX])
  {
    for (int step = 0; step < STEPS; step++) {
#pragma acc parallel loop present(u, rho)
      for (int kk = 0; kk < nz; kk++)
        for (int j = 0; j < ny; j++)
          for (int i = 0; i < nx; i++)
            I3D(rho, ny, nx, kk, j, i) = max(u[0][kk][j][i], 0.25) + 0.5 * u[1][kk][j][i];
#pragma acc parallel loop present(u, rhs, rho)
      for (int kk = 1; kk < nz - 1; kk++)
        for (int j = 1; j < ny - 1; j++)
          for (int i = 1; i < nx - 1; i++)
            for (int m = 0; m < 2; m++)
              rhs[m][kk][j][i] = u[m][kk - 1][j][i] + u[m][kk + 1][j][i] -
                                 2.0 * I3D(rho, ny, nx, kk, j, i) * u[m][kk][j][i];
      k = 1;
#pragma acc parallel loop present(u, rhs)
      for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++)
          for (int m = 0; m < 2; m++)
            rhs[m][k][j][i] = rhs[m][k][j][i] -
                              0.1 * (5.0 * u[m][k][j][i] - 4.0 * u[m][k + 1][j][i] + u[m][k + 2][j][i]);
      k = 2;
#pragma acc parallel loop present(u, rhs)
      for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++)
          for (int m = 0; m < 2; m++)
            rhs[m][k][j][i] = rhs[m][k][j][i] - 0.1 * (-4.0 * u[m][k - 1][j][i] +
                                                       6.0 * u[m][k][j][i] - u[m][k + 2][j][i]);
      for (k = nz - 3; k < nz - 1; k++) {
#pragma acc parallel loop present(u, rhs)
        for (int j = 1; j < ny - 1; j++)
          for (int i = 1; i < nx - 1; i++)
            for (int m = 0; m < 2; m++)
              rhs[m][k][j][i] = rhs[m][k][j][i] - 0.1 * (u[m][k - 2][j][i] - 4.0 * u[m][k - 1][j][i]);
      }
#pragma acc parallel loop present(u, rhs)
      for (int kk = 1; kk < nz - 1; kk++)
        for (int j = 1; j < ny - 1; j++)
          for (int m = 0; m < 2; m++)
            for (int i = 1; i < nx - 1; i++)
              u[m][kk][j][i] = u[m][kk][j][i] + 0.01 * max(rhs[m][kk][j][i], -1.0);
    }
  }
  double su = 0.0, sr = 0.0;
  for (int m = 0; m < 2; m++)
    for (int kk = 0; kk < nz; kk++)
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
          su += u[m][kk][j][i] * (1 + (kk + j + i) % 5);
          sr += rhs[m][kk][j][i];
        }
  printf("u %.10f\nrhs %.10f\n", su, sr);
  return 0;
}
