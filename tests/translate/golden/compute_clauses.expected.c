#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "compute_clauses.c"
/* Data clauses, if, async and wait on compute constructs; every compute construct kind. */
void work(int n, int lo, int len, float *a, const float *b, float *d, float s) {
  { /* #pragma acc parallel loop copy(a[0:n]) copyin(b[lo:len]) if(n > 100) async(2) wait num_gangs(4) */
    if (n > 100) {
    jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "compute_clauses.c", 3, "work");
    jacc_translated_check(jacc_wait(), "compute_clauses.c:3");
    jacc_translated_check(jacc_copyin(&a[0], n * sizeof a[0]), "compute_clauses.c:3");
    jacc_translated_check(jacc_copyin((void *)&b[lo], len * sizeof b[0]), "compute_clauses.c:3");
    jacc_arg jacc_args[] = {{"int lo", (void *)&lo}, {"int len", (void *)&len}, {"float *a", (void *)&a}, {"float s", (void *)&s}, {"const float *b", (void *)&b}};
    jacc_translated_check(jacc_kernel_push(
        "#pragma acc parallel loop num_gangs(4)\n"
        "  for (int i = lo; i < lo + len; i++)\n"
        "    a[i] += s * b[i];\n"
        "// jacc-site: compute_clauses.c:3\n",
        5, jacc_args, JACC_ASYNC), "compute_clauses.c:3");
    jacc_translated_check(jacc_delete((void *)&b[lo], len * sizeof b[0]), "compute_clauses.c:3");
    jacc_translated_check(jacc_copyout(&a[0], n * sizeof a[0]), "compute_clauses.c:3");
    jacc_construct_end();
    } else {
  for (int i = lo; i < lo + len; i++)
    a[i] += s * b[i];
    }
  }
  { /* #pragma acc kernels create(d[:n]) present(a[0:n]) */
    jacc_construct_begin(JACC_CONSTRUCT_KERNELS, "compute_clauses.c", 6, "work");
    jacc_translated_check(jacc_create(&d[0], n * sizeof d[0]), "compute_clauses.c:6");
    jacc_translated_present(&a[0], n * sizeof a[0], "compute_clauses.c:6", "a[0:n]");
    jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *d", (void *)&d}, {"float *a", (void *)&a}};
    jacc_translated_check(jacc_kernel_push(
        "#pragma acc kernels\n"
        "  {\n"
        "    #pragma acc loop independent\n"
        "    for (int i = 0; i < n; i++)\n"
        "      d[i] = a[i];\n"
        "  }\n"
        "// jacc-site: compute_clauses.c:6\n",
        3, jacc_args, JACC_DEFAULT), "compute_clauses.c:6");
    jacc_translated_check(jacc_delete(&d[0], n * sizeof d[0]), "compute_clauses.c:6");
    jacc_construct_end();
#line 11 "compute_clauses.c"
  }
  { /* #pragma acc serial deviceptr(d) */
    jacc_construct_begin(JACC_CONSTRUCT_SERIAL, "compute_clauses.c", 12, "work");
    jacc_arg jacc_args[] = {{"float *d", (void *)&d}};
    jacc_translated_check(jacc_kernel_push(
        "#pragma acc serial deviceptr(d)\n"
        "  d[0] = 1.0f;\n"
        "// jacc-site: compute_clauses.c:12\n",
        1, jacc_args, JACC_DEFAULT), "compute_clauses.c:12");
    jacc_construct_end();
  }
#line 14 "compute_clauses.c"
}
