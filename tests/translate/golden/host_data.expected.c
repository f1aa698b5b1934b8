#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "host_data.c"
/* host_data use_device: the listed variables name the device copies inside the statement (an
   if_present one falls back to the host's address when absent). */
void library(float *device_a, double *device_b);

void f(float *a, int n) {
  double b[8];
{ /* #pragma acc data copy(a[0:n]) copyin(b) */
void *const jacc_section_1 = &a[0];
const size_t jacc_section_1_bytes = n * sizeof a[0];
void *const jacc_section_2 = b;
const size_t jacc_section_2_bytes = sizeof b;
jacc_construct_begin(JACC_CONSTRUCT_DATA, "host_data.c", 7, "f");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "host_data.c:7");
jacc_translated_check(jacc_copyin(jacc_section_2, jacc_section_2_bytes), "host_data.c:7");
jacc_construct_end();
#line 8 "host_data.c"
  {
{ /* #pragma acc host_data use_device(a, b) */
  __typeof__(&*(a)) jacc_use_device_a = a;
  jacc_translated_present(jacc_use_device_a, 1, "host_data.c:9", "a");
  jacc_use_device_a = (__typeof__(jacc_use_device_a))jacc_translated_use_device((void *)jacc_use_device_a, "host_data.c:9");
  __typeof__(&*(b)) jacc_use_device_b = b;
  jacc_translated_present(jacc_use_device_b, 1, "host_data.c:9", "b");
  jacc_use_device_b = (__typeof__(jacc_use_device_b))jacc_translated_use_device((void *)jacc_use_device_b, "host_data.c:9");
  {
  __typeof__(jacc_use_device_a) a = jacc_use_device_a;
  __typeof__(jacc_use_device_b) b = jacc_use_device_b;
#line 10 "host_data.c"
    library(a, b);
  }
}
#line 11 "host_data.c"
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "host_data.c", 7, "f");
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "host_data.c:7");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "host_data.c:7");
jacc_construct_end();
}
{ /* #pragma acc host_data use_device(a) if_present */
  __typeof__(&*(a)) jacc_use_device_a = a;
  { void *jacc_p = jacc_translated_use_device((void *)jacc_use_device_a, "host_data.c:12"); if (jacc_p) jacc_use_device_a = (__typeof__(jacc_use_device_a))jacc_p; }
  {
  __typeof__(jacc_use_device_a) a = jacc_use_device_a;
#line 13 "host_data.c"
  { library(a, 0); }
  }
}
#line 14 "host_data.c"
}
