/* Directives in a header: the kernel carries the header's routine, names the routine of another
   file for the runtime to link in (#pragma jacc routines), and this file maps the header's global. */
#include "routine_header.h"

void combine(int n, float *x, const float *y) {
#pragma acc parallel loop copy(x[0:n]) copyin(y[0:n])
  for (int i = 0; i < n; i++)
    x[i] = blend(twice(x[i]), y[i]) + bias;
}
