#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "private_array.c"
/* private arrays declared outside the construct: on a combined construct, and on a loop that is
   a top-level statement of a parallel construct. */
void f(int n, double *out) {
  double scratch[8];
  int hist[2][4];
{ /* #pragma acc parallel loop private(scratch, hist) present(out[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "private_array.c", 6, "f");
  jacc_translated_present(&out[0], n * sizeof out[0], "private_array.c:6", "out[0:n]");
  void *jacc_private_scratch = 0; (void)scratch;
  void *jacc_private_hist = 0; (void)hist;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double scratch[8]", &jacc_private_scratch}, {"int hist[2][4]", &jacc_private_hist}, {"double *out", (void *)&out}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop private(scratch, hist)\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    for (int k = 0; k < 8; k++) scratch[k] = i + k;\n"
      "    hist[1][3] = i;\n"
      "    out[i] = scratch[n % 8] + hist[1][3];\n"
      "  }\n"
      "// jacc-site: private_array.c:6\n",
      4, jacc_args, JACC_DEFAULT), "private_array.c:6");
  jacc_construct_end();
}
{ /* #pragma acc parallel present(out[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "private_array.c", 12, "f");
  jacc_translated_present(&out[0], n * sizeof out[0], "private_array.c:12", "out[0:n]");
  void *jacc_private_scratch = 0; (void)scratch;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double scratch[8]", &jacc_private_scratch}, {"double *out", (void *)&out}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel\n"
      "  {\n"
      "#pragma acc loop private(scratch)\n"
      "    for (int i = 0; i < n; i++) {\n"
      "      scratch[0] = i;\n"
      "      out[i] += scratch[0];\n"
      "    }\n"
      "  }\n"
      "// jacc-site: private_array.c:12\n",
      3, jacc_args, JACC_DEFAULT), "private_array.c:12");
  jacc_construct_end();
}
#line 20 "private_array.c"
}
