/* The OpenACC data routines called directly: acc_copyin / acc_create (and their reference
   counts), acc_copyout, acc_delete, the _finalize and _async forms, acc_update_device /
   acc_update_self (and _async), acc_is_present, acc_deviceptr / acc_hostptr, acc_map_data /
   acc_unmap_data on acc_malloc'd memory, acc_memcpy_to_device / _from_device / acc_memcpy_device,
   acc_wait and acc_async_test, mixed with present clauses on compute constructs. Built without
   _OPENACC, acc_host_fallback.h stands in (the device is the host); the checks hold in both. */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENACC
#include <openacc.h>
#define SEPARATE 1 /* jacc's devices hold their own copies */
#else
#include "acc_host_fallback.h"
#define SEPARATE 0
#endif

#define N 1024

int main(void) {
  int n = N;
  size_t bytes = n * sizeof(double);
  double *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
  for (int i = 0; i < n; i++) {
    x[i] = i;
    y[i] = 0.0;
    z[i] = 1.0;
  }
  int checks = 0, passed = 0;
#define CHECK(c) (checks++, passed += (c) ? 1 : 0)

  /* copyin twice, create: reference counts. */
  double *dx = acc_copyin(x, bytes);
  CHECK(dx != NULL && acc_deviceptr(x) == dx && acc_hostptr(dx) == x);
  acc_copyin(x, bytes);
  acc_create(y, bytes);
  CHECK(acc_is_present(x, bytes) && acc_is_present(y, bytes));
  CHECK(acc_is_present(x + 10, 8 * sizeof(double)));
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = x[i] * 2.0;
  acc_copyout(y, bytes);
  CHECK(!acc_is_present(y, bytes) || !SEPARATE);
  acc_delete(x, bytes); /* count 2 -> 1: still present */
  CHECK(acc_is_present(x, bytes));

  /* The host changes x; update the devices, compute, update self. */
  for (int i = 0; i < n; i++)
    x[i] += 1.0;
  acc_update_device(x, bytes);
  acc_create(z, bytes);
#pragma acc parallel loop present(x[0:n], z[0:n])
  for (int i = 0; i < n; i++)
    z[i] = x[i] * x[i];
  acc_update_self(z, n / 2 * sizeof(double));
  acc_update_self_async(z + n / 2, (n - n / 2) * sizeof(double), 1);
  acc_wait(1);
  CHECK(acc_async_test(1) != 0);
  double zsum = 0.0;
  for (int i = 0; i < n; i++)
    zsum += z[i];
  acc_copyin(x, bytes);
  acc_copyout_finalize(z, bytes);
  acc_delete_finalize(x, bytes); /* count 2 -> 0 */
  CHECK(!acc_is_present(x, bytes) || !SEPARATE);

  /* The _async forms. */
  acc_copyin_async(x, bytes, 2);
  acc_create_async(y, bytes, 2);
  acc_wait(2);
#pragma acc parallel loop present(x[0:n], y[0:n]) async(2)
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 0.5;
  acc_wait(2);
  for (int i = 0; i < 4; i++)
    x[i] = -1.0;
  acc_update_device_async(x, 4 * sizeof(double), 3);
  acc_wait(3);
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < 4; i++)
    y[i] = x[i];
  acc_copyout_async(y, bytes, 2);
  acc_delete_async(x, bytes, 3);
  acc_wait(2);
  acc_wait(3);
  acc_copyin(z, bytes);
  acc_copyout_finalize_async(z, bytes, 4);
  acc_copyin(z, bytes);
  acc_delete_finalize_async(z, bytes, 4);
  acc_wait(4);
  CHECK(!acc_is_present(z, bytes) || !SEPARATE);

  /* acc_malloc'd memory mapped to a host array: kernels see it through present. */
  double *w = malloc(bytes);
  for (int i = 0; i < n; i++)
    w[i] = i % 10;
  double *dw = acc_malloc(bytes);
  acc_memcpy_to_device(dw, w, bytes);
  acc_map_data(w, dw, bytes);
  CHECK(acc_is_present(w, bytes) &&
        ((acc_deviceptr(w) == dw && acc_hostptr(dw) == w) || !SEPARATE));
#pragma acc parallel loop present(w[0:n])
  for (int i = 0; i < n; i++)
    w[i] = w[i] * 3.0 + 1.0;
  acc_update_self(w, bytes);
  acc_unmap_data(w);
  acc_free(dw);

  /* Copies between device blocks. */
  double *d1 = acc_malloc(bytes), *d2 = acc_malloc(bytes), *back = malloc(bytes);
  acc_memcpy_to_device(d1, y, bytes);
  acc_memcpy_device(d2, d1, bytes);
  acc_memcpy_from_device(back, d2, bytes);
  acc_free(d1);
  acc_free(d2);
  acc_wait_all();
  CHECK(acc_async_test_all() != 0);

  double ysum = 0.0, wsum = 0.0, bsum = 0.0;
  for (int i = 0; i < n; i++) {
    ysum += y[i];
    wsum += w[i];
    bsum += back[i];
  }
  printf("api_data: checks=%d/%d zsum=%.1f ysum=%.1f y[1]=%.1f wsum=%.1f bsum=%.1f\n", passed,
         checks, zsum, ysum, y[1], wsum, bsum);
  free(x);
  free(y);
  free(z);
  free(w);
  free(back);
  return 0;
}
