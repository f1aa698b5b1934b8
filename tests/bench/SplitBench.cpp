// Multi-device split measured in one run (see docs/performance.md):
//  - a compute-bound kernel (Mandelbrot) on host:2 against host:1, one thread per device (each
//    host device stands for one GPU), with iteration narrowing and in the paper's setting (every
//    device runs every iteration, predicates only filter the writes);
//  - the bytes the eager exchange moves after a split saxpy against the bytes each device owns
//    and wrote;
//  - the predicate overhead on one device: the guarded (split) entry against the plain one;
//  - a 2-D Jacobi time loop (2048², two kernels per sweep, in a data region) on host:2 with
//    JACC_EXCHANGE=demand and eager against host:1 with one and two threads, and the bytes moved
//    between devices per sweep; the same on flat arrays (rows linearized: a[i * m + j]); the warm
//    push of a tiny split kernel on host:2.
#include "tests/api/ExchangePatterns.h"
#include "tests/bench/BenchKernels.h"
#include "tests/bench/BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {


/// Re-initialise jacc with a device configuration.
void configure(const char *Devices, bool Narrow, const char *Exchange = "demand",
               const char *Threads = "1") {
  check(jacc_finalize(), "finalize");
  setenv("JACC_DEVICES", Devices, 1);
  setenv("JACC_HOST_THREADS", Threads, 1);
  setenv("JACC_NARROW", Narrow ? "on" : "off", 1);
  setenv("JACC_EXCHANGE", Exchange, 1);
  check(jacc_init(), "init");
}

const char *Mandelbrot =
    "#pragma acc parallel loop present(out)\n"
    "for (int p = 0; p < w * h; p++) {\n"
    "  double cr = -2.0 + 3.0 * (p % w) / w, ci = -1.5 + 3.0 * (p / w) / h;\n"
    "  double zr = 0, zi = 0;\n"
    "  int k = 0;\n"
    "  while (k < iters && zr * zr + zi * zi < 4.0) {\n"
    "    double t = zr * zr - zi * zi + cr;\n"
    "    zi = 2 * zr * zi + ci;\n"
    "    zr = t;\n"
    "    k++;\n"
    "  }\n"
    "  out[p] = k;\n"
    "}\n";

void runMandelbrot(benchmark::State &State, const char *Devices, bool Narrow, unsigned Flags,
                   const char *Threads = "1") {
  configure(Devices, Narrow);
  if (std::string(Threads) != "1") {
    setenv("JACC_HOST_THREADS", Threads, 1);
    check(jacc_finalize(), "finalize");
    check(jacc_init(), "init");
  }
  int W = 512, H = 512, Iters = 400;
  std::vector<int> Out(W * H);
  int *O = Out.data();
  check(jacc_create(O, Out.size() * sizeof(int)), "create");
  jacc_arg Args[] = {{"int w", &W}, {"int h", &H}, {"int iters", &Iters}, {"int *out", &O}};
  check(jacc_kernel_push(Mandelbrot, 4, Args, Flags), "push");
  for (auto _ : State)
    check(jacc_kernel_push(Mandelbrot, 4, Args, Flags), "push");
  check(jacc_copyout(O, Out.size() * sizeof(int)), "copyout");
  benchmark::DoNotOptimize(Out.data());
}

void BM_MandelbrotHost1(benchmark::State &S) { runMandelbrot(S, "host:1", true, JACC_DEFAULT); }
/// The machine's own two-thread scaling: one device with two threads (no split involved).
void BM_MandelbrotHost1TwoThreads(benchmark::State &S) {
  runMandelbrot(S, "host:1", true, JACC_DEFAULT, "2");
}
void BM_MandelbrotHost2Narrowed(benchmark::State &S) {
  runMandelbrot(S, "host:2", true, JACC_FORCE_SPLIT);
}
void BM_MandelbrotHost2Paper(benchmark::State &S) {
  runMandelbrot(S, "host:2", false, JACC_FORCE_SPLIT);
}
/// Unequal devices: host:2 with device 1 made 3 times slower (JACC_TEST_SLOWDOWN),
/// Mandelbrot split under Policy: the even split waits for the slow device; auto moves the work.
void runUnequal(benchmark::State &State, const char *Policy) {
  setenv("JACC_TEST_SLOWDOWN", "1:3", 1);
  setenv("JACC_POLICY", Policy, 1);
  runMandelbrot(State, "host:2", true, JACC_FORCE_SPLIT);
  unsetenv("JACC_TEST_SLOWDOWN");
  unsetenv("JACC_POLICY");
}
void BM_UnequalHost2Even(benchmark::State &S) { runUnequal(S, "static"); }
void BM_UnequalHost2Auto(benchmark::State &S) { runUnequal(S, "auto"); }
BENCHMARK(BM_UnequalHost2Even)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_UnequalHost2Auto)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MandelbrotHost2Duplicate(benchmark::State &S) {
  runMandelbrot(S, "host:2", true, JACC_FORCE_DUPLICATE);
}
BENCHMARK(BM_MandelbrotHost1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MandelbrotHost1TwoThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MandelbrotHost2Narrowed)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MandelbrotHost2Paper)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MandelbrotHost2Duplicate)->Unit(benchmark::kMillisecond)->UseRealTime();

const char *Saxpy = "#pragma acc parallel loop present(x, y)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  y[i] = a * x[i] + y[i];\n";

/// Saxpy's arrays of N floats, mapped while it lives, and its arguments.
struct MappedSaxpy {
  explicit MappedSaxpy(int N) : N(N), Xv(N, 1.0f), Yv(N, 2.0f), X(Xv.data()), Y(Yv.data()) {
    check(jacc_copyin(X, N * sizeof(float)), "copyin");
    check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  }
  ~MappedSaxpy() {
    check(jacc_delete(X, N * sizeof(float)), "delete");
    check(jacc_delete(Y, N * sizeof(float)), "delete");
  }
  void push() { check(jacc_kernel_push(Saxpy, 4, Args, JACC_FORCE_SPLIT), "push"); }
  int N;
  float A = 1.0001f;
  std::vector<float> Xv, Yv;
  float *X, *Y;
  jacc_arg Args[4] = {{"int n", &N}, {"float a", &A}, {"const float *x", &X}, {"float *y", &Y}};
};

double ExchangeRatio = -1;

/// The eager exchange's volume (under the demand exchange saxpy moves nothing: the api test
/// DemandExchangeTest asserts it).
void BM_SaxpyExchangeHost2(benchmark::State &State) {
  configure("host:2", true, "eager");
  int N = 1 << 22;
  MappedSaxpy S(N);
  S.push();
  jacc_reset_stats();
  uint64_t Pushes = 0;
  for (auto _ : State) {
    S.push();
    ++Pushes;
  }
  jacc_stats St;
  check(jacc_get_stats(&St), "stats");
  // Each of the 2 devices owns and writes half of y and sends it to the other one.
  double OwnedWritten = double(N) * sizeof(float) * Pushes;
  ExchangeRatio = St.bytes_device_to_device / OwnedWritten;
  State.counters["exchanged_over_owned_written"] = ExchangeRatio;
}
BENCHMARK(BM_SaxpyExchangeHost2)->Unit(benchmark::kMillisecond)->UseRealTime();

const char *Stencil =
    "#pragma acc parallel loop present(a, b)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";

void runStencil(benchmark::State &State, unsigned Flags) {
  configure("host:1", true);
  int N = 2048, M = 2048;
  size_t Bytes = size_t(N) * M * sizeof(double);
  std::vector<double> Av(size_t(N) * M, 1.0), Bv(size_t(N) * M, 0.0);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, Bytes), "copyin");
  check(jacc_copyin(B, Bytes), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"int m", &M}, {"const double (*a)[m]", &A},
                     {"double (*b)[m]", &B}};
  check(jacc_kernel_push(Stencil, 4, Args, Flags), "push");
  for (auto _ : State)
    check(jacc_kernel_push(Stencil, 4, Args, Flags), "push");
  check(jacc_delete(A, Bytes), "delete");
  check(jacc_delete(B, Bytes), "delete");
}
void BM_StencilHost1Unguarded(benchmark::State &S) { runStencil(S, JACC_FORCE_DUPLICATE); }
void BM_StencilHost1Guarded(benchmark::State &S) { runStencil(S, JACC_FORCE_SPLIT); }
BENCHMARK(BM_StencilHost1Unguarded)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StencilHost1Guarded)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Bytes between devices per sweep, by benchmark.
std::map<std::string, double> BytesPerSweep;

/// One benchmark iteration is one sweep of the time loop: two pushes, as a `data` region around
/// the loop keeps both arrays on the devices. Flat: the arrays as `double *`, rows linearized.
void runJacobi(benchmark::State &State, const char *Name, const char *Devices, const char *Threads,
               const char *Exchange, unsigned Flags, bool Flat = false) {
  configure(Devices, true, Exchange, Threads);
  int N = 2048, M = 2048;
  size_t Bytes = size_t(N) * M * sizeof(double);
  std::vector<double> Av(size_t(N) * M), Bv(size_t(N) * M, 0.0);
  for (size_t I = 0; I < Av.size(); ++I)
    Av[I] = double(I % 1000);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, Bytes), "copyin");
  check(jacc_copyin(B, Bytes), "copyin");
  jacc_arg Args[] = {{Flat ? "int r" : "int n", &N},
                     {Flat ? "int c" : "int m", &M},
                     {Flat ? "double *a" : "double (*a)[m]", &A},
                     {Flat ? "double *anew" : "double (*anew)[m]", &B}};
  auto Sweep = [&] {
    check(jacc_kernel_push(Flat ? jacc_patterns::FlatJacobiSrc : JacobiStep, 4, Args, Flags),
          "push");
    check(jacc_kernel_push(Flat ? jacc_patterns::FlatCopyBackSrc : JacobiCopy, 4, Args, Flags),
          "push");
  };
  Sweep();
  jacc_reset_stats();
  uint64_t Sweeps = 0;
  for (auto _ : State) {
    Sweep();
    ++Sweeps;
  }
  jacc_stats St;
  check(jacc_get_stats(&St), "stats");
  BytesPerSweep[Name] = double(St.bytes_device_to_device) / double(Sweeps);
  State.counters["d2d_bytes_per_sweep"] = BytesPerSweep[Name];
  check(jacc_copyout(A, Bytes), "copyout");
  check(jacc_delete(B, Bytes), "delete");
  benchmark::DoNotOptimize(Av.data());
}
void BM_JacobiHost1(benchmark::State &S) {
  runJacobi(S, "BM_JacobiHost1", "host:1", "1", "demand", JACC_DEFAULT);
}
void BM_JacobiHost1TwoThreads(benchmark::State &S) {
  runJacobi(S, "BM_JacobiHost1TwoThreads", "host:1", "2", "demand", JACC_DEFAULT);
}
void BM_JacobiHost2Demand(benchmark::State &S) {
  runJacobi(S, "BM_JacobiHost2Demand", "host:2", "1", "demand", JACC_FORCE_SPLIT);
}
void BM_JacobiHost2Eager(benchmark::State &S) {
  runJacobi(S, "BM_JacobiHost2Eager", "host:2", "1", "eager", JACC_FORCE_SPLIT);
}
void BM_JacobiHost2Adaptive(benchmark::State &S) {
  runJacobi(S, "BM_JacobiHost2Adaptive", "host:2", "1", "demand", JACC_DEFAULT);
}
void BM_FlatJacobiHost1(benchmark::State &S) {
  runJacobi(S, "BM_FlatJacobiHost1", "host:1", "1", "demand", JACC_DEFAULT, true);
}
void BM_FlatJacobiHost2Demand(benchmark::State &S) {
  runJacobi(S, "BM_FlatJacobiHost2Demand", "host:2", "1", "demand", JACC_FORCE_SPLIT, true);
}
void BM_FlatJacobiHost2Adaptive(benchmark::State &S) {
  runJacobi(S, "BM_FlatJacobiHost2Adaptive", "host:2", "1", "demand", JACC_DEFAULT, true);
}
BENCHMARK(BM_JacobiHost1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_JacobiHost1TwoThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_JacobiHost2Demand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_JacobiHost2Eager)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_JacobiHost2Adaptive)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FlatJacobiHost1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FlatJacobiHost2Demand)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FlatJacobiHost2Adaptive)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The warm push of a tiny split kernel: what the launch path costs on several devices.
void runTinySplit(benchmark::State &State, const char *Devices, const char *Exchange) {
  configure(Devices, true, Exchange);
  MappedSaxpy S(16);
  S.push();
  for (auto _ : State)
    S.push();
}
void BM_TinyPushHost1(benchmark::State &S) {
  runTinySplit(S, "host:1", "demand");
}
void BM_TinyPushHost2Demand(benchmark::State &S) {
  runTinySplit(S, "host:2", "demand");
}
void BM_TinyPushHost2Eager(benchmark::State &S) {
  runTinySplit(S, "host:2", "eager");
}
BENCHMARK(BM_TinyPushHost1)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_TinyPushHost2Demand)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_TinyPushHost2Eager)->Unit(benchmark::kMicrosecond)->UseRealTime();

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  auto Ratio = [&](const char *Base, const char *Other) { return R.ratio(Base, Other); };
  std::printf("\nSummary (targets from the multi-device issue; one thread per device):\n");
  std::printf("  Mandelbrot host:2 split+narrowing vs host:1: %.2fx (target >= 1.8x)\n",
              Ratio("BM_MandelbrotHost1", "BM_MandelbrotHost2Narrowed"));
  std::printf("  Mandelbrot host:1 with 2 threads vs 1 thread (the machine's 2-thread "
              "scaling): %.2fx\n",
              Ratio("BM_MandelbrotHost1", "BM_MandelbrotHost1TwoThreads"));
  std::printf("  Mandelbrot host:2 split, paper setting (no narrowing) vs host:1: %.2fx\n",
              Ratio("BM_MandelbrotHost1", "BM_MandelbrotHost2Paper"));
  std::printf("  Mandelbrot host:2 duplicate vs host:1: %.2fx\n",
              Ratio("BM_MandelbrotHost1", "BM_MandelbrotHost2Duplicate"));
  if (ExchangeRatio >= 0)
    std::printf("  saxpy bytes exchanged / bytes owned and written: %.2f (target 1.00)\n",
                ExchangeRatio);
  double Over = Ratio("BM_StencilHost1Guarded", "BM_StencilHost1Unguarded");
  if (Over > 0)
    std::printf("  predicate overhead on one device (2-D stencil): %+.1f%% (target <= 3%%)\n",
                (Over - 1) * 100);
  std::printf("  Jacobi 2048^2 host:2 demand vs host:1, one thread each: %.2fx (target >= 1.8x)\n",
              Ratio("BM_JacobiHost1", "BM_JacobiHost2Demand"));
  std::printf("  Jacobi host:2 demand vs host:1 with two threads: %.2fx (target >= 0.95x)\n",
              Ratio("BM_JacobiHost1TwoThreads", "BM_JacobiHost2Demand"));
  std::printf("  Jacobi host:2 eager (the paper's exchange) vs host:1: %.2fx\n",
              Ratio("BM_JacobiHost1", "BM_JacobiHost2Eager"));
  std::printf("  Jacobi host:2 adaptive (default flags) vs host:1: %.2fx\n",
              Ratio("BM_JacobiHost1", "BM_JacobiHost2Adaptive"));
  std::printf("  Jacobi on flat arrays (a[i * m + j]) host:2 demand vs host:1: %.2fx; adaptive: "
              "%.2fx\n",
              Ratio("BM_FlatJacobiHost1", "BM_FlatJacobiHost2Demand"),
              Ratio("BM_FlatJacobiHost1", "BM_FlatJacobiHost2Adaptive"));
  for (const auto &[Name, B] : BytesPerSweep)
    std::printf("  %s: %.0f bytes between devices per sweep\n", Name.c_str(), B);
  std::printf("  unequal devices (host:2, device 1 three times slower), Mandelbrot: auto policy "
              "%.2fx faster than the even split (ideal 2.00x: 0.75 of the work against 1.5)\n",
              Ratio("BM_UnequalHost2Even", "BM_UnequalHost2Auto"));
  std::printf("  tiny split push host:2 demand vs eager: %.2fx faster\n",
              Ratio("BM_TinyPushHost2Eager", "BM_TinyPushHost2Demand"));
  jacc_finalize();
  benchmark::Shutdown();
  return 0;
}
