/* A tiny kernel pushed N times on the devices of JACC_DEVICES: the push path and nothing else,
 * for counting its instructions (tests/bench/profiling_overhead.sh runs it under callgrind). */
#include <jacc/jacc.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = 16, pushes = argc > 1 ? atoi(argv[1]) : 20000;
  float x[16];
  for (int i = 0; i < n; i++)
    x[i] = 1;
  float *px = x;
  jacc_arg args[] = {{"int n", &n}, {"float *x", &px}};
  const char *src = "#pragma acc parallel loop present(x)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  x[i] = x[i] * 0.5f + 1.0f;\n";
  if (jacc_copyin(x, sizeof x) != JACC_SUCCESS)
    return 1;
  for (int p = 0; p < pushes; p++)
    if (jacc_kernel_push(src, 2, args, JACC_DEFAULT) != JACC_SUCCESS) {
      fprintf(stderr, "tiny push: %s\n", jacc_last_error());
      return 1;
    }
  if (jacc_copyout(x, sizeof x) != JACC_SUCCESS)
    return 1;
  return x[0] == 2.0f ? 0 : 1; /* the fixed point of x * 0.5 + 1 */
}
