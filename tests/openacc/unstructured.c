/* Unstructured data lifetimes and asynchronous queues: enter data copyin/create (twice: the
   reference count), exit data copyout/delete with and without finalize, update device / self /
   host with if and if_present clauses, async(n) on compute constructs and updates, a bare
   async, wait(n) and wait(m, n) directives, wait clauses on compute constructs and updates,
   and enter/exit data with if clauses. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(void) {
  int n = N;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
  for (int i = 0; i < n; i++) {
    x[i] = i % 17;
    y[i] = 0.0;
    z[i] = 1.0;
  }
  int use_device = 1, never = 0;

#pragma acc enter data copyin(x[0:n]) create(y[0:n])
#pragma acc enter data copyin(x[0:n]) if(use_device)
#pragma acc enter data create(z[0:n]) if(never)

  /* Two independent queues, then a kernel that waits for both. */
#pragma acc parallel loop present(x[0:n], y[0:n]) async(1)
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
#pragma acc parallel loop present(x[0:n]) async(2) wait(1)
  for (int i = 0; i < n; i++)
    x[i] += 1.0;
#pragma acc wait(1, 2)
#pragma acc parallel loop present(x[0:n], y[0:n]) async
  for (int i = 0; i < n; i++)
    y[i] += x[i];
#pragma acc wait

  /* Host changes x[0:8]; push them to the devices (if true), not (if false). */
  for (int i = 0; i < 8; i++)
    x[i] = 100.0 + i;
#pragma acc update device(x[0:8]) if(use_device) async(3)
#pragma acc wait(3)
  for (int i = 8; i < 16; i++)
    x[i] = -1.0; /* never pushed: the devices keep their values */
#pragma acc update device(x[8:8]) if(never)
  for (int i = 8; i < 16; i++)
    x[i] = i % 17 + 1.0; /* the devices' values, as in the reference build */
#pragma acc parallel loop present(x[0:n], y[0:n]) wait(3)
  for (int i = 0; i < n; i++)
    y[i] = y[i] * 0.5 + x[i];

  /* update self and update host of parts; if_present skips z (never mapped). */
#pragma acc update self(y[0:n / 2]) async(4)
#pragma acc update host(y[n / 2:n - n / 2]) wait(4)
#pragma acc update self(z[0:n]) if_present
  for (int i = 8; i < 16; i++)
    x[i] = -1.0; /* an update self with if(never) must not overwrite these */
#pragma acc update self(x[8:8]) if(never)
  double mid = y[n / 2], first = y[0], x8 = x[8];
  for (int i = 8; i < 16; i++)
    x[i] = i % 17 + 1.0; /* the devices' values, as in the reference build */

  /* x has a reference count of 2: one exit leaves it present, finalize removes it. */
#pragma acc exit data delete(x[0:n])
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    y[i] -= x[i];
#pragma acc exit data copyout(y[0:n])
#pragma acc enter data copyin(x[0:n])
#pragma acc update self(x[0:n])
#pragma acc exit data delete(x[0:n]) finalize
#pragma acc enter data copyin(x[0:n]) create(z[0:n]) if(use_device)
#pragma acc parallel loop present(x[0:n], z[0:n])
  for (int i = 0; i < n; i++)
    z[i] = x[i] * 2.0;
#pragma acc exit data copyout(z[0:n]) finalize
#pragma acc exit data copyout(x[0:n]) finalize async(5)
#pragma acc wait(5)

  double sy = 0.0, sz = 0.0, sx = 0.0;
  for (int i = 0; i < n; i++) {
    sy += y[i];
    sz += z[i];
    sx += x[i];
  }
  printf("unstructured: first=%.1f mid=%.1f x8=%.1f sy=%.1f sz=%.1f sx=%.1f\n", first, mid, x8,
         sy, sz, sx);
  free(x);
  free(y);
  free(z);
  return 0;
}
