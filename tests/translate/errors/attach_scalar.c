void f(int k, double *p) {
#pragma acc enter data attach(k, p)
#pragma acc set device_type(fpga)
}
