/* 2-D Jacobi iterations on double (*)[M] arrays with jacc, checked against a serial loop. */
#include <jacc/jacc.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 514
#define M 514

static const char *sweep =
    "#pragma acc parallel loop collapse(2) present(a, b)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";

static const char *copy_back =
    "#pragma acc parallel loop present(a, b)\n"
    "for (int i = 1; i < n - 1; i++) {\n"
    "  #pragma acc loop vector\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    a[i][j] = b[i][j];\n"
    "}\n";

#define CHECK(call)                                                                                \
  do {                                                                                             \
    if ((call) != JACC_SUCCESS) {                                                                  \
      fprintf(stderr, "%s failed: %s\n", #call, jacc_last_error());                               \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static void init(double (*a)[M]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = (i == 0 || j == 0 || i == N - 1 || j == M - 1) ? 1.0 + 0.001 * (i + j) : 0.0;
}

int main(void) {
  int n = N, m = M, iters = 50;
  double (*a)[M] = malloc(sizeof(double[N][M])), (*b)[M] = malloc(sizeof(double[N][M]));
  double (*ra)[M] = malloc(sizeof(double[N][M])), (*rb)[M] = malloc(sizeof(double[N][M]));
  init(a);
  init(b);
  init(ra);
  init(rb);
  for (int t = 0; t < iters; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        rb[i][j] = 0.25 * (ra[i - 1][j] + ra[i + 1][j] + ra[i][j - 1] + ra[i][j + 1]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        ra[i][j] = rb[i][j];
  }

  CHECK(jacc_copyin(a, sizeof(double[N][M])));
  CHECK(jacc_copyin(b, sizeof(double[N][M])));
  jacc_arg args[] = {{"int n", &n}, {"int m", &m}, {"double (*a)[514]", &a},
                     {"double (*b)[514]", &b}};
  for (int t = 0; t < iters; t++) {
    CHECK(jacc_kernel_push(sweep, 4, args, JACC_DEFAULT));
    CHECK(jacc_kernel_push(copy_back, 4, args, JACC_DEFAULT));
  }
  CHECK(jacc_copyout(a, sizeof(double[N][M])));
  CHECK(jacc_delete(b, sizeof(double[N][M])));

  double maxerr = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      maxerr = fmax(maxerr, fabs(a[i][j] - ra[i][j]));
  jacc_stats s;
  CHECK(jacc_get_stats(&s));
  printf("jacobi2d %dx%d, %d iterations on %d device(s): %s (max error %g)\n", N, M, iters,
         jacc_get_num_devices(), maxerr <= 1e-12 ? "ok" : "FAILED", maxerr);
  printf("stats: pushed=%llu compiled=%llu memory_cache_hits=%llu disk_cache_hits=%llu "
         "duplicate_launches=%llu split_launches=%llu h2d=%llu d2h=%llu d2d=%llu bytes\n",
         (unsigned long long)s.kernels_pushed, (unsigned long long)s.kernels_compiled,
         (unsigned long long)s.memory_cache_hits, (unsigned long long)s.disk_cache_hits,
         (unsigned long long)s.duplicate_launches,
         (unsigned long long)s.split_launches, (unsigned long long)s.bytes_host_to_device,
         (unsigned long long)s.bytes_device_to_host, (unsigned long long)s.bytes_device_to_device);
  jacc_finalize();
  free(a);
  free(b);
  free(ra);
  free(rb);
  return maxerr <= 1e-12 ? 0 : 1;
}
