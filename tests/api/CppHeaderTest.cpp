// End to end: the C++ helper jacc.hpp. Declarations deduced from C++ types, exact strings, pushes
// with lvalue and rvalue arguments, and reductions written back through an lvalue.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using jacc::detail::declare;

class CppHeaderTest : public DeviceTest {};

// ---- declaration strings (no device needed, but cheap enough to run per configuration) --------

TEST_P(CppHeaderTest, DeclareScalars) {
  EXPECT_EQ(declare<int>("n"), "int n");
  EXPECT_EQ(declare<const int>("n"), "const int n");
  EXPECT_EQ(declare<volatile int>("v"), "volatile int v");
  EXPECT_EQ(declare<unsigned>("u"), "unsigned int u");
  EXPECT_EQ(declare<char>("c"), "char c");
  EXPECT_EQ(declare<signed char>("c"), "signed char c");
  EXPECT_EQ(declare<unsigned char>("c"), "unsigned char c");
  EXPECT_EQ(declare<short>("s"), "short s");
  EXPECT_EQ(declare<unsigned short>("s"), "unsigned short s");
  EXPECT_EQ(declare<long>("l"), "long l");
  EXPECT_EQ(declare<unsigned long>("l"), "unsigned long l");
  EXPECT_EQ(declare<long long>("v"), "long long v");
  EXPECT_EQ(declare<unsigned long long>("v"), "unsigned long long v");
  EXPECT_EQ(declare<float>("a"), "float a");
  EXPECT_EQ(declare<double>("a"), "double a");
  EXPECT_EQ(declare<long double>("a"), "long double a");
  EXPECT_EQ(declare<bool>("b"), "_Bool b"); // the kernel is C
}

TEST_P(CppHeaderTest, DeclarePointersAndArrays) {
  EXPECT_EQ(declare<float *>("x"), "float *x");
  EXPECT_EQ(declare<const double *>("x"), "const double *x");
  EXPECT_EQ(declare<float *const>("p"), "float *const p");
  EXPECT_EQ(declare<const float *const>("p"), "const float *const p");
  EXPECT_EQ(declare<unsigned char *>("c"), "unsigned char *c");
  EXPECT_EQ(declare<double(*)[8]>("a"), "double (*a)[8]");
  EXPECT_EQ(declare<const double(*)[8]>("a"), "const double (*a)[8]");
  EXPECT_EQ(declare<int(*)[3][4]>("a"), "int (*a)[3][4]");
  EXPECT_EQ(declare<double[8]>("a"), "double a[8]");
  EXPECT_EQ(declare<double[2][8]>("a"), "double a[2][8]");
}

TEST_P(CppHeaderTest, ArgDeducesDeclarationsAndValues) {
  float *x = nullptr;
  const double *cx = nullptr;
  double(*grid)[8] = nullptr;
  int n = 42;
  const int cn = 7;
  bool flag = true;
  EXPECT_EQ(jacc::arg("x", x).decl(), "float *x");
  EXPECT_EQ(jacc::arg("x", cx).decl(), "const double *x");
  EXPECT_EQ(jacc::arg("a", grid).decl(), "double (*a)[8]");
  EXPECT_EQ(jacc::arg("n", n).decl(), "int n");
  EXPECT_EQ(jacc::arg("n", cn).decl(), "const int n");
  EXPECT_EQ(jacc::arg("f", flag).decl(), "_Bool f");
  EXPECT_EQ(jacc::arg("a", 2.0f).decl(), "float a");
  EXPECT_EQ(jacc::arg("k", 3).decl(), "int k");
  EXPECT_EQ(jacc::arg("m", std::size_t{9}).decl(), "unsigned long m");

  // Lvalues are referenced (a reduction result goes back through them) ...
  jacc::Arg N = jacc::arg("n", n), X = jacc::arg("x", x);
  EXPECT_EQ(N.get().value, static_cast<void *>(&n));
  EXPECT_STREQ(N.get().decl, "int n");
  EXPECT_EQ(X.get().value, static_cast<void *>(&x));
  // ... rvalue scalars are copied into the Arg, and a copy of an Arg owns its own copy.
  jacc::Arg A = jacc::arg("a", 2.5);
  jacc::Arg B = A;
  double va = 0, vb = 0;
  std::memcpy(&va, A.get().value, sizeof va);
  std::memcpy(&vb, B.get().value, sizeof vb);
  EXPECT_EQ(va, 2.5);
  EXPECT_EQ(vb, 2.5);
  EXPECT_NE(A.get().value, B.get().value);
  EXPECT_EQ(B.decl(), "double a");
}

// ---- pushes ------------------------------------------------------------------------------------

const char *SaxpySrc = "#pragma acc parallel loop present(x, y)\n"
                       "for (int i = 0; i < n; i++)\n"
                       "  y[i] = a * x[i] + y[i];\n";

TEST_P(CppHeaderTest, SaxpyWithDeducedDeclarations) {
  int n = 4097;
  std::vector<float> xv(n), yv(n), ref(n);
  for (int i = 0; i < n; i++) {
    xv[i] = 0.5f * (i % 100);
    yv[i] = ref[i] = static_cast<float>(i % 9);
  }
  for (int i = 0; i < n; i++)
    ref[i] = 2.0f * xv[i] + ref[i];
  const float *x = xv.data();
  float *y = yv.data();
  ASSERT_JACC(jacc_copyin(xv.data(), n * sizeof(float)));
  ASSERT_JACC(jacc_copyin(y, n * sizeof(float)));
  // "int n", "float a" (an rvalue), "const float *x", "float *y".
  ASSERT_JACC(jacc::push(SaxpySrc, jacc::arg("n", n), jacc::arg("a", 2.0f), jacc::arg("x", x),
                         jacc::arg("y", y)));
  ASSERT_JACC(jacc_copyout(y, n * sizeof(float)));
  ASSERT_JACC(jacc_delete(xv.data(), n * sizeof(float)));
  for (int i = 0; i < n; i++)
    ASSERT_REL(yv[i], ref[i], 1e-6) << i;
}

const char *GridSrc = "#pragma acc parallel loop collapse(2) present(in, out)\n"
                      "for (int i = 0; i < rows; i++)\n"
                      "  for (int j = 0; j < 8; j++)\n"
                      "    out[i][j] = in[i][j] * 2.0 + s * j;\n";

TEST_P(CppHeaderTest, TwoDimensionalArraysWithConstantRowLength) {
  const int Rows = 33;
  std::vector<double> inv(Rows * 8), outv(Rows * 8, 0);
  for (int i = 0; i < Rows * 8; i++)
    inv[i] = i * 0.25;
  const double(*in)[8] = reinterpret_cast<const double(*)[8]>(inv.data());
  double(*out)[8] = reinterpret_cast<double(*)[8]>(outv.data());
  ASSERT_JACC(jacc_copyin(inv.data(), inv.size() * sizeof(double)));
  ASSERT_JACC(jacc_create(out, outv.size() * sizeof(double)));
  ASSERT_JACC(jacc::push(GridSrc, jacc::arg("rows", Rows), jacc::arg("s", 0.5),
                         jacc::arg("in", in), jacc::arg("out", out)));
  ASSERT_JACC(jacc_copyout(out, outv.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(inv.data(), inv.size() * sizeof(double)));
  for (int i = 0; i < Rows; i++)
    for (int j = 0; j < 8; j++)
      ASSERT_EQ(outv[i * 8 + j], inv[i * 8 + j] * 2.0 + 0.5 * j) << i << "," << j;
}

const char *CArraySrc = "#pragma acc parallel loop present(v)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  v[i] = v[i] * 3 + i;\n";

TEST_P(CppHeaderTest, CArrayArgumentDecaysToAPointer) {
  // A C array declares "int v[64]", which a C parameter list adjusts to "int *v": the value
  // passed must be the address of a pointer to the first element, not the array's own address.
  int v[64];
  for (int i = 0; i < 64; i++)
    v[i] = i + 1;
  ASSERT_JACC(jacc_copyin(v, sizeof v));
  EXPECT_EQ(jacc::arg("v", v).decl(), "int v[64]");
  ASSERT_JACC(jacc::push(CArraySrc, jacc::arg("n", 64), jacc::arg("v", v)));
  ASSERT_JACC(jacc_copyout(v, sizeof v));
  for (int i = 0; i < 64; i++)
    ASSERT_EQ(v[i], (i + 1) * 3 + i) << i;
}

const char *ReduceSrc = "#pragma acc parallel loop present(x) reduction(+:s) reduction(max:mx)\n"
                        "for (int i = 0; i < n; i++) {\n"
                        "  s += x[i];\n"
                        "  mx = x[i] > mx ? x[i] : mx;\n"
                        "}\n";

TEST_P(CppHeaderTest, ReductionThroughAnLvalue) {
  int n = 10001;
  std::vector<double> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = 0.5 * ((i * 31) % 1001) - 200;
  double s = 10.0, mx = -1e300, rs = s, rmx = mx;
  for (int i = 0; i < n; i++) {
    rs += xv[i];
    rmx = xv[i] > rmx ? xv[i] : rmx;
  }
  const double *x = xv.data();
  ASSERT_JACC(jacc_copyin(xv.data(), n * sizeof(double)));
  ASSERT_JACC(jacc::push(ReduceSrc, jacc::arg("n", n), jacc::arg("x", x), jacc::arg("s", s),
                         jacc::arg("mx", mx)));
  EXPECT_EQ(s, rs); // halves of integers: exact in any order
  EXPECT_EQ(mx, rmx);
  ASSERT_JACC(jacc_delete(xv.data(), n * sizeof(double)));
}

TEST_P(CppHeaderTest, AsyncPushWithRvalueScalarsAndReduction) {
  int n = 20011;
  std::vector<double> xv(n, 1.5);
  const double *x = xv.data();
  double s = 0, mx = 0;
  ASSERT_JACC(jacc_copyin(xv.data(), n * sizeof(double)));
  // The rvalue n lives in a temporary Arg: its value must be taken at the push.
  ASSERT_JACC(jacc::push_flags(JACC_ASYNC, ReduceSrc, jacc::arg("n", n + 0), jacc::arg("x", x),
                               jacc::arg("s", s), jacc::arg("mx", mx)));
  ASSERT_JACC(jacc_wait());
  EXPECT_EQ(s, 1.5 * n);
  EXPECT_EQ(mx, 1.5);
  ASSERT_JACC(jacc_delete(xv.data(), n * sizeof(double)));
}

TEST_P(CppHeaderTest, ErrorsComeBackAsStatus) {
  std::vector<float> xv(8, 1.0f), yv(8, 2.0f);
  const float *x = xv.data();
  float *y = yv.data();
  // Nothing mapped.
  EXPECT_EQ(jacc::push(SaxpySrc, jacc::arg("n", 8), jacc::arg("a", 1.0f), jacc::arg("x", x),
                       jacc::arg("y", y)),
            JACC_ERROR_NOT_PRESENT);
  EXPECT_NE(std::string(jacc_last_error()).find("const float *x"), std::string::npos)
      << jacc_last_error();
  // A double where the kernel's a was meant as a float is still valid C: the decl follows the
  // C++ type. A missing argument is not.
  ASSERT_JACC(jacc_copyin(xv.data(), 8 * sizeof(float)));
  ASSERT_JACC(jacc_copyin(y, 8 * sizeof(float)));
  EXPECT_EQ(jacc::push(SaxpySrc, jacc::arg("n", 8), jacc::arg("x", x), jacc::arg("y", y)),
            JACC_ERROR_COMPILE);
  EXPECT_NE(std::string(jacc_last_error()).find("undeclared identifier 'a'"), std::string::npos)
      << jacc_last_error();
  ASSERT_JACC(jacc::push(SaxpySrc, jacc::arg("n", 8), jacc::arg("a", 1.0), jacc::arg("x", x),
                         jacc::arg("y", y)));
  ASSERT_JACC(jacc_copyout(y, 8 * sizeof(float)));
  ASSERT_JACC(jacc_delete(xv.data(), 8 * sizeof(float)));
  EXPECT_EQ(yv, std::vector<float>(8, 3.0f));
}

JACC_DEVICE_CONFIGS(CppHeaderTest);

} // namespace
