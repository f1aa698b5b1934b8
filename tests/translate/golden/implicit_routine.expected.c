#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "implicit_routine.c"
/* A function defined in the file and called without a routine directive: implicit routine seq. */
__attribute__((unused)) static float twice(float x) { return 2 * x; }
void f(float *a, int n) {
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "implicit_routine.c", 4, "f");
  size_t jacc_implicit_a = jacc_translated_implicit((void *)&a[0], (long)(n), sizeof a[0], "implicit_routine.c:4");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc routine seq\n"
      "static float twice(float x) { return 2 * x; }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) a[i] = twice(a[i]);\n"
      "// jacc-site: implicit_routine.c:4\n",
      2, jacc_args, JACC_DEFAULT), "implicit_routine.c:4");
  if (jacc_implicit_a) jacc_translated_check(jacc_copyout((void *)&a[0], jacc_implicit_a), "implicit_routine.c:4");
  jacc_construct_end();
}
#line 6 "implicit_routine.c"
}
