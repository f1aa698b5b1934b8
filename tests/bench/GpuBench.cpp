// What a GPU's figures mean for jacc, on the devices JACC_DEVICES names (scripts/gpu-check.sh
// runs it on cuda:0 and cuda:0,host:1): the warm push of a tiny kernel, saxpy's and a 2-D
// stencil's memory bandwidth (its loops as written and collapsed), and a Jacobi time loop in a
// data region. Each result is checked, and each figure is printed as one `name value unit` line
// for the script's summary.
//   jacc-gpu-bench [push|saxpy|stencil|jacobi]...   (none: all four)
#include "jacc/jacc.h"
#include "tests/bench/BenchKernels.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(jacc_status S, const char *What) {
  if (S != JACC_SUCCESS) {
    std::fprintf(stderr, "jacc-gpu-bench: %s failed: %s\n", What, jacc_last_error());
    std::exit(1);
  }
}

/// A wrong result fails the run (exit 1) once every part has run.
bool AnyWrong = false;
void expect(bool Ok, const char *What) {
  if (!Ok) {
    std::fprintf(stderr, "jacc-gpu-bench: wrong result: %s\n", What);
    AnyWrong = true;
  }
}

/// Seconds Step takes, the median of Reps runs after one warm-up (which compiles the kernel).
template <typename F> double medianSeconds(int Reps, F Step) {
  Step();
  check(jacc_wait(), "wait");
  std::vector<double> T;
  for (int R = 0; R < Reps; ++R) {
    auto Start = std::chrono::steady_clock::now();
    Step();
    check(jacc_wait(), "wait");
    T.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count());
  }
  std::sort(T.begin(), T.end());
  return T[T.size() / 2];
}

/// Microseconds per push of a 16-element saxpy, the runtime's own cost per launch.
void warmPush() {
  int N = 16;
  float A = 2.0f;
  std::vector<float> Xv(N, 1.0f), Yv(N, 0.0f);
  float *X = Xv.data(), *Y = Yv.data();
  check(jacc_copyin(X, N * sizeof(float)), "copyin");
  check(jacc_copyin(Y, N * sizeof(float)), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &X}, {"float *y", &Y}};
  constexpr int Pushes = 2000;
  double S = medianSeconds(5, [&] {
    for (int I = 0; I < Pushes; ++I)
      check(jacc_kernel_push(SaxpyKernel, 4, Args, JACC_DEFAULT), "push");
  });
  check(jacc_copyout(Y, N * sizeof(float)), "copyout");
  check(jacc_delete(X, N * sizeof(float)), "delete");
  expect(Yv[0] == 2.0f * Pushes * 6 && Yv[N - 1] == Yv[0], "warm push: y = 2 per push");
  std::printf("warm_push %.2f us\n", S / Pushes * 1e6);
}

/// Saxpy over 2^26 floats: 12 bytes per element read or written.
void saxpy() {
  int N = 1 << 26;
  float A = 2.0f;
  std::vector<float> Xv(N, 1.0f), Yv(N, 0.0f);
  float *X = Xv.data(), *Y = Yv.data();
  size_t Bytes = size_t(N) * sizeof(float);
  check(jacc_copyin(X, Bytes), "copyin");
  check(jacc_copyin(Y, Bytes), "copyin");
  jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &X}, {"float *y", &Y}};
  constexpr int Reps = 20;
  double S = medianSeconds(
      Reps, [&] { check(jacc_kernel_push(SaxpyKernel, 4, Args, JACC_DEFAULT), "push"); });
  check(jacc_copyout(Y, Bytes), "copyout");
  check(jacc_delete(X, Bytes), "delete");
  expect(Yv[0] == 2.0f * (Reps + 1) && Yv[N - 1] == Yv[0] && Yv[N / 2] == Yv[0],
         "saxpy: y = 2 per push");
  std::printf("saxpy_bandwidth %.1f GB/s\n", 3.0 * double(Bytes) / S / 1e9);
}

/// The same stencil with its two loops collapsed: consecutive threads take consecutive j.
const char *StencilCollapsed = "#pragma acc parallel loop collapse(2) present(a, b)\n"
                               "for (int i = 1; i < n - 1; i++)\n"
                               "  for (int j = 1; j < m - 1; j++)\n"
                               "    b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + "
                               "a[i][j - 1] + a[i][j + 1]);\n";

/// A five-point stencil over 8192² doubles: each element read once and written once. Without
/// collapse the inner loop is shared among the threads once a variant knows the arrays apart
/// (specialization, after a few pushes): the figure is of the pushes after 20 warm-ups, with how
/// many of them ran a variant.
void stencil(const char *Kernel, const char *Figure) {
  int N = 8192, M = 8192;
  size_t Bytes = size_t(N) * M * sizeof(double);
  std::vector<double> Av(size_t(N) * M, 1.0), Bv(size_t(N) * M, 0.0);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, Bytes), "copyin");
  check(jacc_copyin(B, Bytes), "copyin");
  jacc_arg Args[] = {
      {"int n", &N}, {"int m", &M}, {"const double (*a)[m]", &A}, {"double (*b)[m]", &B}};
  for (int W = 0; W < 20; ++W)
    check(jacc_kernel_push(Kernel, 4, Args, JACC_DEFAULT), "push");
  check(jacc_wait(), "wait");
  jacc_reset_stats();
  double S =
      medianSeconds(10, [&] { check(jacc_kernel_push(Kernel, 4, Args, JACC_DEFAULT), "push"); });
  jacc_stats St;
  check(jacc_get_stats(&St), "stats");
  check(jacc_copyout(B, Bytes), "copyout");
  check(jacc_delete(A, Bytes), "delete");
  expect(Bv[size_t(M) + 1] == 1.0 && Bv[size_t(N - 2) * M + M - 2] == 1.0 && Bv[0] == 0.0,
         "stencil: interior 1, border untouched");
  std::printf("%s %.1f GB/s (%llu of 11 pushes ran a variant)\n", Figure,
              2.0 * double(Bytes) / S / 1e9, (unsigned long long)St.specialized_launches);
}

/// 100 sweeps of a 4096² Jacobi loop (two kernels each) in a data region, the runtime choosing
/// how each kernel runs; the checksum must not depend on the devices.
void jacobi() {
  int N = 4096, M = 4096;
  size_t Bytes = size_t(N) * M * sizeof(double);
  std::vector<double> Av(size_t(N) * M), Bv(size_t(N) * M, 0.0);
  for (size_t I = 0; I < Av.size(); ++I)
    Av[I] = double(I % 1000);
  double *A = Av.data(), *B = Bv.data();
  check(jacc_copyin(A, Bytes), "copyin");
  check(jacc_copyin(B, Bytes), "copyin");
  jacc_arg Args[] = {
      {"int n", &N}, {"int m", &M}, {"double (*a)[m]", &A}, {"double (*anew)[m]", &B}};
  constexpr int Sweeps = 100;
  jacc_reset_stats();
  auto Start = std::chrono::steady_clock::now();
  std::vector<double> Late; // the last half's sweeps, once variants had time to arrive
  for (int S = 0; S < Sweeps; ++S) {
    auto SweepStart = std::chrono::steady_clock::now();
    check(jacc_kernel_push(JacobiStep, 4, Args, JACC_DEFAULT), "push");
    check(jacc_kernel_push(JacobiCopy, 4, Args, JACC_DEFAULT), "push");
    check(jacc_wait(), "wait");
    if (S >= Sweeps / 2)
      Late.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - SweepStart).count());
  }
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  std::sort(Late.begin(), Late.end());
  jacc_stats St;
  check(jacc_get_stats(&St), "stats");
  check(jacc_copyout(A, Bytes), "copyout");
  check(jacc_delete(B, Bytes), "delete");
  double Sum = 0;
  for (double V : Av)
    Sum += V;
  std::printf("jacobi_sweep %.3f ms (median of sweeps 51-100)\n", Late[Late.size() / 2] * 1e3);
  std::printf("jacobi_mean_sweep %.3f ms (all 100 sweeps, the first compiles)\n",
              Seconds / Sweeps * 1e3);
  std::printf("jacobi_d2d_per_sweep %.0f bytes\n", double(St.bytes_device_to_device) / Sweeps);
  std::printf("jacobi_checksum %.6e\n", Sum);
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Parts(Argv + 1, Argv + Argc);
  if (Parts.empty())
    Parts = {"push", "saxpy", "stencil", "jacobi"};
  check(jacc_init(), "init");
  for (const std::string &P : Parts) {
    if (P == "push")
      warmPush();
    else if (P == "saxpy")
      saxpy();
    else if (P == "stencil") {
      stencil(StencilKernel, "stencil_bandwidth");
      stencil(StencilCollapsed, "stencil_collapse_bandwidth");
    } else if (P == "jacobi")
      jacobi();
    else {
      std::fprintf(stderr, "jacc-gpu-bench: unknown part '%s' (push, saxpy, stencil, jacobi)\n",
                   P.c_str());
      return 2;
    }
  }
  check(jacc_finalize(), "finalize");
  return AnyWrong ? 1 : 0;
}
