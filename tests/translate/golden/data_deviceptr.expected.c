#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "data_deviceptr.c"
/* deviceptr on a data construct: every compute construct inside passes the pointer untranslated;
   a clause of the construct's own wins, and a shadowing local is not the data clause's variable. */
void f(float *d, float *e, int n) {
  { /* #pragma acc data deviceptr(d) copy(e[0:n]) */
  void *const jacc_section_1 = &e[0];
  const size_t jacc_section_1_bytes = n * sizeof e[0];
  jacc_construct_begin(JACC_CONSTRUCT_DATA, "data_deviceptr.c", 4, "f");
  jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "data_deviceptr.c:4");
  jacc_construct_end();
#line 5 "data_deviceptr.c"
  {
    { /* #pragma acc parallel loop */
      jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "data_deviceptr.c", 6, "f");
      jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *d", (void *)&d}, {"float *e", (void *)&e}};
      jacc_translated_check(jacc_kernel_push(
          "#pragma acc parallel loop deviceptr(d)\n"
          "    for (int i = 0; i < n; i++)\n"
          "      d[i] = e[i];\n"
          "// jacc-site: data_deviceptr.c:6\n",
          3, jacc_args, JACC_DEFAULT), "data_deviceptr.c:6");
      jacc_construct_end();
    }
    { /* #pragma acc parallel loop present(e[0:n]) deviceptr(d) */
      jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "data_deviceptr.c", 9, "f");
      jacc_translated_present(&e[0], n * sizeof e[0], "data_deviceptr.c:9", "e[0:n]");
      jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *e", (void *)&e}, {"float *d", (void *)&d}};
      jacc_translated_check(jacc_kernel_push(
          "#pragma acc parallel loop deviceptr(d)\n"
          "    for (int i = 0; i < n; i++)\n"
          "      e[i] += d[i];\n"
          "// jacc-site: data_deviceptr.c:9\n",
          3, jacc_args, JACC_DEFAULT), "data_deviceptr.c:9");
      jacc_construct_end();
    }
#line 12 "data_deviceptr.c"
    {
      float *d = e;
      { /* #pragma acc parallel loop present(d[0:n]) */
        jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "data_deviceptr.c", 14, "f");
        jacc_translated_present(&d[0], n * sizeof d[0], "data_deviceptr.c:14", "d[0:n]");
        jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *d", (void *)&d}};
        jacc_translated_check(jacc_kernel_push(
            "#pragma acc parallel loop\n"
            "      for (int i = 0; i < n; i++)\n"
            "        d[i] *= 2;\n"
            "// jacc-site: data_deviceptr.c:14\n",
            2, jacc_args, JACC_DEFAULT), "data_deviceptr.c:14");
        jacc_construct_end();
      }
#line 17 "data_deviceptr.c"
    }
  }
  jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "data_deviceptr.c", 4, "f");
  jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "data_deviceptr.c:4");
  jacc_construct_end();
  }
#line 19 "data_deviceptr.c"
}
