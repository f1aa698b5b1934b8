#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "no_create.c"
/* no_create: on a compute construct, and on a data construct with an if clause. */
void f(int n, double *x, const double *y, int flag) {
{ /* #pragma acc parallel loop no_create(x[0:n], y[0:n]) */
  int jacc_no_create_1 = 0;
  int jacc_no_create_2 = 0;
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "no_create.c", 3, "f");
  jacc_no_create_1 = jacc_translated_no_create(&x[0], n * sizeof x[0], "no_create.c:3");
  jacc_no_create_2 = jacc_translated_no_create((void *)&y[0], n * sizeof y[0], "no_create.c:3");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *x", (void *)&x}, {"const double *y", (void *)&y}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) x[i] += y[i];\n"
      "// jacc-site: no_create.c:3\n",
      3, jacc_args, JACC_DEFAULT), "no_create.c:3");
  if (jacc_no_create_2) jacc_translated_check(jacc_delete((void *)&y[0], n * sizeof y[0]), "no_create.c:3");
  if (jacc_no_create_1) jacc_translated_check(jacc_copyout(&x[0], n * sizeof x[0]), "no_create.c:3");
  jacc_construct_end();
}
{ /* #pragma acc data no_create(x[0:n]) if(flag) */
const int jacc_if_5 = (flag) != 0;
void *const jacc_section_1 = &x[0];
const size_t jacc_section_1_bytes = n * sizeof x[0];
int jacc_no_create_3 = 0;
jacc_construct_begin(JACC_CONSTRUCT_DATA, "no_create.c", 5, "f");
if (jacc_if_5) jacc_no_create_3 = jacc_translated_no_create(jacc_section_1, jacc_section_1_bytes, "no_create.c:5");
jacc_construct_end();
#line 6 "no_create.c"
  {
{ /* #pragma acc parallel loop present(x[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "no_create.c", 7, "f");
  jacc_translated_present(&x[0], n * sizeof x[0], "no_create.c:7", "x[0:n]");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *x", (void *)&x}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++) x[i] *= 2.0;\n"
      "// jacc-site: no_create.c:7\n",
      2, jacc_args, JACC_DEFAULT), "no_create.c:7");
  jacc_construct_end();
}
#line 9 "no_create.c"
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "no_create.c", 5, "f");
if (jacc_if_5) if (jacc_no_create_3) jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "no_create.c:5");
jacc_construct_end();
}
#line 10 "no_create.c"
}
