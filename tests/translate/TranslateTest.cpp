// Tests of translateOpenACC as a library call: preprocessor options, error reporting, and the
// shape of a translation. The full outputs are checked by tests/translate (golden files).
#include "translate/Translate.h"

#include "support/Error.h"
#include "tests/translate/TranslateCheck.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::translate;

namespace {

using jacc::test::translateError;
using jacc::test::translateOk;

constexpr const char *Saxpy = "void saxpy(int n, float a, const float *x, float *y) {\n"
                              "#pragma acc parallel loop copyin(x[0:n]) copy(y[0:N])\n"
                              "  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n"
                              "}\n";

TEST(Translate, PushesTheConstructWithArgumentsFromClangTypes) {
  std::string Out = translateOk(Saxpy, {"-DN=64"});
  EXPECT_EQ(Out.rfind("#include <jacc/jacc.h>\n", 0), 0u) << Out;
  EXPECT_NE(Out.find("{{\"int n\", (void *)&n}, {\"float *y\", (void *)&y}, "
                     "{\"float a\", (void *)&a}, {\"const float *x\", (void *)&x}}"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("jacc_copyin((void *)&x[0], n * sizeof x[0])"), std::string::npos) << Out;
  // Macros in clauses are expanded (the command line's -D included).
  EXPECT_NE(Out.find("jacc_copyout(&y[0], 64 * sizeof y[0])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\"#pragma acc parallel loop\\n\""), std::string::npos) << Out;
  // No directive is left for cc (the construct's text is kept in a comment).
  EXPECT_EQ(Out.find("\n#pragma acc"), std::string::npos) << Out;
  // cc's diagnostics name the user's lines: the file from its first line, the line after the
  // construct again after the code that replaced it.
  EXPECT_NE(Out.find("*/\n#line 1 \"t.c\"\nvoid saxpy("), std::string::npos) << Out;
  EXPECT_NE(Out.find("\n#line 4 \"t.c\"\n}\n"), std::string::npos) << Out;
}

TEST(Translate, SeparateAndJoinedOptions) {
  EXPECT_FALSE(translateOk(Saxpy, {"-D", "N=8", "-I", "/nonexistent", "-std=c99"}).empty());
  EXPECT_NE(translateError(Saxpy, {"-DN=8", "-O2"}).find("unsupported compiler option '-O2'"),
            std::string::npos);
}

TEST(Translate, ClangErrorsAndUnsupportedDirectivesAreErrors) {
  // clang's diagnostics, with the file's name.
  std::string C = translateError("void f(float *a) {\n#pragma acc parallel\n  a[0] = q;\n}\n");
  EXPECT_NE(C.find("t.c:3:10: error: use of undeclared identifier 'q'"), std::string::npos) << C;
  std::string E = translateError("int g;\n#pragma acc declare link(g)\n"
                                 "void f(void) {\n#pragma acc shutdown device_type(gpu)\n}\n");
  EXPECT_NE(E.find("t.c:2:21: error: clause 'link' of '#pragma acc declare' is not supported"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("t.c:4:22: error: unknown device type 'gpu' in clause 'device_type': jacc "
                   "knows host (multicore), nvidia, radeon, default and *"),
            std::string::npos)
      << E;
}

TEST(Translate, CrlfSourcesGiveKernelsWithoutCarriageReturns) {
  std::string Crlf;
  for (char C : llvm::StringRef(Saxpy))
    Crlf += C == '\n' ? std::string("\r\n") : std::string(1, C);
  std::string Out = translateOk(Crlf, {"-DN=64"});
  size_t Push = Out.find("jacc_kernel_push(");
  ASSERT_NE(Push, std::string::npos) << Out;
  std::string Kernel = Out.substr(Push, Out.find("jacc_args", Push) - Push);
  EXPECT_NE(Kernel.find("\"#pragma acc parallel loop\\n\"\n"), std::string::npos) << Out;
  EXPECT_EQ(Kernel.find('\r'), std::string::npos) << "a CR in a kernel literal ends it for cc";
}

TEST(Translate, ACommentWithAQuoteKeepsTheMacrosTheKernelUses) {
  std::string Out = translateOk("#define SCALE 3\n"
                                "void f(int n, float *a) {\n"
                                "#pragma acc parallel loop copy(a[0:n])\n"
                                "  for (int i = 0; i < n; i++) // a's elements\n"
                                "    a[i] *= SCALE;\n"
                                "}\n");
  EXPECT_NE(Out.find("\"#define SCALE 3\\n\""), std::string::npos) << Out;
}

TEST(Translate, HostCodeIsAsLenientAsGcc) {
  // clang 16 makes these errors; gcc (and cc, which compiles the translation) only warns.
  const char *Old = "int main() {\n"
                    "  int *p = 1;\n"         // int-conversion
                    "  undeclared_fn(p);\n"   // implicit function declaration
                    "  return 0;\n"
                    "}\n"
                    "static f(void) { return; }\n"; // implicit int, return without value
  EXPECT_FALSE(translateOk(Old).empty());
  // The dialect is gcc's default (gnu17) unless -std= says otherwise.
  const char *Typeof = "int g(int x) { typeof(x) y = x; return y; }\n";
  EXPECT_FALSE(translateOk(Typeof).empty());
  EXPECT_NE(translateError(Typeof, {"-std=c17"}).find("t.c:1:"), std::string::npos);
}

TEST(Translate, ArrayParametersAreWholeArraysOfTheirDeclaredBounds) {
  std::string Out = translateOk("void k(int n, double A[8][4], const float b[n], double C[3]) {\n"
                                "#pragma acc parallel loop copy(A) copyin(b)\n"
                                "  for (int i = 0; i < n; i++) A[i][0] += b[i] + C[0];\n"
                                "}\n");
  EXPECT_NE(Out.find("jacc_copyin(A, 8 * sizeof A[0])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("jacc_copyin((void *)b, (n) * sizeof b[0])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("jacc_delete((void *)b, (n) * sizeof b[0])"), std::string::npos) << Out;
  // Named in no clause: present-or-copy, as a C array of known size.
  EXPECT_NE(Out.find("jacc_copyout(C, 3 * sizeof C[0])"), std::string::npos) << Out;
  // A parameter declared as a pointer still needs its section.
  EXPECT_NE(translateError("void k(double *p) {\n#pragma acc parallel copy(p)\n p[0] = 1;\n}\n")
                .find("'p' in clause 'copy' is a pointer"),
            std::string::npos);
}

TEST(Translate, PrivateOnKernelsIsAcceptedWithAWarning) {
  std::vector<std::string> Warnings;
  auto Out = translateOpenACC("void f(int n, float *a) {\n"
                              "  float t;\n"
                              "#pragma acc kernels private(t) copy(a[0:n])\n"
                              "  for (int i = 0; i < n; i++) { t = a[i]; a[i] = t * t; }\n"
                              "}\n",
                              "t.c", {}, &Warnings);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_NE(Out->find("\"#pragma acc kernels private(t)\\n\""), std::string::npos) << *Out;
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0].rfind("t.c:3:21: warning: clause 'private' on 'kernels' is not OpenACC", 0),
            0u)
      << Warnings[0];
}

TEST(Translate, PresentOfABarePointerChecksWhatItPointsTo) {
  std::string Out = translateOk("void f(int n, double *p) {\n"
                                "#pragma acc parallel loop present(p)\n"
                                "  for (int i = 0; i < n; i++) p[i] = 0;\n"
                                "}\n");
  EXPECT_NE(Out.find("jacc_translated_present((void *)p, 1, \"t.c:2\", \"p\");"),
            std::string::npos)
      << Out;
}

TEST(Translate, DeclareInAFunctionIsADataRegionToTheEndOfItsBlock) {
  std::string Out = translateOk("int f(int n, float *a) {\n"
                                "  if (n < 0) return -1;\n"
                                "#pragma acc declare copy(a[0:n])\n"
                                "  if (n == 0) return 0;\n"
                                "  return 1;\n"
                                "}\n");
  // The exit calls, bracketed as the region's end for jacc's observers.
  std::string Exit = "jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, \"t.c\", 3, \"f\"); "
                     "jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "
                     "\"t.c:3\"); jacc_construct_end();";
  // The return before the directive leaves no region; each one after it runs the exit.
  EXPECT_NE(Out.find("if (n < 0) return -1;"), std::string::npos) << Out;
  EXPECT_NE(Out.find("{ " + Exit + " return 0; }"), std::string::npos) << Out;
  EXPECT_NE(Out.find("{ " + Exit + " return 1; }"), std::string::npos) << Out;
  EXPECT_NE(Out.find("jacc_copyin(jacc_section_1, jacc_section_1_bytes)"), std::string::npos)
      << Out;
}

TEST(Translate, DeclaredGlobalsAreMappedAtStartAndLiveOnTheDevices) {
  std::string Out = translateOk("int g;\n#pragma acc declare create(g)\n"
                                "void f(int n, float *a) {\n"
                                "#pragma acc parallel loop present(a[0:n])\n"
                                "  for (int i = 0; i < n; i++) a[i] = g;\n"
                                "#pragma acc update self(g)\n"
                                "}\n");
  EXPECT_NE(Out.find("__attribute__((constructor)) static void jacc_declare_1(void) {\n"
                     "  jacc_translated_check(jacc_create(&g, sizeof g), \"t.c:2\");\n}"),
            std::string::npos)
      << Out;
  // The kernel reads the devices' copy, and update brings it to the host.
  EXPECT_NE(Out.find("{\"int *jacc_ref_g\", &jacc_ref_g}"), std::string::npos) << Out;
  EXPECT_NE(Out.find("jacc_update_self(&g, sizeof g)"), std::string::npos) << Out;
}

TEST(Translate, AScalarInCopyinAndCopyoutStartsFromItsValueOnTheDevices) {
  // Its device copy is what the reduction starts from: copied in, not created empty.
  std::string Out = translateOk("void f(int n, double *r) {\n"
                                "  double t = 1;\n"
                                "#pragma acc parallel loop copyin(t) copyout(t) reduction(+:t)\n"
                                "  for (int x = 0; x < n; x++) t += 1;\n"
                                "  *r = t;\n"
                                "}\n");
  size_t In = Out.find("jacc_copyin(&t, sizeof t)");
  ASSERT_NE(In, std::string::npos) << Out;
  EXPECT_LT(In, Out.find("jacc_update_self(&t, sizeof t)")) << Out;
  // Alone, copyin of a scalar on a compute construct passes it by value.
  std::string ByValue = translateOk("void f(int n, double *a, double t) {\n"
                                    "#pragma acc parallel loop copyin(t) copy(a[0:n])\n"
                                    "  for (int x = 0; x < n; x++) a[x] += t;\n"
                                    "}\n");
  EXPECT_EQ(ByValue.find("jacc_copyin(&t"), std::string::npos) << ByValue;
}

TEST(Translate, PrivateSectionsAreArraysInTheKernelPerGangLoopIteration) {
  std::string Out = translateOk("void f(int n, double *c, double *d) {\n"
                                "#pragma acc parallel loop firstprivate(c[0:n]) copy(d[0:4])\n"
                                "  for (int x = 0; x < 4; x++) {\n"
                                "    c[0] += x;\n"
                                "    d[x] = c[0];\n"
                                "  }\n"
                                "}\n");
  EXPECT_NE(Out.find("\"#pragma acc parallel loop\\n\""), std::string::npos) << Out;
  EXPECT_NE(Out.find("for (int x = 0; x < 4; x++) { double c[jacc_private_len_c]; for (long "
                     "jacc_k = 0; jacc_k < jacc_private_len_c; jacc_k++) c[jacc_k] = "
                     "jacc_original_c[jacc_k];"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("{\"long jacc_private_len_c\", &jacc_private_len_c}, "
                     "{\"double *jacc_original_c\", &jacc_original_c}"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("\"double *c\""), std::string::npos) << Out;
}

/// The -Minfo lines ("t.c:L: ...") and warnings of translating Source.
std::vector<std::string> infoReport(llvm::StringRef Source,
                                    std::vector<std::string> *Warnings = nullptr) {
  std::vector<std::string> Infos, Ignored;
  auto Out = translateOpenACC(Source, "t.c", {}, Warnings ? Warnings : &Ignored, &Infos);
  if (!Out)
    ADD_FAILURE() << llvm::toString(Out.takeError());
  return Infos;
}

/// The inferred clauses ("t.c:L: implicit ...") and warnings of translating Source.
std::vector<std::string> implicitReport(llvm::StringRef Source,
                                        std::vector<std::string> *Warnings = nullptr) {
  std::vector<std::string> Implicit;
  for (std::string &I : infoReport(Source, Warnings))
    if (llvm::StringRef(I).contains(": implicit "))
      Implicit.push_back(std::move(I));
  return Implicit;
}

TEST(Translate, InfoSaysHowEachConstructRunsAndWhyALoopIsSequential) {
  auto Infos = infoReport("double f(int n, const double *a, double *c) {\n"
                          "  double last = 0;\n"
                          "#pragma acc kernels loop copyin(a[0:n])\n"
                          "  for (int i = 0; i < n; i++)\n"
                          "    last = a[i];\n"
                          "#pragma acc parallel loop copyin(a[0:n]) copyout(c[0:n])\n"
                          "  for (int i = 0; i < n; i++)\n"
                          "    c[i] = a[i];\n"
                          "  return last;\n"
                          "}\n");
  std::vector<std::string> Expected = {
      "t.c:3: loop assigns the scalar 'last' in its iterations (a loop-carried scalar "
      "dependence): it runs sequentially, as 'loop seq'",
      "t.c:3: runs sequentially on one thread of each device: the loop is marked seq or auto",
      "t.c:3: not split across devices: with several devices each runs it whole",
      "t.c:7: loop i: iterations shared among each device's threads",
      "t.c:6: split across devices along loop i: each device runs its share of the iterations "
      "and writes its part of c; the first launches measure whether splitting pays (JACC_SPLIT "
      "overrides)"};
  EXPECT_EQ(Infos, Expected);
}

TEST(Translate, InfoSaysASplitWithoutNarrowingRunsEveryIteration) {
  auto Infos = infoReport("void f(int n, double *a, const int *idx) {\n"
                          "#pragma acc parallel loop copy(a[0:n]) copyin(idx[0:n])\n"
                          "  for (int i = 0; i < n; i++)\n"
                          "    a[idx[i]] = 2 * i;\n"
                          "}\n");
  EXPECT_TRUE(llvm::is_contained(
      Infos, "t.c:2: split across devices along loop i: each device runs every iteration, not "
             "only those writing its part of a (the write 'a[...]' at line 4 is not affine in "
             "the parallel iterator); the first launches measure whether splitting pays "
             "(JACC_SPLIT overrides)"))
      << llvm::join(Infos, "\n");
}

TEST(Translate, UnmappedPointersGetImplicitCopiesOfTheSectionsTheirLoopsReach) {
  std::vector<std::string> Warnings;
  auto Infos = implicitReport("void f(int n, int m, const double *a, double *c, float *r) {\n"
                              "#pragma acc parallel loop\n"
                              "  for (int i = 1; i < n - 1; i++) c[i] = a[i - 1] + a[i + 1];\n"
                              "#pragma acc serial\n"
                              "  for (int i = 0; i < m; ++i)\n"
                              "    for (int j = 0; j <= i; j++) r[i * n + j] += a[2 * j + 1];\n"
                              "#pragma acc kernels\n"
                              "  for (int i = n - 1; i >= 0; --i) c[n - 1 - i] = r[i + m];\n"
                              "}\n",
                              &Warnings);
  EXPECT_TRUE(Warnings.empty()) << Warnings.front();
  std::vector<std::string> Expected = {"t.c:2: implicit copy(c[0:n - 1])",
                                       "t.c:2: implicit copyin(a[0:n])",
                                       "t.c:4: implicit copy(r[0:(m - 1) * n + m])",
                                       "t.c:4: implicit copyin(a[0:2 * m])",
                                       "t.c:7: implicit copy(c[0:n])",
                                       "t.c:7: implicit copyin(r[0:m + n])"};
  EXPECT_EQ(Infos, Expected);
}

TEST(Translate, ImplicitCopiesLeaveMappedAndNamedPointersAlone) {
  auto Infos = implicitReport("void f(int n, double *a, double *b, double *c, double *d) {\n"
                              "#pragma acc data copy(a[0:n])\n"
                              "#pragma acc parallel loop present(b[0:n]) deviceptr(d)\n"
                              "  for (int i = 0; i < n; i++) a[i] = b[i] + c[i] + d[i];\n"
                              "#pragma acc parallel loop default(present)\n"
                              "  for (int i = 0; i < n; i++) c[i] = 0;\n"
                              "}\n");
  EXPECT_EQ(Infos, std::vector<std::string>{"t.c:3: implicit copyin(c[0:n])"});
}

TEST(Translate, PointersOfUnknownSectionsAreLeftToThePresentTableWithAWarning) {
  std::vector<std::string> Warnings;
  auto Infos = implicitReport("void f(int n, int *idx, double *c, double *d) {\n"
                              "#pragma acc parallel loop copyin(idx[0:n])\n"
                              "  for (int i = 0; i < n; i++) c[idx[i]] = d[i * i];\n"
                              "}\n",
                              &Warnings);
  EXPECT_TRUE(Infos.empty()) << Infos.front();
  ASSERT_EQ(Warnings.size(), 2u);
  EXPECT_EQ(Warnings[0].rfind("t.c:2:1: warning: the size of the data pointer 'c' points to is "
                              "unknown (a subscript is not an affine function",
                              0),
            0u)
      << Warnings[0];
  EXPECT_NE(Warnings[0].find("e.g. copy(c[0:n])"), std::string::npos) << Warnings[0];
  EXPECT_NE(Warnings[1].find("'d'"), std::string::npos) << Warnings[1];
}

TEST(Translate, ImplicitCopiesMapOnlyWhatIsNotPresent) {
  std::string Out = translateOk("void f(int n, double *c) {\n"
                                "#pragma acc parallel loop\n"
                                "  for (int i = 0; i < n; i++) c[i] = i;\n"
                                "}\n");
  EXPECT_NE(Out.find("size_t jacc_implicit_c = jacc_translated_implicit((void *)&c[0], "
                     "(long)(n), sizeof c[0], \"t.c:2\");"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("if (jacc_implicit_c) jacc_translated_check(jacc_copyout((void *)&c[0], "
                     "jacc_implicit_c), \"t.c:2\");"),
            std::string::npos)
      << Out;
}

TEST(Translate, GccMallocWithADeallocatorParses) {
  // gcc >= 11's form, as in gcc 12's <omp.h>; clang 16 rejects any argument to __malloc__.
  const char *Alloc =
      "void my_free(void *);\n"
      "void *my_alloc(unsigned long) __attribute__((__malloc__, __malloc__(my_free)));\n"
      "void f(int n, float *a) {\n"
      "#pragma acc parallel loop copy(a[0:n])\n"
      "  for (int i = 0; i < n; i++)\n"
      "    a[i] += 1;\n"
      "}\n";
  std::string Out = translateOk(Alloc);
  EXPECT_NE(Out.find("__malloc__(my_free)"), std::string::npos) << "the source stays as written";
  EXPECT_NE(Out.find("jacc_kernel_push("), std::string::npos) << Out;
}

TEST(Translate, NoDirectivesLeavesTheCodeAsWritten) {
  std::string Src = "int twice(int x) { return 2 * x; }\n";
  std::string Out = translateOk(Src);
  ASSERT_GE(Out.size(), Src.size());
  EXPECT_EQ(Out.substr(Out.size() - Src.size()), Src);
}

} // namespace

namespace {

// routine bind(name): kernels call name's definition under the routine's name; the host keeps
// calling the routine. Both spellings of the name, identifier and string.
TEST(Translate, RoutineBindCallsTheBoundDefinitionInKernels) {
  for (const char *Bind : {"bind(dev_twice)", "bind(\"dev_twice\")"}) {
    SCOPED_TRACE(Bind);
    std::string Src = std::string("float host_twice(float v);\n"
                                  "#pragma acc routine(host_twice) seq ") +
                      Bind +
                      "\n"
                      "float host_twice(float v) { return v + v; }\n"
                      "float dev_twice(float v) { return 2.0f * v; }\n"
                      "void f(int n, float *x) {\n"
                      "#pragma acc parallel loop copy(x[0:n])\n"
                      "  for (int i = 0; i < n; i++) x[i] = host_twice(x[i]);\n"
                      "  x[0] = host_twice(x[0]);\n"
                      "}\n";
    std::string Out = translateOk(Src);
    EXPECT_NE(Out.find("\"#pragma acc routine seq\\n\"\n      \"static float dev_twice(float v)"),
              std::string::npos)
        << Out;
    EXPECT_NE(Out.find("#define host_twice dev_twice /* routine bind */"), std::string::npos)
        << Out;
    EXPECT_EQ(Out.find("static float host_twice"), std::string::npos)
        << "the kernel holds the bound definition only: " << Out;
    EXPECT_NE(Out.find("  x[0] = host_twice(x[0]);"), std::string::npos) << "host code: " << Out;
  }
  std::string E = translateError("float g(float v) { return v; }\n"
                                 "#pragma acc routine(g) seq bind(nowhere)\n"
                                 "void f(int n, float *x) {\n"
                                 "#pragma acc parallel loop copy(x[0:n])\n"
                                 "  for (int i = 0; i < n; i++) x[i] = g(x[i]);\n"
                                 "}\n");
  EXPECT_NE(E.find("t.c:2:28: error: routine 'g' is bound to 'nowhere', which this file does "
                   "not define"),
            std::string::npos)
      << E;
}

// routine bind after device_type (OpenACC 3.3 2.15.1): the kernel carries both bindings and
// names each under #ifdef __CUDACC__, which NVRTC defines and the host's C compilers do not.
TEST(Translate, RoutineBindPerDeviceTypeRenamesTheRoutineForEachKind) {
  std::string Src = "float g(float v) { return 3.0f * v; }\n"
                    "float host_g(float v) { return v + v + v; }\n"
                    "float gpu_g(float v) { return v * 3.0f; }\n"
                    "#pragma acc routine(g) seq bind(host_g) device_type(nvidia) bind(gpu_g)\n"
                    "void f(int n, float *x) {\n"
                    "#pragma acc parallel loop copy(x[0:n])\n"
                    "  for (int i = 0; i < n; i++) x[i] = g(x[i]);\n"
                    "}\n";
  std::string Out = translateOk(Src);
  EXPECT_NE(Out.find("\"#ifdef __CUDACC__ /* routine bind: NVRTC (GPUs) defines it */\\n\"\n"
                     "      \"#define g gpu_g\\n\"\n"
                     "      \"#else\\n\"\n"
                     "      \"#define g host_g\\n\"\n"
                     "      \"#endif\\n\"\n"),
            std::string::npos)
      << Out;
  // Both bindings are carried, as routines of the directive's level without its groups.
  EXPECT_NE(Out.find("\"#pragma acc routine seq\\n\"\n      \"static float host_g(float v)"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("\"#pragma acc routine seq\\n\"\n      \"static float gpu_g(float v)"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("static float g("), std::string::npos) << "no kind calls g itself: " << Out;

  // The host group alone: GPUs call the routine itself, which the kernel defines under its own
  // name (the rename undone around it); a routine calling g gets the binding too.
  Src = "float host_g(float v) { return v + v + v; }\n"
        "#pragma acc routine seq device_type(host) bind(host_g) device_type(radeon) bind(no)\n"
        "float g(float v) { return 3.0f * v; }\n"
        "#pragma acc routine seq\n"
        "float h(float v) { return g(v) + 1.0f; }\n"
        "void f(int n, float *x) {\n"
        "#pragma acc parallel loop copy(x[0:n])\n"
        "  for (int i = 0; i < n; i++) x[i] = h(x[i]);\n"
        "}\n";
  Out = translateOk(Src);
  std::string Rename = "\"#ifndef __CUDACC__ /* routine bind: NVRTC (GPUs) defines it */\\n\"\n"
                       "      \"#define g host_g\\n\"\n"
                       "      \"#endif\\n\"\n";
  size_t First = Out.find(Rename);
  size_t Undef = Out.find("\"#undef g\\n\"\n      \"#pragma acc routine seq\\n\"\n"
                          "      \"static float g(float v) { return 3.0f * v; }\\n\"\n      " +
                          Rename);
  size_t Caller = Out.find("static float h(float v) { return g(v) + 1.0f; }");
  ASSERT_NE(First, std::string::npos) << Out;
  ASSERT_NE(Undef, std::string::npos) << Out;
  EXPECT_LT(First, Undef) << Out;
  EXPECT_LT(Undef, Caller) << "h's call is renamed too: " << Out;
  EXPECT_NE(Out.find("static float host_g(float v)"), std::string::npos) << Out;
}

// A bind of each applying group must name a function defined in the file: one error each; a
// group of a device kind jacc does not run on is not read.
TEST(Translate, RoutineBindPerDeviceTypeErrorsNameEachGroupsBind) {
  std::string E = translateError("float g(float v) { return v; }\n"
                                 "#pragma acc routine(g) seq device_type(host) bind(nowhere1) "
                                 "device_type(nvidia) bind(nowhere2) dtype(radeon) bind(amd)\n"
                                 "void f(int n, float *x) {\n"
                                 "#pragma acc parallel loop copy(x[0:n])\n"
                                 "  for (int i = 0; i < n; i++) x[i] = g(x[i]);\n"
                                 "}\n");
  EXPECT_NE(E.find("t.c:2:46: error: routine 'g' is bound to 'nowhere1'"), std::string::npos) << E;
  EXPECT_NE(E.find("t.c:2:81: error: routine 'g' is bound to 'nowhere2'"), std::string::npos) << E;
  EXPECT_EQ(E.find("'amd'"), std::string::npos) << E;
  E = translateError("float g(float v) { return v; }\n"
                     "#pragma acc routine(g) seq device_type(nvidia) nohost\n"
                     "void f(void) {}\n");
  EXPECT_NE(E.find("clause 'nohost' cannot follow device_type on 'routine'"), std::string::npos)
      << E;
}

} // namespace

namespace {

TEST(Translate, TypesDefinedInTheFunctionGoToTheKernelAsWritten) {
  std::string Out = translateOk("void f(double *a) {\n"
                                "  enum { N = 8 };\n"
                                "  typedef enum { RED, BLUE } color;\n"
                                "  color c = BLUE;\n"
                                "#pragma acc parallel loop copyout(a[0:N])\n"
                                "  for (int i = 0; i < N; i++) a[i] = c == BLUE ? i : 0;\n"
                                "}\n",
                                {});
  EXPECT_NE(Out.find("\"enum { N = 8 };\\n\""), std::string::npos) << Out;
  EXPECT_NE(Out.find("\"typedef enum { RED, BLUE } color;\\n\""), std::string::npos) << Out;
  // Not the function around them.
  EXPECT_EQ(Out.find("\"void f(double *a)"), std::string::npos) << Out;
}

TEST(Translate, AVariableLengthArrayTypeOfTheFunctionIsAnErrorNamingIt) {
  std::string Err = translateError("void f(int n, double *a) {\n"
                                   "  typedef double row[n];\n"
                                   "  row *r = (row *)a;\n"
                                   "#pragma acc parallel loop copy(a[0:n * n])\n"
                                   "  for (int i = 0; i < n; i++) r[i][0] = 1;\n"
                                   "}\n",
                                   {});
  EXPECT_NE(Err.find("t.c:2:18: error: type 'row' used in a compute construct has a size "
                     "computed in the function"),
            std::string::npos)
      << Err;
}

} // namespace
