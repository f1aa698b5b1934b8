/* routine(name) after a prototype: the static definition only kernels call gets
   __attribute__((unused)) (else -Werror=unused-function fails the host build). */
static int clamp3(long a);
#pragma acc routine(clamp3) seq

static int clamp3(long a) { return a < 0 ? 0 : a > 2 ? 2 : (int)a; }

void buckets(const long *v, int *out, int n) {
#pragma acc parallel loop present(v[0:n], out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = clamp3(v[i] / 100);
}
