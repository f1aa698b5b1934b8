/* 2-D Jacobi: a data region over a pointer to rows, collapse(2) loops, a max reduction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define M 80

int main(void) {
  int n = N, m = M;
  double (*A)[M] = malloc(sizeof(double[N][M]));
  double (*Anew)[M] = malloc(sizeof(double[N][M]));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      A[i][j] = (i == 0 || j == 0) ? 1.0 : 0.0;
      Anew[i][j] = A[i][j];
    }
  double err = 1.0;
  int iter = 0;
#pragma acc data copy(A[0:n][0:m]) create(Anew[0:n][0:m])
  {
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        Anew[i][j] = A[i][j];
    while (err > 1e-4 && iter < 200) {
      err = 0.0;
#pragma acc parallel loop collapse(2) reduction(max:err)
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++) {
          Anew[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
          err = fmax(err, fabs(Anew[i][j] - A[i][j]));
        }
#pragma acc parallel loop collapse(2)
      for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
          A[i][j] = Anew[i][j];
      iter++;
    }
  }
  double sum = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      sum += A[i][j];
  printf("jacobi: iterations=%d err=%.9e sum=%.9e A[1][1]=%.9e\n", iter, err, sum, A[1][1]);
  free(A);
  free(Anew);
  return 0;
}
