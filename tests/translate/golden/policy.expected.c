#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "policy.c"
/* #pragma jacc policy(...) and location(...) right above a compute construct go into its kernel
   (other compilers ignore them); a construct without one gets none. */
void scale(float *x, float *y, int n) {
/* #pragma jacc policy(weights:[1,3]) */

{ /* #pragma acc parallel loop copy(x[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "policy.c", 6, "scale");
  jacc_translated_check(jacc_copyin(&x[0], n * sizeof x[0]), "policy.c:6");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *x", (void *)&x}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma jacc policy(weights:[1,3])\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    x[i] = 2 * x[i];\n"
      "// jacc-site: policy.c:6\n",
      2, jacc_args, JACC_DEFAULT), "policy.c:6");
  jacc_translated_check(jacc_copyout(&x[0], n * sizeof x[0]), "policy.c:6");
  jacc_construct_end();
}
{ /* #pragma acc parallel loop copy(y[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "policy.c", 9, "scale");
  jacc_translated_check(jacc_copyin(&y[0], n * sizeof y[0]), "policy.c:9");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *y", (void *)&y}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    y[i] = 2 * y[i];\n"
      "// jacc-site: policy.c:9\n",
      2, jacc_args, JACC_DEFAULT), "policy.c:9");
  jacc_translated_check(jacc_copyout(&y[0], n * sizeof y[0]), "policy.c:9");
  jacc_construct_end();
}
#line 12 "policy.c"
}
void shift(float *z, int n) {
/* #pragma jacc location(gpus) */
/* #pragma jacc policy(flatten) */
{ /* #pragma acc parallel loop copy(z[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "policy.c", 16, "shift");
  jacc_translated_check(jacc_data_location_begin("gpus"), "policy.c:16");
  jacc_translated_check(jacc_copyin(&z[0], n * sizeof z[0]), "policy.c:16");
  jacc_translated_check(jacc_data_location_end(), "policy.c:16");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *z", (void *)&z}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma jacc location(gpus)\n"
      "#pragma jacc policy(flatten)\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    z[i] = z[i] + 1;\n"
      "// jacc-site: policy.c:16\n",
      2, jacc_args, JACC_DEFAULT), "policy.c:16");
  jacc_translated_check(jacc_copyout(&z[0], n * sizeof z[0]), "policy.c:16");
  jacc_construct_end();
}
#line 19 "policy.c"
}
