#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "data_region.c"
/* Fig. 1 of the JACC paper: a data region around a combined construct. */
#define N 1024

void square(float *x, const float *y) {
{ /* #pragma acc data copyout(x[0:1024]) present(y[0:1024]) */
void *const jacc_section_1 = &x[0];
const size_t jacc_section_1_bytes = 1024 * sizeof x[0];
void *const jacc_section_2 = (void *)&y[0];
const size_t jacc_section_2_bytes = 1024 * sizeof y[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "data_region.c", 5, "square");
jacc_translated_check(jacc_create(jacc_section_1, jacc_section_1_bytes), "data_region.c:5");
jacc_translated_present(jacc_section_2, jacc_section_2_bytes, "data_region.c:5", "y[0:1024]");
jacc_construct_end();
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "data_region.c", 6, "square");
  jacc_arg jacc_args[] = {{"float *x", (void *)&x}, {"const float *y", (void *)&y}};
  jacc_translated_check(jacc_kernel_push(
      "#define N 1024\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < N; i++) x[i] = y[i] * y[i];\n"
      "// jacc-site: data_region.c:6\n",
      2, jacc_args, JACC_DEFAULT), "data_region.c:6");
  jacc_construct_end();
}
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "data_region.c", 5, "square");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "data_region.c:5");
jacc_construct_end();
}
#line 8 "data_region.c"
}
