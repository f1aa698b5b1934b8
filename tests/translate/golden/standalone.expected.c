#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "standalone.c"
/* enter data, exit data (finalize), update (self, host, device, if, if_present) and wait; queue
   values that are not literals are checked when the directive runs. */
void sync(double *x, int n, int flag, int q) {
/* #pragma acc enter data copyin(x[0:n]) create(x[n:n]) async(1) */
jacc_construct_begin(JACC_CONSTRUCT_ENTER_DATA, "standalone.c", 4, "sync");
jacc_translated_data(jacc_copyin(&x[0], n * sizeof x[0]), "standalone.c:4", "#pragma acc enter data copyin(x[0:n]) create(x[n:n]) async(1)", "x[0:n]");
jacc_translated_data(jacc_create(&x[n], n * sizeof x[0]), "standalone.c:4", "#pragma acc enter data copyin(x[0:n]) create(x[n:n]) async(1)", "x[n:n]");
jacc_construct_end();
/* #pragma acc update device(x[0:n]) if(flag) */
if (flag) {
  jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "standalone.c", 5, "sync");
  jacc_translated_data(jacc_update_device(&x[0], n * sizeof x[0]), "standalone.c:5", "#pragma acc update device(x[0:n]) if(flag)", "x[0:n]");
  jacc_construct_end();
}
/* #pragma acc update self(x[1:n-2]) host(x[n:1]) if_present wait(1) */
jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "standalone.c", 6, "sync");
jacc_translated_check(jacc_wait(), "standalone.c:6");
if (jacc_is_present(&x[1], (n-2) * sizeof x[0])) jacc_translated_data(jacc_update_self(&x[1], (n-2) * sizeof x[0]), "standalone.c:6", "#pragma acc update self(x[1:n-2]) host(x[n:1]) if_present wait(1)", "x[1:n-2]");
if (jacc_is_present(&x[n], 1 * sizeof x[0])) jacc_translated_data(jacc_update_self(&x[n], 1 * sizeof x[0]), "standalone.c:6", "#pragma acc update self(x[1:n-2]) host(x[n:1]) if_present wait(1)", "x[n:1]");
jacc_construct_end();
/* #pragma acc wait */
jacc_construct_begin(JACC_CONSTRUCT_WAIT, "standalone.c", 7, "sync");
jacc_translated_check(jacc_wait(), "standalone.c:7");
jacc_construct_end();
/* #pragma acc wait(1) async(2) */
jacc_construct_begin(JACC_CONSTRUCT_WAIT, "standalone.c", 8, "sync");
jacc_translated_check(jacc_wait(), "standalone.c:8");
jacc_construct_end();
/* #pragma acc wait(q, 3) async(q + 1) */
jacc_construct_begin(JACC_CONSTRUCT_WAIT, "standalone.c", 9, "sync");
jacc_translated_queue((long long)(q), "standalone.c:9", "#pragma acc wait(q, 3) async(q + 1)");
jacc_translated_queue((long long)(q + 1), "standalone.c:9", "#pragma acc wait(q, 3) async(q + 1)");
jacc_translated_check(jacc_wait(), "standalone.c:9");
jacc_construct_end();
/* #pragma acc exit data copyout(x[0:n]) delete(x[n:n]) finalize */
jacc_construct_begin(JACC_CONSTRUCT_EXIT_DATA, "standalone.c", 10, "sync");
jacc_translated_data(jacc_exit_data(&x[0], n * sizeof x[0], 1, 1), "standalone.c:10", "#pragma acc exit data copyout(x[0:n]) delete(x[n:n]) finalize", "x[0:n]");
jacc_translated_data(jacc_exit_data(&x[n], n * sizeof x[0], 0, 1), "standalone.c:10", "#pragma acc exit data copyout(x[0:n]) delete(x[n:n]) finalize", "x[n:n]");
jacc_construct_end();
#line 11 "standalone.c"
}
