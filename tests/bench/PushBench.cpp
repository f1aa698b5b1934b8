// jacc's push path measured against baselines in the same run (see docs/performance.md):
//  - cold push: parse + analysis + code generation + JIT of a new 10-line kernel, with the
//    code generated in the compile server and in process;
//  - warm push of a tiny kernel on one host device against a direct call of the same loop
//    compiled ahead of time;
//  - saxpy and a 2-D stencil beyond the caches, against the same loops compiled -O3 -fopenmp.
// At the end a summary prints the ratios the targets are stated in.
#include "tests/bench/AotLoops.h"

#include "tests/bench/BenchKernels.h"
#include "tests/bench/BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

const char *const TinyKernel = SaxpyKernel;

/// A new 10-line kernel each time (a new comment: nothing can be reused from the cache).
std::string coldKernel() {
  static int Unique = 0;
  return "/* cold " + std::to_string(Unique++) +
         " */\n#include <math.h>\n"
         "#define SQ(v) ((v) * (v))\n"
         "#pragma acc parallel loop present(x, y)\n"
         "for (int i = 0; i < n; i++) {\n"
         "  float t = a * x[i];\n"
         "  if (t > 0.0f)\n"
         "    t = sqrtf(t);\n"
         "  y[i] = SQ(t) + y[i];\n"
         "}\n";
}

/// Cold pushes with the host code compiled in the compile server (the default) or in process
/// (JACC_COMPILE=inprocess), after one push that builds the precompiled header there.
void coldPushes(benchmark::State &State, const char *Mode) {
  setenv("JACC_COMPILE", Mode, 1);
  setenv("JACC_CACHE", "off", 1); // no kernel of an earlier run from the disk cache
  check(jacc_finalize(), "jacc_finalize");
  check(jacc_init(), "jacc_init");
  int N = 64;
  float A = 1.5f;
  std::vector<float> Xv(N, 1.0f), Yv(N, 2.0f);
  float *X = Xv.data(), *Y = Yv.data();
  check(jacc_copyin(X, N * sizeof(float)), "copyin");
  check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &X}, {"float *y", &Y}};
  check(jacc_kernel_push(coldKernel().c_str(), 4, Args, JACC_DEFAULT), "push");
  for (auto _ : State)
    check(jacc_kernel_push(coldKernel().c_str(), 4, Args, JACC_DEFAULT), "push");
  check(jacc_delete(X, N * sizeof(float)), "delete");
  check(jacc_delete(Y, N * sizeof(float)), "delete");
  unsetenv("JACC_COMPILE");
  unsetenv("JACC_CACHE");
  check(jacc_finalize(), "jacc_finalize");
  check(jacc_init(), "jacc_init");
}
void BM_ColdPush(benchmark::State &State) { coldPushes(State, "server"); }
BENCHMARK(BM_ColdPush)->Unit(benchmark::kMillisecond)->Iterations(30);
void BM_ColdPushInProcess(benchmark::State &State) { coldPushes(State, "inprocess"); }
BENCHMARK(BM_ColdPushInProcess)->Unit(benchmark::kMillisecond)->Iterations(30);

void BM_WarmPushTiny(benchmark::State &State) {
  int N = 16;
  float A = 1.0001f;
  std::vector<float> Xv(N, 1.0f), Yv(N, 2.0f);
  float *X = Xv.data(), *Y = Yv.data();
  check(jacc_copyin(X, N * sizeof(float)), "copyin");
  check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &X}, {"float *y", &Y}};
  check(jacc_kernel_push(TinyKernel, 4, Args, JACC_DEFAULT), "push");
  for (auto _ : State)
    check(jacc_kernel_push(TinyKernel, 4, Args, JACC_DEFAULT), "push");
  check(jacc_delete(X, N * sizeof(float)), "delete");
  check(jacc_delete(Y, N * sizeof(float)), "delete");
}
BENCHMARK(BM_WarmPushTiny)->Unit(benchmark::kMicrosecond);

void BM_DirectCallTiny(benchmark::State &State) {
  int N = 16;
  std::vector<float> X(N, 1.0f), Y(N, 2.0f);
  for (auto _ : State) {
    aot_tiny(N, 1.0001f, X.data(), Y.data());
    benchmark::DoNotOptimize(Y.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_DirectCallTiny)->Unit(benchmark::kMicrosecond);

constexpr int SaxpyN = 1 << 25; // 2 x 128 MiB
constexpr int StencilN = 4096, StencilM = 4096; // 2 x 128 MiB

void BM_SaxpyJacc(benchmark::State &State) {
  int N = SaxpyN;
  float A = 1.0001f;
  std::vector<float> Xv(N, 1.0f), Yv(N, 2.0f);
  float *X = Xv.data(), *Y = Yv.data();
  check(jacc_copyin(X, N * sizeof(float)), "copyin");
  check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &X}, {"float *y", &Y}};
  check(jacc_kernel_push(TinyKernel, 4, Args, JACC_DEFAULT), "push");
  for (auto _ : State)
    check(jacc_kernel_push(TinyKernel, 4, Args, JACC_DEFAULT), "push");
  State.SetBytesProcessed(State.iterations() * 3LL * N * sizeof(float));
  check(jacc_delete(X, N * sizeof(float)), "delete");
  check(jacc_delete(Y, N * sizeof(float)), "delete");
}
BENCHMARK(BM_SaxpyJacc)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SaxpyOpenMP(benchmark::State &State) {
  int N = SaxpyN;
  std::vector<float> X(N, 1.0f), Y(N, 2.0f);
  aot_saxpy_omp(N, 1.0001f, X.data(), Y.data());
  for (auto _ : State)
    aot_saxpy_omp(N, 1.0001f, X.data(), Y.data());
  State.SetBytesProcessed(State.iterations() * 3LL * N * sizeof(float));
}
BENCHMARK(BM_SaxpyOpenMP)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Stencil2DJacc(benchmark::State &State) {
  int N = StencilN, M = StencilM;
  size_t Bytes = size_t(N) * M * sizeof(double);
  std::vector<double> Av(size_t(N) * M, 1.0), Bv(size_t(N) * M, 0.0);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, Bytes), "copyin");
  check(jacc_copyin(B, Bytes), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"int m", &M}, {"const double (*a)[m]", &A},
                     {"double (*b)[m]", &B}};
  check(jacc_kernel_push(StencilKernel, 4, Args, JACC_DEFAULT), "push");
  for (auto _ : State)
    check(jacc_kernel_push(StencilKernel, 4, Args, JACC_DEFAULT), "push");
  State.SetBytesProcessed(State.iterations() * 2LL * Bytes);
  check(jacc_delete(A, Bytes), "delete");
  check(jacc_delete(B, Bytes), "delete");
}
BENCHMARK(BM_Stencil2DJacc)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Stencil2DOpenMP(benchmark::State &State) {
  int N = StencilN, M = StencilM;
  std::vector<double> A(size_t(N) * M, 1.0), B(size_t(N) * M, 0.0);
  aot_stencil_omp(N, M, A.data(), B.data());
  for (auto _ : State)
    aot_stencil_omp(N, M, A.data(), B.data());
  State.SetBytesProcessed(State.iterations() * 2LL * N * M * sizeof(double));
}
BENCHMARK(BM_Stencil2DOpenMP)->Unit(benchmark::kMillisecond)->UseRealTime();

// Many small kernels (team fork/join): a time loop of SmallSweeps stencil sweeps, a into
// b and back, each 10 - 50 us of work, as one-thread gcc -O3 and -fopenmp run it and as jacc
// pushes it. What a fork, a join and the helpers' wait between launches cost shows here.
constexpr int SmallN = 256, SmallM = 256, SmallSweeps = 20000;

void BM_SmallKernelsJacc(benchmark::State &State) {
  int N = SmallN, M = SmallM;
  size_t Bytes = size_t(N) * M * sizeof(double);
  std::vector<double> Av(size_t(N) * M, 1.0), Bv(size_t(N) * M, 0.0);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, Bytes), "copyin");
  check(jacc_copyin(B, Bytes), "copyin");
  jacc_arg There[] = {{"int n", &N}, {"int m", &M}, {"const double (*a)[m]", &A},
                      {"double (*b)[m]", &B}};
  jacc_arg Back[] = {{"int n", &N}, {"int m", &M}, {"const double (*a)[m]", &B},
                     {"double (*b)[m]", &A}};
  check(jacc_kernel_push(StencilKernel, 4, There, JACC_DEFAULT), "push");
  for (auto _ : State)
    for (int S = 0; S < SmallSweeps; S += 2) {
      check(jacc_kernel_push(StencilKernel, 4, There, JACC_DEFAULT), "push");
      check(jacc_kernel_push(StencilKernel, 4, Back, JACC_DEFAULT), "push");
    }
  check(jacc_delete(A, Bytes), "delete");
  check(jacc_delete(B, Bytes), "delete");
}
BENCHMARK(BM_SmallKernelsJacc)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1);

/// The same sweeps compiled ahead of time: Sweep is aot_stencil or aot_stencil_omp.
void smallKernelsAot(benchmark::State &State, void (*Sweep)(int, int, const double *, double *)) {
  std::vector<double> A(size_t(SmallN) * SmallM, 1.0), B(size_t(SmallN) * SmallM, 0.0);
  Sweep(SmallN, SmallM, A.data(), B.data());
  for (auto _ : State)
    for (int S = 0; S < SmallSweeps; S += 2) {
      Sweep(SmallN, SmallM, A.data(), B.data());
      Sweep(SmallN, SmallM, B.data(), A.data());
    }
}
void BM_SmallKernelsSerial(benchmark::State &State) { smallKernelsAot(State, aot_stencil); }
BENCHMARK(BM_SmallKernelsSerial)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1);
void BM_SmallKernelsOpenMP(benchmark::State &State) { smallKernelsAot(State, aot_stencil_omp); }
BENCHMARK(BM_SmallKernelsOpenMP)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  check(jacc_init(), "jacc_init");
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  auto Has = [&](const char *N) { return R.Ns.count(N) != 0; };
  std::printf("\nSummary (targets from the foundation issue):\n");
  if (Has("BM_ColdPush"))
    std::printf("  cold push of a 10-line kernel: %.1f ms (target < 50 ms)\n",
                R.Ns["BM_ColdPush"] / 1e6);
  if (Has("BM_ColdPush") && Has("BM_ColdPushInProcess"))
    std::printf("  compile server: %+.2f ms per cold push over compiling in process (%.1f ms; "
                "goal <= +3 ms)\n",
                (R.Ns["BM_ColdPush"] - R.Ns["BM_ColdPushInProcess"]) / 1e6,
                R.Ns["BM_ColdPushInProcess"] / 1e6);
  if (Has("BM_WarmPushTiny") && Has("BM_DirectCallTiny"))
    std::printf("  warm push overhead: %.2f us over the direct call (push %.2f us, direct %.3f "
                "us; target <= 2 us)\n",
                (R.Ns["BM_WarmPushTiny"] - R.Ns["BM_DirectCallTiny"]) / 1e3,
                R.Ns["BM_WarmPushTiny"] / 1e3, R.Ns["BM_DirectCallTiny"] / 1e3);
  if (Has("BM_SaxpyJacc") && Has("BM_SaxpyOpenMP"))
    std::printf("  saxpy throughput jacc / -O3 -fopenmp: %.3fx (target >= 0.95x)\n",
                R.Ns["BM_SaxpyOpenMP"] / R.Ns["BM_SaxpyJacc"]);
  if (Has("BM_Stencil2DJacc") && Has("BM_Stencil2DOpenMP"))
    std::printf("  2-D stencil throughput jacc / -O3 -fopenmp: %.3fx (target >= 0.95x)\n",
                R.Ns["BM_Stencil2DOpenMP"] / R.Ns["BM_Stencil2DJacc"]);
  if (Has("BM_SmallKernelsJacc") && Has("BM_SmallKernelsOpenMP") && Has("BM_SmallKernelsSerial"))
    std::printf("  %d small kernels: %.1f us each with jacc, %.1f with -fopenmp, %.1f on one "
                "thread; jacc / -fopenmp: %.3fx the time\n",
                SmallSweeps, R.Ns["BM_SmallKernelsJacc"] / 1e3 / SmallSweeps,
                R.Ns["BM_SmallKernelsOpenMP"] / 1e3 / SmallSweeps,
                R.Ns["BM_SmallKernelsSerial"] / 1e3 / SmallSweeps,
                R.Ns["BM_SmallKernelsJacc"] / R.Ns["BM_SmallKernelsOpenMP"]);
  jacc_finalize();
  benchmark::Shutdown();
  return 0;
}
