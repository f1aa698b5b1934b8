// Tests of the rewriting pass: the C condition of a predicate, the guards inserted into the kernel
// source (the exact rewritten text of small kernels, including the paper's Fig. 3 and reductions),
// what is left alone, and that the rewritten kernels compile as the JIT embeds them.
#include "analysis/Rewrite.h"
#include "analysis/Pipeline.h"
#include "jit/CompiledKernel.h"
#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;
using jacc::analysis::test::analyzed;

namespace {

using Strings = std::vector<std::string>;

/// own(A, E): the device owns A's element E along A's split dimension.
std::string own(const std::string &A, const std::string &E) {
  return "(" + A + "__lb <= (long long)(" + E + ") && (long long)(" + E + ") <= " + A + "__ub)";
}

/// ((Cond) ? (Expr) : Else)
std::string guard(const std::string &Cond, const std::string &Expr, const std::string &Else) {
  return "((" + Cond + ") ? (" + Expr + ") : " + Else + ")";
}

/// ((Cond) ? (void)(Expr) : (void)0): a whole write statement, skipped without reading back.
std::string stmtGuard(const std::string &Cond, const std::string &Expr) {
  return "((" + Cond + ") ? (void)(" + Expr + ") : (void)0)";
}

/// The kernel compiles, with its split entry, as the JIT embeds it.
void expectCompiles(const std::string &Src, const Strings &Decls) {
  auto CK = jacc::jit::compileKernel(Src, Decls);
  if (!CK) {
    ADD_FAILURE() << "compileKernel failed: " << llvm::toString(CK.takeError());
    return;
  }
  EXPECT_TRUE((*CK)->Info.Split.Enabled) << (*CK)->Info.Split.Fallback;
  auto Split = (*CK)->splitCode();
  ASSERT_TRUE(static_cast<bool>(Split)) << llvm::toString(Split.takeError());
  EXPECT_NE((*Split)->Entry, nullptr);
  EXPECT_NE((*CK)->Entry, nullptr);
}

size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t P = Text.find(Needle); P != std::string::npos; P = Text.find(Needle, P + 1))
    ++N;
  return N;
}

// ---- predicateCondition ----------------------------------------------------------------------

PredTerm ownTerm(const std::string &A, const std::string &E) {
  PredTerm T;
  T.Array = A;
  T.Index.Text = E;
  return T;
}

TEST(RewriteTest, BoundNames) {
  EXPECT_EQ(lowerBoundName("a"), "a__lb");
  EXPECT_EQ(upperBoundName("a"), "a__ub");
}

TEST(RewriteTest, PredicateConditionText) {
  Predicate Always;
  Always.Always = true;
  EXPECT_EQ(predicateCondition(Always), "1");
  EXPECT_EQ(predicateCondition(Predicate{}), "1"); // nobody needs it: left unfiltered

  Predicate One;
  One.Terms = {ownTerm("a", "i + 1")};
  EXPECT_EQ(predicateCondition(One),
            "(a__lb <= (long long)(i + 1) && (long long)(i + 1) <= a__ub)");

  Predicate Share;
  Share.Terms.resize(1);
  Share.Terms[0].K = PredTerm::Kind::Share;
  EXPECT_EQ(predicateCondition(Share), "__jacc_in_share");

  Predicate Many;
  Many.Terms = {ownTerm("a", "k"), ownTerm("b", "idx[i]"), Share.Terms[0]};
  EXPECT_EQ(predicateCondition(Many),
            "(a__lb <= (long long)(k) && (long long)(k) <= a__ub) || "
            "(b__lb <= (long long)(idx[i]) && (long long)(idx[i]) <= b__ub) || "
            "__jacc_in_share");
}

// ---- rewritten kernels -----------------------------------------------------------------------

const char *const Saxpy = "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n";
const Strings SaxpyDecls = {"int n", "float a", "const float *x", "float *y"};

TEST(RewriteTest, Saxpy) {
  KernelInfo K = analyzed(Saxpy, SaxpyDecls);
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_EQ(K.Split.Rewritten,
            "#pragma acc parallel loop\n"
            "for (int i = 0; i < n; i++)\n"
            "  (((y__lb <= (long long)(i) && (long long)(i) <= y__ub)) ? "
            "(void)(y[i] = a * x[i] + y[i]) : (void)0);\n");
  std::string Src = Saxpy;
  unsigned Begin = Src.find("y[i] ="), End = Src.find(";", Begin);
  EXPECT_EQ(K.Split.Guards,
            (Insertions{{Begin, "(((y__lb <= (long long)(i) && (long long)(i) <= y__ub)) ? (void)("},
                        {End, ") : (void)0)"}}));
}

const char *const Fig3 = "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  a[i] = x; b[i] = a[i]; x = c[j]; a[k] = x; b[k] = a[k];\n"
                         "}\n";
const Strings Fig3Decls = {"int n", "int j", "int k", "double x", "double *a", "double *b",
                           "const double *c"};

TEST(RewriteTest, PaperFigure3) {
  KernelInfo K = analyzed(Fig3, Fig3Decls);
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  std::string AK = own("a", "k") + " || " + own("b", "k");
  EXPECT_EQ(K.Split.Rewritten,
            "#pragma acc parallel loop\n"
            "for (int i = 0; i < n; i++) {\n"
            "  " +
                stmtGuard(own("a", "i") + " || " + own("b", "i"), "a[i] = x") + "; " +
                stmtGuard(own("b", "i"), "b[i] = a[i]") + "; x = " +
                guard(AK, "c[j]", "0") + "; " + stmtGuard(AK, "a[k] = x") + "; " +
                stmtGuard(own("b", "k"), "b[k] = a[k]") +
                ";\n"
                "}\n");
  EXPECT_EQ(K.Split.Guards.size(), 10u);
}

const char *const Dot = "#pragma acc parallel loop reduction(+:s)\n"
                        "for (int i = 0; i < n; i++) {\n"
                        "  double t = a[i] * b[i];\n"
                        "  s += t;\n"
                        "}\n";
const Strings DotDecls = {"int n", "const double *a", "const double *b", "double s"};

TEST(RewriteTest, ReductionUpdateIsGuardedWhole) {
  KernelInfo K = analyzed(Dot, DotDecls);
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_EQ(K.Split.Rewritten, "#pragma acc parallel loop reduction(+:s)\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  double t = ((__jacc_in_share) ? (a[i] * b[i]) : 0);\n"
                               "  ((__jacc_in_share) ? (s += t) : s);\n"
                               "}\n");

  KernelInfo P = analyzed("#pragma acc parallel loop reduction(*:p)\n"
                          "for (int i = 0; i < n; i++) p = p * a[i];\n",
                          {"int n", "const double *a", "double p"});
  ASSERT_TRUE(P.Split.Enabled) << P.Split.Fallback;
  EXPECT_EQ(P.Split.Rewritten, "#pragma acc parallel loop reduction(*:p)\n"
                               "for (int i = 0; i < n; i++) "
                               "((__jacc_in_share) ? (p = p * a[i]) : p);\n");
}

const char *const MatVec = "#pragma acc parallel loop\n"
                           "for (int i = 0; i < n; i++) {\n"
                           "  double s = 0;\n"
                           "  for (int k = 0; k < m; k++)\n"
                           "    s += a[i][k] * x[k];\n"
                           "  double r = s + x[i];\n"
                           "  y[i] = r;\n"
                           "}\n";
const Strings MatVecDecls = {"int n", "int m", "const double (*a)[m]", "const double *x",
                             "double *y"};

TEST(RewriteTest, ScalarDefinitionsAndUpdates) {
  KernelInfo K = analyzed(MatVec, MatVecDecls);
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  std::string Y = own("y", "i");
  // s = 0 reads no array: left alone. The update is guarded whole, r's value reads x[i].
  EXPECT_EQ(K.Split.Rewritten, "#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  double s = 0;\n"
                               "  for (int k = 0; k < m; k++)\n"
                               "    " +
                                   guard(Y, "s += a[i][k] * x[k]", "s") +
                                   ";\n"
                                   "  double r = " +
                                   guard(Y, "s + x[i]", "0") +
                                   ";\n"
                                   "  " +
                                   stmtGuard(Y, "y[i] = r") +
                                   ";\n"
                                   "}\n");
}

// *c may be the c[i + 1] that c[i + 1]++ reads; *(c + i) cannot.
TEST(RewriteTest, DereferencedWrites) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  *c = 5;\n"
                          "  *(c + i) = 6;\n"
                          "  c[i + 1]++;\n"
                          "}\n",
                          {"int n", "double *c"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_EQ(K.Split.Rewritten, "#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  " +
                                   stmtGuard(own("c", "0") + " || " + own("c", "i + 1"), "*c = 5") +
                                   ";\n"
                                   "  " +
                                   stmtGuard(own("c", "i"), "*(c + i) = 6") +
                                   ";\n"
                                   "  " +
                                   stmtGuard(own("c", "i + 1"), "c[i + 1]++") +
                                   ";\n"
                                   "}\n");
}

TEST(RewriteTest, AlwaysTrueStatementsAreLeftAlone) {
  const std::string Src = "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t[2];\n"
                          "  t[0] = b[i];\n"
                          "  int k = idx[i];\n"
                          "  for (int j = 0; j < k; j++) t[1] = b[j];\n"
                          "  a[k] = t[0] + t[1];\n"
                          "}\n";
  KernelInfo K = analyzed(Src, {"int n", "double *a", "const double *b", "const int *idx"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  // Local array writes, index computations, loop variables: executed by every device.
  ASSERT_EQ(K.Split.Guards.size(), 2u);
  std::string Expected = Src;
  std::string Write = "a[k] = t[0] + t[1]";
  Expected.replace(Expected.find(Write), Write.size(), stmtGuard(own("a", "k"), Write));
  EXPECT_EQ(K.Split.Rewritten, Expected);
}

TEST(RewriteTest, WritesInsideConditionalExpressions) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  c[i] = b[i] > 0 ? (a[i] = 1) : 0;\n",
                          {"int n", "double *a", "const double *b", "double *c"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_EQ(K.Split.Rewritten,
            "#pragma acc parallel loop\n"
            "for (int i = 0; i < n; i++)\n"
            "  " +
                stmtGuard(own("c", "i"),
                          "c[i] = b[i] > 0 ? (" +
                          guard(own("a", "i") + " || " + own("c", "i"), "a[i] = 1", "a[i]") +
                          ") : 0") +
                ";\n");
}

// An index with a side effect is evaluated by the guard too: k must still be incremented once
// per statement (or the kernel not split).
TEST(RewriteTest, IndexSideEffectsHappenOnce) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int k = 2 * i;\n"
                          "  a[k++] = b[i];\n"
                          "}\n",
                          {"int n", "double *a", "const double *b"});
  if (K.Split.Enabled) {
    EXPECT_EQ(count(K.Split.Rewritten, "k++"), 1u) << K.Split.Rewritten;
  }
}

TEST(RewriteTest, NothingWhenNotSplit) {
  KernelInfo K = analyzed("static void set(double *p, int i) { p[i] = 1; }\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) set(a, i);\n",
                          {"int n", "double *a"});
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_TRUE(K.Split.Guards.empty());
  EXPECT_EQ(K.Split.Rewritten, "");
}

TEST(RewriteTest, MacrosInIndices) {
  KernelInfo K = analyzed("#define IDX(i) (2 * (i))\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  a[IDX(i)] = 1;\n",
                          {"int n", "double *a"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_EQ(K.Split.Rewritten, "#define IDX(i) (2 * (i))\n"
                               "#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  " +
                                   stmtGuard(own("a", "IDX(i)"), "a[IDX(i)] = 1") +
                                   ";\n");
}

/// The guarded text of a one-statement kernel `for (int i = 0; i < n; i++) Body;` whose source
/// starts with Defines.
std::string rewrittenBody(const std::string &Defines, const std::string &Body,
                          const Strings &Decls) {
  std::string Head = Defines + "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  ";
  KernelInfo K = analyzed(Head + Body + ";\n", Decls);
  EXPECT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  if (K.Split.Rewritten.compare(0, Head.size(), Head) != 0)
    return "(not rewritten) " + K.Split.Rewritten;
  return K.Split.Rewritten.substr(Head.size(), K.Split.Rewritten.size() - Head.size() - 2);
}

// A write spelled by a macro as a whole: the guard wraps the invocation, and its index is the
// macro's argument, so the macro (an assignment) is evaluated once.
TEST(RewriteTest, WritesInMacrosAreEvaluatedOnce) {
  EXPECT_EQ(
      rewrittenBody("#define SET(a, i, v) a[i] = v\n", "SET(a, i, 1)", {"int n", "double *a"}),
      stmtGuard(own("a", "i"), "SET(a, i, 1)"));
}

// A value computed by a macro (NPB's `max`): the write's text ends with the invocation.
TEST(RewriteTest, WriteOfAMacrosValue) {
  EXPECT_EQ(rewrittenBody("#define MAX(x, y) ((x) > (y) ? (x) : (y))\n", "a[i] = MAX(b[i], 0.0)",
                          {"int n", "double *a", "const double *b"}),
            stmtGuard(own("a", "i"), "a[i] = MAX(b[i], 0.0)"));
}

// An element named by a macro (NPB MG's `I3D`): its index has no text of its own, and the guard
// reads the index as the macro expands it.
TEST(RewriteTest, ElementNamedByAMacro) {
  EXPECT_EQ(rewrittenBody("#define AT(p, w, r, c) (p[(r) * w + (c)])\n", "AT(a, 4, i, 1) = 2",
                          {"int n", "double *a"}),
            stmtGuard(own("a", "(i) * 4 + (1)"), "AT(a, 4, i, 1) = 2"));
}

// A write that starts or ends inside a macro's body cannot be wrapped: the kernel is not split.
TEST(RewriteTest, WriteCutByAMacroIsNotSplit) {
  KernelInfo K = analyzed("#define SET2(i) a[i] = 1; b[i] = 2\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  SET2(i);\n"
                          "}\n",
                          {"int n", "double *a", "double *b"});
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_NE(K.Split.Fallback.find("inside a macro's body"), std::string::npos) << K.Split.Fallback;
}

// ---- the rewritten source compiles -----------------------------------------------------------

TEST(RewriteTest, RewrittenKernelsCompile) {
  expectCompiles(Saxpy, SaxpyDecls);
  expectCompiles(Fig3, Fig3Decls);
  expectCompiles(Dot, DotDecls);
  expectCompiles(MatVec, MatVecDecls);
  expectCompiles("#pragma acc parallel loop\n"
                 "for (int i = 0; i < n; i++) {\n"
                 "  *c = 5;\n"
                 "  *(c + i) = 6;\n"
                 "  c[i + 1]++;\n"
                 "  d[i] = c[i] > 0 ? (e[i] = 1) : 0;\n"
                 "  double t[2];\n"
                 "  t[0] = c[i];\n"
                 "  int k = idx[i];\n"
                 "  while (k > 0) { if (k == 3) break; d[k] += t[0]; k--; }\n"
                 "}\n",
                 {"int n", "double *c", "double *d", "double *e", "const int *idx"});
}

} // namespace
