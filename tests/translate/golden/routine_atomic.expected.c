#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "routine_atomic.c"
/* Routines (and the routines they call) are carried into kernels; atomic and cache pass through. */
/* #pragma acc routine seq */
__attribute__((unused))
#line 3 "routine_atomic.c"
static inline int sq(int x) { return x * x; }

/* #pragma acc routine seq */
int sum_sq(int a, int b) { return sq(a) + sq(b); }

void histogram(const int *v, int n, int *bins, int nbins) {
{ /* #pragma acc parallel loop present(v[0:n], bins[0:nbins]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "routine_atomic.c", 9, "histogram");
  jacc_translated_present((void *)&v[0], n * sizeof v[0], "routine_atomic.c:9", "v[0:n]");
  jacc_translated_present(&bins[0], nbins * sizeof bins[0], "routine_atomic.c:9", "bins[0:nbins]");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"const int *v", (void *)&v}, {"int nbins", (void *)&nbins}, {"int *bins", (void *)&bins}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc routine seq\n"
      "static inline int sq(int x) { return x * x; }\n"
      "#pragma acc routine seq\n"
      "static int sum_sq(int a, int b) { return sq(a) + sq(b); }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) {\n"
      "#pragma acc cache(v[i:1])\n"
      "    int b = sum_sq(v[i], i) % nbins;\n"
      "#pragma acc atomic update\n"
      "    bins[b]++;\n"
      "  }\n"
      "// jacc-site: routine_atomic.c:9\n",
      4, jacc_args, JACC_DEFAULT), "routine_atomic.c:9");
  jacc_construct_end();
}
#line 16 "routine_atomic.c"
}

/* The routines of this file, for the kernels of other files. */
__attribute__((constructor)) static void jacc_define_routines(void) {
  jacc_translated_check(jacc_define_routine("sum_sq",
      "#pragma acc routine seq\n"
      "static inline int sq(int x) { return x * x; }\n"
      "// jacc-item\n"
      "#pragma acc routine seq\n"
      "static int sum_sq(int a, int b) { return sq(a) + sq(b); }\n"
      "// jacc-item\n"
      "// jacc-site: routine_atomic.c:6\n"), "routine_atomic.c:6");
}
#line 17 "routine_atomic.c"
