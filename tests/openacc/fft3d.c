/* A 3-D FFT by transposes (the shape of NPB FT): a radix-2 FFT along the contiguous axis of
   every row, then a transpose that brings the next axis there, three times. Each FFT kernel is
   parallel over rows; each transpose reads the array across the axis the previous kernel split
   along, so a split kernel leaves its data decomposed the wrong way for the next one. Complex
   values are pairs of doubles; every row's FFT runs the same sequence of operations on any
   device, so the result is exact. Then the inverse, back to the input (scaled). */
#include <math.h>
#include <stdio.h>

#define N 32
#define LOGN 5
#define STEPS 3

static double re[N][N][N], im[N][N][N], tre[N][N][N], tim[N][N][N];
static double wre[N / 2], wim[N / 2];

int main(void) {
  int n = N, logn = LOGN;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        re[i][j][k] = (double)((i * 5 + j * 3 + k) % 13) / 13.0;
        im[i][j][k] = (double)((i + j * 7 + k * 2) % 7) / 7.0 - 0.5;
      }
  for (int m = 0; m < n / 2; m++) {
    wre[m] = cos(-2.0 * M_PI * m / n);
    wim[m] = sin(-2.0 * M_PI * m / n);
  }
  double first = 0.0;
#pragma acc data copy(re, im) create(tre, tim) copyin(wre, wim)
  for (int step = 0; step < STEPS; step++) {
    double sign = step % 2 == 0 ? 1.0 : -1.0; /* forward, inverse, forward */
    for (int axis = 0; axis < 3; axis++) {
      /* FFT along k of every row (i, j): bit reversal, then log2(n) butterfly stages. */
#pragma acc parallel loop collapse(2) present(re, im, wre, wim)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          for (int k = 0; k < n; k++) {
            int r = 0;
            for (int b = 0; b < logn; b++)
              r |= ((k >> b) & 1) << (logn - 1 - b);
            if (r > k) {
              double x = re[i][j][k], y = im[i][j][k];
              re[i][j][k] = re[i][j][r];
              im[i][j][k] = im[i][j][r];
              re[i][j][r] = x;
              im[i][j][r] = y;
            }
          }
          for (int half = 1; half < n; half *= 2)
            for (int s = 0; s < n; s += 2 * half)
              for (int q = 0; q < half; q++) {
                int w = q * (n / (2 * half));
                double cr = wre[w], ci = sign * wim[w];
                int a = s + q, c = s + q + half;
                double xr = re[i][j][c] * cr - im[i][j][c] * ci;
                double xi = re[i][j][c] * ci + im[i][j][c] * cr;
                re[i][j][c] = re[i][j][a] - xr;
                im[i][j][c] = im[i][j][a] - xi;
                re[i][j][a] = re[i][j][a] + xr;
                im[i][j][a] = im[i][j][a] + xi;
              }
        }
      /* Rotate the axes: t[k][i][j] = a[i][j][k], then back into a. */
#pragma acc parallel loop collapse(2) present(re, im, tre, tim)
      for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++) {
            tre[k][i][j] = re[i][j][k];
            tim[k][i][j] = im[i][j][k];
          }
#pragma acc parallel loop collapse(3) present(re, im, tre, tim)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < n; k++) {
            re[i][j][k] = tre[i][j][k];
            im[i][j][k] = tim[i][j][k];
          }
    }
    if (step == 0) {
#pragma acc update self(re [0:1])
      first = re[0][0][0];
    }
  }
  double sum = 0.0, back = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        sum += re[i][j][k] * (double)(1 + (i + j + k) % 3) - im[i][j][k];
        back += fabs(im[i][j][k]);
      }
  printf("fft3d: dc %.12e sum %.12e |im| %.12e\n", first, sum, back);
  return 0;
}
