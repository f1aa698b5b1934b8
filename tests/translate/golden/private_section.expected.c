#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "private_section.c"
/* private and firstprivate sections of pointers: an array per gang (per gang-loop iteration)
   in the kernel, firstprivate copies initialised from the section on the devices. */
void rows(const double *a, double *d, double *c, double *w, int n) {
{ /* #pragma acc parallel num_gangs(10) private(c[0:n]) firstprivate(w[:n]) */
  long jacc_private_len_c = (long)(n);
  long jacc_private_len_w = (long)(n);
  void *jacc_original_w = 0;
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "private_section.c", 4, "rows");
  size_t jacc_implicit_d = jacc_translated_implicit((void *)&d[0], (long)(10), sizeof d[0], "private_section.c:4");
  size_t jacc_implicit_a = jacc_translated_implicit((void *)&a[0], (long)(10 * n), sizeof a[0], "private_section.c:4");
  jacc_original_w = jacc_translated_firstprivate((void *)w, jacc_private_len_w * sizeof w[0], "private_section.c:4");
  jacc_arg jacc_args[] = {{"long jacc_private_len_c", &jacc_private_len_c}, {"long jacc_private_len_w", &jacc_private_len_w}, {"double *jacc_original_w", &jacc_original_w}, {"int n", (void *)&n}, {"const double *a", (void *)&a}, {"double *d", (void *)&d}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel num_gangs(10)\n"
      "  {\n"
      "#pragma acc loop gang\n"
      "    for (int x = 0; x < 10; ++x) { double c[jacc_private_len_c]; double w[jacc_private_len_w]; for (long jacc_k = 0; jacc_k < jacc_private_len_w; jacc_k++) w[jacc_k] = jacc_original_w[jacc_k];\n"
      "#pragma acc loop worker\n"
      "      for (int y = 0; y < n; ++y)\n"
      "        c[y] = a[x * n + y] + w[y];\n"
      "#pragma acc loop seq\n"
      "      for (int y = 0; y < n; ++y)\n"
      "        d[x] += c[y];\n"
      "    }\n"
      "  }\n"
      "// jacc-site: private_section.c:4\n",
      6, jacc_args, JACC_DEFAULT), "private_section.c:4");
  jacc_translated_firstprivate_end(jacc_original_w, (void *)w, jacc_private_len_w * sizeof w[0], "private_section.c:4");
  if (jacc_implicit_a) jacc_translated_check(jacc_delete((void *)&a[0], jacc_implicit_a), "private_section.c:4");
  if (jacc_implicit_d) jacc_translated_check(jacc_copyout((void *)&d[0], jacc_implicit_d), "private_section.c:4");
  jacc_construct_end();
}
{ /* #pragma acc serial private(c[0:n]) */
  long jacc_private_len_c = (long)(n);
  jacc_construct_begin(JACC_CONSTRUCT_SERIAL, "private_section.c", 16, "rows");
  size_t jacc_implicit_d = jacc_translated_implicit((void *)&d[0], (long)(1), sizeof d[0], "private_section.c:16");
  jacc_arg jacc_args[] = {{"long jacc_private_len_c", &jacc_private_len_c}, {"int n", (void *)&n}, {"double *d", (void *)&d}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc serial\n"
      "  { double c[jacc_private_len_c];\n"
      "    for (int y = 0; y < n; ++y)\n"
      "      c[y] = y;\n"
      "    for (int y = 0; y < n; ++y)\n"
      "      d[0] += c[y];\n"
      "  }\n"
      "// jacc-site: private_section.c:16\n",
      3, jacc_args, JACC_DEFAULT), "private_section.c:16");
  if (jacc_implicit_d) jacc_translated_check(jacc_copyout((void *)&d[0], jacc_implicit_d), "private_section.c:16");
  jacc_construct_end();
}
{ /* #pragma acc parallel loop firstprivate(c[0:n]) */
  long jacc_private_len_c = (long)(n);
  void *jacc_original_c = 0;
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "private_section.c", 23, "rows");
  size_t jacc_implicit_d = jacc_translated_implicit((void *)&d[0], (long)(10), sizeof d[0], "private_section.c:23");
  jacc_original_c = jacc_translated_firstprivate((void *)c, jacc_private_len_c * sizeof c[0], "private_section.c:23");
  jacc_arg jacc_args[] = {{"long jacc_private_len_c", &jacc_private_len_c}, {"double *jacc_original_c", &jacc_original_c}, {"int n", (void *)&n}, {"double *d", (void *)&d}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int x = 0; x < 10; ++x) { double c[jacc_private_len_c]; for (long jacc_k = 0; jacc_k < jacc_private_len_c; jacc_k++) c[jacc_k] = jacc_original_c[jacc_k];\n"
      "#pragma acc loop vector\n"
      "    for (int y = 0; y < n; ++y)\n"
      "      d[x] += c[y]; }\n"
      "// jacc-site: private_section.c:23\n",
      4, jacc_args, JACC_DEFAULT), "private_section.c:23");
  jacc_translated_firstprivate_end(jacc_original_c, (void *)c, jacc_private_len_c * sizeof c[0], "private_section.c:23");
  if (jacc_implicit_d) jacc_translated_check(jacc_copyout((void *)&d[0], jacc_implicit_d), "private_section.c:23");
  jacc_construct_end();
}
#line 28 "private_section.c"
}

#define M 32
/* A constant length (after macro expansion) gives a constant-size array: CUDA devices too. */
void constant(double *c, double *d) {
{ /* #pragma acc parallel loop private(c[0:32]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "private_section.c", 33, "constant");
  size_t jacc_implicit_d = jacc_translated_implicit((void *)&d[0], (long)(10), sizeof d[0], "private_section.c:33");
  jacc_arg jacc_args[] = {{"double *d", (void *)&d}};
  jacc_translated_check(jacc_kernel_push(
      "#define M 32\n"
      "#pragma acc parallel loop\n"
      "  for (int x = 0; x < 10; ++x) { double c[(32)];\n"
      "    for (int y = 0; y < M; ++y)\n"
      "      c[y] = x + y;\n"
      "    d[x] = c[M - 1];\n"
      "  }\n"
      "// jacc-site: private_section.c:33\n",
      1, jacc_args, JACC_DEFAULT), "private_section.c:33");
  if (jacc_implicit_d) jacc_translated_check(jacc_copyout((void *)&d[0], jacc_implicit_d), "private_section.c:33");
  jacc_construct_end();
}
#line 39 "private_section.c"
}
