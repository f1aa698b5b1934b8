// Code quality of host kernels: seven loop nests pushed to jacc on host:1 against the
// same loops compiled ahead of time by the system compiler (gcc -O3 -march=native, AotNests.c),
// on one thread (JACC_HOST_THREADS=1 against a serial call) and on two (JACC_HOST_THREADS=2
// against -fopenmp with two threads). The driver prints each nest's time over the baseline's.
#include "tests/api/ExchangePatterns.h"
#include "tests/bench/AotNests.h"
#include "tests/bench/BenchSupport.h"

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

void configure(const char *Threads) {
  check(jacc_finalize(), "finalize");
  setenv("JACC_DEVICES", "host:1", 1);
  setenv("JACC_HOST_THREADS", Threads, 1);
  check(jacc_init(), "init");
}


void push(const char *Src, std::vector<jacc_arg> Args) {
  check(jacc_kernel_push(Src, static_cast<int>(Args.size()), Args.data(), JACC_DEFAULT), "push");
}

/// Arrays mapped for the duration of one benchmark.
class Mapped {
public:
  template <typename T> void add(std::vector<T> &V) {
    check(jacc_copyin(V.data(), bytesOf(V)), "copyin");
    Held.push_back({V.data(), bytesOf(V)});
  }
  ~Mapped() {
    for (auto [P, Bytes] : Held)
      check(jacc_delete(P, Bytes), "delete");
  }

private:
  std::vector<std::pair<void *, size_t>> Held;
};

/// One loop nest: its data, its jacc kernel run and its AOT run.
struct Nest {
  const char *Name;
  std::function<void(benchmark::State &, bool Jacc, bool Parallel)> Run;
};

/// Times Step: a few warm-up runs (compiles, specialization), then one per iteration.
template <typename F> void timeIt(benchmark::State &State, F Step) {
  for (int I = 0; I < 5; ++I)
    Step();
  for (auto _ : State)
    Step();
}

void stencil2d(benchmark::State &S, bool Jacc, bool Par) {
  int n = 2048, m = 2048;
  std::vector<double> av(size_t(n) * m), bv(av.size(), 0.0);
  for (size_t I = 0; I < av.size(); ++I)
    av[I] = double(I % 1000);
  double *a = av.data(), *b = bv.data();
  if (!Jacc)
    return timeIt(S, [&] { aot_stencil2d(Par, n, m, a, b); });
  Mapped M;
  M.add(av), M.add(bv);
  timeIt(S, [&] {
    push("#pragma acc parallel loop collapse(2) present(a, b)\n"
         "for (int i = 1; i < n - 1; i++)\n"
         "  for (int j = 1; j < m - 1; j++)\n"
         "    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n",
         {{"int n", &n}, {"int m", &m}, {"const double (*a)[m]", &a}, {"double (*b)[m]", &b}});
  });
}

void stencil3d(benchmark::State &S, bool Jacc, bool Par) {
  int n = 160;
  std::vector<double> av(size_t(n) * n * n), bv(av.size(), 0.0);
  for (size_t I = 0; I < av.size(); ++I)
    av[I] = double((I * 31) % 97);
  double *a = av.data(), *b = bv.data();
  if (!Jacc)
    return timeIt(S, [&] { aot_stencil3d(Par, n, a, b); });
  Mapped M;
  M.add(av), M.add(bv);
  int nx = n, ny = n, nz = n;
  timeIt(S, [&] {
    push(jacc_patterns::Stencil3DSrc, {{"int nx", &nx}, {"int ny", &ny}, {"int nz", &nz},
                                       {"const double (*a)[ny][nz]", &a},
                                       {"double (*b)[ny][nz]", &b}});
  });
}

void block5(benchmark::State &S, bool Jacc, bool Par) {
  int cells = 1 << 18;
  std::vector<double> Av(size_t(cells) * 25), xv(size_t(cells) * 5), yv(xv.size(), 0.0);
  for (size_t I = 0; I < Av.size(); ++I)
    Av[I] = 1.0 / double(1 + I % 37);
  for (size_t I = 0; I < xv.size(); ++I)
    xv[I] = double(I % 11);
  double *A = Av.data(), *x = xv.data(), *y = yv.data();
  if (!Jacc)
    return timeIt(S, [&] { aot_block5(Par, cells, A, x, y); });
  Mapped M;
  M.add(Av), M.add(xv), M.add(yv);
  timeIt(S, [&] {
    push("#pragma acc parallel loop present(A, x, y)\n"
         "for (int c = 0; c < cells; c++)\n"
         "  for (int r = 0; r < 5; r++) {\n"
         "    double s = 0.0;\n"
         "    for (int k = 0; k < 5; k++)\n"
         "      s += A[c][r][k] * x[c][k];\n"
         "    y[c][r] = s;\n"
         "  }\n",
         {{"int cells", &cells}, {"const double (*A)[5][5]", &A}, {"const double (*x)[5]", &x},
          {"double (*y)[5]", &y}});
  });
}

void spmv(benchmark::State &S, bool Jacc, bool Par) {
  int n = 1 << 20;
  jacc_patterns::Csr C(n);
  std::vector<double> xv(n), yv(n, 0.0);
  for (int I = 0; I < n; ++I)
    xv[I] = 1.0 + I % 7;
  int *rp = C.RowPtr.data(), *cp = C.Col.data();
  double *vp = C.Val.data(), *x = xv.data(), *y = yv.data();
  if (!Jacc)
    return timeIt(S, [&] { aot_spmv(Par, n, rp, cp, vp, x, y); });
  Mapped M;
  M.add(C.RowPtr), M.add(C.Col), M.add(C.Val), M.add(xv), M.add(yv);
  timeIt(S, [&] {
    push(jacc_patterns::MatVecSrc, {{"int n", &n}, {"const int *rowptr", &rp},
                                    {"const int *col", &cp}, {"const double *val", &vp},
                                    {"const double *p", &x}, {"double *q", &y}});
  });
}

void matmul(benchmark::State &S, bool Jacc, bool Par) {
  int n = 384;
  std::vector<double> av(size_t(n) * n), bv(av.size()), cv(av.size(), 0.0);
  for (size_t I = 0; I < av.size(); ++I)
    av[I] = double(I % 13) / 13, bv[I] = double(I % 17) / 17;
  double *a = av.data(), *b = bv.data(), *c = cv.data();
  if (!Jacc)
    return timeIt(S, [&] { aot_matmul(Par, n, a, b, c); });
  Mapped M;
  M.add(av), M.add(bv), M.add(cv);
  timeIt(S, [&] {
    push("#pragma acc parallel loop collapse(2) present(a, b, c)\n"
         "for (int i = 0; i < n; i++)\n"
         "  for (int j = 0; j < n; j++) {\n"
         "    double s = 0.0;\n"
         "    for (int k = 0; k < n; k++)\n"
         "      s += a[i][k] * b[k][j];\n"
         "    c[i][j] = s;\n"
         "  }\n",
         {{"int n", &n}, {"const double (*a)[n]", &a}, {"const double (*b)[n]", &b},
          {"double (*c)[n]", &c}});
  });
}

void blackScholes(benchmark::State &S, bool Jacc, bool Par) {
  int n = 1 << 20;
  jacc_patterns::Options O(n);
  std::vector<double> Call(n, 0.0), Put(n, 0.0);
  double r = 0.02, v = 0.3;
  double *s = O.S.data(), *x = O.X.data(), *t = O.T.data(), *c = Call.data(), *p = Put.data();
  if (!Jacc)
    return timeIt(S, [&] { aot_black_scholes(Par, n, r, v, s, x, t, c, p); });
  Mapped M;
  M.add(O.S), M.add(O.X), M.add(O.T), M.add(Call), M.add(Put);
  timeIt(S, [&] {
    push(jacc_patterns::BlackScholesSrc,
         {{"int n", &n}, {"double r", &r}, {"double v", &v}, {"const double *s", &s},
          {"const double *x", &x}, {"const double *t", &t}, {"double *call", &c},
          {"double *put", &p}});
  });
}

void dot(benchmark::State &S, bool Jacc, bool Par) {
  int n = 1 << 23;
  std::vector<double> av(n), bv(n);
  for (int I = 0; I < n; ++I)
    av[I] = 1.0 / (1 + I % 5), bv[I] = double(I % 3);
  double *a = av.data(), *b = bv.data();
  if (!Jacc)
    return timeIt(S, [&] { benchmark::DoNotOptimize(aot_dot(Par, n, a, b)); });
  Mapped M;
  M.add(av), M.add(bv);
  timeIt(S, [&] {
    double d = 0.0;
    push(jacc_patterns::DotSrc,
         {{"int n", &n}, {"const double *a", &a}, {"const double *b", &b}, {"double d", &d}});
    benchmark::DoNotOptimize(d);
  });
}

const Nest Nests[] = {{"Stencil2D", stencil2d}, {"Stencil3D", stencil3d}, {"Block5x5", block5},
                      {"SpMV", spmv},           {"MatMul", matmul},       {"BlackScholes", blackScholes},
                      {"Dot", dot}};

std::string nameOf(const char *Nest, bool Jacc, int Threads) {
  return std::string("BM_") + Nest + (Jacc ? "/jacc/" : "/aot/") + std::to_string(Threads) + "T";
}

} // namespace

int main(int argc, char **argv) {
  for (int Threads : {1, 2})
    for (const Nest &N : Nests)
      for (bool Jacc : {false, true})
        benchmark::RegisterBenchmark(nameOf(N.Name, Jacc, Threads).c_str(),
                                     [&N, Jacc, Threads](benchmark::State &S) {
                                       if (Jacc)
                                         configure(Threads == 1 ? "1" : "2");
                                       else
                                         omp_set_num_threads(Threads);
                                       N.Run(S, Jacc, Threads > 1);
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  std::printf("\njacc host:1 time over the AOT loop's (gcc -O3 -march=native; 1.00 = as fast):\n");
  std::printf("  %-13s %8s %8s\n", "nest", "1 thread", "2 threads");
  for (const Nest &N : Nests) {
    std::printf("  %-13s", N.Name);
    for (int Threads : {1, 2}) {
      std::string Aot = nameOf(N.Name, false, Threads), Jit = nameOf(N.Name, true, Threads);
      double Ratio = R.ratio(Jit.c_str(), Aot.c_str()); // jacc's time over the AOT's
      if (Ratio > 0)
        std::printf(" %7.2fx", Ratio);
      else
        std::printf(" %8s", "-");
    }
    std::printf("\n");
  }
  jacc_finalize();
  benchmark::Shutdown();
  return 0;
}
