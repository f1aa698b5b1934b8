/* host_data use_device: the listed variables name the device copies inside the statement (an
   if_present one falls back to the host's address when absent). */
void library(float *device_a, double *device_b);

void f(float *a, int n) {
  double b[8];
#pragma acc data copy(a[0:n]) copyin(b)
  {
#pragma acc host_data use_device(a, b)
    library(a, b);
  }
#pragma acc host_data use_device(a) if_present
  { library(a, 0); }
}
