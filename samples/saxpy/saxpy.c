/* saxpy on every jacc device, checked against a serial loop. Prints the statistics. */
#include <jacc/jacc.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *kernel =
    "#pragma acc parallel loop present(x, y)\n"
    "for (int i = 0; i < n; i++)\n"
    "  y[i] = a * x[i] + y[i];\n";

#define CHECK(call)                                                                                \
  do {                                                                                             \
    if ((call) != JACC_SUCCESS) {                                                                  \
      fprintf(stderr, "%s failed: %s\n", #call, jacc_last_error());                               \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int reps = 10;
  float a = 2.5f;
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *ref = malloc(n * sizeof *ref);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 1000) * 0.001f;
    y[i] = ref[i] = (float)(i % 7);
  }
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < n; i++)
      ref[i] = a * x[i] + ref[i];

  CHECK(jacc_copyin(x, n * sizeof *x));
  CHECK(jacc_copyin(y, n * sizeof *y));
  jacc_arg args[] = {{"int n", &n}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}};
  for (int r = 0; r < reps; r++)
    CHECK(jacc_kernel_push(kernel, 4, args, JACC_DEFAULT));
  CHECK(jacc_copyout(y, n * sizeof *y));
  CHECK(jacc_delete(x, n * sizeof *x));

  int bad = 0;
  for (int i = 0; i < n; i++)
    if (fabsf(y[i] - ref[i]) > 1e-4f * fmaxf(1.0f, fabsf(ref[i])))
      bad++;
  jacc_stats s;
  CHECK(jacc_get_stats(&s));
  printf("saxpy n=%d on %d device(s): %s (%d mismatches)\n", n, jacc_get_num_devices(),
         bad ? "FAILED" : "ok", bad);
  printf("stats: pushed=%llu compiled=%llu memory_cache_hits=%llu disk_cache_hits=%llu "
         "duplicate_launches=%llu split_launches=%llu h2d=%llu d2h=%llu d2d=%llu bytes\n",
         (unsigned long long)s.kernels_pushed, (unsigned long long)s.kernels_compiled,
         (unsigned long long)s.memory_cache_hits, (unsigned long long)s.disk_cache_hits,
         (unsigned long long)s.duplicate_launches,
         (unsigned long long)s.split_launches, (unsigned long long)s.bytes_host_to_device,
         (unsigned long long)s.bytes_device_to_host, (unsigned long long)s.bytes_device_to_device);
  jacc_finalize();
  free(x);
  free(y);
  free(ref);
  return bad ? 1 : 0;
}
