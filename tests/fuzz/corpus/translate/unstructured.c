float *x;
int n;
void start(void) {
#pragma acc enter data copyin(x[0:n])
}
void step(float a) {
#pragma acc kernels present(x[0:n]) async(1)
  for (int i = 0; i < n; i++)
    x[i] *= a;
#pragma acc wait(1)
#pragma acc update self(x[0:n/2])
}
void stop(void) {
#pragma acc exit data copyout(x[0:n])
}
