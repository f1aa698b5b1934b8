/* A struct with pointer members used in kernels while only its members' data is mapped (the
   struct itself is copied, so nothing attaches its pointers): each device must reach its own
   copy of that data through the struct's pointers, a nested struct's and an array's, and the
   results come back through the data clauses. The output does not depend on the device count. */
#include <stdio.h>
#include <stdlib.h>

#define N 2000

typedef struct {
  double *coef;
  int len;
} table;

typedef struct {
  double *x;
  int n;
  table t;
  double *out[2];
} field;

int main(void) {
  field f;
  f.n = N;
  f.x = malloc(N * sizeof(double));
  f.t.len = 4;
  f.t.coef = malloc(4 * sizeof(double));
  f.out[0] = malloc(N * sizeof(double));
  f.out[1] = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    f.x[i] = i % 17;
    f.out[0][i] = f.out[1][i] = 0;
  }
  for (int k = 0; k < 4; k++)
    f.t.coef[k] = k + 1;

  double *out0 = f.out[0], *out1 = f.out[1]; /* a clause names a pointer's section */
#pragma acc data copy(f.x[0:N]) copyin(f.t.coef[0:4]) copyout(out0[0:N], out1[0:N])
  {
    for (int step = 0; step < 3; step++) {
#pragma acc parallel loop
      for (int i = 0; i < f.n; i++)
        f.x[i] = f.x[i] * f.t.coef[step % f.t.len] + 1;
    }
#pragma acc parallel loop
    for (int i = 0; i < f.n; i++) {
      f.out[0][i] = 2 * f.x[i];
      f.out[1][i] = f.out[0][i] - f.t.coef[3];
    }
#pragma acc update self(f.x[0:N])
  }
  double sx = 0, s0 = 0, s1 = 0;
  for (int i = 0; i < N; i++) {
    sx += f.x[i];
    s0 += f.out[0][i];
    s1 += f.out[1][i];
  }
  printf("struct_members: x %.1f out0 %.1f out1 %.1f x[7] %.1f\n", sx, s0, s1, f.x[7]);
  free(f.x);
  free(f.t.coef);
  free(f.out[0]);
  free(f.out[1]);
  return 0;
}
