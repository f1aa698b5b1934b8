// Tests of complex values in CUDA kernels: the arithmetic pasted in front of them, compiled here
// as host C++ and compared with std::complex, and the spelling of C's complex types.
#include "jit/cuda/CudaComplex.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <vector>

namespace device {
// What CUDA's math library provides for double and float, as the kernel text calls it.
using std::asin;
using std::atan2;
using std::copysign;
using std::cos;
using std::cosh;
using std::exp;
using std::fabs;
using std::fmax;
using std::fmin;
using std::hypot;
using std::log;
using std::sin;
using std::sinh;
using std::sqrt;
JACC_CUDA_COMPLEX_DEFINITION
} // namespace device

namespace {

using device::__jacc_complex;
using Z = std::complex<double>;

Z host(__jacc_complex<double> V) {
  return {V.re, V.im};
}
__jacc_complex<double> dev(Z V) {
  return {V.real(), V.imag()};
}

void expectNear(Z Got, Z Want, const char *What) {
  double Tol = 1e-12 * std::max(1.0, std::abs(Want));
  EXPECT_NEAR(Got.real(), Want.real(), Tol) << What;
  EXPECT_NEAR(Got.imag(), Want.imag(), Tol) << What;
}

const std::vector<Z> Values = {{1.5, -2.25}, {-0.75, 0.5}, {3, 0}, {0, -4}, {-2, -1e-3}, {1e-8, 2}};

TEST(CudaComplexTest, ArithmeticIsC99s) {
  for (Z A : Values)
    for (Z B : Values) {
      expectNear(host(dev(A) + dev(B)), A + B, "+");
      expectNear(host(dev(A) - dev(B)), A - B, "-");
      expectNear(host(dev(A) * dev(B)), A * B, "*");
      expectNear(host(dev(A) / dev(B)), A / B, "/");
      EXPECT_EQ(dev(A) == dev(B), A == B);
      EXPECT_EQ(dev(A) != dev(B), A != B);
    }
  // Mixed with real operands, of any arithmetic type, either side.
  __jacc_complex<double> V = dev({1.5, -2.25});
  expectNear(host(V + 2), Z(3.5, -2.25), "complex + int");
  expectNear(host(2.0 * V), Z(3, -4.5), "double * complex");
  expectNear(host(1 - V), Z(-0.5, 2.25), "int - complex");
  expectNear(host(3.0 / V), 3.0 / Z(1.5, -2.25), "double / complex");
  expectNear(host(-V), Z(-1.5, 2.25), "unary -");
  V += 1;
  V *= dev({0, 1});
  V /= 2.0f;
  V -= __jacc_complex<float>(0.5f, 0.5f);
  expectNear(host(V), (Z(2.5, -2.25) * Z(0, 1)) / 2.0 - Z(0.5, 0.5), "compound assignments");
  EXPECT_EQ((double)V, V.re);
  EXPECT_TRUE((bool)__jacc_complex<double>(0, 1));
  EXPECT_FALSE((bool)__jacc_complex<double>(0, 0));
  EXPECT_TRUE(!__jacc_complex<double>(0, 0));
}

TEST(CudaComplexTest, MixedPrecisionFollowsTheUsualArithmeticConversions) {
  __jacc_complex<float> F(1.5f, 2);
  // float complex op double: double complex; op int: float complex.
  static_assert(std::is_same_v<decltype(F * 2.0), __jacc_complex<double>>);
  static_assert(std::is_same_v<decltype(F * 2), __jacc_complex<float>>);
  static_assert(std::is_same_v<decltype(2.0f * F), __jacc_complex<float>>);
  static_assert(std::is_same_v<decltype(F + __jacc_complex<double>(1)), __jacc_complex<double>>);
  static_assert(sizeof(__jacc_complex<double>) == 16 && alignof(__jacc_complex<double>) == 8);
  static_assert(sizeof(__jacc_complex<float>) == 8 && alignof(__jacc_complex<float>) == 4);
  expectNear(host(F * 2.0), Z(3, 4), "float complex * double");
}

TEST(CudaComplexTest, ComplexHFunctionsAreThePrincipalValues) {
  using device::cpow;
  struct Function {
    const char *Name;
    std::function<__jacc_complex<double>(__jacc_complex<double>)> Device;
    std::function<Z(Z)> Host;
  } Functions[] = {
      {"cexp", device::cexp, [](Z V) { return std::exp(V); }},
      {"clog", device::clog, [](Z V) { return std::log(V); }},
      {"csqrt", device::csqrt, [](Z V) { return std::sqrt(V); }},
      {"csin", device::csin, [](Z V) { return std::sin(V); }},
      {"ccos", device::ccos, [](Z V) { return std::cos(V); }},
      {"ctan", device::ctan, [](Z V) { return std::tan(V); }},
      {"csinh", device::csinh, [](Z V) { return std::sinh(V); }},
      {"ccosh", device::ccosh, [](Z V) { return std::cosh(V); }},
      {"ctanh", device::ctanh, [](Z V) { return std::tanh(V); }},
      {"casin", device::casin, [](Z V) { return std::asin(V); }},
      {"cacos", device::cacos, [](Z V) { return std::acos(V); }},
      {"catan", device::catan, [](Z V) { return std::atan(V); }},
      {"conj", device::conj, [](Z V) { return std::conj(V); }},
      {"cpow(z, 0.5 - i)", [](auto V) { return cpow(V, __jacc_complex<double>(0.5, -1)); },
       [](Z V) { return std::pow(V, Z(0.5, -1)); }},
  };
  for (const Function &F : Functions)
    for (Z V : Values)
      expectNear(host(F.Device(dev(V))), F.Host(V), F.Name);
  for (Z V : Values) {
    EXPECT_NEAR(device::cabs(dev(V)), std::abs(V), 1e-14);
    EXPECT_NEAR(device::carg(dev(V)), std::arg(V), 1e-14);
    EXPECT_EQ(device::creal(dev(V)), V.real());
    EXPECT_EQ(device::cimag(dev(V)), V.imag());
  }
  // The float forms, and pow's special cases.
  std::complex<float> Fv(0.5f, -1.5f);
  __jacc_complex<float> Fd(0.5f, -1.5f);
  __jacc_complex<float> E = device::cexpf(Fd);
  EXPECT_NEAR(E.re, std::exp(Fv).real(), 1e-6);
  EXPECT_NEAR(E.im, std::exp(Fv).imag(), 1e-6);
  EXPECT_EQ(host(cpow(dev({2, 3}), 0.0)), Z(1, 0));
  EXPECT_EQ(host(cpow(0.0, dev({2, 3}))), Z(0, 0));
}

TEST(CudaComplexTest, CsComplexTypesAreSpelledAsTheTemplate) {
  auto Spell = [](const char *Src, bool Macro) {
    bool Changed = false;
    std::string Out = jacc::jit::spellComplexForCuda(Src, Macro, Changed);
    return std::make_pair(Out, Changed);
  };
  EXPECT_EQ(Spell("const double _Complex *z; _Complex float w;\nfloat\t_Complex  v = 0;", false),
            std::make_pair(std::string("const __jacc_complex<double> *z; __jacc_complex<float> "
                                       "w;\n__jacc_complex<float>  v = 0;"),
                           true));
  // <complex.h>'s `complex` only when the kernel includes it; comments and strings are kept.
  EXPECT_EQ(Spell("double complex a; complex double b;", true).first,
            "__jacc_complex<double> a; __jacc_complex<double> b;");
  EXPECT_EQ(Spell("double complex a;", false),
            std::make_pair(std::string("double complex a;"), false));
  EXPECT_EQ(
      Spell("/* double _Complex */ s = \"float _Complex\"; c = '_'; my_Complex double x;", false),
      std::make_pair(std::string("/* double _Complex */ s = \"float _Complex\"; c = '_'; "
                                 "my_Complex double x;"),
                     false));
}

} // namespace
