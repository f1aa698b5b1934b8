// Tests of translateOpenACC as a library call: preprocessor options, error reporting, and the
// shape of a translation. The full outputs are checked by tests/translate (golden files).
#include "translate/Translate.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

std::string translateOk(llvm::StringRef Source, std::vector<std::string> Args = {}) {
  auto Out = translateOpenACC(Source, "t.c", Args);
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return "";
  }
  return *Out;
}

std::string translateError(llvm::StringRef Source, std::vector<std::string> Args = {}) {
  auto Out = translateOpenACC(Source, "t.c", Args);
  if (Out) {
    ADD_FAILURE() << "translation succeeded:\n" << *Out;
    return "";
  }
  return llvm::toString(Out.takeError());
}

constexpr const char *Saxpy = "void saxpy(int n, float a, const float *x, float *y) {\n"
                              "#pragma acc parallel loop copyin(x[0:n]) copy(y[0:N])\n"
                              "  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n"
                              "}\n";

TEST(Translate, PushesTheConstructWithArgumentsFromClangTypes) {
  std::string Out = translateOk(Saxpy, {"-DN=64"});
  EXPECT_EQ(Out.rfind("#include <jacc/jacc.h>\n", 0), 0u) << Out;
  EXPECT_NE(Out.find("{{\"int n\", &n}, {\"float *y\", &y}, {\"float a\", &a}, "
                     "{\"const float *x\", &x}}"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("jacc_copyin((void *)&x[0], n * sizeof x[0])"), std::string::npos) << Out;
  // Macros in clauses are expanded (the command line's -D included).
  EXPECT_NE(Out.find("jacc_copyout(&y[0], 64 * sizeof y[0])"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\"#pragma acc parallel loop\\n\""), std::string::npos) << Out;
  // No directive is left for cc (the construct's text is kept in a comment).
  EXPECT_EQ(Out.find("\n#pragma acc"), std::string::npos) << Out;
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
  std::string E = translateError("int g;\n#pragma acc declare create(g)\n"
                                 "void f(void) {\n#pragma acc shutdown device_type(gpu)\n}\n");
  EXPECT_NE(E.find("t.c:2:1: error: '#pragma acc declare' is not supported"), std::string::npos)
      << E;
  EXPECT_NE(E.find("t.c:4:22: error: unknown device type 'gpu' in clause 'device_type': jacc "
                   "knows host (multicore), nvidia, radeon, default and *"),
            std::string::npos)
      << E;
}

TEST(Translate, NoDirectivesLeavesTheCodeAsWritten) {
  std::string Src = "int twice(int x) { return 2 * x; }\n";
  std::string Out = translateOk(Src);
  ASSERT_GE(Out.size(), Src.size());
  EXPECT_EQ(Out.substr(Out.size() - Src.size()), Src);
}

} // namespace
