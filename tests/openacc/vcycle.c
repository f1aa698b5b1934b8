/* A multigrid V-cycle (the shape of NPB MG): on each grid from 64^3 down to 2^3 a smoothing
   sweep then a restriction to the next coarser grid, then back up a prolongation and a smoothing
   sweep. The grids live in one array, level after level (as MG's work arrays do), reached at
   run-time offsets; the coarse grids' kernels have a handful of iterations, too few to split.
   Four cycles, the residual's norm after each. */
#include <math.h>
#include <stdio.h>

#define LEVELS 6 /* 64, 32, 16, 8, 4, 2 */
#define TOTAL (64 * 64 * 64 + 32 * 32 * 32 + 16 * 16 * 16 + 8 * 8 * 8 + 4 * 4 * 4 + 2 * 2 * 2)
#define CYCLES 4

static double u[TOTAL], r[TOTAL];

int main(void) {
  int size[LEVELS], base[LEVELS];
  int at = 0;
  for (int lv = 0; lv < LEVELS; lv++) {
    size[lv] = 64 >> lv;
    base[lv] = at;
    at += size[lv] * size[lv] * size[lv];
  }
  for (int x = 0; x < TOTAL; x++) {
    u[x] = 0.0;
    r[x] = 0.0;
  }
  int m = size[0];
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < m; k++)
        r[(i * m + j) * m + k] = (double)((i * 13 + j * 7 + k * 3) % 19 - 9) / 9.0;
#pragma acc data copy(u, r)
  for (int c = 0; c < CYCLES; c++) {
    /* Down: smooth on level lv, restrict its residual to lv + 1. */
    for (int lv = 0; lv < LEVELS; lv++) {
      int n = size[lv], b = base[lv];
#pragma acc parallel loop collapse(2) present(u, r)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < n; k++) {
            int x = b + (i * n + j) * n + k;
            u[x] = u[x] + 0.6 * r[x];
          }
      if (lv + 1 < LEVELS) {
        int h = size[lv + 1], hb = base[lv + 1];
#pragma acc parallel loop collapse(2) present(u, r)
        for (int i = 0; i < h; i++)
          for (int j = 0; j < h; j++)
            for (int k = 0; k < h; k++) {
              double s = 0.0;
              for (int d = 0; d < 8; d++) {
                int x = b + ((2 * i + (d >> 2)) * n + 2 * j + ((d >> 1) & 1)) * n + 2 * k + (d & 1);
                s += r[x] - 0.6 * u[x];
              }
              r[hb + (i * h + j) * h + k] = 0.125 * s;
            }
      }
    }
    /* Up: prolong the coarse correction into lv, then smooth lv's red points. */
    for (int lv = LEVELS - 2; lv >= 0; lv--) {
      int n = size[lv], b = base[lv], h = size[lv + 1], hb = base[lv + 1];
#pragma acc parallel loop collapse(2) present(u)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < n; k++)
            u[b + (i * n + j) * n + k] += 0.5 * u[hb + ((i / 2) * h + j / 2) * h + k / 2];
#pragma acc parallel loop collapse(2) present(u, r)
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
          for (int k = 1; k < n - 1; k++) {
            if ((i + j + k) % 2 != 0)
              continue; /* red points only: their neighbours are black, none written here */
            int x = b + (i * n + j) * n + k;
            u[x] = 0.5 * u[x] + (u[x - 1] + u[x + 1] + u[x - n] + u[x + n] + u[x - n * n] +
                                 u[x + n * n]) / 12.0;
          }
    }
    double norm = 0.0;
#pragma acc parallel loop collapse(3) present(u, r) reduction(max : norm)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < m; j++)
        for (int k = 0; k < m; k++) {
          double e = fabs(r[(i * m + j) * m + k] - 0.1 * u[(i * m + j) * m + k]);
          norm = e > norm ? e : norm;
        }
    printf("vcycle %d: max residual %.12e\n", c, norm);
  }
  double sum = 0.0;
  for (int x = 0; x < TOTAL; x++)
    sum += u[x] * (double)(1 + x % 5);
  printf("vcycle: sum %.12e\n", sum);
  return 0;
}
