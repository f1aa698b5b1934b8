// One memory shared by the devices (JACC_MEMORY=unified) against a copy per device,
// on host:2 with one thread per device and split forced (each device stands for one GPU), for
// three patterns: saxpy (2^24 floats, every device reads and writes its own rows: nothing to
// exchange either way), a 2-D Jacobi sweep (2048^2 doubles, a and b swapped each step: two halo
// rows per boundary and step with separate copies) and the same sweep over flat arrays. Each benchmark reports the time per
// step and the bytes moved between devices per step; the driver prints separate over unified.
#include "tests/bench/BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void configure(const char *Memory) {
  check(jacc_finalize(), "finalize");
  setenv("JACC_DEVICES", "host:2", 1);
  setenv("JACC_HOST_THREADS", "1", 1);
  setenv("JACC_MEMORY", Memory, 1);
  check(jacc_init(), "init");
}

void push(const char *Src, std::vector<jacc_arg> Args) {
  check(jacc_kernel_push(Src, static_cast<int>(Args.size()), Args.data(), JACC_FORCE_SPLIT),
        "push");
}

const char *SaxpySrc = "#pragma acc parallel loop present(x, y)\n"
                       "for (int i = 0; i < n; i++)\n"
                       "  y[i] = a * x[i] + y[i];\n";

void saxpy(benchmark::State &State, const char *Memory) {
  configure(Memory);
  int n = 1 << 24;
  float a = 1.0001f;
  std::vector<float> X(n, 1.0f), Y(n, 2.0f);
  float *x = X.data(), *y = Y.data();
  check(jacc_copyin(x, bytesOf(X)), "copyin");
  check(jacc_copyin(y, bytesOf(Y)), "copyin");
  timeSteps(State, [&] {
    push(SaxpySrc, {{"int n", &n}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}});
  });
  check(jacc_copyout(y, bytesOf(Y)), "copyout");
  check(jacc_delete(x, bytesOf(X)), "delete");
  benchmark::DoNotOptimize(Y.data());
}

const char *JacobiSrc = "#pragma acc parallel loop present(a, b)\n"
                        "for (int i = 1; i < n - 1; i++)\n"
                        "  for (int j = 1; j < n - 1; j++)\n"
                        "    b[i][j] = 0.25 * (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);\n";
/// The same sweep over flat arrays, collapsed: the split cannot tell a row from the flat index
/// (i * n + j), so with separate copies every sweep's reads are fetched whole.
const char *FlatJacobiSrc = "#pragma acc parallel loop collapse(2) present(a, b)\n"
                            "for (int i = 1; i < n - 1; i++)\n"
                            "  for (int j = 1; j < n - 1; j++)\n"
                            "    b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +\n"
                            "                           a[i * n + j - 1] + a[i * n + j + 1]);\n";

void jacobiWith(benchmark::State &State, const char *Memory, const char *Src, const char *ADecl,
                const char *BDecl) {
  configure(Memory);
  int n = 2048;
  std::vector<double> A(size_t(n) * n), B(A.size(), 0.0);
  for (size_t I = 0; I < A.size(); I++)
    A[I] = double(I % 97) / 97.0;
  double *a = A.data(), *b = B.data();
  check(jacc_copyin(a, bytesOf(A)), "copyin");
  check(jacc_copyin(b, bytesOf(B)), "copyin");
  timeSteps(State, [&] {
    push(Src, {{"int n", &n}, {ADecl, &a}, {BDecl, &b}});
    push(Src, {{"int n", &n}, {ADecl, &b}, {BDecl, &a}});
  });
  check(jacc_copyout(a, bytesOf(A)), "copyout");
  check(jacc_copyout(b, bytesOf(B)), "copyout");
  benchmark::DoNotOptimize(A.data());
}

void jacobi(benchmark::State &State, const char *Memory) {
  jacobiWith(State, Memory, JacobiSrc, "const double (*a)[n]", "double (*b)[n]");
}

void flatJacobi(benchmark::State &State, const char *Memory) {
  jacobiWith(State, Memory, FlatJacobiSrc, "const double *a", "double *b");
}

using Pattern = void (*)(benchmark::State &, const char *);
const std::pair<const char *, Pattern> Patterns[] = {
    {"Saxpy", saxpy}, {"Jacobi2D", jacobi}, {"FlatJacobi2D", flatJacobi}};
const char *const Memories[] = {"separate", "unified"};

std::string nameOf(const char *Pattern, const char *Memory) {
  return std::string("BM_") + Pattern + "/host:2/" + Memory;
}

} // namespace

int main(int argc, char **argv) {
  for (const auto &[Name, Run] : Patterns)
    for (const char *Memory : Memories)
      benchmark::RegisterBenchmark(nameOf(Name, Memory).c_str(),
                                   [Run = Run, Memory](benchmark::State &S) { Run(S, Memory); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  std::printf("\nTime with a copy per device over the time with one memory (host:2, one thread "
              "per device, split forced):\n");
  for (const auto &[Name, Run] : Patterns) {
    double Ratio = R.ratio(nameOf(Name, "separate").c_str(), nameOf(Name, "unified").c_str());
    if (Ratio > 0)
      std::printf("  %-12s %.2fx\n", Name, Ratio);
  }
  jacc_finalize();
  benchmark::Shutdown();
  return 0;
}
