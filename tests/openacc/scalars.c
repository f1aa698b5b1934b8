/* Scalars that come back from the devices, on any number of them: assigned in kernels
   constructs (OpenACC's implicit copy: the last iteration's value, and a value read back by the
   loop after it), in copy and copyout clauses, present from a data construct (a reduction into
   it, then a serial construct doubling it), a loop's private scalar that stays private, and
   kernels loops that carry a scalar from one iteration to the next (they run sequentially, as
   NVHPC runs them: "loop carried scalar dependence"). */
#include <stdio.h>

#define N 100

int main(void) {
  float a[N];
  for (int i = 0; i < N; i++)
    a[i] = i * 0.5f;
  float last = 0;
#pragma acc kernels
  {
    for (int i = 0; i < N; i++)
      last = a[i];
  }
  int count = 3, flag = 0;
#pragma acc parallel copy(count) copyout(flag)
  {
    count += 4;
    flag = 1;
  }
  double total = 0.0;
#pragma acc data copy(total)
  {
#pragma acc parallel loop reduction(+:total)
    for (int i = 0; i < N; i++)
      total += a[i];
#pragma acc serial
    total *= 2;
  }
  int t;
#pragma acc kernels loop private(t)
  for (int i = 0; i < N; i++) {
    t = i * 2;
    a[i] = t;
  }
  float first = -1;
#pragma acc kernels
  {
    first = a[1];
    for (int i = 0; i < N; i++)
      a[i] += first;
  }
  int hits = 5; /* a reduction into a scalar the construct copies: the result comes back */
#pragma acc parallel loop copy(hits) reduction(+:hits)
  for (int i = 0; i < N; i++)
    hits += a[i] > 100.0f;
  double running = 0.0, prev = 0.0;
#pragma acc kernels
  {
#pragma acc loop
    for (int i = 0; i < N; i++)
      running = running * 0.5 + a[i];
  }
#pragma acc kernels loop
  for (int i = 0; i < N; i++) {
    a[i] += prev;
    prev = a[i] * 0.25;
  }
  printf("scalars: last=%g count=%d flag=%d total=%g first=%g a[N-1]=%g hits=%d running=%.6f "
         "prev=%.6f\n",
         last, count, flag, total, first, a[N - 1], hits, running, prev);
  return 0;
}
