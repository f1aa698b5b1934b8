// The C kernels jacc-translate writes for C++ compute constructs and routines
// (translate/CxxKernel.cpp, CxxRoutine.cpp): what each C++ form becomes, its located errors, and
// on the CUDA path every kernel of tests/translate/golden/cxx_*.cpp goes through the analysis and
// CUDA code generation and compiles with NVRTC for every tested architecture, its launch ABI
// checked (the host JIT compiles them in the openacc corpus). The mock driver runs such kernels
// in tests/api/CudaMockTest.cpp.
#include "translate/Translate.h"

#include "tests/jit/cuda/CudaCheck.h"
#include "tests/translate/PushedKernels.h"
#include "tests/translate/TranslateCheck.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace jacc;
using jacc::test::PushedKernel;
using jacc::test::pushedKernels;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream F(Path);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

/// Every kernel of golden/File (Count of them; Prefixes: its template kernels' parameters, see
/// pushedKernels) goes through the analysis and CUDA code generation, and compiles with NVRTC;
/// but the last NeverRun (a template's never instantiated: left as the pattern has them).
void expectGoldenKernelsCompileForCuda(const std::string &File, size_t Count,
                                       const std::vector<std::string> &Prefixes = {},
                                       size_t NeverRun = 0) {
  if (!jit::nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  std::string Source = readFile(JACC_SOURCE_DIR "/tests/translate/golden/" + File);
  ASSERT_FALSE(Source.empty()) << File;
  std::vector<std::string> Args;
  auto Out = translate::translateOpenACC(Source, File, Args);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  std::vector<PushedKernel> Kernels = pushedKernels(*Out, Prefixes);
  ASSERT_EQ(Kernels.size(), Count) << *Out;
  for (size_t I = 0; I + NeverRun < Kernels.size(); ++I) {
    const PushedKernel &K = Kernels[I];
    SCOPED_TRACE(K.Source);
    analysis::KernelInfo Info = jit::analyzeOrFail(K.Source, K.Decls);
    if (Info.Source.empty())
      continue;
    jit::expectKernelCompilesForCuda(Info);
  }
}

TEST(CxxKernelTest, EveryKernelOfTheGoldenCxxConstructsCompilesForCuda) {
  // smooth<float, 2>: what jacc.hpp spells for T and what the enum gives Width.
  expectGoldenKernelsCompileForCuda("cxx_kernels.cpp", 4,
                                    {"typedef float T;\nenum { Width = 2 };\n"});
}

TEST(CxxKernelTest, EveryInstantiationsKernelOfTheGoldenCxxTemplatesCompilesForCuda) {
  // scale<float, 2>, then scale<double, 2> and <double, 3> (one text); Field<float>, then
  // Field<double>; unused<T>, never instantiated, is not compiled here (it never runs).
  expectGoldenKernelsCompileForCuda(
      "cxx_templates.cpp", 5,
      {"typedef float T;\nenum { K = 2 };\n", "typedef double T;\nenum { K = 3 };\n",
       "typedef float T;\n", "typedef double T;\n", "typedef float T;\n"},
      /*NeverRun=*/1);
}

TEST(CxxKernelTest, TheGoldenCxxRoutinesCompileForCuda) {
  expectGoldenKernelsCompileForCuda("cxx_routines.cpp", 2);
}

/// The kernel text of the only construct of a C++ source (a test failure when it fails).
std::string translateCxx(const std::string &Source) {
  std::vector<PushedKernel> K = pushedKernels(test::translateOk(Source, {}, "t.cpp"));
  return K.size() == 1 ? K[0].Source : "";
}

std::string translateCxxError(const std::string &Source) {
  return test::translateError(Source, {}, "t.cpp");
}

TEST(CxxKernelTest, KernelsBecomeCWithTheOverloadsClangResolved) {
  std::string Out = test::translateOk("#include <cmath>\n"
                                      "struct Grid {\n"
                                      "  float *a; int n;\n"
                                      "  void f() {\n"
                                      "#pragma acc parallel loop present(a[0:n])\n"
                                      "    for (int i = 0; i < n; i++) this->a[i] = std::sqrt(a[i]) + "
                                      "std::abs(-2.0) + static_cast<float>(i);\n"
                                      "  }\n"
                                      "};\n",
                                      {}, "t.cpp");
  EXPECT_NE(Out.find("a[i] = sqrtf(a[i]) + fabs(-2.0) + (float)(i);"), std::string::npos) << Out;
  EXPECT_NE(Out.find("{\"float *a\", (void *)&this->a}"), std::string::npos) << Out;
}

TEST(CxxKernelTest, VectorIndexingInAKernelIsALocatedError) {
  EXPECT_EQ(translateCxxError("#include <vector>\n"
                              "void f(std::vector<double> &v, double *p, int n) {\n"
                              "#pragma acc parallel loop copy(p[0:n])\n"
                              "  for (int i = 0; i < n; i++) p[i] = v[i];\n"
                              "}\n"),
            "t.cpp:4:41: error: overloaded operator '[]' of 'std::vector<double>' in a compute "
            "construct is not supported by jacc-translate (kernels are C with the C++ of "
            "docs/translate.md, \"C++\")");
}

// The C function of a std:: math call is that of the type the overload computes in: its return
// type (libstdc++ promotes std::pow(float, int) to double), integers by their own abs.
TEST(CxxKernelTest, MathCallsAreTheCFunctionsOfTheTypeTheyComputeIn) {
  std::string K = translateCxx("#include <cmath>\n#include <cstdlib>\n"
                               "void f(int n, float *x, double *y, long double *z, long long *w) {\n"
                               "#pragma acc parallel loop copy(x[0:n], y[0:n], z[0:n], w[0:n])\n"
                               "  for (int i = 0; i < n; i++) {\n"
                               "    x[i] = std::pow(x[i], 2) + std::pow(x[i], 2.0f);\n"
                               "    y[i] = std::fmin(x[i], y[i]) + std::abs(x[i]) + std::cbrt(y[i]);\n"
                               "    z[i] = std::sqrt(z[i]);\n"
                               "    w[i] = std::abs(w[i]);\n"
                               "  }\n"
                               "}\n");
  EXPECT_NE(K.find("x[i] = pow(x[i], 2) + powf(x[i], 2.0f);"), std::string::npos) << K;
  EXPECT_NE(K.find("y[i] = fmin(x[i], y[i]) + fabsf(x[i]) + cbrt(y[i]);"), std::string::npos)
      << K;
  EXPECT_NE(K.find("z[i] = sqrtl(z[i]);"), std::string::npos) << K;
  EXPECT_NE(K.find("w[i] = llabs(w[i]);"), std::string::npos) << K;
}

// auto in a pointer or reference declarator: the deduced type, written whole; a reference
// declared after another declarator cannot be rewritten on its own, and says so.
TEST(CxxKernelTest, AutoPointersAndReferencesGetTheirDeducedTypes) {
  std::string K = translateCxx("struct P { double x; };\n"
                               "void f(int n, P *p) {\n"
                               "#pragma acc parallel loop copy(p[0:n])\n"
                               "  for (int i = 0; i < n; i++) {\n"
                               "    auto &r = p[i];\n"
                               "    const auto *q = &p[n - 1 - i];\n"
                               "    auto *const s = &r;\n"
                               "    r.x += q->x + s->x;\n"
                               "  }\n"
                               "}\n");
  EXPECT_NE(K.find("P *const r = &(p[i]);"), std::string::npos) << K;
  EXPECT_NE(K.find("const P *q = &p[n - 1 - i];"), std::string::npos) << K;
  EXPECT_NE(K.find("P *const s = &(*r);"), std::string::npos) << K;
  EXPECT_NE(K.find("(*r).x += q->x + s->x;"), std::string::npos) << K;
  EXPECT_EQ(translateCxxError("void f(int n, double *a, double *b) {\n"
                              "#pragma acc parallel loop copy(a[0:n], b[0:n])\n"
                              "  for (int i = 0; i < n; i++) {\n"
                              "    double &x = a[i], &y = b[i];\n"
                              "    x = y;\n"
                              "  }\n"
                              "}\n"),
            "t.cpp:4:24: error: 'y' declared with another reference or 'auto' declarator "
            "(declare each on its own) in a compute construct is not supported by "
            "jacc-translate (kernels are C with the C++ of docs/translate.md, \"C++\")");
}

} // namespace

namespace {

TEST(CxxKernelTest, RoutinesAreFoundAmongOperatorsAndConstructors) {
  // Functions whose names are not identifiers (a constructor, an operator, a conversion) sit
  // beside the routine a `routine(name)` directive looks for by name, and beside the overload
  // check of the routines a kernel calls.
  std::string Out = test::translateOk(
      "struct Acc {\n"
      "  double v;\n"
      "  Acc() : v(0) {}\n"
      "  Acc operator+(const Acc &o) const { Acc r; r.v = v + o.v; return r; }\n"
      "  operator double() const { return v; }\n"
      "};\n"
      "double twice(double x) { return 2 * x; }\n"
      "#pragma acc routine(twice) seq\n"
      "void f(double *x, int n) {\n"
      "  Acc a, b;\n"
      "  a = a + b;\n"
      "#pragma acc parallel loop copy(x[0:n])\n"
      "  for (int i = 0; i < n; i++) x[i] = twice(x[i]);\n"
      "}\n",
      {}, "t.cpp");
  EXPECT_NE(Out.find("double twice(double x)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("x[i] = twice(x[i]);"), std::string::npos) << Out;
}

} // namespace

namespace {

TEST(CxxKernelTest, NewAndDeleteOfTypesWithoutConstructorsAreTheDevicesHeap) {
  std::string K = translateCxx("typedef double real;\n"
                               "void f(int n, double *a) {\n"
                               "#pragma acc parallel loop copy(a[0:n])\n"
                               "  for (int i = 0; i < n; i++) {\n"
                               "    real *t = new real[static_cast<long>(i) + 1];\n"
                               "    int *one = new int;\n"
                               "    t[i] = a[i]; *one = 1;\n"
                               "    a[i] = t[i] + *one;\n"
                               "    delete[] t;\n"
                               "    delete one;\n"
                               "  }\n"
                               "}\n");
  EXPECT_NE(K.find("real *t = ((real *)malloc(sizeof(real) * ((long)(i) + 1)));"),
            std::string::npos)
      << K;
  EXPECT_NE(K.find("int *one = ((int *)malloc(sizeof(int)));"), std::string::npos) << K;
  EXPECT_NE(K.find("free(t);"), std::string::npos) << K;
  EXPECT_NE(K.find("free(one);"), std::string::npos) << K;
  EXPECT_EQ(translateCxxError("struct S { S() : v(1) {} double v; };\n"
                              "void f(int n, double *a) {\n"
                              "#pragma acc parallel loop copy(a[0:n])\n"
                              "  for (int i = 0; i < n; i++) { S *s = new S[2]; a[i] = s[1].v; }\n"
                              "}\n"),
            "t.cpp:4:40: error: 'new' with an initializer, placement or a type with a constructor "
            "('new T' and 'new T[n]' of a type without one are the device's malloc) in a compute "
            "construct is not supported by jacc-translate (kernels are C with the C++ of "
            "docs/translate.md, \"C++\")");
}

TEST(CxxKernelTest, StructsAssignAndTypedefAsInC) {
  // A struct typedef'd under its own name is declared once; another name is a typedef of it;
  // `a = b` of a struct without its own operator= is C's assignment.
  std::string K = translateCxx("typedef struct P { double x; } P;\n"
                               "typedef struct Q { double y; } R;\n"
                               "void f(int n, P *p, R *r) {\n"
                               "#pragma acc parallel loop copy(p[0:n], r[0:n])\n"
                               "  for (int i = 0; i < n; i++) { R q = r[n - 1 - i]; r[i] = q; "
                               "p[i].x = q.y; }\n"
                               "}\n");
  EXPECT_EQ(K.find("typedef struct P {"), std::string::npos) << K;
  EXPECT_NE(K.find("struct P { double x; }; typedef struct P P;"), std::string::npos) << K;
  EXPECT_NE(K.find("typedef struct Q R;"), std::string::npos) << K;
  EXPECT_NE(K.find("r[i] = q;"), std::string::npos) << K;
}

} // namespace
