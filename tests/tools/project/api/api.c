#include <jacc/jacc.h>
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  float a = 2, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (int i = 0; i < n; i++) {
    x[i] = i;
    y[i] = 1;
  }
  jacc_copyin(x, n * sizeof *x);
  jacc_copyin(y, n * sizeof *y);
  jacc_arg args[] = {{"int n", &n}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}};
  if (jacc_kernel_push("#pragma acc parallel loop present(x, y)\n"
                       "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
                       4, args, JACC_DEFAULT) != JACC_SUCCESS) {
    printf("push failed: %s\n", jacc_last_error());
    return 1;
  }
  jacc_copyout(y, n * sizeof *y);
  jacc_delete(x, n * sizeof *x);
  printf("y[999] %.1f on %d device(s)\n", y[999], acc_get_num_devices(acc_device_host));
  free(x);
  free(y);
  return 0;
}
