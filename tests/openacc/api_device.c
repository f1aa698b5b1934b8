/* The OpenACC device routines called directly: acc_init / acc_shutdown, acc_get_num_devices,
   acc_set_device_type / acc_get_device_type, acc_set_device_num / acc_get_device_num (visiting
   every device), acc_on_device, acc_get_property / acc_get_property_string, acc_malloc /
   acc_free with acc_memcpy_*_async, acc_wait / acc_wait_async / acc_wait_all(_async) and
   acc_async_test(_all) around async kernels. The output does not depend on the device count.
   corpus: host devices only (it visits the acc_device_host devices and counts on them) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENACC
#include <openacc.h>
#else
#include "acc_host_fallback.h"
#endif

#define N 4000

int main(void) {
  acc_init(acc_device_host);
  int checks = 0, passed = 0;
#define CHECK(c) (checks++, passed += (c) ? 1 : 0)

  int ndev = acc_get_num_devices(acc_device_host);
  CHECK(ndev >= 1);
  CHECK(acc_get_num_devices(acc_device_nvidia) == 0);
  acc_set_device_type(acc_device_host);
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(acc_on_device(acc_device_host) && !acc_on_device(acc_device_not_host));

  /* Every device: select it, query it, and round-trip a block of its memory. */
  int visited = 0, devok = 0;
  long roundtrip = 0;
  for (int d = 0; d < ndev; d++) {
    acc_set_device_num(d, acc_device_host);
    const char *name = acc_get_property_string(d, acc_device_host, acc_property_name);
    const char *vendor = acc_get_property_string(d, acc_device_host, acc_property_vendor);
    devok += acc_get_device_num(acc_device_host) == d &&
             acc_get_property(d, acc_device_host, acc_property_memory) > 0 && name != NULL &&
             strlen(name) > 0 && vendor != NULL;
    int src[64], dst[64];
    for (int k = 0; k < 64; k++)
      src[k] = k * (d + 1);
    int *blk = acc_malloc(sizeof src);
    acc_memcpy_to_device_async(blk, src, sizeof src, 1);
    acc_wait(1);
    acc_memcpy_from_device_async(dst, blk, sizeof dst, 1);
    acc_wait_async(1, 2);
    acc_wait(2);
    acc_free(blk);
    for (int k = 0; k < 64; k++)
      roundtrip += dst[k] == src[k];
    visited++;
  }
  CHECK(visited == ndev && devok == ndev && roundtrip == 64L * ndev);
  acc_set_device_num(0, acc_device_host);

  /* Async kernels on two queues, tested and waited for. */
  int n = N;
  long *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++)
    a[i] = b[i] = i;
#pragma acc data copy(a[0:n], b[0:n])
  {
#pragma acc parallel loop async(1)
    for (int i = 0; i < n; i++)
      a[i] = a[i] * a[i] % 9973;
#pragma acc parallel loop async(2)
    for (int i = 0; i < n; i++)
      b[i] = (b[i] * 31 + 7) % 10007;
    acc_wait_all_async(3);
    acc_wait(1);
    acc_wait_all();
    CHECK(acc_async_test(1) && acc_async_test(2) && acc_async_test_all());
  }
  long sa = 0, sb = 0;
  for (int i = 0; i < n; i++) {
    sa += a[i];
    sb += b[i];
  }
  acc_shutdown(acc_device_host);
  printf("api_device: checks=%d/%d sa=%ld sb=%ld\n", passed, checks, sa, sb);
  free(a);
  free(b);
  return 0;
}
