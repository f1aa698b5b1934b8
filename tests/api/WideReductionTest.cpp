// End to end: reductions on long double and complex scalars (16- and 32-byte values), and complex
// arguments the kernel only reads. Values are chosen so that every partial result is exact: the
// result does not depend on how the iterations are shared.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

namespace {

class WideReductionTest : public DeviceTest {};

// std::complex<T> has the layout of C's T _Complex: the jacc_arg values point to them.
using CFloat = std::complex<float>;
using CDouble = std::complex<double>;
using CLong = std::complex<long double>;

const char *LongDoubleSrc = "#pragma acc parallel loop present(x) reduction(+:s) reduction(*:p)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  s += x[i];\n"
                            "  p *= (i % 100 == 7) ? 2.0L : 1.0L;\n"
                            "}\n";

TEST_P(WideReductionTest, LongDoubleSumKeepsBitsADoubleWouldLose) {
  int n = 1000;
  std::vector<long double> xv(n, 0x1p-62L); // 1 + k * 2^-62 is exact in long double only
  long double *x = xv.data();
  long double s = 1.0L, p = 0.5L;
  ASSERT_JACC(jacc_copyin(x, n * sizeof(long double)));
  jacc_arg args[] = {{"int n", &n}, {"const long double *x", &x}, {"long double s", &s},
                     {"long double p", &p}};
  ASSERT_JACC(jacc_kernel_push(LongDoubleSrc, 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(long double)));
  EXPECT_EQ(s, 1.0L + 1000 * 0x1p-62L);
  EXPECT_NE(s, 1.0L);
  EXPECT_EQ(p, 0x1p9L); // 0.5 * 2^10
}

/// Sums and products of complex values of type C: x[i] has parts that are multiples of 1/4, the
/// factors are 1, i or 2 (i^k and powers of two are exact).
template <typename C> void runComplex(const char *Type) {
  int n = 2001;
  std::vector<C> xv(n);
  C rs(1.5, -2), rp(0.5, 0);
  for (int i = 0; i < n; i++) {
    xv[i] = C(((i * 37) % 201 - 100) * 0.25, ((i * 11) % 81 - 40) * 0.25);
    rs += xv[i];
    C f = i % 301 == 5 ? C(0, 1) : i % 503 == 2 ? C(2, 0) : C(1, 0);
    rp *= f;
  }
  C *x = xv.data(), s(1.5, -2), p(0.5, 0);
  std::string Src = "#pragma acc parallel loop present(x) reduction(+:s) reduction(*:p)\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  s += x[i];\n"
                    "  p *= i % 301 == 5 ? I : i % 503 == 2 ? 2 : 1;\n"
                    "}\n";
  // The kernel includes <complex.h> for I, as a C program does.
  Src = "#include <complex.h>\n" + Src;
  std::string T = Type, dx = "const " + T + " *x", ds = T + " s", dp = T + " p";
  ASSERT_JACC(jacc_copyin(x, n * sizeof(C)));
  jacc_arg args[] = {{"int n", &n}, {dx.c_str(), &x}, {ds.c_str(), &s}, {dp.c_str(), &p}};
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 4, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(C)));
  EXPECT_EQ(s, rs) << Type;
  EXPECT_EQ(p, rp) << Type;
}

TEST_P(WideReductionTest, FloatComplexSumAndProduct) { runComplex<CFloat>("float _Complex"); }
TEST_P(WideReductionTest, DoubleComplexSumAndProduct) { runComplex<CDouble>("double _Complex"); }
TEST_P(WideReductionTest, LongDoubleComplexSumAndProduct) {
  runComplex<CLong>("long double _Complex");
}

TEST_P(WideReductionTest, ComplexArgumentsAreReadByValue) {
  // A long double _Complex (32 bytes) is wider than an argument cell: it is passed from a copy.
  int n = 100;
  std::vector<CDouble> yv(n);
  CDouble *y = yv.data(), a(0.5, -1.5);
  CLong w(2.25L, 0x1p-62L);
  CFloat f(-1, 3);
  ASSERT_JACC(jacc_create(y, n * sizeof(CDouble)));
  jacc_arg args[] = {{"int n", &n},
                     {"double _Complex *y", &y},
                     {"double _Complex a", &a},
                     {"long double _Complex w", &w},
                     {"float _Complex f", &f}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(y)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  y[i] = a * i + (double _Complex)w + f;\n",
                               5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(CDouble)));
  for (int i = 0; i < n; i++)
    EXPECT_EQ(yv[i], CDouble(0.5 * i + 2.25 - 1, -1.5 * i + 3)) << i;
}

TEST_P(WideReductionTest, LongDoubleArraySection) {
  // Two 16-byte slots per element, then the section's first index.
  int n = 999;
  std::vector<long double> h(6, 1.0L);
  long double *hp = h.data();
  int j = 2;
  jacc_arg args[] = {{"int n", &n}, {"int j", &j}, {"long double *h", &hp}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop reduction(+:h[j:3])\n"
                               "for (int i = 0; i < n; i++) h[j + i % 3] += 0x1p-62L;\n",
                               3, args, JACC_DEFAULT));
  EXPECT_EQ(h[0], 1.0L);
  EXPECT_EQ(h[1], 1.0L);
  for (int e = 2; e < 5; e++)
    EXPECT_EQ(h[e], 1.0L + 333 * 0x1p-62L) << e;
  EXPECT_EQ(h[5], 1.0L);
}

TEST_P(WideReductionTest, ComplexMaxIsAnErrorNamingTheRule) {
  int n = 10;
  CDouble z(0, 0);
  jacc_arg args[] = {{"int n", &n}, {"double _Complex z", &z}};
  EXPECT_NE(jacc_kernel_push("#pragma acc parallel loop reduction(max:z)\n"
                             "for (int i = 0; i < n; i++) z += i;\n",
                             2, args, JACC_DEFAULT),
            JACC_SUCCESS);
  std::string Msg = jacc_last_error();
  EXPECT_NE(Msg.find("is reduced with + or * only (OpenACC 3.3 2.5.15)"), std::string::npos)
      << Msg;
}

JACC_DEVICE_CONFIGS(WideReductionTest);

} // namespace
