// Kernel specialization (JACC_SPECIALIZE) measured against the generic kernel in the same run
// (docs/performance.md):
//  - a 1-D stencil whose radius is an argument, and a row-times-vector product with a small inner
//    trip count that is an argument: the generic kernel (JACC_SPECIALIZE=off) against the variant
//    with the values folded (always, the push waiting for the variant);
//  - the policy's cost at every push when a value changes at every push (auto: never folded)
//    against no policy at all (off), on a tiny kernel.
// Each benchmark re-initialises jacc with its own JACC_SPECIALIZE. A summary prints the ratios.
#include "tests/bench/BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// Re-initialise jacc on one host device with JACC_SPECIALIZE=Mode; "default" is auto as a
/// program gets it (variants compiled in the background once they would pay, pushes never wait).
void reinit(const char *Mode) {
  check(jacc_finalize(), "finalize");
  setenv("JACC_DEVICES", "host:1", 1);
  bool Default = std::string(Mode) == "default";
  setenv("JACC_SPECIALIZE", Default ? "auto" : Mode, 1);
  setenv("JACC_SPECIALIZE_WAIT", Default ? "0" : "1", 1);
  check(jacc_init(), "init");
}

const char *Stencil = "#pragma acc parallel loop present(a, b)\n"
                      "for (int i = r; i < n - r; i++) {\n"
                      "  double s = 0.0;\n"
                      "  for (int k = -r; k <= r; k++)\n"
                      "    s += w * a[i + k];\n"
                      "  b[i] = s;\n"
                      "}\n";

/// The source pushed under Mode: under "default" a kernel of its own, so that the variant the
/// other benchmarks compiled (kept by the memory cache across jacc_finalize) is not reused.
std::string sourceFor(const char *Kernel, const char *Mode) {
  return std::string(Mode) == "default" ? "/* default settings */\n" + std::string(Kernel) : Kernel;
}

void stencil(benchmark::State &State, const char *Mode) {
  reinit(Mode);
  std::string Src = sourceFor(Stencil, Mode);
  int N = 1 << 21, R = 3;
  double W = 1.0 / 7;
  std::vector<double> Av(N, 1.0), Bv(N, 0.0);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, N * sizeof(double)), "copyin");
  check(jacc_copyin(B, N * sizeof(double)), "copyin");
  jacc_arg Args[] = {
      {"int n", &N}, {"int r", &R}, {"double w", &W}, {"const double *a", &A}, {"double *b", &B}};
  for (int K = 0; K < 3; ++K) // compiled (and the variant made) before timing
    check(jacc_kernel_push(Src.c_str(), 5, Args, JACC_DEFAULT), "push");
  for (auto _ : State)
    check(jacc_kernel_push(Src.c_str(), 5, Args, JACC_DEFAULT), "push");
  jacc_stats S;
  check(jacc_get_stats(&S), "stats");
  State.counters["specialized"] = static_cast<double>(S.specialized_launches > 0);
  check(jacc_delete(A, N * sizeof(double)), "delete");
  check(jacc_delete(B, N * sizeof(double)), "delete");
}
void BM_StencilRadiusGeneric(benchmark::State &State) {
  stencil(State, "off");
}
void BM_StencilRadiusSpecialized(benchmark::State &State) {
  stencil(State, "always");
}
void BM_StencilRadiusDefault(benchmark::State &State) {
  stencil(State, "default");
}
BENCHMARK(BM_StencilRadiusGeneric)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StencilRadiusSpecialized)->Unit(benchmark::kMillisecond)->UseRealTime();
// A program of 300 pushes with the default settings: the variant compiles once the kernel ran
// its payback, meanwhile the generic kernel runs (the mean per push, compile included).
BENCHMARK(BM_StencilRadiusDefault)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(300);

const char *RowTimesVector = "#pragma acc parallel loop present(a, x, y)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  float s = 0.0f;\n"
                             "  for (int j = 0; j < m; j++)\n"
                             "    s += a[i * m + j] * x[j];\n"
                             "  y[i] = s;\n"
                             "}\n";

void rowTimesVector(benchmark::State &State, const char *Mode) {
  reinit(Mode);
  std::string Src = sourceFor(RowTimesVector, Mode);
  int N = 1 << 19, M = 4;
  std::vector<float> Av(size_t(N) * M, 0.5f), Xv(M, 2.0f), Yv(N, 0.0f);
  float *A = Av.data(), *X = Xv.data(), *Y = Yv.data();
  check(jacc_copyin(A, Av.size() * sizeof(float)), "copyin");
  check(jacc_copyin(X, M * sizeof(float)), "copyin");
  check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  jacc_arg Args[] = {{"int n", &N},
                     {"int m", &M},
                     {"const float *a", &A},
                     {"const float *x", &X},
                     {"float *y", &Y}};
  for (int K = 0; K < 3; ++K)
    check(jacc_kernel_push(Src.c_str(), 5, Args, JACC_DEFAULT), "push");
  for (auto _ : State)
    check(jacc_kernel_push(Src.c_str(), 5, Args, JACC_DEFAULT), "push");
  check(jacc_delete(A, Av.size() * sizeof(float)), "delete");
  check(jacc_delete(X, M * sizeof(float)), "delete");
  check(jacc_delete(Y, N * sizeof(float)), "delete");
}
void BM_SmallInnerLoopGeneric(benchmark::State &State) {
  rowTimesVector(State, "off");
}
void BM_SmallInnerLoopSpecialized(benchmark::State &State) {
  rowTimesVector(State, "always");
}
void BM_SmallInnerLoopDefault(benchmark::State &State) {
  rowTimesVector(State, "default");
}
BENCHMARK(BM_SmallInnerLoopGeneric)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SmallInnerLoopSpecialized)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SmallInnerLoopDefault)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2000);

const char *Tiny = "#pragma acc parallel loop present(y)\n"
                   "for (int i = 0; i < n; i++) y[i] = s;\n";

void changingValue(benchmark::State &State, const char *Mode) {
  reinit(Mode);
  int N = 16;
  float Sv = 0.0f;
  std::vector<float> Yv(N, 0.0f);
  float *Y = Yv.data();
  check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"float s", &Sv}, {"float *y", &Y}};
  check(jacc_kernel_push(Tiny, 3, Args, JACC_DEFAULT), "push");
  for (auto _ : State) {
    Sv += 1.0f; // a new value at every push: never folded
    check(jacc_kernel_push(Tiny, 3, Args, JACC_DEFAULT), "push");
  }
  check(jacc_delete(Y, N * sizeof(float)), "delete");
}
void BM_PushChangingValueOff(benchmark::State &State) {
  changingValue(State, "off");
}
void BM_PushChangingValueAuto(benchmark::State &State) {
  changingValue(State, "auto");
}
BENCHMARK(BM_PushChangingValueOff)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PushChangingValueAuto)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  std::printf(
      "\nstencil (radius 3, 2M doubles), specialized over generic: %.2fx (target >= 1.2x)\n",
      R.ratio("BM_StencilRadiusGeneric", "BM_StencilRadiusSpecialized"));
  std::printf("small inner loop (m = 4, 512K rows), specialized over generic: %.2fx\n",
              R.ratio("BM_SmallInnerLoopGeneric", "BM_SmallInnerLoopSpecialized"));
  if (R.has("BM_StencilRadiusDefault"))
    std::printf("default settings, 300 pushes of the stencil, over generic: %.2fx\n",
                R.ratio("BM_StencilRadiusGeneric", "BM_StencilRadiusDefault"));
  if (R.has("BM_SmallInnerLoopDefault"))
    std::printf("default settings, 2000 pushes of the small inner loop, over generic: %.2fx\n",
                R.ratio("BM_SmallInnerLoopGeneric", "BM_SmallInnerLoopDefault"));
  if (R.has("BM_PushChangingValueAuto") && R.has("BM_PushChangingValueOff"))
    std::printf("policy check per push, value changing at every push: %+.3f us (target < 0.2 us)\n",
                (R.Ns.at("BM_PushChangingValueAuto") - R.Ns.at("BM_PushChangingValueOff")) / 1000);
  jacc_finalize();
  return 0;
}
