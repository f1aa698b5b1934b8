#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "runtime_directives.c"
#include <jacc/openacc.h>
/* init, shutdown and set: the OpenACC runtime routines, under their if clause. */
#line 2 "runtime_directives.c"
void devices(int num, int queue, int on) {
/* #pragma acc init */
acc_init(acc_device_default);
/* #pragma acc init device_type(host) device_num(num) if(on) */
if (on) {
  acc_init_device(num, acc_device_host);
}
/* #pragma acc set device_type(multicore) */
acc_set_device_type(acc_device_host);
/* #pragma acc set device_num(num) */
acc_set_device_num(num, acc_get_device_type());
/* #pragma acc set default_async(queue) */
acc_set_default_async(queue);
/* #pragma acc set device_type(nvidia) device_num(num + 1) default_async(queue) */
acc_set_device_type(acc_device_nvidia);
acc_set_device_num(num + 1, acc_device_nvidia);
acc_set_default_async(queue);
/* #pragma acc shutdown device_type(host, nvidia) if(on) */
if (on) {
  acc_shutdown(acc_device_host);
  acc_shutdown(acc_device_nvidia);
}
/* #pragma acc shutdown device_num(0) */
acc_shutdown_device(0, acc_get_device_type());
#line 11 "runtime_directives.c"
}
