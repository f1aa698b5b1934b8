// The shapes of the NAS Parallel Benchmarks that make a second device cost instead of pay,
// timed on one device of one thread (host:1x1) against two (host:2x1, the model of two GPUs
// against one) as the runtime chooses, and with every kernel split (JACC_SPLIT=always):
//  - an alternating-direction sweep (BT, SP): a 3-D array, each step a pointwise right-hand
//    side then a recurrence along x, y and z, each parallel over the other two dimensions;
//  - a V-cycle (MG): a smoothing sweep and a restriction on each grid from 512² down to 4²,
//    then a prolongation and a smoothing back up, most grids too small to split;
//  - a transform by transposes (FT): a pass along the contiguous axis of every row of a 3-D
//    array, then a transpose that brings the next axis there, three times a step;
//  - a hyperplane wavefront (LU-HP): a lower then an upper sweep over the hyperplanes i+j+k = l
//    of a 3-D grid, each a parallel loop over its points found through index tables (writes not
//    affine in the parallel iterator; hyperplanes of one to a few hundred points).
// One benchmark iteration is one time step (one cycle); the first steps, untimed, let the runtime
// time the program spread and on one device. The driver prints host:1x1's time over each
// configuration's (above 1: faster than one device).
#include "tests/bench/BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

/// Re-initialise jacc on Devices (one thread each) with JACC_SPLIT=Split.
void configure(const char *Devices, const char *Split) {
  check(jacc_finalize(), "finalize");
  setenv("JACC_DEVICES", Devices, 1);
  setenv("JACC_SPLIT", Split, 1);
  check(jacc_init(), "init");
}

/// Untimed steps before the timed ones: enough launches for the program's timing windows.
constexpr int WarmSteps = 60;

/// Warm untimed steps of Step (the runtime times the program both ways meanwhile), then the
/// timed ones.
template <typename Fn> void warmThenTime(benchmark::State &State, int Warm, Fn Step) {
  for (int S = 0; S < Warm; ++S)
    Step();
  timeSteps(State, Step);
}

const char *AdiRhs = "#pragma acc parallel loop collapse(3) present(u, f)\n"
                     "for (int i = 0; i < n; i++)\n"
                     "  for (int j = 0; j < n; j++)\n"
                     "    for (int k = 0; k < n; k++)\n"
                     "      u[i][j][k] = 0.75 * u[i][j][k] + f[i][j][k];\n";
const char *AdiX = "#pragma acc parallel loop collapse(2) present(u)\n"
                   "for (int j = 0; j < n; j++)\n"
                   "  for (int k = 0; k < n; k++)\n"
                   "    for (int i = 1; i < n; i++)\n"
                   "      u[i][j][k] = 0.5 * (u[i][j][k] + u[i - 1][j][k]);\n";
const char *AdiY = "#pragma acc parallel loop collapse(2) present(u)\n"
                   "for (int i = 0; i < n; i++)\n"
                   "  for (int k = 0; k < n; k++)\n"
                   "    for (int j = 1; j < n; j++)\n"
                   "      u[i][j][k] = 0.5 * (u[i][j][k] + u[i][j - 1][k]);\n";
const char *AdiZ = "#pragma acc parallel loop collapse(2) present(u)\n"
                   "for (int i = 0; i < n; i++)\n"
                   "  for (int j = 0; j < n; j++)\n"
                   "    for (int k = 1; k < n; k++)\n"
                   "      u[i][j][k] = 0.5 * (u[i][j][k] + u[i][j][k - 1]);\n";

void runAdi(benchmark::State &State, const char *Devices, const char *Split) {
  configure(Devices, Split);
  int N = 96;
  size_t Cells = size_t(N) * N * N;
  std::vector<double> U(Cells), F(Cells);
  for (size_t I = 0; I < Cells; ++I) {
    U[I] = double(I % 17) / 16.0;
    F[I] = double(I % 5) / 64.0;
  }
  double *Up = U.data(), *Fp = F.data();
  check(jacc_copyin(Up, bytesOf(U)), "copyin");
  check(jacc_copyin(Fp, bytesOf(F)), "copyin");
  jacc_arg Rhs[] = {{"int n", &N}, {"double (*u)[n][n]", &Up}, {"const double (*f)[n][n]", &Fp}};
  jacc_arg Sweep[] = {{"int n", &N}, {"double (*u)[n][n]", &Up}};
  auto Step = [&] {
    check(jacc_kernel_push(AdiRhs, 3, Rhs, JACC_DEFAULT), "push");
    for (const char *Src : {AdiX, AdiY, AdiZ})
      check(jacc_kernel_push(Src, 2, Sweep, JACC_DEFAULT), "push");
  };
  warmThenTime(State, WarmSteps, Step);
  check(jacc_copyout(Up, bytesOf(U)), "copyout");
  check(jacc_delete(Fp, bytesOf(F)), "delete");
  benchmark::DoNotOptimize(U.data());
}

const char *Smooth = "#pragma acc parallel loop present(a, b)\n"
                     "for (int i = 1; i < n - 1; i++)\n"
                     "  for (int j = 1; j < n - 1; j++)\n"
                     "    b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] +\n"
                     "                     a[i][j + 1]);\n";
const char *Restrict = "#pragma acc parallel loop present(fine, coarse)\n"
                       "for (int i = 0; i < n; i++)\n"
                       "  for (int j = 0; j < n; j++)\n"
                       "    coarse[i][j] = 0.25 * (fine[2 * i][2 * j] + fine[2 * i + 1][2 * j] +\n"
                       "                           fine[2 * i][2 * j + 1] +\n"
                       "                           fine[2 * i + 1][2 * j + 1]);\n";
const char *Prolong = "#pragma acc parallel loop present(fine, coarse)\n"
                      "for (int i = 0; i < 2 * n; i++)\n"
                      "  for (int j = 0; j < 2 * n; j++)\n"
                      "    fine[i][j] = fine[i][j] + 0.5 * coarse[i / 2][j / 2];\n";

void runVCycle(benchmark::State &State, const char *Devices, const char *Split) {
  configure(Devices, Split);
  // Grids 512², 256², ... 4², each with a work array for the smoothing.
  std::vector<std::vector<double>> Grid, Work;
  for (int N = 512; N >= 4; N /= 2) {
    Grid.emplace_back(size_t(N) * N, 1.0);
    Work.emplace_back(size_t(N) * N, 0.0);
  }
  for (size_t L = 0; L < Grid.size(); ++L) {
    check(jacc_copyin(Grid[L].data(), bytesOf(Grid[L])), "copyin");
    check(jacc_copyin(Work[L].data(), bytesOf(Work[L])), "copyin");
  }
  auto SmoothOn = [&](size_t L) {
    int N = 512 >> L;
    double *A = Grid[L].data(), *B = Work[L].data();
    jacc_arg Args[] = {{"int n", &N}, {"const double (*a)[n]", &A}, {"double (*b)[n]", &B}};
    check(jacc_kernel_push(Smooth, 3, Args, JACC_DEFAULT), "push");
  };
  // Between grid Coarse and the one above it: Src reads or writes Fine and Coarse.
  auto Move = [&](const char *Src, double *Fine, double *C, size_t Coarse) {
    int N = 512 >> Coarse;
    jacc_arg Args[] = {
        {"int n", &N}, {"double (*fine)[2 * n]", &Fine}, {"double (*coarse)[n]", &C}};
    check(jacc_kernel_push(Src, 3, Args, JACC_DEFAULT), "push");
  };
  auto Cycle = [&] {
    for (size_t L = 0; L + 1 < Grid.size(); ++L) {
      SmoothOn(L);
      Move(Restrict, Work[L].data(), Grid[L + 1].data(), L + 1);
    }
    for (size_t L = Grid.size() - 1; L > 0; --L) {
      Move(Prolong, Grid[L - 1].data(), Grid[L].data(), L);
      SmoothOn(L - 1);
    }
  };
  warmThenTime(State, WarmSteps, Cycle);
  for (size_t L = 0; L < Grid.size(); ++L) {
    check(jacc_copyout(Grid[L].data(), bytesOf(Grid[L])), "copyout");
    check(jacc_delete(Work[L].data(), bytesOf(Work[L])), "delete");
  }
}

const char *RowPass = "#pragma acc parallel loop collapse(2) present(a)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  for (int j = 0; j < n; j++)\n"
                      "    for (int k = 1; k < n; k++)\n"
                      "      a[i][j][k] = 0.5 * (a[i][j][k] + a[i][j][k - 1]) + 0.001 * k;\n";
const char *Rotate = "#pragma acc parallel loop collapse(2) present(a, t)\n"
                     "for (int k = 0; k < n; k++)\n"
                     "  for (int i = 0; i < n; i++)\n"
                     "    for (int j = 0; j < n; j++)\n"
                     "      t[k][i][j] = a[i][j][k];\n";
const char *CopyBack = "#pragma acc parallel loop collapse(3) present(a, t)\n"
                       "for (int i = 0; i < n; i++)\n"
                       "  for (int j = 0; j < n; j++)\n"
                       "    for (int k = 0; k < n; k++)\n"
                       "      a[i][j][k] = t[i][j][k];\n";

void runTransposes(benchmark::State &State, const char *Devices, const char *Split) {
  configure(Devices, Split);
  int N = 64;
  size_t Cells = size_t(N) * N * N;
  std::vector<double> A(Cells), T(Cells, 0.0);
  for (size_t I = 0; I < Cells; ++I)
    A[I] = double(I % 13) / 13.0;
  double *Ap = A.data(), *Tp = T.data();
  check(jacc_copyin(Ap, bytesOf(A)), "copyin");
  check(jacc_create(Tp, bytesOf(T)), "create");
  jacc_arg Pass[] = {{"int n", &N}, {"double (*a)[n][n]", &Ap}};
  jacc_arg Both[] = {{"int n", &N}, {"double (*a)[n][n]", &Ap}, {"double (*t)[n][n]", &Tp}};
  auto Step = [&] {
    for (int Axis = 0; Axis < 3; ++Axis) {
      check(jacc_kernel_push(RowPass, 2, Pass, JACC_DEFAULT), "push");
      check(jacc_kernel_push(Rotate, 3, Both, JACC_DEFAULT), "push");
      check(jacc_kernel_push(CopyBack, 3, Both, JACC_DEFAULT), "push");
    }
  };
  warmThenTime(State, WarmSteps, Step);
  check(jacc_copyout(Ap, bytesOf(A)), "copyout");
  check(jacc_delete(Tp, bytesOf(T)), "delete");
  benchmark::DoNotOptimize(A.data());
}

const char *LowerPlane = "#pragma acc parallel loop present(v, ip, jp)\n"
                         "for (int p = 0; p < np; p++) {\n"
                         "  int i = ip[p], j = jp[p], k = l - i - j;\n"
                         "  double s = v[i][j][k];\n"
                         "  if (i > 0) s += 0.25 * v[i - 1][j][k];\n"
                         "  if (j > 0) s += 0.25 * v[i][j - 1][k];\n"
                         "  if (k > 0) s += 0.25 * v[i][j][k - 1];\n"
                         "  v[i][j][k] = s / 1.5;\n"
                         "}\n";
const char *UpperPlane = "#pragma acc parallel loop present(v, ip, jp)\n"
                         "for (int p = 0; p < np; p++) {\n"
                         "  int i = ip[p], j = jp[p], k = l - i - j;\n"
                         "  double s = v[i][j][k];\n"
                         "  if (i < n - 1) s += 0.2 * v[i + 1][j][k];\n"
                         "  if (j < n - 1) s += 0.2 * v[i][j + 1][k];\n"
                         "  if (k < n - 1) s += 0.2 * v[i][j][k + 1];\n"
                         "  v[i][j][k] = s / 1.4;\n"
                         "}\n";

void runWavefront(benchmark::State &State, const char *Devices, const char *Split) {
  configure(Devices, Split);
  int N = 48, Planes = 3 * N - 2;
  size_t Cells = size_t(N) * N * N;
  std::vector<double> V(Cells);
  for (size_t I = 0; I < Cells; ++I)
    V[I] = double(I % 11) / 10.0;
  // Each hyperplane's points, one table pair per plane (as LU-HP's indxp and jndxp rows).
  std::vector<std::vector<int>> Ip(Planes), Jp(Planes);
  for (int L = 0; L < Planes; ++L)
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J)
        if (L - I - J >= 0 && L - I - J < N) {
          Ip[L].push_back(I);
          Jp[L].push_back(J);
        }
  double *Vp = V.data();
  check(jacc_copyin(Vp, bytesOf(V)), "copyin");
  for (int L = 0; L < Planes; ++L) {
    check(jacc_copyin(Ip[L].data(), bytesOf(Ip[L])), "copyin");
    check(jacc_copyin(Jp[L].data(), bytesOf(Jp[L])), "copyin");
  }
  auto Plane = [&](const char *Src, int L) {
    int Np = int(Ip[L].size());
    const int *IpL = Ip[L].data(), *JpL = Jp[L].data();
    jacc_arg Args[] = {{"int n", &N},           {"int l", &L},
                       {"int np", &Np},         {"double (*v)[n][n]", &Vp},
                       {"const int *ip", &IpL}, {"const int *jp", &JpL}};
    check(jacc_kernel_push(Src, 6, Args, JACC_DEFAULT), "push");
  };
  auto Step = [&] {
    for (int L = 1; L < Planes; ++L)
      Plane(LowerPlane, L);
    for (int L = Planes - 2; L >= 0; --L)
      Plane(UpperPlane, L);
  };
  warmThenTime(State, 4, Step); // each step is 2 x 142 launches: a few fill the windows
  check(jacc_copyout(Vp, bytesOf(V)), "copyout");
  for (int L = 0; L < Planes; ++L) {
    check(jacc_delete(Ip[L].data(), bytesOf(Ip[L])), "delete");
    check(jacc_delete(Jp[L].data(), bytesOf(Jp[L])), "delete");
  }
}

void BM_AdiHost1x1(benchmark::State &S) {
  runAdi(S, "host:1x1", "auto");
}
void BM_AdiHost2x1(benchmark::State &S) {
  runAdi(S, "host:2x1", "auto");
}
void BM_AdiHost2x1Split(benchmark::State &S) {
  runAdi(S, "host:2x1", "always");
}
void BM_VCycleHost1x1(benchmark::State &S) {
  runVCycle(S, "host:1x1", "auto");
}
void BM_VCycleHost2x1(benchmark::State &S) {
  runVCycle(S, "host:2x1", "auto");
}
void BM_VCycleHost2x1Split(benchmark::State &S) {
  runVCycle(S, "host:2x1", "always");
}
void BM_TransposesHost1x1(benchmark::State &S) {
  runTransposes(S, "host:1x1", "auto");
}
void BM_TransposesHost2x1(benchmark::State &S) {
  runTransposes(S, "host:2x1", "auto");
}
void BM_TransposesHost2x1Split(benchmark::State &S) {
  runTransposes(S, "host:2x1", "always");
}
void BM_WavefrontHost1x1(benchmark::State &S) {
  runWavefront(S, "host:1x1", "auto");
}
void BM_WavefrontHost2x1(benchmark::State &S) {
  runWavefront(S, "host:2x1", "auto");
}
void BM_WavefrontHost2x1Split(benchmark::State &S) {
  runWavefront(S, "host:2x1", "always");
}
BENCHMARK(BM_AdiHost1x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AdiHost2x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AdiHost2x1Split)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VCycleHost1x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VCycleHost2x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VCycleHost2x1Split)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposesHost1x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposesHost2x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposesHost2x1Split)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WavefrontHost1x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WavefrontHost2x1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WavefrontHost2x1Split)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  RatioReporter R;
  benchmark::RunSpecifiedBenchmarks(&R);
  std::printf("\nTime of host:1x1 over host:2x1's (above 1: two devices are faster):\n");
  for (const char *Shape : {"Adi", "VCycle", "Transposes", "Wavefront"})
    for (const char *Config : {"Host2x1", "Host2x1Split"}) {
      std::string Base = std::string("BM_") + Shape + "Host1x1",
                  Other = std::string("BM_") + Shape + Config;
      double Ratio = R.ratio(Base.c_str(), Other.c_str());
      if (Ratio > 0)
        std::printf("  %-10s %-13s %.2fx\n", Shape, Config, Ratio);
    }
  check(jacc_finalize(), "finalize");
  return 0;
}
