// Memory under an unbounded stream of distinct kernels (see docs/performance.md): pushes N
// kernels that differ in a constant, each once, and prints the process's resident size every
// N/10 kernels with the kernel cache's evictions, and that of its child processes (the compile
// servers, which compile every kernel). Run it with the in-memory cache bounded (the
// default JACC_KERNELS_IN_MEMORY) and unbounded (0) for the baseline, and JACC_CACHE=off so that
// every kernel compiles. A plain driver: one compile takes milliseconds.
#include "jacc/jacc.h"
#include "support/ProcessLimits.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

/// This process's resident memory, in MiB.
double residentMiB() {
  return jacc::residentBytes() / (1024.0 * 1024.0);
}

/// The resident memory of this process's children (the compile servers), in MiB.
double childrenMiB() {
  uint64_t Bytes = 0;
  std::error_code EC;
  for (const auto &Task : std::filesystem::directory_iterator("/proc/self/task", EC)) {
    std::ifstream Children(Task.path() / "children");
    for (int Pid; Children >> Pid;)
      Bytes += jacc::residentBytes(Pid);
  }
  return Bytes / (1024.0 * 1024.0);
}

bool check(jacc_status S, const char *What) {
  if (S == JACC_SUCCESS)
    return true;
  std::fprintf(stderr, "%s: %s\n", What, jacc_last_error());
  return false;
}

} // namespace

int main(int argc, char **argv) {
  long Kernels = argc > 1 ? std::atol(argv[1]) : 10000;
  if (Kernels < 10) {
    std::fprintf(stderr, "usage: %s [KERNELS >= 10]\n", argv[0]);
    return 2;
  }
  if (!check(jacc_init(), "jacc_init"))
    return 1;
  int N = 256;
  std::vector<float> X(N, 1.0f);
  float *Xp = X.data();
  if (!check(jacc_copyin(Xp, N * sizeof(float)), "jacc_copyin"))
    return 1;
  const char *Bound = std::getenv("JACC_KERNELS_IN_MEMORY");
  std::printf("kernels  rss_mib  servers_mib  evictions  seconds   (JACC_KERNELS_IN_MEMORY=%s)\n",
              Bound && *Bound ? Bound : "default");
  std::printf("%7d  %7.1f  %11.1f  %9d  %7.1f\n", 0, residentMiB(), childrenMiB(), 0, 0.0);
  auto Start = std::chrono::steady_clock::now();
  for (long K = 1; K <= Kernels; ++K) {
    std::string Source = "#pragma acc parallel loop present(x)\nfor (int i = 0; i < n; i++)\n"
                         "  x[i] = x[i] * 0.5f + " +
                         std::to_string(K) + ".0f;\n";
    jacc_arg Args[] = {{"float *x", &Xp}, {"int n", &N}};
    if (!check(jacc_kernel_push(Source.c_str(), 2, Args, JACC_DEFAULT), "jacc_kernel_push"))
      return 1;
    if (K % (Kernels / 10) == 0) {
      jacc_stats S;
      jacc_get_stats(&S);
      double Seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
      std::printf("%7ld  %7.1f  %11.1f  %9llu  %7.1f\n", K, residentMiB(), childrenMiB(),
                  (unsigned long long)S.kernel_cache_evictions, Seconds);
      std::fflush(stdout);
    }
  }
  if (!check(jacc_copyout(Xp, N * sizeof(float)), "jacc_copyout") ||
      !check(jacc_finalize(), "jacc_finalize"))
    return 1;
  std::printf("after jacc_finalize: %.1f MiB\n", residentMiB());
  return 0;
}
