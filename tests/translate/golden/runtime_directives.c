/* init, shutdown and set: the OpenACC runtime routines, under their if clause. */
void devices(int num, int queue, int on) {
#pragma acc init
#pragma acc init device_type(host) device_num(num) if(on)
#pragma acc set device_type(multicore)
#pragma acc set device_num(num)
#pragma acc set default_async(queue)
#pragma acc set device_type(nvidia) device_num(num + 1) default_async(queue)
#pragma acc shutdown device_type(host, nvidia) if(on)
#pragma acc shutdown device_num(0)
}
