/* device_type: clauses tuned per device kind, as programs written for several compilers carry
 * them (OpenACC 2.5 and later). jacc resolves the groups for its host devices and GPUs;
 * clauses for other device kinds are ignored. */
#include <stdio.h>

#define N 2048
#define M 64

static float a[N], b[N], c[M][M];

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = (float)(i % 17);

#pragma acc parallel loop copyin(a) copyout(b) device_type(nvidia) num_gangs(32) \
    vector_length(128) device_type(host) num_gangs(1)
  for (int i = 0; i < N; i++)
    b[i] = 2 * a[i] + 1;

  float sum = 0;
#pragma acc parallel loop reduction(+:sum) copyin(b) dtype(*) gang vector
  for (int i = 0; i < N; i++)
    sum += b[i];

#pragma acc parallel loop collapse(2) copyout(c) device_type(nvidia) gang vector \
    device_type(host) seq
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      c[i][j] = (float)(i * M + j) * 0.5f;

#pragma acc kernels copy(c)
  {
#pragma acc loop device_type(radeon) seq device_type(nvidia) independent
    for (int i = 1; i < M; i++)
      for (int j = 0; j < M; j++)
        c[i][j] += c[0][j];
  }

  double check = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      check += c[i][j] * (j + 1);
  printf("sum %.1f b[N-1] %.1f check %.1f\n", sum, b[N - 1], check);
  return 0;
}
