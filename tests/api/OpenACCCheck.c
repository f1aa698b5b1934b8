/* The OpenACC header compiled as C99 (found as <openacc.h>, as with -I<prefix>/include/jacc), and
 * its routines called from C. OpenACCTest.cpp runs it. */
#include <openacc.h>

#if _OPENACC != 202211
#error "_OPENACC is not 202211 (OpenACC 3.3)"
#endif

/** 0 on success, else the number of the first failing check. */
int jacc_test_openacc_from_c(void) {
  float x[64];
  float *d;
  int i;
  for (i = 0; i < 64; i++)
    x[i] = (float)i;
  d = (float *)acc_copyin(x, sizeof x);
  if (!d || (void *)d == (void *)x)
    return 1;
  if (acc_deviceptr(x) != d || acc_hostptr(d) != x)
    return 2;
  if (!acc_is_present(x, sizeof x) || !acc_is_present(x + 10, 4 * sizeof *x))
    return 3;
  x[3] = -1.0f;
  acc_copyout(x, sizeof x); /* count 0: the device's copy comes back */
  if (x[3] != 3.0f || acc_is_present(x, sizeof x))
    return 4;
  if (acc_get_device_type() != acc_device_host || !acc_on_device(acc_device_host))
    return 5;
  if (acc_get_num_devices(acc_device_host) < 1 || acc_get_num_devices(acc_device_nvidia) != 0)
    return 6;
  return 0;
}
