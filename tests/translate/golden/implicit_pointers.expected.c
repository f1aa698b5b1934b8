implicit_pointers.c:22:1: warning: the size of the data pointer 'd' points to is unknown (a subscript is not an affine function of the iterators of the construct's for loops): unless it is present when the construct starts, the launch fails; add the section it uses to a data clause of the construct, e.g. copy(d[0:n])
implicit_pointers.c:22:1: warning: the size of the data pointer 'a' points to is unknown (it is used other than as 'a[index]'): unless it is present when the construct starts, the launch fails; add the section it uses to a data clause of the construct, e.g. copy(a[0:n])
#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "implicit_pointers.c"
/* Pointers no clause maps: NVHPC's implicit copy (written) or copyin (only read) of the section
   their subscripts reach in the construct's for loops, mapped unless present at the entry. */
#define W 16

void sections(int n, int m, const float *a, float *b, float *c, float *d, int *idx) {
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "implicit_pointers.c", 6, "sections");
  size_t jacc_implicit_b = jacc_translated_implicit((void *)&b[0], (long)(n - 1), sizeof b[0], "implicit_pointers.c:6");
  size_t jacc_implicit_a = jacc_translated_implicit((void *)&a[0], (long)(n), sizeof a[0], "implicit_pointers.c:6");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *b", (void *)&b}, {"const float *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 1; i < n - 1; i++)\n"
      "    b[i] = a[i - 1] + a[i + 1];\n"
      "// jacc-site: implicit_pointers.c:6\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:6");
  if (jacc_implicit_a) jacc_translated_check(jacc_delete((void *)&a[0], jacc_implicit_a), "implicit_pointers.c:6");
  if (jacc_implicit_b) jacc_translated_check(jacc_copyout((void *)&b[0], jacc_implicit_b), "implicit_pointers.c:6");
  jacc_construct_end();
}
{ /* #pragma acc serial */
  jacc_construct_begin(JACC_CONSTRUCT_SERIAL, "implicit_pointers.c", 9, "sections");
  size_t jacc_implicit_c = jacc_translated_implicit((void *)&c[0], (long)(17 * m - 16), sizeof c[0], "implicit_pointers.c:9");
  size_t jacc_implicit_b = jacc_translated_implicit((void *)&b[0], (long)(m), sizeof b[0], "implicit_pointers.c:9");
  jacc_arg jacc_args[] = {{"int m", (void *)&m}, {"float *c", (void *)&c}, {"float *b", (void *)&b}};
  jacc_translated_check(jacc_kernel_push(
      "#define W 16\n"
      "#pragma acc serial\n"
      "  for (int i = 0; i < m; i++)\n"
      "    for (int j = 0; j <= i; j++)\n"
      "      c[i * W + j] += b[j];\n"
      "// jacc-site: implicit_pointers.c:9\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:9");
  if (jacc_implicit_b) jacc_translated_check(jacc_delete((void *)&b[0], jacc_implicit_b), "implicit_pointers.c:9");
  if (jacc_implicit_c) jacc_translated_check(jacc_copyout((void *)&c[0], jacc_implicit_c), "implicit_pointers.c:9");
  jacc_construct_end();
}
{ /* #pragma acc kernels */
  jacc_construct_begin(JACC_CONSTRUCT_KERNELS, "implicit_pointers.c", 13, "sections");
  size_t jacc_implicit_d = jacc_translated_implicit((void *)&d[0], (long)(n), sizeof d[0], "implicit_pointers.c:13");
  size_t jacc_implicit_a = jacc_translated_implicit((void *)&a[0], (long)(n), sizeof a[0], "implicit_pointers.c:13");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *d", (void *)&d}, {"const float *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc kernels\n"
      "  for (int i = n - 1; i >= 0; i--)\n"
      "    d[n - 1 - i] = a[i];\n"
      "// jacc-site: implicit_pointers.c:13\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:13");
  if (jacc_implicit_a) jacc_translated_check(jacc_delete((void *)&a[0], jacc_implicit_a), "implicit_pointers.c:13");
  if (jacc_implicit_d) jacc_translated_check(jacc_copyout((void *)&d[0], jacc_implicit_d), "implicit_pointers.c:13");
  jacc_construct_end();
}
#line 16 "implicit_pointers.c"
  /* A data region around maps b: only c is implicit; idx is named. */
{ /* #pragma acc data copy(b[0:n]) */
void *const jacc_section_1 = &b[0];
const size_t jacc_section_1_bytes = n * sizeof b[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "implicit_pointers.c", 17, "sections");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "implicit_pointers.c:17");
jacc_construct_end();
{ /* #pragma acc parallel loop copyin(idx[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "implicit_pointers.c", 18, "sections");
  jacc_translated_check(jacc_copyin(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:18");
  size_t jacc_implicit_c = jacc_translated_implicit((void *)&c[0], (long)(n), sizeof c[0], "implicit_pointers.c:18");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *b", (void *)&b}, {"float *c", (void *)&c}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    b[i] += c[i];\n"
      "// jacc-site: implicit_pointers.c:18\n",
      3, jacc_args, JACC_DEFAULT), "implicit_pointers.c:18");
  if (jacc_implicit_c) jacc_translated_check(jacc_delete((void *)&c[0], jacc_implicit_c), "implicit_pointers.c:18");
  jacc_translated_check(jacc_delete(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:18");
  jacc_construct_end();
}
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "implicit_pointers.c", 17, "sections");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "implicit_pointers.c:17");
jacc_construct_end();
}
#line 21 "implicit_pointers.c"
  /* Unknown sections: a warning, and the data must be present. */
{ /* #pragma acc parallel loop copyin(idx[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "implicit_pointers.c", 22, "sections");
  jacc_translated_check(jacc_copyin(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:22");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *d", (void *)&d}, {"int *idx", (void *)&idx}, {"const float *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    d[idx[i]] = *a;\n"
      "// jacc-site: implicit_pointers.c:22\n",
      4, jacc_args, JACC_DEFAULT), "implicit_pointers.c:22");
  jacc_translated_check(jacc_delete(&idx[0], n * sizeof idx[0]), "implicit_pointers.c:22");
  jacc_construct_end();
}
#line 25 "implicit_pointers.c"
}
