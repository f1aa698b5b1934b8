#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "declare.c"
/* declare: globals mapped at program start; in a function, a data region to the end of its
   block, left by every return, break and goto. */
float table[64];
int scale = 3;
/* #pragma acc declare copyin(table) create(scale) */
__attribute__((constructor)) static void jacc_declare_1(void) {
  jacc_translated_check(jacc_copyin(&table, sizeof table), "declare.c:5");
  jacc_translated_check(jacc_create(&scale, sizeof scale), "declare.c:5");
}
#line 6 "declare.c"
double coefficient;
/* #pragma acc declare device_resident(coefficient) */
__attribute__((constructor)) static void jacc_declare_2(void) {
  jacc_translated_check(jacc_create(&coefficient, sizeof coefficient), "declare.c:7");
}
#line 8 "declare.c"

void fill(float *x, int n) {
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "declare.c", 10, "fill");
  size_t jacc_implicit_x = jacc_translated_implicit((void *)&x[0], (long)(n), sizeof x[0], "declare.c:10");
  jacc_translated_check(jacc_copyin(table, sizeof table), "declare.c:10");
  float *jacc_ptr_table = table;
  int *jacc_ref_scale = &scale;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *x", (void *)&x}, {"float *table", &jacc_ptr_table}, {"int *jacc_ref_scale", &jacc_ref_scale}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) x[i] = table[i % 64] * jacc_ref_scale[0];\n"
      "// jacc-site: declare.c:10\n",
      4, jacc_args, JACC_DEFAULT), "declare.c:10");
  jacc_translated_check(jacc_copyout(table, sizeof table), "declare.c:10");
  if (jacc_implicit_x) jacc_translated_check(jacc_copyout((void *)&x[0], jacc_implicit_x), "declare.c:10");
  jacc_construct_end();
}
#line 12 "declare.c"
}

int scaled(float *x, float *y, int n) {
  if (n <= 0)
    return 0;
{ /* #pragma acc declare copy(x[0:n]) create(y[0:n]) */
void *const jacc_section_1 = &x[0];
const size_t jacc_section_1_bytes = n * sizeof x[0];
void *const jacc_section_2 = &y[0];
const size_t jacc_section_2_bytes = n * sizeof y[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "declare.c", 17, "scaled");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "declare.c:17");
jacc_translated_check(jacc_create(jacc_section_2, jacc_section_2_bytes), "declare.c:17");
jacc_construct_end();
#line 18 "declare.c"
  for (int k = 0; k < 4; k++) {
    float z[8];
{ /* #pragma acc declare copyout(z) */
void *const jacc_section_3 = z;
const size_t jacc_section_3_bytes = sizeof z;
jacc_construct_begin(JACC_CONSTRUCT_DATA, "declare.c", 20, "scaled");
jacc_translated_check(jacc_create(jacc_section_3, jacc_section_3_bytes), "declare.c:20");
jacc_construct_end();
#line 21 "declare.c"
    if (k == n)
      { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "declare.c", 20, "scaled"); jacc_translated_check(jacc_copyout(jacc_section_3, jacc_section_3_bytes), "declare.c:20"); jacc_construct_end(); break; }
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "declare.c", 23, "scaled");
  jacc_translated_check(jacc_copyin(z, sizeof z), "declare.c:23");
  float *jacc_ptr_z = z;
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *y", (void *)&y}, {"float *x", (void *)&x}, {"float *z", &jacc_ptr_z}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++) y[i] = x[i] + z[i % 8];\n"
      "// jacc-site: declare.c:23\n",
      4, jacc_args, JACC_DEFAULT), "declare.c:23");
  jacc_translated_check(jacc_copyout(z, sizeof z), "declare.c:23");
  jacc_construct_end();
}
  
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "declare.c", 20, "scaled");
jacc_translated_check(jacc_copyout(jacc_section_3, jacc_section_3_bytes), "declare.c:20");
jacc_construct_end();
}}
#line 26 "declare.c"
  if (n > 100)
    goto out;
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "declare.c", 28, "scaled");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *x", (void *)&x}, {"float *y", (void *)&y}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) x[i] += y[i];\n"
      "// jacc-site: declare.c:28\n",
      3, jacc_args, JACC_DEFAULT), "declare.c:28");
  jacc_construct_end();
}
  { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "declare.c", 17, "scaled"); jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "declare.c:17"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "declare.c:17"); jacc_construct_end(); return 1; }
#line 31 "declare.c"
out:
  { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "declare.c", 17, "scaled"); jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "declare.c:17"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "declare.c:17"); jacc_construct_end(); return 2; }

jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "declare.c", 17, "scaled");
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "declare.c:17");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "declare.c:17");
jacc_construct_end();
}}
#line 34 "declare.c"
