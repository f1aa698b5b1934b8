#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#line 1 "routine_header.c"
/* Directives in a header: the kernel carries the header's routine, names the routine of another
   file for the runtime to link in (#pragma jacc routines), and this file maps the header's global. */
#include "routine_header.h"

void combine(int n, float *x, const float *y) {
{ /* #pragma acc parallel loop copy(x[0:n]) copyin(y[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "routine_header.c", 6, "combine");
  jacc_translated_check(jacc_copyin(&x[0], n * sizeof x[0]), "routine_header.c:6");
  jacc_translated_check(jacc_copyin((void *)&y[0], n * sizeof y[0]), "routine_header.c:6");
  float *jacc_ref_bias = &bias;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *x", (void *)&x}, {"const float *y", (void *)&y}, {"float *jacc_ref_bias", &jacc_ref_bias}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma jacc routines(blend)\n"
      "#pragma acc routine seq\n"
      "static inline float twice(float x) {\n"
      "  float r = 0;\n"
      "/* #pragma acc loop seq: sequential in a routine */\n"
      "  for (int k = 0; k < 2; k++)\n"
      "    r += x;\n"
      "  return r;\n"
      "}\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    x[i] = blend(twice(x[i]), y[i]) + jacc_ref_bias[0];\n"
      "// jacc-site: routine_header.c:6\n",
      4, jacc_args, JACC_DEFAULT), "routine_header.c:6");
  jacc_translated_check(jacc_delete((void *)&y[0], n * sizeof y[0]), "routine_header.c:6");
  jacc_translated_check(jacc_copyout(&x[0], n * sizeof x[0]), "routine_header.c:6");
  jacc_construct_end();
}
#line 9 "routine_header.c"
}

/* #pragma acc declare copyin(bias) (./routine_header.h:16) */
__attribute__((constructor)) static void jacc_declare_1(void) {
  jacc_translated_check(jacc_copyin(&bias, sizeof bias), "routine_header.c:3");
}
#line 10 "routine_header.c"
