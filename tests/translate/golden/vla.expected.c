#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "vla.c"
/* Variable-length arrays: a 1-D local, a 2-D local (present-or-copy), a pointer to VLA rows. */
void f(int n, int m, double (*b)[m]) {
  double a[n];
  double g[n][m + 1];
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "vla.c", 5, "f");
  jacc_translated_check(jacc_copyin(a, sizeof a), "vla.c:5");
  void *jacc_ptr_a = (void *)a;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *a", &jacc_ptr_a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) a[i] = i;\n"
      "// jacc-site: vla.c:5\n",
      2, jacc_args, JACC_DEFAULT), "vla.c:5");
  jacc_translated_check(jacc_copyout(a, sizeof a), "vla.c:5");
  jacc_construct_end();
}
{ /* #pragma acc parallel loop collapse(2) copy(b[0:n][0:m]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "vla.c", 7, "f");
  jacc_translated_check(jacc_copyin(&b[0], n * sizeof b[0]), "vla.c:7");
  jacc_translated_check(jacc_copyin(g, sizeof g), "vla.c:7");
  jacc_translated_check(jacc_copyin(a, sizeof a), "vla.c:7");
  long jacc_vla_g_1 = (long)(sizeof g[0] / sizeof g[0][0]); void *jacc_ptr_g = (void *)g;
  long jacc_vla_b_1 = (long)(sizeof b[0] / sizeof b[0][0]); void *jacc_ptr_b = (void *)b;
  void *jacc_ptr_a = (void *)a;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"int m", (void *)&m}, {"long jacc_vla_g_1", &jacc_vla_g_1}, {"double (*g)[jacc_vla_g_1]", &jacc_ptr_g}, {"long jacc_vla_b_1", &jacc_vla_b_1}, {"double (*b)[jacc_vla_b_1]", &jacc_ptr_b}, {"double *a", &jacc_ptr_a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop collapse(2)\n"
      "  for (int i = 0; i < n; i++)\n"
      "    for (int j = 0; j < m; j++) g[i][j] = b[i][j] + a[i];\n"
      "// jacc-site: vla.c:7\n",
      7, jacc_args, JACC_DEFAULT), "vla.c:7");
  jacc_translated_check(jacc_copyout(a, sizeof a), "vla.c:7");
  jacc_translated_check(jacc_copyout(g, sizeof g), "vla.c:7");
  jacc_translated_check(jacc_copyout(&b[0], n * sizeof b[0]), "vla.c:7");
  jacc_construct_end();
}
#line 10 "vla.c"
}
