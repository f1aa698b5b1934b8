/* 2-D heat diffusion by Jacobi iteration, its rows split over MPI ranks, OpenACC in each rank.
 * Each rank holds its rows and a halo row above and below; after every step the halo rows are
 * exchanged with the neighbouring ranks straight from the device copies (host_data use_device),
 * and at the end rank 0 gathers the grid from the device copies (acc_deviceptr) and prints a
 * checksum summed in row order, the same for any number of ranks and devices.
 *   CC=mpicc jaccc -O2 -o heat_mpi heat_mpi.c        (or jaccc --cc=mpicc ...)
 *   mpirun -np 2 -x JACC_DEVICES=host:2 ./heat_mpi
 * Built by plain mpicc, the pragmas are ignored and each rank runs on its host. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENACC
#include <openacc.h>
#endif

#define NX 128 /* rows */
#define NY 96  /* columns */
#define STEPS 60

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* This rank's rows [first, first + rows) of the grid; local row i is grid row first + i - 1. */
  int rows = NX / size + (rank < NX % size), first = rank * (NX / size);
  first += rank < NX % size ? rank : NX % size;
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  size_t cells = (size_t)(rows + 2) * NY;
  double *u = calloc(cells, sizeof *u), *unew = calloc(cells, sizeof *unew);
  if (!u || !unew)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 1; i <= rows; i++)
    for (int j = 0; j < NY; j++)
      u[i * NY + j] = first + i - 1 == 0 ? 100.0 : (j == 0 ? 50.0 : 0.0); /* hot top, warm left */
  /* The rows this rank updates: every one but the grid's first and last. */
  int lo = first == 0 ? 2 : 1, hi = first + rows == NX ? rows - 1 : rows;

#pragma acc data copy(u[0:cells]) create(unew[0:cells])
  {
    for (int step = 0; step < STEPS; step++) {
      /* Halo rows: this rank's first row up, its last row down, from and into the device copy. */
#pragma acc host_data use_device(u)
      {
        MPI_Sendrecv(&u[1 * NY], NY, MPI_DOUBLE, up, 0, &u[(rows + 1) * NY], NY, MPI_DOUBLE, down,
                     0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[rows * NY], NY, MPI_DOUBLE, down, 1, &u[0], NY, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
#pragma acc parallel loop collapse(2) present(u, unew)
      for (int i = lo; i <= hi; i++)
        for (int j = 1; j < NY - 1; j++)
          unew[i * NY + j] = 0.25 * (u[(i - 1) * NY + j] + u[(i + 1) * NY + j] +
                                     u[i * NY + j - 1] + u[i * NY + j + 1]);
#pragma acc parallel loop collapse(2) present(u, unew)
      for (int i = lo; i <= hi; i++)
        for (int j = 1; j < NY - 1; j++)
          u[i * NY + j] = unew[i * NY + j];
    }
    /* Rank 0 gathers every rank's rows from its device copy (made current first). */
    double *grid = rank == 0 ? malloc((size_t)NX * NY * sizeof *grid) : NULL;
    int *counts = malloc(size * sizeof *counts), *offsets = malloc(size * sizeof *offsets);
    int mine = rows * NY;
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0, at = 0; rank == 0 && r < size; at += counts[r++])
      offsets[r] = at;
    double *dev = u;
#ifdef _OPENACC
    dev = acc_deviceptr(u);
#endif
    MPI_Gatherv(dev + NY, mine, MPI_DOUBLE, grid, counts, offsets, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      double sum = 0.0;
      for (int k = 0; k < NX * NY; k++)
        sum += grid[k];
      printf("heat_mpi: %dx%d grid, %d steps: total heat %.12f, t[1][%d] = %.12f, t[%d][1] = "
             "%.12f\n",
             NX, NY, STEPS, sum, NY / 2, grid[1 * NY + NY / 2], NX / 2, grid[NX / 2 * NY + 1]);
    }
    free(grid);
    free(counts);
    free(offsets);
  }
#ifdef _OPENACC
  /* stderr: stdout must match the reference build's */
  fprintf(stderr, "rank %d of %d: rows %d to %d on %d device(s)\n", rank, size, first,
          first + rows - 1, acc_get_num_devices(acc_device_host));
#endif
  free(u);
  free(unew);
  MPI_Finalize();
  return 0;
}
