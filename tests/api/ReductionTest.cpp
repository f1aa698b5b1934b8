// End to end: reductions. The host variable's initial value takes part exactly once, and with
// several devices (duplicate mode) every iteration counts once, not once per device.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

class ReductionTest : public DeviceTest {};

template <typename T> const char *cName();
template <> const char *cName<int>() { return "int"; }
template <> const char *cName<unsigned>() { return "unsigned"; }
template <> const char *cName<float>() { return "float"; }
template <> const char *cName<double>() { return "double"; }

/// Replaces every "T" token written as "@T" in Text by the C type name.
template <typename T> std::string withType(std::string Text) {
  for (size_t P; (P = Text.find("@T")) != std::string::npos;)
    Text.replace(P, 2, cName<T>());
  return Text;
}

// ---- + * max min on int, float, double, in one clause list ------------------------------------

const char *ArithSrc = "#pragma acc parallel loop present(x, p) reduction(+:sum) reduction(*:prod) "
                       "reduction(max:mx) reduction(min:mn)\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  sum += x[i];\n"
                       "  prod *= p[i];\n"
                       "  mx = x[i] > mx ? x[i] : mx;\n"
                       "  mn = x[i] < mn ? x[i] : mn;\n"
                       "}\n";

template <typename T> struct ArithData {
  int n;
  std::vector<T> x, p;
  explicit ArithData(int N) : n(N), x(N), p(N) {
    for (int i = 0; i < n; i++) {
      // Multiples of 1/4 (for floating types) in [-25, 25]: every partial sum is exact, so the
      // result does not depend on the order of the additions.
      int v = (i * 37) % 201 - 100;
      x[i] = std::is_integral<T>::value ? static_cast<T>(v) : static_cast<T>(v * 0.25);
      // Mostly 1; a few 2 and -1 (and 1/2 for floating types): an exact product.
      p[i] = 1;
      if (i % 211 == 3)
        p[i] = 2;
      if (i % 409 == 7)
        p[i] = static_cast<T>(-1);
      if (!std::is_integral<T>::value && i % 503 == 11)
        p[i] = static_cast<T>(0.5);
    }
  }
};

template <typename T> void runArith(int n, T sum0, T prod0, T mx0, T mn0) {
  ArithData<T> D(n);
  T sum = sum0, prod = prod0, mx = mx0, mn = mn0;
  T rsum = sum0, rprod = prod0, rmx = mx0, rmn = mn0;
  for (int i = 0; i < n; i++) {
    rsum += D.x[i];
    rprod *= D.p[i];
    rmx = D.x[i] > rmx ? D.x[i] : rmx;
    rmn = D.x[i] < rmn ? D.x[i] : rmn;
  }
  T *x = D.x.data(), *p = D.p.data();
  size_t bytes = n * sizeof(T); // n == 0: null pointers, the data calls are no-ops
  ASSERT_JACC(jacc_copyin(x, bytes));
  ASSERT_JACC(jacc_copyin(p, bytes));
  std::string Src = withType<T>(ArithSrc);
  std::string dx = withType<T>("const @T *x"), dp = withType<T>("const @T *p"),
              ds = withType<T>("@T sum"), dpr = withType<T>("@T prod"),
              dmx = withType<T>("@T mx"), dmn = withType<T>("@T mn");
  jacc_arg args[] = {{"int n", &n},         {dx.c_str(), &x},   {dp.c_str(), &p},
                     {ds.c_str(), &sum},    {dpr.c_str(), &prod}, {dmx.c_str(), &mx},
                     {dmn.c_str(), &mn}};
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 7, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, bytes));
  ASSERT_JACC(jacc_delete(p, bytes));
  // Exact: integers, or floating values whose every partial result is representable.
  EXPECT_EQ(sum, rsum);
  EXPECT_EQ(prod, rprod);
  EXPECT_EQ(mx, rmx);
  EXPECT_EQ(mn, rmn);
}

TEST_P(ReductionTest, IntSumProductMaxMin) {
  runArith<int>(3001, 100, 3, -1000, 1000);
  // Initial values that win over every element: they must take part.
  runArith<int>(3001, -7, -1, 555, -555);
}

TEST_P(ReductionTest, FloatSumProductMaxMin) {
  runArith<float>(3001, 100.0f, 3.0f, -1000.0f, 1000.0f);
  runArith<float>(3001, -7.5f, -0.25f, 555.0f, -555.0f);
}

TEST_P(ReductionTest, DoubleSumProductMaxMin) {
  runArith<double>(3001, 100.0, 3.0, -1000.0, 1000.0);
  runArith<double>(3001, -7.5, -0.25, 555.0, -555.0);
}

TEST_P(ReductionTest, EmptyLoopLeavesInitialValues) {
  runArith<int>(0, 100, 3, -1000, 1000);
  runArith<double>(0, 100.0, 3.0, -1000.0, 1000.0);
}

TEST_P(ReductionTest, FewerIterationsThanThreads) {
  runArith<int>(1, 100, 3, -1000, 1000);
  runArith<float>(2, 100.0f, 3.0f, -1000.0f, 1000.0f);
}

// reduction(-:r) with r -= x[i] (gcc's operator, OpenMP's sum): the host value minus every
// element, each counted once whatever the devices.
TEST_P(ReductionTest, MinusIsASumOfTheSubtractedTerms) {
  int n = 3001;
  std::vector<int> xv(n);
  long long Expected = 50;
  for (int i = 0; i < n; i++)
    Expected -= (xv[i] = i % 97 - 40);
  int *x = xv.data(), r = 50;
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"const int *x", &x}, {"int r", &r}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(x) reduction(-:r)\n"
                               "for (int i = 0; i < n; i++) r -= x[i];\n",
                               3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
  EXPECT_EQ(r, Expected);
}

const char *ExtremaSrc = "#pragma acc parallel loop present(x) reduction(max:mx) reduction(min:mn)\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  mx = x[i] > mx ? x[i] : mx;\n"
                         "  mn = x[i] < mn ? x[i] : mn;\n"
                         "}\n";

TEST_P(ReductionTest, MaxOfNegativesAndMinOfPositives) {
  // An identity of 0 (instead of the lowest / highest value) would show here.
  int n = 2001;
  std::vector<double> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = -1.0e6 - (i * 7919 % 1000);
  double *x = xv.data(), mx = -1.0e300, mn = -1.0;
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  jacc_arg args[] = {{"int n", &n}, {"const double *x", &x}, {"double mx", &mx},
                     {"double mn", &mn}};
  ASSERT_JACC(jacc_kernel_push(ExtremaSrc, 4, args, JACC_DEFAULT));
  EXPECT_EQ(mx, -1.0e6);
  EXPECT_EQ(mn, -1.0e6 - 999);
  for (int i = 0; i < n; i++)
    xv[i] = -xv[i];
  ASSERT_JACC(jacc_update_device(x, n * sizeof(double)));
  mx = 1.0;
  mn = 1.0e300;
  ASSERT_JACC(jacc_kernel_push(ExtremaSrc, 4, args, JACC_DEFAULT));
  EXPECT_EQ(mx, 1.0e6 + 999);
  EXPECT_EQ(mn, 1.0e6);
  ASSERT_JACC(jacc_delete(x, n * sizeof(double)));
}

// ---- bitwise and logical -------------------------------------------------------------------------

const char *BitwiseSrc = "#pragma acc parallel loop present(a, o, x) reduction(&:band) "
                         "reduction(|:bor) reduction(^:bxor)\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  band &= a[i];\n"
                         "  bor |= o[i];\n"
                         "  bxor ^= x[i];\n"
                         "}\n";

template <typename T> void runBitwise(T band0, T bor0, T bxor0) {
  int n = 4001;
  std::vector<T> av(n), ov(n), xv(n);
  for (int i = 0; i < n; i++) {
    av[i] = static_cast<T>(~(1u << (i % 19)) | 0x80000000u); // clears bits 0..18
    ov[i] = static_cast<T>(1u << (i % 23));                  // sets bits 0..22
    xv[i] = static_cast<T>(static_cast<uint32_t>(i) * 2654435761u);
  }
  T band = band0, bor = bor0, bxor = bxor0, rand_ = band0, ror = bor0, rxor = bxor0;
  for (int i = 0; i < n; i++) {
    rand_ &= av[i];
    ror |= ov[i];
    rxor ^= xv[i];
  }
  T *a = av.data(), *o = ov.data(), *x = xv.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(T)));
  ASSERT_JACC(jacc_copyin(o, n * sizeof(T)));
  ASSERT_JACC(jacc_copyin(x, n * sizeof(T)));
  std::string Src = withType<T>(BitwiseSrc);
  std::string da = withType<T>("@T *a"), dov = withType<T>("@T *o"), dx = withType<T>("@T *x"),
              d1 = withType<T>("@T band"), d2 = withType<T>("@T bor"),
              d3 = withType<T>("@T bxor");
  jacc_arg args[] = {{"int n", &n},       {da.c_str(), &a},   {dov.c_str(), &o},
                     {dx.c_str(), &x},    {d1.c_str(), &band}, {d2.c_str(), &bor},
                     {d3.c_str(), &bxor}};
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 7, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(a, n * sizeof(T)));
  ASSERT_JACC(jacc_delete(o, n * sizeof(T)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(T)));
  EXPECT_EQ(band, rand_);
  EXPECT_EQ(bor, ror);
  // An initial value combined twice (or once per device) cancels out of a xor.
  EXPECT_EQ(bxor, rxor);
}

TEST_P(ReductionTest, BitwiseOnInt) {
  runBitwise<int>(-1, 0, 0);
  runBitwise<int>(0x7ff0ffff, 0x40000000, 0x5a5a5a5a);
}

TEST_P(ReductionTest, BitwiseOnUnsigned) {
  runBitwise<unsigned>(0xffffffffu, 0u, 0u);
  runBitwise<unsigned>(0xfff0fff0u, 0x80000000u, 0xa5a5a5a5u);
}

const char *LogicalSrc = "#pragma acc parallel loop present(v) reduction(&&:all) reduction(||:any)\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  all = all && v[i] > 0;\n"
                         "  any = any || v[i] < 0;\n"
                         "}\n";

struct LogicalCase {
  int negativeAt; // -1: none
  int all0, any0;
  int all, any;
};

TEST_P(ReductionTest, LogicalAndOr) {
  int n = 3001;
  const LogicalCase Cases[] = {
      {-1, 1, 0, 1, 0},    // all positive
      {n - 1, 1, 0, 0, 1}, // the last element negative
      {0, 1, 0, 0, 1},     // the first one
      {1500, 1, 0, 0, 1},  // one in the middle
      {-1, 0, 0, 0, 0},    // initial false && ... stays false
      {-1, 1, 1, 1, 1},    // initial true || ... stays true
  };
  std::vector<int> vv(n);
  int *v = vv.data();
  ASSERT_JACC(jacc_create(v, n * sizeof(int)));
  for (const LogicalCase &C : Cases) {
    for (int i = 0; i < n; i++)
      vv[i] = i == C.negativeAt ? -5 : 1 + i % 9;
    ASSERT_JACC(jacc_update_device(v, n * sizeof(int)));
    int all = C.all0, any = C.any0;
    jacc_arg args[] = {{"int n", &n}, {"int *v", &v}, {"int all", &all}, {"int any", &any}};
    ASSERT_JACC(jacc_kernel_push(LogicalSrc, 4, args, JACC_DEFAULT));
    EXPECT_EQ(all, C.all) << "negative at " << C.negativeAt << ", all0 " << C.all0;
    EXPECT_EQ(any, C.any) << "negative at " << C.negativeAt << ", any0 " << C.any0;
  }
  ASSERT_JACC(jacc_delete(v, n * sizeof(int)));
}

const char *BoolLogicalSrc = "#pragma acc parallel loop present(v) reduction(&&:all) "
                             "reduction(||:any)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  all = all && v[i] != 3;\n"
                             "  any = any || v[i] == 3;\n"
                             "}\n";

TEST_P(ReductionTest, LogicalOnBool) {
  int n = 999;
  std::vector<int> vv(n, 1);
  vv[456] = 3;
  int *v = vv.data();
  ASSERT_JACC(jacc_copyin(v, n * sizeof(int)));
  bool all = true, any = false;
  jacc_arg args[] = {{"int n", &n}, {"int *v", &v}, {"_Bool all", &all}, {"_Bool any", &any}};
  ASSERT_JACC(jacc_kernel_push(BoolLogicalSrc, 4, args, JACC_DEFAULT));
  EXPECT_FALSE(all);
  EXPECT_TRUE(any);
  ASSERT_JACC(jacc_delete(v, n * sizeof(int)));
}

// bool, true and false without an include, as C23 spells them.
const char *BoolSpelledSrc = "#pragma acc parallel loop present(v) reduction(&&:all)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  bool small = v[i] < 3 ? true : false;\n"
                             "  all = all && small;\n"
                             "}\n";

TEST_P(ReductionTest, BoolTrueAndFalseNeedNoInclude) {
  int n = 777;
  std::vector<int> vv(n, 1);
  int *v = vv.data();
  ASSERT_JACC(jacc_copyin(v, n * sizeof(int)));
  for (int Big : {-1, 500}) {
    if (Big >= 0)
      vv[Big] = 3;
    ASSERT_JACC(jacc_update_device(v, n * sizeof(int)));
    bool all = true;
    jacc_arg args[] = {{"int n", &n}, {"int *v", &v}, {"bool all", &all}};
    ASSERT_JACC(jacc_kernel_push(BoolSpelledSrc, 3, args, JACC_DEFAULT)) << jacc_last_error();
    EXPECT_EQ(all, Big < 0);
  }
  ASSERT_JACC(jacc_delete(v, n * sizeof(int)));
}

// ---- several variables, collapse, regions, wide types ----------------------------------------

const char *MultiVarSrc = "#pragma acc parallel loop present(x) reduction(+:si, sd, sl)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  si += x[i] % 10;\n"
                          "  sd += x[i] * 0.5;\n"
                          "  sl += (long long)x[i] * 1000003;\n"
                          "}\n";

TEST_P(ReductionTest, SeveralVariablesInOneClause) {
  int n = 5003;
  std::vector<int> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 7) % 1001 - 300;
  int si = 11;
  double sd = -2.5;
  long long sl = 1LL << 40;
  int rsi = si;
  double rsd = sd;
  long long rsl = sl;
  for (int i = 0; i < n; i++) {
    rsi += xv[i] % 10;
    rsd += xv[i] * 0.5; // halves of integers: exact in any order
    rsl += (long long)xv[i] * 1000003;
  }
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  jacc_arg args[] = {{"long long sl", &sl}, {"int n", &n}, {"double sd", &sd},
                     {"const int *x", &x}, {"int si", &si}};
  ASSERT_JACC(jacc_kernel_push(MultiVarSrc, 5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
  EXPECT_EQ(si, rsi);
  EXPECT_EQ(sd, rsd);
  EXPECT_EQ(sl, rsl);
}

const char *Collapse2ReductionSrc =
    "#pragma acc parallel loop collapse(2) present(a) reduction(+:sum) reduction(max:mx)\n"
    "for (int i = 0; i < n; i++)\n"
    "  for (int j = 0; j < m; j++) {\n"
    "    sum += a[i * m + j] * (i + 1);\n"
    "    mx = a[i * m + j] - j > mx ? a[i * m + j] - j : mx;\n"
    "  }\n";

TEST_P(ReductionTest, ReductionWithCollapse2) {
  int n = 47, m = 53;
  std::vector<long long> av(n * m);
  for (int i = 0; i < n * m; i++)
    av[i] = (i * 6151) % 9973 - 5000;
  long long sum = -12345, mx = -1000000, rsum = sum, rmx = mx;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      rsum += av[i * m + j] * (i + 1);
      rmx = av[i * m + j] - j > rmx ? av[i * m + j] - j : rmx;
    }
  long long *a = av.data();
  ASSERT_JACC(jacc_copyin(a, av.size() * sizeof(long long)));
  jacc_arg args[] = {{"int n", &n}, {"int m", &m}, {"const long long *a", &a},
                     {"long long sum", &sum}, {"long long mx", &mx}};
  ASSERT_JACC(jacc_kernel_push(Collapse2ReductionSrc, 5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(a, av.size() * sizeof(long long)));
  EXPECT_EQ(sum, rsum);
  EXPECT_EQ(mx, rmx);
}

const char *LoopReductionInRegionSrc = "#pragma acc parallel present(x, y)\n"
                                       "{\n"
                                       "  #pragma acc loop reduction(+:s)\n"
                                       "  for (int i = 0; i < n; i++)\n"
                                       "    s += x[i];\n"
                                       "  #pragma acc loop reduction(+:s)\n"
                                       "  for (int i = 0; i < n; i++)\n"
                                       "    s += 2 * y[i];\n"
                                       "}\n";

TEST_P(ReductionTest, LoopReductionInsideParallelRegion) {
  int n = 6007;
  std::vector<unsigned long long> xv(n), yv(n);
  for (int i = 0; i < n; i++) {
    xv[i] = 1000000007ULL * (i % 97);
    yv[i] = 3ULL * i;
  }
  unsigned long long s = 5, ref = 5;
  for (int i = 0; i < n; i++)
    ref += xv[i];
  for (int i = 0; i < n; i++)
    ref += 2 * yv[i];
  unsigned long long *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(unsigned long long)));
  ASSERT_JACC(jacc_copyin(y, n * sizeof(unsigned long long)));
  jacc_arg args[] = {{"int n", &n}, {"unsigned long long *x", &x}, {"unsigned long long *y", &y},
                     {"unsigned long long s", &s}};
  ASSERT_JACC(jacc_kernel_push(LoopReductionInRegionSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(unsigned long long)));
  ASSERT_JACC(jacc_delete(y, n * sizeof(unsigned long long)));
  EXPECT_EQ(s, ref);
}

const char *SerialLoopReductionSrc = "#pragma acc serial loop present(x) reduction(+:s)\n"
                                     "for (int i = 0; i < n; i++)\n"
                                     "  s += x[i] * (i % 5);\n";

TEST_P(ReductionTest, SerialLoopReduction) {
  int n = 2500;
  std::vector<long> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = i - 1000;
  long s = 77, ref = 77;
  for (int i = 0; i < n; i++)
    ref += xv[i] * (i % 5);
  long *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(long)));
  jacc_arg args[] = {{"int n", &n}, {"const long *x", &x}, {"long s", &s}};
  ASSERT_JACC(jacc_kernel_push(SerialLoopReductionSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(long)));
  EXPECT_EQ(s, ref);
}

const char *FloatSumSrc = "#pragma acc parallel loop present(x) reduction(+:s)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  s += x[i] * x[i];\n";

TEST_P(ReductionTest, FloatingSumInAnyOrderWithinTolerance) {
  // Values with rounding: the summation order differs from the serial one, so compare within a
  // tight relative tolerance (n = 100003 terms of similar magnitude).
  int n = 100003;
  std::vector<double> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = 0.1 + 1e-3 * (i % 1013);
  double s = 1.0 / 3.0, ref = s;
  for (int i = 0; i < n; i++)
    ref += xv[i] * xv[i];
  double *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  jacc_arg args[] = {{"int n", &n}, {"const double *x", &x}, {"double s", &s}};
  ASSERT_JACC(jacc_kernel_push(FloatSumSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(double)));
  EXPECT_REL(s, ref, 1e-12);
  // Counted once per device would be about devices() times too large.
}

TEST_P(ReductionTest, RepeatedPushesStartFromTheCurrentHostValue) {
  int n = 1000;
  std::vector<int> xv(n, 1);
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  int sum = 0, prod = 1, mx = -1, mn = 1;
  // Reuse the int arithmetic kernel: sum grows by n each time.
  std::string Src = withType<int>(ArithSrc);
  jacc_arg args[] = {{"int n", &n},   {"const int *x", &x},  {"const int *p", &x},
                     {"int sum", &sum}, {"int prod", &prod}, {"int mx", &mx},
                     {"int mn", &mn}};
  for (int r = 1; r <= 5; r++) {
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 7, args, JACC_DEFAULT));
    EXPECT_EQ(sum, r * n);
    EXPECT_EQ(prod, 1);
    EXPECT_EQ(mx, 1);
    EXPECT_EQ(mn, 1);
  }
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
}

JACC_DEVICE_CONFIGS(ReductionTest);

// A tiny kernel soon runs its team's members in turn on the launching thread (a fork costs
// more than its work), with the team's partition: its rounded sum is the one the team computes,
// push after push, bit for bit. One device of two threads: the reduction's partials are the
// threads', and no chooser alternates split and duplicate runs.
TEST(TinyReductionTest, EveryPushRoundsTheSumTheSameWay) {
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
  setenv("JACC_DEVICES", "host:1", 1);
  setenv("JACC_HOST_THREADS", "2", 1);
  ASSERT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
  const char *Src = "#pragma acc parallel loop present(x) reduction(+:s)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  s += x[i];\n";
  // Magnitudes far apart: each order of the additions rounds to a different float.
  int n = 14;
  std::vector<float> xv = {1e8f, 3.f, -1e8f, 5.f,  7.f, 1e-3f, 11.f,
                           2e7f, 13.f, -2e7f, 17.f, 0.5f, 19.f, 4e-4f};
  float *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(float)));
  std::vector<float> Sums;
  for (int Push = 0; Push < 200; ++Push) {
    float s = 0;
    jacc_arg args[] = {{"int n", &n}, {"const float *x", &x}, {"float s", &s}};
    ASSERT_JACC(jacc_kernel_push(Src, 3, args, JACC_DEFAULT));
    Sums.push_back(s);
  }
  ASSERT_JACC(jacc_delete(x, n * sizeof(float)));
  for (size_t Push = 1; Push < Sums.size(); ++Push)
    ASSERT_EQ(std::memcmp(&Sums[Push], &Sums[0], sizeof(float)), 0)
        << "push " << Push << ": " << Sums[Push] << " after " << Sums[0];
  unsetenv("JACC_HOST_THREADS");
  EXPECT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
}

} // namespace
