// Tests of the gang loop nests: canonical loop forms and what is not one, collapsed nests
// (perfectly nested, rectangular), break, private variables, and the loop clauses jacc rejects.
#include "analysis/LoopNest.h"

#include "analysis/Frontend.h"
#include "support/Error.h"
#include "tests/analysis/FrontendCheck.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

/// The only loop of `#pragma acc parallel loop` + Header + a body using x.
CanonicalLoop loopOf(const std::string &Header, const Strings &Decls) {
  KernelInfo K = analyze("#pragma acc parallel loop\n" + Header + "\n  x[i] = 0;\n", Decls);
  if (K.Nests.size() != 1 || K.Nests[0].Loops.size() != 1) {
    ADD_FAILURE() << Header << ": expected one nest of one loop";
    return {};
  }
  return K.Nests[0].Loops[0];
}

#define EXPECT_LOOP(L, ExpVar, ExpLower, ExpUpper, ExpStep, ExpCmp, ExpIncreasing)                 \
  do {                                                                                             \
    EXPECT_EQ((L).Var, ExpVar);                                                                    \
    EXPECT_EQ((L).Lower, ExpLower);                                                                \
    EXPECT_EQ((L).Upper, ExpUpper);                                                                \
    EXPECT_EQ((L).Step, ExpStep);                                                                  \
    EXPECT_EQ((L).Compare, CanonicalLoop::Cmp::ExpCmp);                                            \
    EXPECT_EQ((L).Increasing, ExpIncreasing);                                                      \
  } while (false)

//===-- Canonical loop forms ----------------------------------------------------------------===//

TEST(LoopNestTest, LoopStepAddAssign) {
  CanonicalLoop L = loopOf("for (int i = 0; i < n; i += 2)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "0", "n", "2", LT, true);
  EXPECT_EQ(L.VarType, "int");
}

TEST(LoopNestTest, LoopStepAssignSum) {
  CanonicalLoop L = loopOf("for (int i = 0; i < n; i = i + s)", {"int *x", "int n", "int s"});
  EXPECT_LOOP(L, "i", "0", "n", "s", LT, true);
  L = loopOf("for (int i = 0; i < n; i = s + i)", {"int *x", "int n", "int s"});
  EXPECT_LOOP(L, "i", "0", "n", "s", LT, true);
}

TEST(LoopNestTest, LoopDecrement) {
  CanonicalLoop L = loopOf("for (int i = n - 1; i >= 0; i--)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "n - 1", "0", "1", GE, false);
  L = loopOf("for (int i = n; i > 0; --i)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "n", "0", "1", GT, false);
  L = loopOf("for (int i = n; i > 0; i -= 3)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "n", "0", "3", GT, false);
  L = loopOf("for (int i = n; i > 0; i = i - s)", {"int *x", "int n", "int s"});
  EXPECT_LOOP(L, "i", "n", "0", "s", GT, false);
}

TEST(LoopNestTest, LoopLessOrEqualAndNotEqual) {
  CanonicalLoop L = loopOf("for (int i = 1; i <= n; ++i)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "1", "n", "1", LE, true);
  L = loopOf("for (int i = 0; i != n; i++)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "0", "n", "1", NE, true);
  L = loopOf("for (int i = n; i != 0; i--)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "n", "0", "1", NE, false);
}

TEST(LoopNestTest, LoopBoundOnTheLeft) {
  CanonicalLoop L = loopOf("for (int i = 0; n > i; i++)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "0", "n", "1", LT, true);
  L = loopOf("for (int i = 0; n >= i; i++)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "0", "n", "1", LE, true);
  L = loopOf("for (int i = n; 0 < i; i--)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "n", "0", "1", GT, false);
  L = loopOf("for (int i = n; 0 <= i; i--)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "n", "0", "1", GE, false);
  L = loopOf("for (int i = 0; n != i; i++)", {"int *x", "int n"});
  EXPECT_LOOP(L, "i", "0", "n", "1", NE, true);
}

TEST(LoopNestTest, LoopBoundsKeepTheirSourceText) {
  CanonicalLoop L = loopOf("for (int i = lo + 1; i < hi * 2; i += (st / 2))",
                           {"int *x", "int lo", "int hi", "int st"});
  EXPECT_LOOP(L, "i", "lo + 1", "hi * 2", "(st / 2)", LT, true);
}

TEST(LoopNestTest, LoopVariableTypes) {
  EXPECT_EQ(loopOf("for (long long i = 0; i < n; i++)", {"int *x", "long long n"}).VarType,
            "long long");
  EXPECT_EQ(loopOf("for (unsigned i = 0; i < n; i++)", {"int *x", "unsigned n"}).VarType,
            "unsigned int");
  EXPECT_EQ(loopOf("for (short i = 0; i < n; i++)", {"int *x", "int n"}).VarType, "short");
}

TEST(LoopNestTest, LoopPositions) {
  std::string Src = "#pragma acc parallel loop\n"   // line 1
                    "for (int i = 0; i < n; i++)\n" // line 2
                    "  x[i] = 0;\n";                // line 3
  KernelInfo K = analyze(Src, {"int *x", "int n"});
  ASSERT_EQ(K.Nests.size(), 1u);
  const CanonicalLoop &L = K.Nests[0].Loops[0];
  EXPECT_EQ(L.Line, 2u);
  EXPECT_EQ(L.ForBegin, Src.find("for"));
  EXPECT_EQ(textOf(K, L.BodyBegin, L.BodyEnd), "x[i] = 0;");
  EXPECT_EQ(K.ConstructLine, 1u);
  EXPECT_EQ(K.ConstructOffset, 0u);
  EXPECT_EQ(textOf(K, K.BodyBegin, K.BodyEnd), "for (int i = 0; i < n; i++)\n  x[i] = 0;");
  EXPECT_FALSE(K.BodyIsCompound);
  EXPECT_EQ(K.Construct.Kind, DirectiveKind::ParallelLoop);
  ASSERT_EQ(K.Stmts.size(), 1u);
  EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Shared);
  EXPECT_EQ(K.Stmts[0].Nest, 0);
  EXPECT_EQ(K.Stmts[0].Begin, K.BodyBegin);
  EXPECT_EQ(K.Stmts[0].End, K.BodyEnd);
}

TEST(LoopNestTest, LoopVariableDeclaredBeforeTheLoop) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "{\n"
                         "  int i;\n"
                         "#pragma acc loop\n"
                         "  for (i = 0; i < n; i++) x[i] = 0;\n"
                         "}\n",
                         {"int *x", "int n"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_LOOP(K.Nests[0].Loops[0], "i", "0", "n", "1", LT, true);
  EXPECT_EQ(K.Nests[0].Loops[0].VarType, "int");
}

//===-- Non-canonical loops -----------------------------------------------------------------===//

std::string notCanonical(const char *What) {
  return std::string("kernel:2:1: the parallel loop is not in canonical form (") + What +
         "): write it as for (i = lo; i < hi; i += step)";
}

Failure loopFailure(const std::string &Header, const Strings &Decls = {"int *x", "int n"}) {
  return failureOf("#pragma acc parallel loop\n" + Header + "\n  x[0] = 0;\n", Decls);
}

#define EXPECT_NOT_CANONICAL(Header, What)                                                         \
  do {                                                                                             \
    Failure F_ = loopFailure(Header);                                                              \
    EXPECT_EQ(static_cast<int>(F_.Code), static_cast<int>(ErrorCode::Unsupported)) << F_.Message;  \
    EXPECT_EQ(F_.Message, notCanonical(What)) << Header;                                           \
  } while (false)

TEST(LoopNestTest, NonCanonicalIncrement) {
  const char *What = "the increment must be i++, i--, i += step or i -= step";
  EXPECT_NOT_CANONICAL("for (int i = 1; i < n; i *= 2)", What);
  EXPECT_NOT_CANONICAL("for (int i = 1; i < n; i = 2 * i)", What);
  EXPECT_NOT_CANONICAL("for (int i = 0; i < n; i = n - i)", What);
  EXPECT_NOT_CANONICAL("for (int i = 0; i < n; n++)", What);
  EXPECT_NOT_CANONICAL("for (int i = 0; i < n;)", What);
}

TEST(LoopNestTest, NonCanonicalDirection) {
  const char *What = "the increment goes away from the bound";
  EXPECT_NOT_CANONICAL("for (int i = 0; i < n; i--)", What);
  EXPECT_NOT_CANONICAL("for (int i = 0; i <= n; i -= 1)", What);
  EXPECT_NOT_CANONICAL("for (int i = n; i > 0; i++)", What);
  EXPECT_NOT_CANONICAL("for (int i = n; i >= 0; i += 2)", What);
}

TEST(LoopNestTest, NonCanonicalNotEqualWithStep) {
  EXPECT_NOT_CANONICAL("for (int i = 0; i != n; i += 2)", "a loop with != needs a step of 1");
}

TEST(LoopNestTest, NonCanonicalInitialisation) {
  EXPECT_NOT_CANONICAL("for (int i = 0, j = 1; i < n; i++)", "one loop variable expected");
  EXPECT_NOT_CANONICAL("for (int i; i < n; i++)", "the loop variable needs an initial value");
  EXPECT_NOT_CANONICAL("for (; n > 0; n--)", "no loop variable initialisation");
  EXPECT_NOT_CANONICAL("for (double d = 0; d < n; d++)",
                       "the loop variable must have an integer type");
}

TEST(LoopNestTest, NonCanonicalCondition) {
  EXPECT_NOT_CANONICAL("for (int i = 0; n; i++)", "no comparison of the loop variable");
  Failure F = loopFailure("for (int i = 0;; i++)", {"int *x"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Unsupported)) << F.Message;
  EXPECT_EQ(F.Message, notCanonical("no comparison of the loop variable"));
  const char *Cmp = "the condition must compare the loop variable with <, <=, >, >= or !=";
  EXPECT_NOT_CANONICAL("for (int i = 0; i * 2 < n; i++)", Cmp);
  EXPECT_NOT_CANONICAL("for (int i = 0; i == n; i++)", Cmp);
  EXPECT_NOT_CANONICAL("for (int i = 0; i - n; i++)", Cmp);
}

TEST(LoopNestDeathTest, NonCanonicalConditionWithTheVariableOnTheRight) {
  // The variable on the right of an operator that is not a comparison: an error, not a crash.
  // Run in a child process so that a crash fails this test only.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const char *Header : {"for (int i = 0; n - i; i++)", "for (int i = 0; n & i; i++)"}) {
    EXPECT_EXIT(
        {
          Failure F = loopFailure(Header);
          bool Ok = F.Code == ErrorCode::Unsupported &&
                    F.Message == notCanonical("the condition must compare the loop variable "
                                              "with <, <=, >, >= or !=");
          std::exit(Ok ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "")
        << Header;
  }
}

//===-- Collapsed nests ---------------------------------------------------------------------===//

TEST(LoopNestTest, Collapse2) {
  std::string Src = "#pragma acc parallel loop collapse(2)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  for (int j = 1; j <= m; j += 2)\n"
                    "    a[i * m + j] = i + j;\n";
  KernelInfo K = analyze(Src, {"double *a", "int n", "int m"});
  ASSERT_EQ(K.Nests.size(), 1u);
  const ParallelNest &N = K.Nests[0];
  ASSERT_EQ(N.Loops.size(), 2u);
  EXPECT_LOOP(N.Loops[0], "i", "0", "n", "1", LT, true);
  EXPECT_LOOP(N.Loops[1], "j", "1", "m", "2", LE, true);
  EXPECT_EQ(N.Loops[0].Line, 2u);
  EXPECT_EQ(N.Loops[1].Line, 3u);
  EXPECT_EQ(N.Loops[0].ForBegin, Src.find("for (int i"));
  EXPECT_EQ(N.Loops[1].ForBegin, Src.find("for (int j"));
  EXPECT_EQ(N.Loops[0].BodyBegin, N.Loops[1].ForBegin);
  EXPECT_EQ(textOf(K, N.Loops[1].BodyBegin, N.Loops[1].BodyEnd), "a[i * m + j] = i + j;");
  EXPECT_EQ(N.Loops[0].BodyEnd, N.Loops[1].BodyEnd);
  EXPECT_EQ(N.Dir.Kind, DirectiveKind::ParallelLoop);
  ASSERT_NE(N.Dir.find(ClauseKind::Collapse), nullptr);
}

TEST(LoopNestTest, Collapse3WithBraces) {
  std::string Src = "#pragma acc parallel loop collapse(3) present(a)\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  for (int j = n; j > 0; j--) {\n"
                    "    for (int k = 0; k < n; k += 4)\n"
                    "      a[(i * n + j - 1) * n + k] = 1;\n"
                    "  }\n"
                    "}\n";
  KernelInfo K = analyze(Src, {"float *a", "int n"});
  ASSERT_EQ(K.Nests.size(), 1u);
  const ParallelNest &N = K.Nests[0];
  ASSERT_EQ(N.Loops.size(), 3u);
  EXPECT_LOOP(N.Loops[0], "i", "0", "n", "1", LT, true);
  EXPECT_LOOP(N.Loops[1], "j", "n", "0", "1", GT, false);
  EXPECT_LOOP(N.Loops[2], "k", "0", "n", "4", LT, true);
  EXPECT_EQ(textOf(K, N.Loops[2].BodyBegin, N.Loops[2].BodyEnd), "a[(i * n + j - 1) * n + k] = 1;");
  EXPECT_EQ(textOf(K, N.Loops[1].BodyBegin, N.Loops[1].BodyEnd),
            "{\n    for (int k = 0; k < n; k += 4)\n      a[(i * n + j - 1) * n + k] = 1;\n  }");
}

TEST(LoopNestTest, CollapseInsideARegion) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "{\n"
                         "#pragma acc loop collapse(2)\n"
                         "  for (int i = 0; i < n; i++)\n"
                         "    for (int j = 0; j < n; j++)\n"
                         "      a[i * n + j] = 0;\n"
                         "}\n",
                         {"float *a", "int n"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].Loops.size(), 2u);
  EXPECT_EQ(K.Nests[0].Dir.Kind, DirectiveKind::Loop);
}

TEST(LoopNestTest, CollapseNeedsRectangularLoops) {
  EXPECT_FAILURE("#pragma acc parallel loop collapse(2)\n"
                 "for (int i = 0; i < n; i++)\n"
                 "  for (int j = i; j < n; j++)\n"
                 "    a[i * n + j] = 0;\n",
                 Strings({"float *a", "int n"}), ErrorCode::Unsupported,
                 "kernel:3:3: the bounds of a collapsed loop use the outer loop variable 'i': "
                 "collapse needs rectangular loops");
  EXPECT_FAILURE("#pragma acc parallel loop collapse(3)\n"
                 "for (int i = 0; i < n; i++)\n"
                 "  for (int j = 0; j < n; j++)\n"
                 "    for (int k = 0; k < j; k++)\n"
                 "      a[i * n + j + k] = 0;\n",
                 Strings({"float *a", "int n"}), ErrorCode::Unsupported,
                 "kernel:4:5: the bounds of a collapsed loop use the outer loop variable 'j': "
                 "collapse needs rectangular loops");
}

TEST(LoopNestTest, CollapseStepMayNotUseAnOuterVariable) {
  // The step is a bound too: with it depending on i the nest is not rectangular.
  EXPECT_FAILURE("#pragma acc parallel loop collapse(2)\n"
                 "for (int i = 0; i < n; i++)\n"
                 "  for (int j = 0; j < n; j += i + 1)\n"
                 "    a[i * n + j] = 0;\n",
                 Strings({"float *a", "int n"}), ErrorCode::Unsupported,
                 "kernel:3:3: the bounds of a collapsed loop use the outer loop variable 'i': "
                 "collapse needs rectangular loops");
}

TEST(LoopNestTest, CollapseNeedsPerfectlyNestedLoops) {
  EXPECT_FAILURE("#pragma acc parallel loop collapse(2)\n"
                 "for (int i = 0; i < n; i++) {\n"
                 "  a[i] = 0;\n"
                 "  for (int j = 0; j < n; j++) a[i] += 1;\n"
                 "}\n",
                 Strings({"float *a", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:2:1: collapse(2) needs 2 perfectly nested loops");
  EXPECT_FAILURE("#pragma acc parallel loop collapse(3)\n"
                 "for (int i = 0; i < n; i++)\n"
                 "  for (int j = 0; j < n; j++)\n"
                 "    a[i * n + j] = 0;\n",
                 Strings({"float *a", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:2:1: collapse(3) needs 3 perfectly nested loops");
}

//===-- break -------------------------------------------------------------------------------===//

TEST(LoopNestTest, BreakLeavingAParallelLoop) {
  EXPECT_FAILURE("#pragma acc parallel loop\n"
                 "for (int i = 0; i < n; i++) {\n"
                 "  if (x[i] < 0)\n"
                 "    break;\n"
                 "  x[i] = 1;\n"
                 "}\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:4:5: 'break' cannot leave a parallel loop (OpenACC forbids it)");
  EXPECT_FAILURE("#pragma acc parallel\n"
                 "{\n"
                 "#pragma acc loop\n"
                 "  for (int i = 0; i < n; i++) { x[i] = 1; break; }\n"
                 "}\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:4:43: 'break' cannot leave a parallel loop (OpenACC forbids it)");
  // In the innermost loop of a collapsed nest.
  EXPECT_FAILURE("#pragma acc parallel loop collapse(2)\n"
                 "for (int i = 0; i < n; i++)\n"
                 "  for (int j = 0; j < n; j++) { if (j == i) break; x[i] = j; }\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3:45: 'break' cannot leave a parallel loop (OpenACC forbids it)");
}

TEST(LoopNestTest, BreakOfAnInnerLoopOrSwitchIsAllowed) {
  KernelInfo K = analyze("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  for (int j = 0; j < n; j++) if (j > i) break;\n"
                         "  switch (x[i]) { case 0: x[i] = 1; break; default: break; }\n"
                         "  while (x[i] > 10) { x[i] /= 2; if (x[i] == 7) break; }\n"
                         "  do { x[i]++; if (x[i] > 3) break; } while (1);\n"
                         "  if (x[i] == 2) continue;\n"
                         "}\n",
                         {"int *x", "int n"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_FALSE(K.Serial);
}

//===-- private -----------------------------------------------------------------------------===//

TEST(LoopNestTest, PrivateScalar) {
  KernelInfo K = analyze("#pragma acc parallel loop private(t)\n"
                         "for (int i = 0; i < n; i++) { t = x[i] * 2; x[i] = t + t; }\n",
                         {"double *x", "int n", "double t"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].PrivateDecls, Strings({"double t"}));
}

// OpenACC lets a private clause name the loop's own variable (`private(i, j)` on `for (i ...)`):
// each iteration has its own already, declared with its value, so only the others are declared.
TEST(LoopNestTest, PrivateNamesTheLoopsOwnVariable) {
  KernelInfo K = analyze("#pragma acc parallel loop private(i, j)\n"
                         "for (i = 0; i < n; i++) { for (j = 0; j < 4; j++) x[i] += j; }\n",
                         {"double *x", "int n", "int i", "int j"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].PrivateDecls, Strings({"int j"}));
}

TEST(LoopNestTest, PrivateLocalArrayAndUnusedNames) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "{\n"
                         "  double tmp[4];\n"
                         "  int c;\n"
                         "#pragma acc loop private(tmp, unused, c)\n"
                         "  for (int i = 0; i < n; i++) {\n"
                         "    for (c = 0; c < 4; c++) tmp[c] = x[i] + c;\n"
                         "    x[i] = tmp[3];\n"
                         "  }\n"
                         "}\n",
                         {"double *x", "int n"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].PrivateDecls, Strings({"double tmp[4]", "int c"}));
  EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Redundant);
  EXPECT_EQ(K.Stmts[1].ExecMode, RegionStmt::Mode::Redundant);
  EXPECT_EQ(K.Stmts[2].ExecMode, RegionStmt::Mode::Shared);
}

TEST(LoopNestTest, PrivatePointerArgument) {
  EXPECT_FAILURE("#pragma acc parallel loop private(p)\n"
                 "for (int i = 0; i < n; i++) { p[0] = i; x[i] = p[0]; }\n",
                 Strings({"int *x", "int n", "int *p"}), ErrorCode::Unsupported,
                 "kernel:2:1: private pointer 'p' is not supported: declare the private array "
                 "inside the loop, or make the argument an array ('double p[16]')");
}

// An argument declared as an array is privatised as that array (jacc-translate's private arrays
// declared outside the construct).
TEST(LoopNestTest, PrivateArrayArgument) {
  KernelInfo K = analyze("#pragma acc parallel loop private(tmp)\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  for (int c = 0; c < 4; c++) tmp[c][0] = x[i] + c;\n"
                         "  x[i] = tmp[3][0];\n"
                         "}\n",
                         {"double *x", "int n", "double tmp[4][2]"});
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].PrivateDecls, Strings({"double tmp[4][2]"}));
}

TEST(LoopNestTest, TileSharesItsLoopsAsCollapseDoes) {
  for (const char *Dir : {"parallel loop tile(2, 4)", "parallel loop tile(*, *)",
                          "parallel loop collapse(force:2)", "kernels loop collapse(force : 2)"}) {
    KernelInfo K = analyze(std::string("#pragma acc ") + Dir + "\n"
                               "  for (int i = 0; i < n; i++)\n"
                               "    for (int j = 0; j < n; j++) x[i * n + j] = 0;\n",
                           {"int *x", "int n"});
    ASSERT_EQ(K.Nests.size(), 1u) << Dir;
    EXPECT_EQ(K.Nests[0].Loops.size(), 2u) << Dir;
  }
}

} // namespace
