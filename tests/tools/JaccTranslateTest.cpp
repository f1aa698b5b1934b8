// Tests of jacc-translate on sources built to exhaust it: the built binary (JACC_TRANSLATE_TOOL)
// run as a child process. A macro that doubles forty times ends in a located error under the
// compile limits (JACC_COMPILE_MEMORY, JACC_COMPILE_TIMEOUT), never an abort or the OOM killer;
// machine-generated expressions hundreds of thousands of terms long translate, as gcc compiles
// them.
#include "tests/DoublingMacros.h"
#include "tests/ScopedEnv.h"
#include "tests/tools/RunTool.h"

#include <gtest/gtest.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

#ifndef JACC_TRANSLATE_TOOL
#error "JACC_TRANSLATE_TOOL must name the jacc-translate binary (tests/meson.build)"
#endif

namespace {

using jacc::ScopedEnv;
using jacc_test::Outcome;

class JaccTranslateTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-translate-test", D));
    Scratch = D.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Scratch); }

  /// Write Text to Name in the scratch directory; its path.
  std::string source(const std::string &Name, const std::string &Text) {
    std::string Path = Scratch + "/" + Name;
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Text;
    return Path;
  }
  Outcome translate(const std::string &Path) {
    return jacc_test::runTool(JACC_TRANSLATE_TOOL, {Path, "-o", Scratch + "/out.c"}, Scratch);
  }
  std::string translated() { return jacc_test::readWhole(Scratch + "/out.c"); }

  std::string Scratch;
};

/// A program whose one expression is A40, each An twice A(n-1): 2^40 terms once expanded.
std::string doublingMacro() {
  return jacc_test::doublingMacros(40) + "int main(void) { return A40 > 0; }\n";
}

/// Terms terms x[0] + x[1] + ... (indices cycling through 0..6), one left-deep expression.
std::string longSum(int Terms) {
  std::string Sum = "x[0]";
  for (int I = 1; I < Terms; ++I)
    Sum += "+x[" + std::to_string(I % 7) + "]";
  return Sum;
}

TEST_F(JaccTranslateTest, DoublingMacroEndsInAnErrorUnderTheMemoryLimit) {
  ScopedEnv Memory("JACC_COMPILE_MEMORY", "300M");
  std::string Path = source("bomb.c", doublingMacro());
  Outcome R = translate(Path);
  EXPECT_EQ(R.Status, 1) << R.Err;
  EXPECT_EQ(R.Err, Path + ": error: jacc-translate used more than 300 MiB of memory translating "
                          "this file (JACC_COMPILE_MEMORY sets the limit; 0 removes it)\n");
}

TEST_F(JaccTranslateTest, DoublingMacroEndsInAnErrorUnderTheTimeLimit) {
  ScopedEnv Memory("JACC_COMPILE_MEMORY", "0");
  ScopedEnv Timeout("JACC_COMPILE_TIMEOUT", "1");
  std::string Path = source("bomb.c", doublingMacro());
  Outcome R = translate(Path);
  EXPECT_EQ(R.Status, 1) << R.Err;
  EXPECT_EQ(R.Err, Path + ": error: jacc-translate ran longer than 1 s translating this file "
                          "(JACC_COMPILE_TIMEOUT sets the limit; 0 removes it)\n");
}

TEST_F(JaccTranslateTest, BadLimitIsNamed) {
  ScopedEnv Memory("JACC_COMPILE_MEMORY", "lots");
  Outcome R = translate(source("ok.c", "int main(void) { return 0; }\n"));
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("JACC_COMPILE_MEMORY='lots' is not valid"), std::string::npos) << R.Err;
}

TEST_F(JaccTranslateTest, ExpressionOfTwoHundredThousandTermsTranslates) {
  std::string Code = "double f(double *x) { return " + longSum(200000) + "; }\n";
  Outcome R = translate(source("long.c", Code + "int main(void) { return 0; }\n"));
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(translated().find(Code), std::string::npos);
}

TEST_F(JaccTranslateTest, ExpressionOfFiftyThousandTermsInAConstructTranslates) {
  std::string Sum = longSum(50000);
  Outcome R =
      translate(source("kernel.c", "void f(int n, double *restrict x, double *restrict y) {\n"
                                   "#pragma acc parallel loop copyin(x[0:7]) copyout(y[0:n])\n"
                                   "  for (int i = 0; i < n; i++)\n    y[i] = " +
                                       Sum + ";\n}\n"));
  ASSERT_EQ(R.Status, 0) << R.Err;
  std::string Out = translated();
  EXPECT_NE(Out.find("jacc_kernel_push"), std::string::npos);
  EXPECT_NE(Out.find(Sum), std::string::npos);
}

} // namespace

TEST_F(JaccTranslateTest, InvalidCodeThatCrashesClangsParserIsAnError) {
  // clang 14 and 16 crash on a variable redeclared with an assignment as its array bound (gcc:
  // "lvalue required"); jacc-translate died of SIGSEGV.
  std::string Path = source("crash.c", "float table[2=6];\nfloat table[3=6];\n");
  Outcome R = translate(Path);
  EXPECT_EQ(R.Status, 1) << R.Err;
  EXPECT_NE(R.Err.find("crash.c:1:14: error: expression is not assignable"), std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find(Path + ": error: the translation crashed on this file (signal 11; after "
                              "the errors above: mend those first)"),
            std::string::npos)
      << R.Err;
}

TEST_F(JaccTranslateTest, ADeviceAsInputIsRefusedAtOnce) {
  // /dev/zero never ends: it was read until the memory or time limit stopped the translation.
  Outcome R = translate("/dev/zero");
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "jacc-translate: cannot read /dev/zero: it is a device, not a source file\n");
}
