/* routine bind with device_type (OpenACC 3.3 2.15.1): each kind of device calls its own binding
   of a routine. `weighted` and `poly` read globals, which device code may not (jaccc rejects a
   routine using a global), so the jaccc build runs only if every device calls a binding: host
   devices the host's (`host` and NVHPC's `multicore` groups), which compute the same values by
   another route, GPUs theirs, which mark their results (a GPU's output differs from plain cc's,
   which calls the routines themselves on the host). A routine calling a bound routine reaches
   the binding too; one binding is named by a string, the other directive precedes its function.
   Static bindings without a routine directive of their own are not called by the host code.
   corpus: host devices only (a GPU's binding marks its results) */
#include <stdio.h>

#define N 1000

static const long weight[4] = {3, 5, 7, 11};
static const long constant_term = 5;

static long host_weighted(long i, long v) {
  switch (i % 4) {
  case 0:
    return v + v + v;
  case 1:
    return (v << 2) + v;
  case 2:
    return (v << 3) - v;
  default:
    return (v << 3) + (v << 1) + v;
  }
}
static long gpu_weighted(long i, long v) {
  long w = i % 4 == 0 ? 3 : i % 4 == 1 ? 5 : i % 4 == 2 ? 7 : 11;
  return 1000000 + w * v;
}

long weighted(long i, long v) { return weight[i % 4] * v; }
#pragma acc routine(weighted) seq bind(host_weighted) device_type(nvidia) bind("gpu_weighted")

static long horner(long x) { return (2 * x + 3) * x + 5; }
static long marked_poly(long x) { return 2000000 + 2 * x * x + 3 * x + 5; }

#pragma acc routine seq device_type(multicore) bind(horner) device_type(*) bind(marked_poly)
static long poly(long x) { return 2 * x * x + 3 * x + constant_term; }

/* Calls weighted: on each device kind its binding. */
#pragma acc routine seq
static long pair_sum(long i, long v) { return weighted(i, v) + weighted(i + 1, v); }

int main(void) {
  static long a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = i % 37 - 18;
#pragma acc parallel loop copyin(a[0:N]) copyout(b[0:N])
  for (int i = 0; i < N; i++)
    b[i] = weighted(i, a[i]) + poly(a[i]) + pair_sum(i, a[i] + 1);
  long sum = 0, weighted_sum = 0;
  for (int i = 0; i < N; i++) {
    sum += b[i];
    weighted_sum += (i % 13) * b[i];
  }
  printf("routine_device_type: sum %ld, weighted %ld, b[7] %ld, b[999] %ld\n", sum, weighted_sum,
         b[7], b[999]);
  return 0;
}
