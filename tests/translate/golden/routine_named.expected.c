#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "routine_named.c"
/* routine(name) after a prototype: the static definition only kernels call gets
   __attribute__((unused)) (else -Werror=unused-function fails the host build). */
static int clamp3(long a);
/* #pragma acc routine(clamp3) seq */

__attribute__((unused)) static int clamp3(long a) { return a < 0 ? 0 : a > 2 ? 2 : (int)a; }

void buckets(const long *v, int *out, int n) {
{ /* #pragma acc parallel loop present(v[0:n], out[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "routine_named.c", 9, "buckets");
  jacc_translated_present((void *)&v[0], n * sizeof v[0], "routine_named.c:9", "v[0:n]");
  jacc_translated_present(&out[0], n * sizeof out[0], "routine_named.c:9", "out[0:n]");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"int *out", (void *)&out}, {"const long *v", (void *)&v}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc routine seq\n"
      "static int clamp3(long a) { return a < 0 ? 0 : a > 2 ? 2 : (int)a; }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    out[i] = clamp3(v[i] / 100);\n"
      "// jacc-site: routine_named.c:9\n",
      3, jacc_args, JACC_DEFAULT), "routine_named.c:9");
  jacc_construct_end();
}
#line 12 "routine_named.c"
}
