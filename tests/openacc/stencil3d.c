/* 3-D 7-point stencil on pointers to 2-D planes: three-dimensional array sections
   (u[0:nx][0:ny][0:nz]), sections of the outer dimension only (src[0:nx]; the interior planes
   v[1:nx - 2] in update self), collapse(3), a typedef'd 2-D plane type carried into the kernel,
   a data region with copyin/create, update device of one plane, a long sum reduction. */
#include <stdio.h>
#include <stdlib.h>

#define NX 20
#define NY 18
#define NZ 16

typedef float plane[NY][NZ];

int main(void) {
  int nx = NX, ny = NY, nz = NZ;
  plane *u = malloc(NX * sizeof(plane));
  plane *v = malloc(NX * sizeof(plane));
  float (*src)[NY][NZ] = malloc(NX * sizeof(plane));
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int l = 0; l < nz; l++) {
        u[i][j][l] = (float)((i * 7 + j * 3 + l) % 11);
        src[i][j][l] = (i == nx / 2 && j == ny / 2) ? 1.0f : 0.0f;
        v[i][j][l] = 0.0f;
      }
  long inner = 0;

#pragma acc data copyin(u[0:nx][0:ny][0:nz]) copyin(src[0:nx]) create(v[0:nx][0:ny][0:nz])
  {
    /* create leaves v's device copy undefined: the boundary cells are set once here. */
#pragma acc parallel loop collapse(3)
    for (int i = 0; i < nx; i++)
      for (int j = 0; j < ny; j++)
        for (int l = 0; l < nz; l++)
          v[i][j][l] = 0.0f;
    for (int it = 0; it < 4; it++) {
#pragma acc parallel loop collapse(3)
      for (int i = 1; i < nx - 1; i++)
        for (int j = 1; j < ny - 1; j++)
          for (int l = 1; l < nz - 1; l++)
            v[i][j][l] = (u[i - 1][j][l] + u[i + 1][j][l] + u[i][j - 1][l] + u[i][j + 1][l] +
                          u[i][j][l - 1] + u[i][j][l + 1]) / 8.0f + src[i][j][l];
#pragma acc parallel loop collapse(3)
      for (int i = 1; i < nx - 1; i++)
        for (int j = 1; j < ny - 1; j++)
          for (int l = 1; l < nz - 1; l++)
            u[i][j][l] = v[i][j][l];
    }
    /* Reset the first plane on the host, then on the devices. */
    for (int j = 0; j < ny; j++)
      for (int l = 0; l < nz; l++)
        u[0][j][l] = 2.0f;
#pragma acc update device(u[0:1][0:ny][0:nz])
#pragma acc parallel loop collapse(2) reduction(+:inner)
    for (int j = 0; j < ny; j++)
      for (int l = 0; l < nz; l++)
        inner += (long)(u[0][j][l] + u[1][j][l] * 1024.0f);
    /* Only the interior planes hold results: bring those back. */
#pragma acc update self(v[1:nx - 2])
  }
  double sum = 0.0;
  for (int i = 1; i < nx - 1; i++)
    for (int j = 0; j < ny; j++)
      for (int l = 0; l < nz; l++)
        sum += v[i][j][l];
  printf("stencil3d: sum=%.4e v[%d][%d][%d]=%.4e inner=%ld\n", sum, nx / 2, ny / 2, nz / 2,
         v[nx / 2][ny / 2][nz / 2], inner);
  free(u);
  free(v);
  free(src);
  return 0;
}
