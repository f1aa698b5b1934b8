/* Matrix multiply C = A * B: 2-D array sections on copyin/copyout (pointers to rows), a
   parallel loop with collapse(2), gang and vector clauses, an inner seq loop with a private
   accumulator, a kernels loop for the trace (sum reduction on integers: exact), and a tiled
   transpose (tile(8, 8): the two loops shared as collapse(2) shares them), and a tile(*, *)
   kernels loop storing its own reduction variable at a flattened index over fewer rows than the
   array has (each device owns elements outside its share of the iterations). */
#include <stdio.h>
#include <stdlib.h>

#define N 48
#define K 40
#define M 56

int main(void) {
  int n = N, k = K, m = M;
  double (*A)[K] = malloc(sizeof(double[N][K]));
  double (*B)[M] = malloc(sizeof(double[K][M]));
  double (*C)[M] = malloc(sizeof(double[N][M]));
  for (int i = 0; i < n; i++)
    for (int l = 0; l < k; l++)
      A[i][l] = (double)((i * 3 + l) % 7 - 3);
  for (int l = 0; l < k; l++)
    for (int j = 0; j < m; j++)
      B[l][j] = (double)((l * l + 2 * j + 1) % 5 - 2);

#pragma acc parallel loop collapse(2) gang vector vector_length(64) \
    copyin(A[0:n][0:k], B[0:k][0:m]) copyout(C[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double acc = 0.0;
#pragma acc loop seq
      for (int l = 0; l < k; l++)
        acc += A[i][l] * B[l][j];
      C[i][j] = acc;
    }

  long trace = 0;
  int d = n < m ? n : m;
#pragma acc kernels loop reduction(+:trace) copyin(C[0:n][0:m])
  for (int i = 0; i < d; i++)
    trace += (long)C[i][i];

  double (*T)[N] = malloc(sizeof(double[M][N]));
#pragma acc parallel loop tile(8, 8) copyin(C[0:n][0:m]) copyout(T[0:m][0:n])
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      T[j][i] = C[i][j] * (j % 3);

  double *R = calloc((size_t)n * m, sizeof(double));
  double dot = 0.0;
#pragma acc kernels loop tile(*, *) reduction(+:dot) copyin(A[0:n][0:k]) copy(R[0:n*m])
  for (int i = 0; i < n - 1; i++)
    for (int j = 0; j < m; j++) {
      dot = 0.0;
      for (int l = 0; l < k; l++)
        dot += A[i][l] * (l + j % 3);
      R[i * m + j] = dot;
    }

  double sum = 0.0, weighted = 0.0, rsum = 0.0;
  for (int i = 0; i < n * m; i++)
    rsum += R[i] * (i % 7 + 1);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      sum += C[i][j];
      weighted += C[i][j] * (i + 1) * (j % 5) + T[j][i];
    }
  printf("matmul: C[0][0]=%.1f C[%d][%d]=%.1f sum=%.1f weighted=%.1f trace=%ld rsum=%.1f\n",
         C[0][0], n - 1, m - 1, C[n - 1][m - 1], sum, weighted, trace, rsum);
  free(A);
  free(B);
  free(C);
  free(T);
  free(R);
  return 0;
}
