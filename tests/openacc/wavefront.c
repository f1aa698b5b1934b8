/* A hyperplane wavefront (the shape of NPB LU-HP's lower and upper triangular sweeps): the
   points of a 3-D grid with i + j + k = l depend only on points of hyperplane l - 1, so each
   hyperplane is one parallel loop, its points found through index tables filled on the host
   (i = ip[l][p], j = jp[l][p]), the way LU-HP writes it. Its writes are not affine in the parallel
   iterator, and the hyperplanes grow from one point to a few hundred and shrink again: most are
   too small to split. Then a sweep back down (l from high to low, reading l + 1). Results must be
   exact on any number of devices: the points of a hyperplane are independent. */
#include <stdio.h>

#define N 20
#define PLANES (3 * N - 2)
#define MAXP (N * N)
#define STEPS 6

static double v[N][N][N];
static int ip[PLANES][MAXP], jp[PLANES][MAXP], np[PLANES];

int main(void) {
  int n = N;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        v[i][j][k] = (double)((3 * i + 5 * j + 7 * k) % 11) / 10.0;
  for (int l = 0; l < PLANES; l++) {
    np[l] = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        int k = l - i - j;
        if (k >= 0 && k < n) {
          ip[l][np[l]] = i;
          jp[l][np[l]] = j;
          np[l]++;
        }
      }
  }
  int planes = PLANES;
#pragma acc data copy(v) copyin(ip, jp, np)
  for (int step = 0; step < STEPS; step++) {
    /* Lower sweep: hyperplane l reads its neighbours on l - 1. */
    for (int l = 1; l < planes; l++) {
#pragma acc parallel loop present(v, ip, jp, np)
      for (int p = 0; p < np[l]; p++) {
        int i = ip[l][p], j = jp[l][p];
        int k = l - i - j;
        double s = v[i][j][k];
        if (i > 0)
          s += 0.25 * v[i - 1][j][k];
        if (j > 0)
          s += 0.25 * v[i][j - 1][k];
        if (k > 0)
          s += 0.25 * v[i][j][k - 1];
        v[i][j][k] = s / 1.5;
      }
    }
    /* Upper sweep: hyperplane l reads l + 1. */
    for (int l = planes - 2; l >= 0; l--) {
#pragma acc parallel loop present(v, ip, jp, np)
      for (int p = 0; p < np[l]; p++) {
        int i = ip[l][p], j = jp[l][p];
        int k = l - i - j;
        double s = v[i][j][k];
        if (i < N - 1)
          s += 0.2 * v[i + 1][j][k];
        if (j < N - 1)
          s += 0.2 * v[i][j + 1][k];
        if (k < N - 1)
          s += 0.2 * v[i][j][k + 1];
        v[i][j][k] = s / 1.4;
      }
    }
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        sum += v[i][j][k] * (double)(1 + (i + 2 * j + 3 * k) % 4);
  printf("wavefront: sum %.12e corner %.12e centre %.12e\n", sum, v[n - 1][n - 1][n - 1],
         v[n / 2][n / 3][n / 4]);
  return 0;
}
