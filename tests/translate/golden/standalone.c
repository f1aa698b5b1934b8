/* enter data, exit data (finalize), update (self, host, device, if, if_present) and wait; queue
   values that are not literals are checked when the directive runs. */
void sync(double *x, int n, int flag, int q) {
#pragma acc enter data copyin(x[0:n]) create(x[n:n]) async(1)
#pragma acc update device(x[0:n]) if(flag)
#pragma acc update self(x[1:n-2]) host(x[n:1]) if_present wait(1)
#pragma acc wait
#pragma acc wait(1) async(2)
#pragma acc wait(q, 3) async(q + 1)
#pragma acc exit data copyout(x[0:n]) delete(x[n:n]) finalize
}
