// Tests of the kernel source scanner and wrapper: `#pragma acc` line scanning, the translation unit
// built around the compute construct (parameter order, #line mapping) and its errors.
#include "analysis/KernelSource.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;
using jacc::ErrorCode;

namespace {

using Strings = std::vector<std::string>;

WrappedKernel wrap(llvm::StringRef Source, const Strings &Decls) {
  auto W = wrapKernel(Source, Decls);
  if (!W) {
    std::string Msg;
    jacc::takeError(W.takeError(), Msg);
    ADD_FAILURE() << "wrapKernel failed: " << Msg;
    return {};
  }
  return std::move(*W);
}

std::string wrapError(llvm::StringRef Source, const Strings &Decls, ErrorCode &Code) {
  auto W = wrapKernel(Source, Decls);
  if (W) {
    ADD_FAILURE() << "wrapKernel should fail; it gave:\n" << W->Code;
    return "";
  }
  std::string Msg;
  Code = jacc::takeError(W.takeError(), Msg);
  return Msg;
}

//===-- lineOf ------------------------------------------------------------------------------===//

TEST(KernelSourceTest, LineOf) {
  llvm::StringRef S = "ab\ncd\n\nef";
  EXPECT_EQ(lineOf(S, 0), 1u);
  EXPECT_EQ(lineOf(S, 2), 1u); // the '\n' ends line 1
  EXPECT_EQ(lineOf(S, 3), 2u);
  EXPECT_EQ(lineOf(S, 6), 3u);
  EXPECT_EQ(lineOf(S, 7), 4u);
  EXPECT_EQ(lineOf(S, 9), 4u);
}

//===-- kernelPolicy ------------------------------------------------------------------------===//

TEST(KernelSourceTest, ASitesFileAndLineNumberTheConstruct) {
  std::string Site = "#pragma acc parallel loop\nfor (;;) ;\n// jacc-site: dir/heat.c:42\n";
  EXPECT_EQ(kernelFileName(Site), "dir/heat.c");
  EXPECT_EQ(constructLineMarker(Site, 1), "#line 42 \"dir/heat.c\"\n");
  // Pushed through the API (no site), or a site a directive cannot name: "kernel".
  std::string Pushed = "int k;\n#pragma acc parallel loop\nfor (;;) ;\n";
  EXPECT_EQ(kernelFileName(Pushed), "kernel");
  EXPECT_EQ(constructLineMarker(Pushed, 2), "#line 2 \"kernel\"\n");
  std::string Quoted = "#pragma acc parallel\n;\n// jacc-site: a\"b.c:3\n";
  EXPECT_EQ(constructLineMarker(Quoted, 1), "#line 1 \"kernel\"\n");
  std::string NoLine = "#pragma acc parallel\n;\n// jacc-site: f\n";
  EXPECT_EQ(kernelFileName(NoLine), "kernel");
}

TEST(KernelSourceTest, APolicyPragmaGivesItsText) {
  EXPECT_EQ(kernelPolicy("#pragma jacc policy(weights:[1,3])\n#pragma acc parallel loop\n"),
            "weights:[1,3]");
  EXPECT_EQ(kernelPolicy("int k;\n  #  pragma   jacc  policy ( any )  \n#pragma acc kernels\n"),
            "any");
  EXPECT_EQ(kernelPolicy("#pragma acc parallel loop\nfor (;;) ;\n// jacc-site: a.c:3\n"),
            std::nullopt);
  EXPECT_EQ(kernelPolicy("#pragma jaccx policy(any)\n/* policy */\n"), std::nullopt);
  EXPECT_EQ(kernelPolicy("#pragma jacc policy_x(any) policy\n"), std::nullopt);
}

TEST(KernelSourceTest, ALocationPragmaGivesItsName) {
  std::string Both = "#pragma jacc location(gpus)\n#pragma jacc policy(flatten)\n"
                     "#pragma acc parallel loop\nfor (;;) ;\n";
  EXPECT_EQ(kernelLocation(Both), "gpus");
  EXPECT_EQ(kernelPolicy(Both), "flatten");
  EXPECT_EQ(kernelLocation("#pragma jacc policy(any)\n#pragma acc kernels\n"), std::nullopt);
  EXPECT_EQ(kernelLocation("#pragma jacc locations(a)\n/* location */\n"), std::nullopt);
}

//===-- scanPragmas -------------------------------------------------------------------------===//

TEST(KernelSourceTest, ScanFindsEveryAccPragmaInOrder) {
  std::string S = "int f(int);\n"                 // line 1
                  "#pragma acc routine seq\n"     // line 2, offset 12
                  "#pragma acc parallel loop\n"   // line 3, offset 36
                  "for (int i = 0; i < n; i++)\n" // line 4
                  "  x[i] = 0;\n";                // line 5
  std::vector<PragmaLine> P = scanPragmas(S);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Text, "routine seq");
  EXPECT_EQ(P[0].Line, 2u);
  EXPECT_EQ(P[0].Offset, 12u);
  EXPECT_EQ(P[0].EndOffset, 35u); // its '\n'
  EXPECT_EQ(P[1].Text, "parallel loop");
  EXPECT_EQ(P[1].Line, 3u);
  EXPECT_EQ(P[1].Offset, 36u);
  EXPECT_EQ(P[1].EndOffset, 61u);
  EXPECT_EQ(S.substr(P[1].Offset, 11), "#pragma acc");
}

TEST(KernelSourceTest, ScanLeadingWhitespace) {
  std::string S = "{\n"
                  "    #pragma acc loop\n"
                  "\t#pragma acc loop seq\n"
                  "}";
  std::vector<PragmaLine> P = scanPragmas(S);
  ASSERT_EQ(P.size(), 2u);
  // Offset is the '#', not the start of the line.
  EXPECT_EQ(P[0].Offset, 6u);
  EXPECT_EQ(S[P[0].Offset], '#');
  EXPECT_EQ(P[0].Line, 2u);
  EXPECT_EQ(P[0].Text, "loop");
  EXPECT_EQ(S[P[1].Offset], '#');
  EXPECT_EQ(P[1].Offset, 24u);
  EXPECT_EQ(P[1].Line, 3u);
  EXPECT_EQ(P[1].Text, "loop seq");
}

TEST(KernelSourceTest, ScanSpacesAroundHashAndPragma) {
  std::vector<PragmaLine> P = scanPragmas("# pragma acc parallel\n"
                                          "#  pragma   acc   kernels  \n"
                                          "#pragma\tacc\tserial\n"
                                          "#pragma acc\n");
  ASSERT_EQ(P.size(), 4u);
  EXPECT_EQ(P[0].Text, "parallel");
  EXPECT_EQ(P[0].Offset, 0u);
  EXPECT_EQ(P[1].Text, "kernels"); // trimmed both sides
  EXPECT_EQ(P[1].Line, 2u);
  EXPECT_EQ(P[2].Text, "serial");
  EXPECT_EQ(P[3].Text, "");
  EXPECT_EQ(P[3].Line, 4u);
}

TEST(KernelSourceTest, ScanIgnoresOtherPragmasAndLookalikes) {
  std::vector<PragmaLine> P = scanPragmas("#pragma omp parallel for\n"
                                          "#pragma once\n"
                                          "#pragma accelerate\n"
                                          "#pragmaacc parallel\n"
                                          "#pragma GCC ivdep\n"
                                          "#define acc 1\n"
                                          "// #pragma acc parallel\n"
                                          "x = 1; #pragma acc parallel\n"
                                          "#pragma acc kernels\n");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Text, "kernels");
  EXPECT_EQ(P[0].Line, 9u);
}

TEST(KernelSourceTest, ScanJoinsContinuationLines) {
  std::string S = "#pragma acc parallel loop \\\n"
                  "    collapse(2) \\\n"
                  "    present(a)\n"
                  "for (;;) ;\n"
                  "#pragma acc loop\n";
  std::vector<PragmaLine> P = scanPragmas(S);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Line, 1u);
  EXPECT_EQ(P[0].Offset, 0u);
  // The backslashes go; the continued lines are appended with a blank.
  EXPECT_EQ(P[0].Text, "parallel loop      collapse(2)      present(a)");
  // The end is that of the last continued line.
  EXPECT_EQ(P[0].EndOffset, S.find("\nfor"));
  // Scanning goes on after the continued lines, with the right line numbers.
  EXPECT_EQ(P[1].Text, "loop");
  EXPECT_EQ(P[1].Line, 5u);
}

TEST(KernelSourceTest, ScanContinuationRightAfterAcc) {
  std::vector<PragmaLine> P = scanPragmas("#pragma acc \\\n"
                                          "  parallel\n");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Text, "parallel");
}

TEST(KernelSourceTest, ScanContinuationAtTheEndOfTheSource) {
  std::string S = "#pragma acc parallel \\";
  std::vector<PragmaLine> P = scanPragmas(S);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].EndOffset, S.size());
  EXPECT_EQ(P[0].Line, 1u);
  EXPECT_EQ(llvm::StringRef(P[0].Text).take_front(8), "parallel");
}

TEST(KernelSourceTest, ScanCRLFContinuation) {
  // Sources with Windows line ends: clang joins "\\\r\n" like "\\\n".
  std::vector<PragmaLine> P = scanPragmas("#pragma acc \\\r\n"
                                          "  parallel loop\r\n"
                                          "for (;;) ;\r\n");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Text, "parallel loop");
}

TEST(KernelSourceTest, ScanIgnoresPragmasInBlockComments) {
  std::vector<PragmaLine> P = scanPragmas("/* an old version:\n"
                                          "#pragma acc kernels\n"
                                          "*/\n"
                                          "#pragma acc parallel loop\n");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Text, "parallel loop");
  EXPECT_EQ(P[0].Line, 4u);
}

TEST(KernelSourceTest, ScanEmptySource) {
  EXPECT_TRUE(scanPragmas("").empty());
  EXPECT_TRUE(scanPragmas("\n\n").empty());
  EXPECT_TRUE(scanPragmas("x[0] = 1;").empty());
}

//===-- declLooksScalar ---------------------------------------------------------------------===//

TEST(KernelSourceTest, DeclLooksScalar) {
  EXPECT_TRUE(declLooksScalar("int n"));
  EXPECT_TRUE(declLooksScalar("const double alpha"));
  EXPECT_TRUE(declLooksScalar("unsigned long long count"));
  EXPECT_TRUE(declLooksScalar("struct point p"));
  EXPECT_TRUE(declLooksScalar("enum color c"));
  EXPECT_FALSE(declLooksScalar("float *x"));
  EXPECT_FALSE(declLooksScalar("const float * restrict x"));
  EXPECT_FALSE(declLooksScalar("double (*a)[m]"));
  EXPECT_FALSE(declLooksScalar("int a[10]"));
  EXPECT_FALSE(declLooksScalar("double **pp"));
}

TEST(KernelSourceTest, DefinesBoolOnlyWhenTheNameIsDeclared) {
  EXPECT_TRUE(definesBool("typedef int bool;\n"));
  EXPECT_TRUE(definesBool("typedef enum { false, true } bool ;\n"));
  EXPECT_TRUE(definesBool("#define bool int\n"));
  EXPECT_TRUE(definesBool("int x;\n  #  define  bool char\n"));
  EXPECT_FALSE(definesBool(""));
  EXPECT_FALSE(definesBool("bool flag(int v) { return v > 0; }\n"));
  EXPECT_FALSE(definesBool("typedef bool flag_t;\n#define IS(x) bool\n"));
  EXPECT_FALSE(definesBool("typedef int boolean;\ntypedef int my_bool;\n"));
  EXPECT_EQ(kernelDialectPrelude("typedef int bool;").find("stdbool"), std::string::npos);
  EXPECT_NE(kernelDialectPrelude("").find("#include <stdbool.h>"), std::string::npos);
}

//===-- wrapKernel --------------------------------------------------------------------------===//

const char *const Saxpy = "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n";

TEST(KernelSourceTest, WrapExactTranslationUnit) {
  WrappedKernel W = wrap(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_EQ(W.Code, kernelDialectPrelude("") +
                    "#line 1 \"kernel\"\n"
                    "\n"
                    "#line 1 \"<jacc>\"\n"
                    "void __jacc_kernel(\n"
                    "#line 1 \"arg 3\"\n"
                    "float a,\n"
                    "#line 1 \"arg 4\"\n"
                    "int n,\n"
                    "#line 1 \"arg 1\"\n"
                    "float *y,\n"
                    "#line 1 \"arg 2\"\n"
                    "const float *x)\n"
                    "{\n"
                    "#line 1 \"kernel\"\n"
                    "#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  y[i] = a * x[i] + y[i];\n"
                    "\n"
                    "}\n");
  EXPECT_EQ(W.ConstructOffset, 0u);
  EXPECT_EQ(W.LeadingBegin,
            kernelDialectPrelude("").size() + std::string("#line 1 \"kernel\"\n").size());
  EXPECT_EQ(W.Code.substr(W.ConstructBegin, 25), "#pragma acc parallel loop");
}

TEST(KernelSourceTest, WrapScalarsFirstInUserOrder) {
  WrappedKernel W = wrap(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_EQ(W.ParamOrder, (std::vector<unsigned>{2, 3, 0, 1}));
  W = wrap(Saxpy, {"int n", "float a", "const float *x", "float *y"});
  EXPECT_EQ(W.ParamOrder, (std::vector<unsigned>{0, 1, 2, 3}));
  W = wrap(Saxpy, {"double (*a)[m]", "int m", "float *b", "int n", "int c[4]"});
  EXPECT_EQ(W.ParamOrder, (std::vector<unsigned>{1, 3, 0, 2, 4}));
}

TEST(KernelSourceTest, WrapWithoutArgs) {
  WrappedKernel W = wrap("#pragma acc serial\n{ }\n", {});
  EXPECT_TRUE(W.ParamOrder.empty());
  EXPECT_NE(W.Code.find("void __jacc_kernel(void)\n{\n"), std::string::npos) << W.Code;
}

TEST(KernelSourceTest, WrapKeepsLeadingDeclarationsAtFileScope) {
  std::string S = "static double sq(double v) { return v * v; }\n"  // line 1
                  "#define N 4\n"                                   // line 2
                  "\n"                                              // line 3
                  "#pragma acc parallel loop present(x)\n"          // line 4
                  "for (int i = 0; i < N; i++) x[i] = sq(x[i]);\n"; // line 5
  WrappedKernel W = wrap(S, {"double *x"});
  size_t ConstructAt = S.find("#pragma acc parallel");
  EXPECT_EQ(W.ConstructOffset, ConstructAt);
  // The leading part is pasted verbatim under "#line 1 kernel", before the wrapper function.
  EXPECT_EQ(W.Code.substr(W.LeadingBegin, ConstructAt), S.substr(0, ConstructAt));
  size_t Fn = W.Code.find("void __jacc_kernel(");
  ASSERT_NE(Fn, std::string::npos);
  EXPECT_LT(W.LeadingBegin + ConstructAt, Fn);
  // The construct keeps its kernel line number.
  EXPECT_NE(W.Code.find("{\n#line 4 \"kernel\"\n#pragma acc parallel loop present(x)\n"),
            std::string::npos)
      << W.Code;
  EXPECT_EQ(W.Code.substr(W.ConstructBegin), S.substr(ConstructAt) + "\n}\n");
}

TEST(KernelSourceTest, WrapKeepsTheConstructColumn) {
  std::string S = "int t;\n"
                  "   #pragma acc kernels\n"
                  "   { x[0] = t; }\n";
  WrappedKernel W = wrap(S, {"int *x"});
  EXPECT_EQ(W.ConstructOffset, 10u);
  // Three blanks before the construct, as in the source: columns in diagnostics stay right.
  ASSERT_GE(W.ConstructBegin, 3u);
  EXPECT_EQ(W.Code.substr(W.ConstructBegin - 3 - 17, 22), "#line 2 \"kernel\"\n   #p");
  EXPECT_EQ(W.Code.substr(W.ConstructBegin, 19), "#pragma acc kernels");
}

TEST(KernelSourceTest, WrapArgLineDirectivesNameTheUserPosition) {
  WrappedKernel W = wrap(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  // Each declaration follows a #line naming its 1-based position among the user's args.
  EXPECT_NE(W.Code.find("#line 1 \"arg 1\"\nfloat *y"), std::string::npos);
  EXPECT_NE(W.Code.find("#line 1 \"arg 2\"\nconst float *x"), std::string::npos);
  EXPECT_NE(W.Code.find("#line 1 \"arg 3\"\nfloat a"), std::string::npos);
  EXPECT_NE(W.Code.find("#line 1 \"arg 4\"\nint n"), std::string::npos);
}

TEST(KernelSourceTest, WrapPicksTheFirstComputeConstruct) {
  std::string S = "#pragma acc routine seq\n"
                  "static int f(int v) { return v; }\n"
                  "#pragma acc serial\n"
                  "{\n"
                  "#pragma acc loop\n"
                  "  for (int i = 0; i < 1; i++) x[i] = f(i);\n"
                  "}\n";
  WrappedKernel W = wrap(S, {"int *x"});
  EXPECT_EQ(W.ConstructOffset, S.find("#pragma acc serial"));
  EXPECT_EQ(W.Code.substr(W.ConstructBegin, 18), "#pragma acc serial");
  EXPECT_NE(W.Code.find("#line 3 \"kernel\"\n#pragma acc serial"), std::string::npos) << W.Code;
}

TEST(KernelSourceTest, WrapFindsAContinuedConstruct) {
  std::string S = "#pragma acc \\\n"
                  "  parallel loop\n"
                  "for (int i = 0; i < n; i++) x[i] = 0;\n";
  WrappedKernel W = wrap(S, {"int *x", "int n"});
  EXPECT_EQ(W.ConstructOffset, 0u);
}

TEST(KernelSourceTest, WrapFindsAContinuedConstructWithCRLF) {
  std::string S = "#pragma acc \\\r\n"
                  "  parallel loop\r\n"
                  "for (int i = 0; i < n; i++) x[i] = 0;\r\n";
  WrappedKernel W = wrap(S, {"int *x", "int n"});
  EXPECT_EQ(W.ConstructOffset, 0u);
}

TEST(KernelSourceTest, WrapSkipsACommentedOutConstruct) {
  std::string S = "/*\n"
                  "#pragma acc kernels\n"
                  "*/\n"
                  "#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++) x[i] = 0;\n";
  WrappedKernel W = wrap(S, {"int *x", "int n"});
  EXPECT_EQ(W.ConstructOffset, S.find("#pragma acc parallel"));
}

TEST(KernelSourceTest, WrapNoComputeConstruct) {
  const std::string Expected =
      "the kernel source has no compute construct: it must contain '#pragma acc parallel', "
      "'kernels' or 'serial' followed by one statement";
  for (const char *S : {"x[0] = 1;\n", "#pragma acc loop\nfor (int i = 0; i < 4; i++) x[i] = 0;\n",
                        "#pragma acc routine seq\n", "#pragma acc parallelize\nx[0] = 1;\n",
                        "#pragma omp parallel\nx[0] = 1;\n", ""}) {
    ErrorCode Code = ErrorCode::Internal;
    EXPECT_EQ(wrapError(S, {"int *x"}, Code), Expected) << S;
    EXPECT_EQ(Code, ErrorCode::InvalidArgument) << S;
  }
}

TEST(KernelSourceTest, WrapEmptyDeclaration) {
  // KernelSource.h documents an empty declaration as an error of wrapKernel.
  for (const Strings &Decls : {Strings{""}, Strings{"int *x", "  "}}) {
    ErrorCode Code = ErrorCode::Internal;
    std::string Msg = wrapError("#pragma acc serial\nx[0] = 1;\n", Decls, Code);
    EXPECT_EQ(Code, ErrorCode::InvalidArgument) << Msg;
  }
}

TEST(KernelSourceTest, MentionsIdentifierAsAWholeToken) {
  EXPECT_TRUE(mentionsIdentifier("g * 2", "g"));
  EXPECT_TRUE(mentionsIdentifier("double (*a)[m]", "m"));
  EXPECT_FALSE(mentionsIdentifier("gg + g_1", "g"));
  EXPECT_FALSE(mentionsIdentifier("1.5e3f", "f")) << "a number's suffix";
  EXPECT_FALSE(mentionsIdentifier("", "g"));
}

} // namespace

TEST(KernelSourceTest, SiteComesFromTheLastLineComment) {
  const char *Body = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  a[i] = 0;\n";
  EXPECT_EQ(kernelSite(std::string(Body) + "// jacc-site: heat.c:42\n"), "heat.c:42");
  EXPECT_EQ(kernelSite(std::string(Body) + "  //jacc-site:  dir/my file.c:7  \n\n"),
            "dir/my file.c:7");
  EXPECT_EQ(kernelSite(Body), "");
  EXPECT_EQ(kernelSite(std::string(Body) + "// a comment\n"), "");
  EXPECT_EQ(kernelSite("// jacc-site: first.c:1\n" + std::string(Body)), "")
      << "only the last line names the site";
  EXPECT_EQ(kernelSite("// jacc-site: only.c:3"), "only.c:3");
  EXPECT_EQ(kernelSite(""), "");
}
