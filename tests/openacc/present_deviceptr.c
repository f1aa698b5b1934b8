/* present, no_create and deviceptr: a library-style function whose arrays must be present
   (present clause), no_create on mapped and on unmapped arrays (a kernel that uses an absent
   no_create array works on the host's data), deviceptr with acc_malloc'd memory filled by
   acc_memcpy_to_device, updated in place and read back by acc_memcpy_from_device (on compute
   constructs and inherited from a data construct), the cache directive in a loop body, and
   host_data use_device handing the device copy to a device-side library call. */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENACC
#include <openacc.h>
#else
#include "acc_host_fallback.h"
#endif

#define N 2048

/* Works on whatever the caller mapped. */
static void scale(float *x, int n, float s) {
#pragma acc parallel loop present(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] *= s;
}

int main(void) {
  int n = N;
  float *x = malloc(n * sizeof *x), *unused = malloc(n * sizeof *unused);
  int *lut = malloc(64 * sizeof *lut);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 64);
    unused[i] = 7.0f;
  }
  for (int k = 0; k < 64; k++)
    lut[k] = k * k;

  long hits = 0;
  float probe[2];
#pragma acc data copy(x[0:n]) copyin(lut[0:64])
  {
    scale(x, n, 2.0f);
    /* no_create maps nothing: x is present, unused stays unmapped. */
#pragma acc parallel loop no_create(x[0:n], unused[0:n]) reduction(+:hits)
    for (int i = 0; i < n; i++)
      hits += x[i] > 64.0f;
    /* An absent no_create array the kernel uses: the host's data. */
#pragma acc parallel loop no_create(unused[0:n]) present(x[0:n])
    for (int i = 0; i < n; i++)
      unused[i] += x[i] > 64.0f ? 1.0f : 0.5f;

#pragma acc parallel loop present(x[0:n], lut[0:64])
    for (int i = 0; i < n; i++) {
#pragma acc cache(lut[0:64])
      x[i] += (float)lut[i % 64];
    }
    /* Inside host_data, x is the device copy (the host's is stale until the region ends). */
#pragma acc host_data use_device(x)
    {
      acc_memcpy_from_device(probe, x + n - 2, sizeof probe);
    }
  }

  /* Device memory the program manages itself. */
  size_t bytes = n * sizeof(double);
  double *host = malloc(bytes);
  for (int i = 0; i < n; i++)
    host[i] = i * 0.5;
  double *dev = acc_malloc(bytes), *dres = acc_malloc(bytes);
  acc_memcpy_to_device(dev, host, bytes);
  /* acc_malloc memory is one device's: jacc runs these kernels on that device alone. */
#pragma acc parallel loop deviceptr(dev, dres)
  for (int i = 0; i < n; i++)
    dres[i] = dev[i] * 2.0 + 1.0;
  /* deviceptr on a data construct: the compute constructs inside inherit it. */
#pragma acc data deviceptr(dev, dres)
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      dev[i] = dres[i] - 1.0;
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      dres[i] += dev[i] * 3.0;
  }
  double *back = malloc(bytes);
  acc_memcpy_from_device(back, dres, bytes);
  acc_free(dev);
  acc_free(dres);

  double sx = 0.0, sb = 0.0;
  for (int i = 0; i < n; i++) {
    sx += x[i];
    sb += back[i];
  }
  double su = 0.0;
  for (int i = 0; i < n; i++)
    su += unused[i];
  printf("present_deviceptr: hits=%ld sx=%.1f su=%.1f sb=%.1f back[3]=%.1f probe=%.1f,%.1f\n",
         hits, sx, su, sb, back[3], probe[0], probe[1]);
  free(x);
  free(unused);
  free(lut);
  free(host);
  free(back);
  return 0;
}
