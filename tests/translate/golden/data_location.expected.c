data_location.c:21:1: warning: '#pragma jacc location' above '#pragma acc update' changes nothing: data lives where its enter data, data construct or compute construct mapped it
#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "data_location.c"
/* Gecko's memory at a location: a #pragma jacc location(...) line right above a data directive
   makes the mappings its clauses create live there (jacc_data_location_begin/end around its
   entry calls); above a compute construct its kernel runs there and its own data lives there.
   Above exit data or update it changes nothing (a warning). Other compilers ignore the lines. */
void relax(double *a, double *b, double *c, int n) {
/* #pragma jacc location(LocG) */
/* #pragma acc enter data copyin(a[0:n]) create(b[0:n]) */
jacc_construct_begin(JACC_CONSTRUCT_ENTER_DATA, "data_location.c", 7, "relax");
jacc_translated_check(jacc_data_location_begin("LocG"), "data_location.c:7");
jacc_translated_data(jacc_copyin(&a[0], n * sizeof a[0]), "data_location.c:7", "#pragma acc enter data copyin(a[0:n]) create(b[0:n])", "a[0:n]");
jacc_translated_data(jacc_create(&b[0], n * sizeof b[0]), "data_location.c:7", "#pragma acc enter data copyin(a[0:n]) create(b[0:n])", "b[0:n]");
jacc_translated_check(jacc_data_location_end(), "data_location.c:7");
jacc_construct_end();
#line 8 "data_location.c"

/* #pragma jacc location(gpu.0) */
{ /* #pragma acc data copy(c[0:n]) present(a[0:n]) */
void *const jacc_section_1 = &c[0];
const size_t jacc_section_1_bytes = n * sizeof c[0];
void *const jacc_section_2 = &a[0];
const size_t jacc_section_2_bytes = n * sizeof a[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "data_location.c", 10, "relax");
jacc_translated_check(jacc_data_location_begin("gpu.0"), "data_location.c:10");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "data_location.c:10");
jacc_translated_present(jacc_section_2, jacc_section_2_bytes, "data_location.c:10", "a[0:n]");
jacc_translated_check(jacc_data_location_end(), "data_location.c:10");
jacc_construct_end();
#line 11 "data_location.c"
  {
/* #pragma jacc location(LocG) */
{ /* #pragma acc parallel loop copyin(a[0:n]) present(b[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "data_location.c", 13, "relax");
  jacc_translated_check(jacc_data_location_begin("LocG"), "data_location.c:13");
  jacc_translated_check(jacc_copyin(&a[0], n * sizeof a[0]), "data_location.c:13");
  jacc_translated_present(&b[0], n * sizeof b[0], "data_location.c:13", "b[0:n]");
  jacc_translated_check(jacc_data_location_end(), "data_location.c:13");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *b", (void *)&b}, {"double *a", (void *)&a}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma jacc location(LocG)\n"
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++)\n"
      "      b[i] = 2 * a[i];\n"
      "// jacc-site: data_location.c:13\n",
      3, jacc_args, JACC_DEFAULT), "data_location.c:13");
  jacc_translated_check(jacc_delete(&a[0], n * sizeof a[0]), "data_location.c:13");
  jacc_construct_end();
}
{ /* #pragma acc parallel loop present(b[0:n], c[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "data_location.c", 16, "relax");
  jacc_translated_present(&b[0], n * sizeof b[0], "data_location.c:16", "b[0:n]");
  jacc_translated_present(&c[0], n * sizeof c[0], "data_location.c:16", "c[0:n]");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"double *c", (void *)&c}, {"double *b", (void *)&b}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++)\n"
      "      c[i] = b[i];\n"
      "// jacc-site: data_location.c:16\n",
      3, jacc_args, JACC_DEFAULT), "data_location.c:16");
  jacc_construct_end();
}
#line 19 "data_location.c"
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "data_location.c", 10, "relax");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "data_location.c:10");
jacc_construct_end();
}
/* #pragma jacc location(LocG) */
/* #pragma acc update self(b[0:n]) */
jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "data_location.c", 21, "relax");
jacc_translated_data(jacc_update_self(&b[0], n * sizeof b[0]), "data_location.c:21", "#pragma acc update self(b[0:n])", "b[0:n]");
jacc_construct_end();
/* #pragma acc exit data delete(a[0:n], b[0:n]) */
jacc_construct_begin(JACC_CONSTRUCT_EXIT_DATA, "data_location.c", 22, "relax");
jacc_translated_data(jacc_exit_data(&a[0], n * sizeof a[0], 0, 0), "data_location.c:22", "#pragma acc exit data delete(a[0:n], b[0:n])", "a[0:n]");
jacc_translated_data(jacc_exit_data(&b[0], n * sizeof b[0], 0, 0), "data_location.c:22", "#pragma acc exit data delete(a[0:n], b[0:n])", "b[0:n]");
jacc_construct_end();
#line 23 "data_location.c"
}
