// The demand exchange against the paper's eager one on three patterns, each on host:1,
// host:2 and host:3 with one thread per device, split forced (every device stands for one GPU):
//  - a 3-D 7-point stencil time loop (128^3 doubles, a and b swapped each step);
//  - a conjugate-gradient iteration (CSR mat-vec reading p through col[], two dots, three axpys;
//    2^20 rows);
//  - a Black-Scholes map (2^20 options, pushed again and again).
// Each benchmark reports the time per step and the bytes moved between devices per step; the
// driver prints every configuration's time against host:1's.
#include "tests/api/ExchangePatterns.h"
#include "tests/bench/BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace jacc_patterns;

namespace {

void configure(const char *Devices, const char *Exchange) {
  check(jacc_finalize(), "finalize");
  setenv("JACC_DEVICES", Devices, 1);
  setenv("JACC_HOST_THREADS", "1", 1);
  setenv("JACC_EXCHANGE", Exchange, 1);
  check(jacc_init(), "init");
}

void push(const char *Src, std::vector<jacc_arg> Args, unsigned Flags) {
  check(jacc_kernel_push(Src, static_cast<int>(Args.size()), Args.data(), Flags), "push");
}

/// The flags of a push on Devices: split forced on several devices.
unsigned flagsFor(const char *Devices) {
  return std::string(Devices) == "host:1" ? JACC_DEFAULT : JACC_FORCE_SPLIT;
}

void stencil3D(benchmark::State &State, const char *Devices, const char *Exchange) {
  configure(Devices, Exchange);
  int nx = 128, ny = 128, nz = 128;
  std::vector<double> av(size_t(nx) * ny * nz), bv(av.size(), 0.0);
  for (size_t I = 0; I < av.size(); I++)
    av[I] = double((I * 31) % 97);
  double *a = av.data(), *b = bv.data();
  check(jacc_copyin(a, bytesOf(av)), "copyin");
  check(jacc_copyin(b, bytesOf(bv)), "copyin");
  unsigned Flags = flagsFor(Devices);
  timeSteps(State, [&] {
    push(Stencil3DSrc,
         {{"int nx", &nx}, {"int ny", &ny}, {"int nz", &nz},
          {"const double (*a)[ny][nz]", &a}, {"double (*b)[ny][nz]", &b}},
         Flags);
    std::swap(a, b);
  });
  check(jacc_copyout(av.data(), bytesOf(av)), "copyout");
  check(jacc_delete(bv.data(), bytesOf(bv)), "delete");
  benchmark::DoNotOptimize(av.data());
}

void conjugateGradient(benchmark::State &State, const char *Devices, const char *Exchange) {
  configure(Devices, Exchange);
  int n = 1 << 20;
  Csr A(n);
  int nnz = static_cast<int>(A.Col.size());
  std::vector<double> xv(n, 0.0), rv(n), pv(n), qv(n, 0.0);
  for (int I = 0; I < n; I++)
    rv[I] = pv[I] = 1.0 + (I % 7);
  int *rp = A.RowPtr.data(), *cp = A.Col.data();
  double *vp = A.Val.data(), *x = xv.data(), *r = rv.data(), *p = pv.data(), *q = qv.data();
  check(jacc_copyin(rp, bytesOf(A.RowPtr)), "copyin");
  check(jacc_copyin(cp, nnz * sizeof(int)), "copyin");
  check(jacc_copyin(vp, nnz * sizeof(double)), "copyin");
  for (std::vector<double> *V : {&xv, &rv, &pv, &qv})
    check(jacc_copyin(V->data(), bytesOf(*V)), "copyin");
  unsigned Flags = flagsFor(Devices);
  auto Dot = [&](double *a, double *b) {
    double d = 0.0;
    push(DotSrc, {{"int n", &n}, {"const double *a", &a}, {"const double *b", &b},
                  {"double d", &d}},
         Flags);
    return d;
  };
  auto Axpy = [&](double alpha, double *xa, double *ya) {
    push(AxpySrc, {{"int n", &n}, {"double alpha", &alpha}, {"const double *x", &xa},
                   {"double *y", &ya}},
         Flags);
  };
  double rr = Dot(r, r);
  timeSteps(State, [&] {
    push(MatVecSrc,
         {{"int n", &n}, {"const int *rowptr", &rp}, {"const int *col", &cp},
          {"const double *val", &vp}, {"const double *p", &p}, {"double *q", &q}},
         Flags);
    double alpha = rr / Dot(p, q);
    Axpy(alpha, p, x);
    Axpy(-alpha, q, r);
    double rr2 = Dot(r, r), beta = rr2 / rr;
    push(DirectionSrc,
         {{"int n", &n}, {"double beta", &beta}, {"const double *r", &r}, {"double *p", &p}},
         Flags);
    // Restart from the residual when it vanishes: the steps keep their work.
    rr = rr2 > 1e-200 ? rr2 : 1.0;
  });
  check(jacc_copyout(x, bytesOf(xv)), "copyout");
  for (std::vector<double> *V : {&rv, &pv, &qv})
    check(jacc_delete(V->data(), bytesOf(*V)), "delete");
  check(jacc_delete(rp, bytesOf(A.RowPtr)), "delete");
  check(jacc_delete(cp, nnz * sizeof(int)), "delete");
  check(jacc_delete(vp, nnz * sizeof(double)), "delete");
  benchmark::DoNotOptimize(xv.data());
}

void blackScholes(benchmark::State &State, const char *Devices, const char *Exchange) {
  configure(Devices, Exchange);
  int n = 1 << 20;
  Options O(n);
  std::vector<double> Call(n, 0.0), Put(n, 0.0);
  double r = 0.02, v = 0.3;
  double *s = O.S.data(), *x = O.X.data(), *t = O.T.data(), *c = Call.data(), *p = Put.data();
  for (std::vector<double> *V : {&O.S, &O.X, &O.T, &Call, &Put})
    check(jacc_copyin(V->data(), bytesOf(*V)), "copyin");
  unsigned Flags = flagsFor(Devices);
  timeSteps(State, [&] {
    push(BlackScholesSrc,
         {{"int n", &n}, {"double r", &r}, {"double v", &v}, {"const double *s", &s},
          {"const double *x", &x}, {"const double *t", &t}, {"double *call", &c},
          {"double *put", &p}},
         Flags);
  });
  check(jacc_copyout(c, bytesOf(Call)), "copyout");
  check(jacc_copyout(p, bytesOf(Put)), "copyout");
  for (std::vector<double> *V : {&O.S, &O.X, &O.T})
    check(jacc_delete(V->data(), bytesOf(*V)), "delete");
  benchmark::DoNotOptimize(Call.data());
}

/// Every pattern on every configuration, named BM_<Pattern>/<devices>/<exchange>.
struct Config {
  const char *Devices, *Exchange;
};
const Config Configs[] = {{"host:1", "demand"}, {"host:2", "demand"}, {"host:2", "eager"},
                          {"host:3", "demand"}, {"host:3", "eager"}};
using Pattern = void (*)(benchmark::State &, const char *, const char *);
const std::pair<const char *, Pattern> Patterns[] = {
    {"Stencil3D", stencil3D}, {"CG", conjugateGradient}, {"BlackScholes", blackScholes}};

std::string nameOf(const char *Pattern, const Config &C) {
  return std::string("BM_") + Pattern + "/" + C.Devices + "/" + C.Exchange;
}

} // namespace

int main(int argc, char **argv) {
  for (const auto &[Name, Run] : Patterns)
    for (const Config &C : Configs)
      benchmark::RegisterBenchmark(nameOf(Name, C).c_str(),
                                   [Run = Run, C](benchmark::State &S) {
                                     Run(S, C.Devices, C.Exchange);
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  std::printf("\nTime of host:1 over each configuration's (one thread per device, split "
              "forced):\n");
  for (const auto &[Name, Run] : Patterns)
    for (const Config &C : Configs) {
      std::string Base = nameOf(Name, Configs[0]), Other = nameOf(Name, C);
      double Ratio = R.ratio(Base.c_str(), Other.c_str());
      if (Ratio > 0 && &C != &Configs[0])
        std::printf("  %-13s %s %-6s %.2fx\n", Name, C.Devices, C.Exchange, Ratio);
    }
  jacc_finalize();
  benchmark::Shutdown();
  return 0;
}
