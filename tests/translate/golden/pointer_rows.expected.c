#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "pointer_rows.c"
/* Sections of pointers to pointers map the rows and the pointer array and attach the rows;
   orphaned loops in routines run sequentially. */
/* #pragma acc routine worker */
__attribute__((unused))
#line 4 "pointer_rows.c"
static double row_product(double **rows, int r, int len) {
  double p = 1;
/* #pragma acc loop worker reduction(*:p) */
  for (int k = 0; k < len; k++) p *= rows[r][k];
  return p;
}

void sums(double **a, const float **c, double *b, int n, int m) {
{ /* #pragma acc data copyin(a[0:n][0:m]) copyout(b[0:n]) */
void *const jacc_section_1 = &a[0];
const size_t jacc_section_1_bytes = n * sizeof a[0];
const size_t jacc_section_1_row = m * sizeof a[0][0];
void *const jacc_section_2 = &b[0];
const size_t jacc_section_2_bytes = n * sizeof b[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "pointer_rows.c", 12, "sums");
for (size_t jacc_row = 0; jacc_row < (jacc_section_1_bytes) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_copyin(((void **)(jacc_section_1))[jacc_row], jacc_section_1_row), "pointer_rows.c:12");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "pointer_rows.c:12");
for (size_t jacc_row = 0; jacc_row < (jacc_section_1_bytes) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_attach(&((void **)(jacc_section_1))[jacc_row]), "pointer_rows.c:12");
jacc_translated_check(jacc_create(jacc_section_2, jacc_section_2_bytes), "pointer_rows.c:12");
jacc_construct_end();
#line 13 "pointer_rows.c"
  {
{ /* #pragma acc parallel loop present(a[0:n][0:m]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "pointer_rows.c", 14, "sums");
  jacc_translated_present(&a[0], n * sizeof a[0], "pointer_rows.c:14", "a[0:n][0:m]");
  for (size_t jacc_row = 0; jacc_row < (n * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_present(((void **)(&a[0]))[jacc_row], m * sizeof a[0][0], "pointer_rows.c:14", "a[0:n][0:m]");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *b", (void *)&b}, {"double **a", (void *)&a}, {"int m", (void *)&m}, {"const float **c", (void *)&c}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc routine worker\n"
      "static double row_product(double **rows, int r, int len) {\n"
      "  double p = 1;\n"
      "/* #pragma acc loop worker reduction(*:p): sequential in a routine */\n"
      "  for (int k = 0; k < len; k++) p *= rows[r][k];\n"
      "  return p;\n"
      "}\n"
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++)\n"
      "      b[i] = row_product(a, i, m) + c[i][0];\n"
      "// jacc-site: pointer_rows.c:14\n",
      5, jacc_args, JACC_DEFAULT), "pointer_rows.c:14");
  jacc_construct_end();
}
#line 17 "pointer_rows.c"
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "pointer_rows.c", 12, "sums");
for (size_t jacc_row = 0; jacc_row < (jacc_section_1_bytes) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_detach(&((void **)(jacc_section_1))[jacc_row], 0), "pointer_rows.c:12");
for (size_t jacc_row = 0; jacc_row < (jacc_section_1_bytes) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_delete(((void **)(jacc_section_1))[jacc_row], jacc_section_1_row), "pointer_rows.c:12");
jacc_translated_check(jacc_delete(jacc_section_1, jacc_section_1_bytes), "pointer_rows.c:12");
jacc_translated_check(jacc_copyout(jacc_section_2, jacc_section_2_bytes), "pointer_rows.c:12");
jacc_construct_end();
}
{ /* #pragma acc parallel loop copy(a[1:n - 1][0:m]) copyin(c[0:n][0:m]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "pointer_rows.c", 18, "sums");
  for (size_t jacc_row = 0; jacc_row < ((n - 1) * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_copyin(((void **)(&a[1]))[jacc_row], m * sizeof a[0][0]), "pointer_rows.c:18");
  jacc_translated_check(jacc_copyin(&a[1], (n - 1) * sizeof a[0]), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < ((n - 1) * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_attach(&((void **)(&a[1]))[jacc_row]), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < (n * sizeof c[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_copyin(((void **)(&c[0]))[jacc_row], m * sizeof c[0][0]), "pointer_rows.c:18");
  jacc_translated_check(jacc_copyin(&c[0], n * sizeof c[0]), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < (n * sizeof c[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_attach(&((void **)(&c[0]))[jacc_row]), "pointer_rows.c:18");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double **a", (void *)&a}, {"const float **c", (void *)&c}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 1; i < n; i++)\n"
      "    a[i][0] = c[i][1];\n"
      "// jacc-site: pointer_rows.c:18\n",
      3, jacc_args, JACC_DEFAULT), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < (n * sizeof c[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_detach(&((void **)(&c[0]))[jacc_row], 0), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < ((n - 1) * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_detach(&((void **)(&a[1]))[jacc_row], 0), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < (n * sizeof c[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_delete(((void **)(&c[0]))[jacc_row], m * sizeof c[0][0]), "pointer_rows.c:18");
  jacc_translated_check(jacc_delete(&c[0], n * sizeof c[0]), "pointer_rows.c:18");
  jacc_translated_check(jacc_delete(&a[1], (n - 1) * sizeof a[0]), "pointer_rows.c:18");
  for (size_t jacc_row = 0; jacc_row < ((n - 1) * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_copyout(((void **)(&a[1]))[jacc_row], m * sizeof a[0][0]), "pointer_rows.c:18");
  jacc_construct_end();
}
/* #pragma acc enter data create(a[0:n][0:m]) */
jacc_construct_begin(JACC_CONSTRUCT_ENTER_DATA, "pointer_rows.c", 21, "sums");
for (size_t jacc_row = 0; jacc_row < (n * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_create(((void **)(&a[0]))[jacc_row], m * sizeof a[0][0]), "pointer_rows.c:21");
jacc_translated_check(jacc_copyin(&a[0], n * sizeof a[0]), "pointer_rows.c:21");
for (size_t jacc_row = 0; jacc_row < (n * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_attach(&((void **)(&a[0]))[jacc_row]), "pointer_rows.c:21");
jacc_construct_end();
/* #pragma acc update device(a[2:1][0:m]) if_present */
jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "pointer_rows.c", 22, "sums");
if (jacc_is_present(&a[2], 1 * sizeof a[0])) {
  for (size_t jacc_row = 0; jacc_row < (1 * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_update_device(((void **)(&a[2]))[jacc_row], m * sizeof a[0][0]), "pointer_rows.c:22");
}
jacc_construct_end();
/* #pragma acc update self(a[0:n][0:m]) */
jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "pointer_rows.c", 23, "sums");
for (size_t jacc_row = 0; jacc_row < (n * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_update_self(((void **)(&a[0]))[jacc_row], m * sizeof a[0][0]), "pointer_rows.c:23");
jacc_construct_end();
/* #pragma acc exit data copyout(a[0:n][0:m]) finalize */
jacc_construct_begin(JACC_CONSTRUCT_EXIT_DATA, "pointer_rows.c", 24, "sums");
for (size_t jacc_row = 0; jacc_row < (n * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_detach(&((void **)(&a[0]))[jacc_row], 1), "pointer_rows.c:24");
jacc_translated_check(jacc_exit_data(&a[0], n * sizeof a[0], 0, 1), "pointer_rows.c:24");
for (size_t jacc_row = 0; jacc_row < (n * sizeof a[0]) / sizeof(void *); ++jacc_row) jacc_translated_check(jacc_exit_data(((void **)(&a[0]))[jacc_row], m * sizeof a[0][0], 1, 1), "pointer_rows.c:24");
jacc_construct_end();
#line 25 "pointer_rows.c"
}
