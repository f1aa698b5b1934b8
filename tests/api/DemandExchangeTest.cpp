// End to end: JACC_EXCHANGE=demand (the default). A split launch moves nothing after the kernel;
// before it, each device fetches the part of what it reads that it does not hold current. The
// byte counts between devices are exact where the pattern fixes them; the results are compared
// with serial references on host:1 .. host:4.
#include "tests/api/ExchangePatterns.h"
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"
#include "jacc/openacc.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

using jacc_test::stats;
using namespace jacc_patterns;

class DemandExchangeTest : public DeviceTest {
protected:
  uint64_t ndev() const { return static_cast<uint64_t>(devices()); }
};

uint64_t d2d() {
  return stats().bytes_device_to_device;
}
uint64_t d2h() {
  return stats().bytes_device_to_host;
}

template <typename T> size_t bytesOf(const std::vector<T> &V) {
  return V.size() * sizeof(T);
}

/// Push Src with Args and Flags (JACC_FORCE_SPLIT unless told), asserting success.
void push(const char *Src, std::vector<jacc_arg> Args, unsigned Flags = JACC_FORCE_SPLIT) {
  ASSERT_EQ(jacc_kernel_push(Src, static_cast<int>(Args.size()), Args.data(), Flags), JACC_SUCCESS)
      << jacc_last_error() << "\n"
      << Src;
}

const char *IncrementSrc = "#pragma acc parallel loop present(x, y)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  y[i] = y[i] + x[i];\n";

TEST_P(DemandExchangeTest, SaxpyHundredTimesMovesNothingBetweenDevices) {
  int n = 10007;
  std::vector<float> xv(n, 1.0f), yv(n, 2.0f);
  float *x = xv.data(), *y = yv.data();
  ASSERT_EQ(jacc_copyin(x, bytesOf(xv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(y, bytesOf(yv)), JACC_SUCCESS);
  jacc_reset_stats();
  for (int r = 0; r < 100; r++)
    ASSERT_NO_FATAL_FAILURE(
        push(IncrementSrc, {{"int n", &n}, {"const float *x", &x}, {"float *y", &y}}));
  EXPECT_EQ(stats().split_launches, 100u);
  EXPECT_EQ(d2d(), 0u);
  // The copyout takes each device's part from it: every byte of y once.
  ASSERT_EQ(jacc_copyout(y, bytesOf(yv)), JACC_SUCCESS);
  EXPECT_EQ(d2h(), bytesOf(yv));
  EXPECT_EQ(d2d(), 0u);
  ASSERT_EQ(jacc_delete(x, bytesOf(xv)), JACC_SUCCESS);
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], 102.0f) << i;
}

const char *JacobiSrc =
    "#pragma acc parallel loop present(a, anew)\n"
    "for (int i = 1; i < r - 1; i++)\n"
    "  for (int j = 1; j < c - 1; j++)\n"
    "    anew[i][j] = 0.25 * (a[i-1][j] + a[i+1][j] + a[i][j-1] + a[i][j+1]);\n";
const char *CopyBackSrc = "#pragma acc parallel loop present(a, anew)\n"
                          "for (int i = 1; i < r - 1; i++)\n"
                          "  for (int j = 1; j < c - 1; j++)\n"
                          "    a[i][j] = anew[i][j];\n";

/// Sweeps of a 5-point Jacobi on an r x c grid, Sweep then CopyBack (split by rows or by
/// columns; Flat: the arrays passed as `double *`), from zeroed counters: the first sweep moves
/// nothing, each later one HaloPerSweep bytes between the devices; an update self gathers every
/// byte of a once from the devices that computed it; both arrays end as the serial sweeps leave
/// them.
void jacobiSweeps(const char *Sweep, const char *CopyBack, int r, int c, uint64_t HaloPerSweep,
                  bool Flat = false) {
  int Sweeps = 6;
  std::vector<double> av(r * c), nv(r * c, 0.0);
  for (int i = 0; i < r * c; i++)
    av[i] = (i * 37) % 101;
  std::vector<double> ref = av, rnew = nv;
  for (int s = 0; s < Sweeps; s++) {
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++)
        rnew[i * c + j] = 0.25 * (ref[(i - 1) * c + j] + ref[(i + 1) * c + j] + ref[i * c + j - 1] +
                                  ref[i * c + j + 1]);
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++)
        ref[i * c + j] = rnew[i * c + j];
  }
  double *a = av.data(), *anew = nv.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(anew, bytesOf(nv)), JACC_SUCCESS);
  std::vector<jacc_arg> Args = {{"int r", &r},
                                {"int c", &c},
                                {Flat ? "double *a" : "double (*a)[c]", &a},
                                {Flat ? "double *anew" : "double (*anew)[c]", &anew}};
  jacc_reset_stats();
  for (int s = 0; s < Sweeps; s++) {
    uint64_t Before = d2d();
    ASSERT_NO_FATAL_FAILURE(push(Sweep, Args));
    ASSERT_NO_FATAL_FAILURE(push(CopyBack, Args));
    EXPECT_EQ(d2d() - Before, s == 0 ? 0u : HaloPerSweep) << "sweep " << s;
  }
  EXPECT_EQ(stats().split_launches, 2u * Sweeps);
  uint64_t D2D = d2d(), D2H = d2h();
  ASSERT_EQ(jacc_update_self(a, bytesOf(av)), JACC_SUCCESS);
  EXPECT_EQ(d2h() - D2H, bytesOf(av));
  EXPECT_EQ(d2d(), D2D);
  EXPECT_EQ(av, ref);
  ASSERT_EQ(jacc_copyout(anew, bytesOf(nv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
  EXPECT_EQ(nv, rnew);
}

TEST_P(DemandExchangeTest, JacobiSweepsMoveTwoHaloRowsPerBoundary) {
  // For every boundary between two devices, the row on each side of it.
  int r = 64, c = 40;
  jacobiSweeps(JacobiSrc, CopyBackSrc, r, c, (ndev() - 1) * 2 * c * sizeof(double));
}

TEST_P(DemandExchangeTest, LinearizedJacobiSweepsMoveTheHaloRowsTheirReadsReach) {
  // 60 rows: every device owns whole rows. Each device runs its own rows only (the writes
  // narrow through the stride c) and fetches the row above its first but that row's first
  // element, and the row below its last but that row's last: the reads' hull.
  int r = 60, c = 40;
  jacobiSweeps(FlatJacobiSrc, FlatCopyBackSrc, r, c, (ndev() - 1) * 2 * (c - 1) * sizeof(double),
               true);
}

const char *FillSrc = "#pragma acc parallel loop present(a)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  a[i] = 3 * i + 1;\n";
const char *ShiftSrc = "#pragma acc parallel loop present(a, b)\n"
                       "for (int i = 0; i < n - k; i++)\n"
                       "  b[i] = a[i + k];\n";

/// The bytes of a that b[i] = a[i + k], split over NDev devices, fetches after a split fill of
/// a: device D's part of a is [n D / N, n (D + 1) / N); it reads a[i + k] for i in its share of
/// [0, n - k).
uint64_t shiftHalo(int n, int k, uint64_t NDev) {
  uint64_t Fetched = 0;
  for (uint64_t D = 0; D < NDev; D++) {
    long long Own = n * (D + 1) / NDev;
    long long ReadEnd = (n - k) * (D + 1) / NDev + k;
    Fetched += ReadEnd > Own ? ReadEnd - Own : 0;
  }
  return Fetched * sizeof(int);
}

/// a[i] = 3i + 1 split, then b[i] = a[i + k] split with Flags: each device owns the elements its
/// share of each loop's iterations writes, and fetches what it reads of a beyond its part, from
/// the next device.
void shiftedRead(unsigned Flags, uint64_t NDev) {
  int n = 1000, k = 3;
  std::vector<int> av(n, 0), bv(n, -1);
  int *a = av.data(), *b = bv.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(b, bytesOf(bv)), JACC_SUCCESS);
  jacc_reset_stats();
  ASSERT_NO_FATAL_FAILURE(push(FillSrc, {{"int n", &n}, {"int *a", &a}}, Flags));
  ASSERT_NO_FATAL_FAILURE(
      push(ShiftSrc, {{"int n", &n}, {"int k", &k}, {"const int *a", &a}, {"int *b", &b}}, Flags));
  ASSERT_EQ(jacc_wait(), JACC_SUCCESS);
  EXPECT_EQ(shiftHalo(n, k, NDev) > 0, NDev > 1);
  EXPECT_EQ(d2d(), shiftHalo(n, k, NDev));
  ASSERT_EQ(jacc_copyout(b, bytesOf(bv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyout(a, bytesOf(av)), JACC_SUCCESS);
  for (int i = 0; i < n; i++) {
    ASSERT_EQ(av[i], 3 * i + 1) << i;
    ASSERT_EQ(bv[i], i < n - k ? 3 * (i + k) + 1 : -1) << i;
  }
}

TEST_P(DemandExchangeTest, ArrayReadShiftedByTheNextKernel) {
  shiftedRead(JACC_FORCE_SPLIT, ndev());
}

TEST_P(DemandExchangeTest, AsyncQueueFetchesBeforeTheKernelThatReads) {
  shiftedRead(JACC_FORCE_SPLIT | JACC_ASYNC, ndev());
}

const char *ScaledFillSrc = "#pragma acc parallel loop present(a)\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  a[i] = c * i + 1;\n";

/// Pushes ScaledFillSrc with c, split.
void scaledFill(int n, int c, int *a) {
  ASSERT_NO_FATAL_FAILURE(push(ScaledFillSrc, {{"int n", &n}, {"int c", &c}, {"int *a", &a}}));
}

/// Pushes ShiftSrc (b[i] = a[i + k]), split, and checks b against a[i] = c i + 1 on the host.
void shiftAndCheck(int n, int k, int *a, int *b, int c) {
  ASSERT_NO_FATAL_FAILURE(
      push(ShiftSrc, {{"int n", &n}, {"int k", &k}, {"const int *a", &a}, {"int *b", &b}}));
  ASSERT_EQ(jacc_update_self(b, (n - k) * sizeof(int)), JACC_SUCCESS);
  for (int i = 0; i < n - k; i++)
    ASSERT_EQ(b[i], c * (i + k) + 1) << "b[" << i << "], a[i] = " << c << " i + 1";
}

TEST_P(DemandExchangeTest, AHaloItsOwnerRewroteIsFetchedAgainByARememberedLaunch) {
  // The shifts over a created array find every range they read held (a created copy is as
  // good as any), and remember it. The fill then writes each device's halo on its neighbour:
  // the same launch again (the same ranges, remembered) must notice and fetch it.
  int n = 1000, k = 3;
  std::vector<int> av(n, 0), bv(n, -1);
  int *a = av.data(), *b = bv.data();
  ASSERT_EQ(jacc_create(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(b, bytesOf(bv)), JACC_SUCCESS);
  for (int Time = 0; Time < 3; Time++)
    ASSERT_NO_FATAL_FAILURE(
        push(ShiftSrc, {{"int n", &n}, {"int k", &k}, {"const int *a", &a}, {"int *b", &b}}));
  ASSERT_NO_FATAL_FAILURE(scaledFill(n, 3, a));
  jacc_reset_stats();
  ASSERT_NO_FATAL_FAILURE(shiftAndCheck(n, k, a, b, 3));
  EXPECT_EQ(d2d(), shiftHalo(n, k, ndev()));
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(b, bytesOf(bv)), JACC_SUCCESS);
}

TEST_P(DemandExchangeTest, AnOwnerRewritingWhatAnotherDeviceFetchedTakesThatCopyOff) {
  // Each shift fetches the neighbour's first k elements; each fill rewrites them where they
  // are owned, which must leave the fetched copies stale, though the filling device held its
  // part alone when the same fill last ran.
  int n = 1000, k = 3;
  std::vector<int> av(n, 0), bv(n, -1);
  int *a = av.data(), *b = bv.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(b, bytesOf(bv)), JACC_SUCCESS);
  for (int c = 2; c < 6; c++) {
    ASSERT_NO_FATAL_FAILURE(scaledFill(n, c, a));
    jacc_reset_stats();
    ASSERT_NO_FATAL_FAILURE(shiftAndCheck(n, k, a, b, c));
    EXPECT_EQ(d2d(), shiftHalo(n, k, ndev())) << "c = " << c;
  }
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(b, bytesOf(bv)), JACC_SUCCESS);
}

TEST_P(DemandExchangeTest, UpdateSelfOfTheLastDevicesPart) {
  int n = 4000;
  std::vector<int> av(n, 0);
  int *a = av.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(push(FillSrc, {{"int n", &n}, {"int *a", &a}}));
  jacc_reset_stats();
  // The last 100 elements: the last device's part.
  ASSERT_EQ(jacc_update_self(a + n - 100, 100 * sizeof(int)), JACC_SUCCESS);
  EXPECT_EQ(d2h(), 100 * sizeof(int));
  EXPECT_EQ(d2d(), 0u);
  for (int i = 0; i < n; i++)
    ASSERT_EQ(av[i], i >= n - 100 ? 3 * i + 1 : 0) << i;
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
}

const char *ReverseSrc = "#pragma acc parallel loop present(y, z)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  z[i] = y[n - 1 - i];\n";
const char *DoubleSrc = "#pragma acc parallel loop present(y, z)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  y[i] = 2 * z[i];\n";

TEST_P(DemandExchangeTest, SplitAndDuplicateLaunchesAlternate) {
  int n = 3001;
  std::vector<int> yv(n), zv(n, 0);
  for (int i = 0; i < n; i++)
    yv[i] = i;
  int *y = yv.data(), *z = zv.data();
  ASSERT_EQ(jacc_copyin(y, bytesOf(yv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(z, bytesOf(zv)), JACC_SUCCESS);
  std::vector<jacc_arg> Args = {{"int n", &n}, {"int *y", &y}, {"int *z", &z}};
  std::vector<int> ry = yv, rz = zv;
  for (int Round = 0; Round < 3; Round++) {
    // z reversed from y: every device of a duplicate launch needs all of y.
    ASSERT_NO_FATAL_FAILURE(
        push(ReverseSrc, Args, Round % 2 ? JACC_FORCE_SPLIT : JACC_FORCE_DUPLICATE));
    ASSERT_NO_FATAL_FAILURE(push(DoubleSrc, Args, JACC_FORCE_SPLIT));
    for (int i = 0; i < n; i++)
      rz[i] = ry[n - 1 - i];
    for (int i = 0; i < n; i++)
      ry[i] = 2 * rz[i];
  }
  ASSERT_EQ(jacc_copyout(z, bytesOf(zv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyout(y, bytesOf(yv)), JACC_SUCCESS);
  EXPECT_EQ(yv, ry);
  EXPECT_EQ(zv, rz);
}

TEST_P(DemandExchangeTest, DeviceAddressesSeeTheCurrentData) {
  int n = 2048;
  std::vector<int> av(n, 0);
  int *a = av.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(push(FillSrc, {{"int n", &n}, {"int *a", &a}}));
  // Each device's copy, read through its device address, holds the whole result.
  for (int D = 0; D < devices(); D++) {
    acc_set_device_num(D, acc_device_host);
    std::vector<int> Got(n, -1);
    acc_memcpy_from_device(Got.data(), acc_deviceptr(a), bytesOf(Got));
    for (int i = 0; i < n; i++)
      ASSERT_EQ(Got[i], 3 * i + 1) << "device " << D << ", element " << i;
  }
  acc_set_device_num(0, acc_device_host);
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
}

TEST_P(DemandExchangeTest, Stencil3DTimeLoopMovesOnePlaneEachWay) {
  int nx = 24, ny = 10, nz = 12, Steps = 6;
  size_t Plane = size_t(ny) * nz;
  std::vector<double> av(nx * Plane), bv(nx * Plane, 0.0);
  for (size_t i = 0; i < av.size(); i++)
    av[i] = double((i * 31) % 97);
  std::vector<double> ra = av, rb = bv;
  double *a = av.data(), *b = bv.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(b, bytesOf(bv)), JACC_SUCCESS);
  jacc_reset_stats();
  for (int t = 0; t < Steps; t++) {
    uint64_t Before = d2d();
    ASSERT_NO_FATAL_FAILURE(push(Stencil3DSrc, {{"int nx", &nx},
                                                {"int ny", &ny},
                                                {"int nz", &nz},
                                                {"const double (*a)[ny][nz]", &a},
                                                {"double (*b)[ny][nz]", &b}}));
    // From the second step on, the plane on each side of every boundary between devices.
    EXPECT_EQ(d2d() - Before, t == 0 ? 0u : (ndev() - 1) * 2 * Plane * sizeof(double))
        << "step " << t;
    auto At = [&](std::vector<double> &V, int i, int j, int k) -> double & {
      return V[(size_t(i) * ny + j) * nz + k];
    };
    for (int i = 1; i < nx - 1; i++)
      for (int j = 1; j < ny - 1; j++)
        for (int k = 1; k < nz - 1; k++)
          At(rb, i, j, k) =
              (At(ra, i - 1, j, k) + At(ra, i + 1, j, k) + At(ra, i, j - 1, k) +
               At(ra, i, j + 1, k) + At(ra, i, j, k - 1) + At(ra, i, j, k + 1) + At(ra, i, j, k)) /
              7.0;
    std::swap(a, b);
    std::swap(ra, rb);
  }
  ASSERT_EQ(jacc_copyout(av.data(), bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyout(bv.data(), bytesOf(bv)), JACC_SUCCESS);
  // An even number of steps: the last result is in av.
  EXPECT_EQ(av, ra);
  EXPECT_EQ(bv, rb);
}

/// Black-Scholes prices of n options on the current devices, pushed Reps times.
void blackScholes(int n, int Reps, std::vector<double> &Call, std::vector<double> &Put) {
  jacc_patterns::Options O(n);
  std::vector<double> &sv = O.S, &xv = O.X, &tv = O.T;
  Call.assign(n, 0.0);
  Put.assign(n, 0.0);
  double r = 0.02, v = 0.3;
  double *s = sv.data(), *x = xv.data(), *t = tv.data(), *c = Call.data(), *p = Put.data();
  for (std::vector<double> *V : {&sv, &xv, &tv, &Call, &Put})
    ASSERT_EQ(jacc_copyin(V->data(), bytesOf(*V)), JACC_SUCCESS);
  for (int k = 0; k < Reps; k++)
    ASSERT_NO_FATAL_FAILURE(push(BlackScholesSrc, {{"int n", &n},
                                                   {"double r", &r},
                                                   {"double v", &v},
                                                   {"const double *s", &s},
                                                   {"const double *x", &x},
                                                   {"const double *t", &t},
                                                   {"double *call", &c},
                                                   {"double *put", &p}}));
  ASSERT_EQ(jacc_copyout(c, bytesOf(Call)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyout(p, bytesOf(Put)), JACC_SUCCESS);
  for (std::vector<double> *V : {&sv, &xv, &tv})
    ASSERT_EQ(jacc_delete(V->data(), bytesOf(*V)), JACC_SUCCESS);
}

TEST_P(DemandExchangeTest, BlackScholesMapMovesNothingAndMatchesOneDevice) {
  int n = 5000;
  std::vector<double> Call, Put, Call1, Put1;
  jacc_reset_stats();
  ASSERT_NO_FATAL_FAILURE(blackScholes(n, 10, Call, Put));
  EXPECT_EQ(d2d(), 0u);
  // The same kernel on one device: the same code, so the same bits.
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  setenv("JACC_DEVICES", "host:1", 1);
  ASSERT_EQ(jacc_init(), JACC_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(blackScholes(n, 1, Call1, Put1));
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  setenv("JACC_DEVICES", GetParam(), 1);
  ASSERT_EQ(jacc_init(), JACC_SUCCESS);
  EXPECT_EQ(Call, Call1);
  EXPECT_EQ(Put, Put1);
}

TEST_P(DemandExchangeTest, ConjugateGradientFetchesOnlyWhatTheMatVecReads) {
  // A 1-D Laplacian (2, -1) with one long-range coupling per row, in CSR: the mat-vec reads p
  // through col[], so each device needs all of p; everything else stays on its owner.
  int n = 1200, Iters = 8;
  jacc_patterns::Csr A(n);
  std::vector<int> &rowptr = A.RowPtr, &col = A.Col;
  std::vector<double> &val = A.Val;
  int nnz = static_cast<int>(col.size());
  std::vector<double> xv(n, 0.0), rv(n), pv(n), qv(n, 0.0);
  for (int i = 0; i < n; i++)
    rv[i] = pv[i] = 1.0 + (i % 7);
  int *rp = rowptr.data(), *cp = col.data();
  double *vp = val.data(), *x = xv.data(), *r = rv.data(), *p = pv.data(), *q = qv.data();
  ASSERT_EQ(jacc_copyin(rp, (n + 1) * sizeof(int)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(cp, nnz * sizeof(int)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(vp, nnz * sizeof(double)), JACC_SUCCESS);
  for (std::vector<double> *V : {&xv, &rv, &pv, &qv})
    ASSERT_EQ(jacc_copyin(V->data(), bytesOf(*V)), JACC_SUCCESS);
  auto Dot = [&](double *a, double *b) {
    double d = 0.0;
    push(DotSrc,
         {{"int n", &n}, {"const double *a", &a}, {"const double *b", &b}, {"double d", &d}});
    return d;
  };
  auto Axpy = [&](double alpha, double *xa, double *ya) {
    push(AxpySrc,
         {{"int n", &n}, {"double alpha", &alpha}, {"const double *x", &xa}, {"double *y", &ya}});
  };
  double rr = Dot(r, r), rr0 = rr;
  jacc_reset_stats();
  for (int it = 0; it < Iters; it++) {
    uint64_t Before = d2d();
    ASSERT_NO_FATAL_FAILURE(push(MatVecSrc, {{"int n", &n},
                                             {"const int *rowptr", &rp},
                                             {"const int *col", &cp},
                                             {"const double *val", &vp},
                                             {"const double *p", &p},
                                             {"double *q", &q}}));
    // The mat-vec fetches the parts of p the other devices wrote (none in the first
    // iteration, where p is as copied in); dots and axpys read only what each device owns.
    EXPECT_EQ(d2d() - Before, it == 0 ? 0u : (ndev() - 1) * n * sizeof(double)) << it;
    double alpha = rr / Dot(p, q);
    Axpy(alpha, p, x);
    Axpy(-alpha, q, r);
    double rr2 = Dot(r, r);
    // p = r + (rr2 / rr) p, as an axpy on a scaled p: p = (rr2/rr) * p + r.
    double beta = rr2 / rr;
    ASSERT_NO_FATAL_FAILURE(
        push(DirectionSrc,
             {{"int n", &n}, {"double beta", &beta}, {"const double *r", &r}, {"double *p", &p}}));
    rr = rr2;
  }
  EXPECT_EQ(d2d(), (Iters - 1) * (ndev() - 1) * n * sizeof(double));
  ASSERT_EQ(jacc_copyout(x, bytesOf(xv)), JACC_SUCCESS);
  for (std::vector<double> *V : {&rv, &pv, &qv})
    ASSERT_EQ(jacc_delete(V->data(), bytesOf(*V)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(rp, (n + 1) * sizeof(int)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(cp, nnz * sizeof(int)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(vp, nnz * sizeof(double)), JACC_SUCCESS);
  // The residual fell: the iterations computed CG steps (the dots combine in another order on
  // several devices, so the bits may differ from one device's).
  EXPECT_LT(rr, 1e-3 * rr0);
}

const char *ColumnJacobiSrc =
    "#pragma acc parallel loop present(a, anew)\n"
    "for (int i = 1; i < c - 1; i++)\n"
    "  for (int j = 1; j < r - 1; j++)\n"
    "    anew[j][i] = 0.25 * (a[j-1][i] + a[j+1][i] + a[j][i-1] + a[j][i+1]);\n";
const char *ColumnCopyBackSrc = "#pragma acc parallel loop present(a, anew)\n"
                                "for (int i = 1; i < c - 1; i++)\n"
                                "  for (int j = 1; j < r - 1; j++)\n"
                                "    a[j][i] = anew[j][i];\n";

TEST_P(DemandExchangeTest, ColumnSplitSweepsMoveOneHaloColumnEachWay) {
  // The devices own bands of columns, in every row (the split knows no row bounds): for every
  // boundary, the column on each side of it, all r rows, each in one strided copy.
  int r = 48, c = 70;
  jacobiSweeps(ColumnJacobiSrc, ColumnCopyBackSrc, r, c, (ndev() - 1) * 2 * r * sizeof(double));
}

const char *ColumnFillSrc = "#pragma acc parallel loop present(a)\n"
                            "for (int i = 0; i < c; i++)\n"
                            "  for (int j = 0; j < r; j++)\n"
                            "    a[j][i] = 1000 * j + i + k;\n";

TEST_P(DemandExchangeTest, UpdateSelfOfAColumnBandTakesItFromItsOwner) {
  int r = 20, c = 64, k = 7;
  std::vector<int> av(r * c, -1);
  int *a = av.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  std::vector<jacc_arg> Args = {{"int r", &r}, {"int c", &c}, {"int k", &k}, {"int (*a)[c]", &a}};
  ASSERT_NO_FATAL_FAILURE(push(ColumnFillSrc, Args));
  jacc_reset_stats();
  // Rows 3 .. 9 of the second device's columns (the last device's on host:1): a strided part
  // of a contiguous range; the rest of the range comes from the other owners.
  ASSERT_EQ(jacc_update_self(a + 3 * c, 7 * c * sizeof(int)), JACC_SUCCESS);
  EXPECT_EQ(d2h(), 7 * c * sizeof(int));
  EXPECT_EQ(d2d(), 0u);
  for (int j = 0; j < r; j++)
    for (int i = 0; i < c; i++)
      ASSERT_EQ(av[j * c + i], j >= 3 && j < 10 ? 1000 * j + i + k : -1) << j << ", " << i;
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
}

const char *ColumnAddSrc = "#pragma acc parallel loop present(a, b)\n"
                           "for (int i = 0; i < c; i++)\n"
                           "  for (int j = 0; j < r; j++)\n"
                           "    b[j][i] = a[j][i] + 1;\n";
const char *RowScaleSrc = "#pragma acc parallel loop present(a)\n"
                          "for (int j = 0; j < r; j++)\n"
                          "  for (int i = 0; i < c; i++)\n"
                          "    a[j][i] = 2 * a[j][i] + j;\n";

TEST_P(DemandExchangeTest, RepeatedColumnLaunchFetchesOnceAnotherSplitWroteItsInput) {
  // The same column launch again finds what it read current and moves nothing; once a row
  // split rewrote its input, each device fetches its columns of the other devices' rows.
  int r = 48, c = 48;
  std::vector<double> av(r * c), bv(r * c, 0.0);
  for (int k = 0; k < r * c; k++)
    av[k] = k % 17;
  double *a = av.data(), *b = bv.data();
  ASSERT_EQ(jacc_copyin(a, bytesOf(av)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(b, bytesOf(bv)), JACC_SUCCESS);
  std::vector<jacc_arg> Args = {
      {"int r", &r}, {"int c", &c}, {"double (*a)[c]", &a}, {"double (*b)[c]", &b}};
  jacc_reset_stats();
  for (int Round = 0; Round < 2; Round++)
    ASSERT_NO_FATAL_FAILURE(push(ColumnAddSrc, Args));
  EXPECT_EQ(d2d(), 0u);
  ASSERT_NO_FATAL_FAILURE(push(RowScaleSrc, {Args[0], Args[1], Args[2]}));
  EXPECT_EQ(d2d(), 0u);
  ASSERT_NO_FATAL_FAILURE(push(ColumnAddSrc, Args));
  EXPECT_EQ(d2d(), r * c * sizeof(double) * (ndev() - 1) / ndev());
  uint64_t Moved = d2d();
  ASSERT_NO_FATAL_FAILURE(push(ColumnAddSrc, Args));
  EXPECT_EQ(d2d(), Moved);
  std::vector<double> Want(r * c);
  for (int j = 0; j < r; j++)
    for (int i = 0; i < c; i++)
      Want[j * c + i] = 2 * av[j * c + i] + j + 1;
  ASSERT_EQ(jacc_copyout(b, bytesOf(bv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(a, bytesOf(av)), JACC_SUCCESS);
  EXPECT_EQ(bv, Want);
}

const char *WindowStencilSrc = "#pragma acc parallel loop present(in, out)\n"
                               "for (int i = w; i < n - w; i++) {\n"
                               "  double s = 0;\n"
                               "  for (int k = i - w; k <= i + w; k++)\n"
                               "    s += in[k];\n"
                               "  out[i] = s;\n"
                               "}\n";

TEST_P(DemandExchangeTest, InnerWindowLoopStencilMovesOnlyTheHalo) {
  int n = 3000, w = 2, Steps = 6;
  std::vector<double> uv(n), vv(n, 0.0);
  for (int i = 0; i < n; i++)
    uv[i] = (i * 11) % 23;
  std::vector<double> ru = uv, rv = vv;
  double *in = uv.data(), *out = vv.data();
  ASSERT_EQ(jacc_copyin(in, bytesOf(uv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(out, bytesOf(vv)), JACC_SUCCESS);
  jacc_reset_stats();
  for (int t = 0; t < Steps; t++) {
    uint64_t Before = d2d();
    ASSERT_NO_FATAL_FAILURE(push(WindowStencilSrc, {{"int n", &n},
                                                    {"int w", &w},
                                                    {"const double *in", &in},
                                                    {"double *out", &out}}));
    // The window reaches w elements past each end of a device's part: from the second step on,
    // w elements each way per boundary.
    EXPECT_EQ(d2d() - Before, t == 0 ? 0u : (ndev() - 1) * 2 * w * sizeof(double)) << "step " << t;
    std::swap(in, out);
    for (int i = w; i < n - w; i++) {
      double s = 0;
      for (int k = i - w; k <= i + w; k++)
        s += ru[k];
      rv[i] = s;
    }
    std::swap(ru, rv);
  }
  EXPECT_EQ(stats().split_launches, static_cast<uint64_t>(Steps));
  ASSERT_EQ(jacc_copyout(uv.data(), bytesOf(uv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyout(vv.data(), bytesOf(vv)), JACC_SUCCESS);
  EXPECT_EQ(uv, ru);
  EXPECT_EQ(vv, rv);
}

const char *PlanesSrc = "#pragma acc parallel loop present(u, r)\n"
                        "for (int k = 0; k < nz; k++)\n"
                        "  for (int j = 0; j < ny; j++)\n"
                        "    for (int m = 0; m < 2; m++)\n"
                        "      for (int i = 0; i < nx; i++)\n"
                        "        r[m][k][j][i] = 2 * u[m][k][j][i];\n";
// NPB SP's boundary planes: one plane kb, split along j, reading the next two planes of u.
const char *BoundaryPlaneSrc = "#pragma acc parallel loop present(u, r)\n"
                               "for (int j = 0; j < ny; j++)\n"
                               "  for (int m = 0; m < 2; m++)\n"
                               "    for (int i = 0; i < nx; i++)\n"
                               "      r[m][kb][j][i] = r[m][kb][j][i] - u[m][kb + 1][j][i] + "
                               "u[m][kb + 2][j][i];\n";

TEST_P(DemandExchangeTest, BoundaryPlaneSplitAlongAnotherAxisMovesThatPlaneOnly) {
  // Planes split along k, then plane 0 split along j: each device but the plane's owner fetches
  // its rows of that plane of r (of both m blocks), and u, never written, not at all; the next
  // k split takes back the rows of plane 0 the others wrote. Not the rows of every plane.
  int nz = 12, ny = 12, nx = 8, kb = 0, Steps = 3;
  size_t Elems = 2 * size_t(nz) * ny * nx;
  std::vector<double> uv(Elems), rv(Elems, 0.0);
  for (size_t e = 0; e < Elems; e++)
    uv[e] = double((e * 13) % 29);
  double *u = uv.data(), *r = rv.data();
  ASSERT_EQ(jacc_copyin(u, bytesOf(uv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_copyin(r, bytesOf(rv)), JACC_SUCCESS);
  std::vector<jacc_arg> Args = {{"int nz", &nz},
                                {"int ny", &ny},
                                {"int nx", &nx},
                                {"int kb", &kb},
                                {"const double (*u)[nz][ny][nx]", &u},
                                {"double (*r)[nz][ny][nx]", &r}};
  std::vector<jacc_arg> PlaneArgs = {Args[0], Args[1], Args[2], Args[4], Args[5]};
  uint64_t OthersRows = 2 * uint64_t(ny - ny / ndev()) * nx * sizeof(double);
  jacc_reset_stats();
  for (int t = 0; t < Steps; t++) {
    uint64_t Before = d2d();
    ASSERT_NO_FATAL_FAILURE(push(PlanesSrc, PlaneArgs));
    EXPECT_EQ(d2d() - Before, t == 0 ? 0u : OthersRows) << "planes, step " << t;
    Before = d2d();
    ASSERT_NO_FATAL_FAILURE(push(BoundaryPlaneSrc, Args));
    EXPECT_EQ(d2d() - Before, OthersRows) << "boundary plane, step " << t;
  }
  EXPECT_EQ(stats().split_launches, 2u * Steps);
  std::vector<double> Want(Elems);
  auto At = [&](int m, int k, int j, int i) { return ((size_t(m) * nz + k) * ny + j) * nx + i; };
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < nz; k++)
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
          Want[At(m, k, j, i)] = 2 * uv[At(m, k, j, i)] -
                                 (k == kb ? uv[At(m, kb + 1, j, i)] - uv[At(m, kb + 2, j, i)] : 0);
  ASSERT_EQ(jacc_copyout(r, bytesOf(rv)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(u, bytesOf(uv)), JACC_SUCCESS);
  EXPECT_EQ(rv, Want);
}

INSTANTIATE_TEST_SUITE_P(Devices, DemandExchangeTest,
                         ::testing::Values("host:1", "host:2", "host:3", "host:4"),
                         deviceConfigName);

} // namespace
