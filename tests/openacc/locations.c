/* Gecko's memory at a location (docs/locations.md): a field that lives on device 0 alone (host:0,
   a location of the devices' own hierarchy) and the kernels that use it there, the smoothing
   sweeps of a 1-D heat equation and a sum; then an array mapped everywhere that a kernel at
   host:0 updates and a kernel on every device reads after it. The lines are jaccc's; plain cc
   ignores them. The corpus runs on host devices, where host:0 always exists.
   corpus: host devices only (it names host:0) */
#include <stdio.h>

#define N 4096
#define STEPS 12

static double u[N], v[N], w[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    u[i] = (i * 37) % 101;
    w[i] = i % 13;
  }
#pragma jacc location(host:0)
#pragma acc data copy(u[0:N]) create(v[0:N])
  {
    for (int s = 0; s < STEPS; s++) {
#pragma jacc location(host:0)
#pragma acc parallel loop present(u[0:N], v[0:N])
      for (int i = 1; i < N - 1; i++)
        v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3;
#pragma jacc location(host:0)
#pragma acc parallel loop present(u[0:N], v[0:N])
      for (int i = 1; i < N - 1; i++)
        u[i] = v[i];
    }
    double sum = 0;
#pragma jacc location(host:0)
#pragma acc parallel loop present(u[0:N]) reduction(+:sum)
    for (int i = 0; i < N; i++)
      sum += u[i];
    printf("sum %.6f\n", sum);
  }
#pragma acc enter data copyin(w[0:N])
#pragma jacc location(host:0)
#pragma acc parallel loop present(w[0:N])
  for (int i = 0; i < N; i++)
    w[i] = 2 * w[i] + 1;
  double total = 0;
#pragma acc parallel loop present(w[0:N]) reduction(+:total)
  for (int i = 0; i < N; i++)
    total += w[i] * (i % 3);
#pragma acc exit data copyout(w[0:N])
  printf("u[7] %.6f total %.1f w[N-1] %.1f\n", u[7], total, w[N - 1]);
  return 0;
}
