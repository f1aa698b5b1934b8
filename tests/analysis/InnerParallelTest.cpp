// Tests of the inner loops a GPU may share among its threads: independence proven from the
// accesses (one slice of each written array per iteration), asserted by a loop directive, and
// each way it is refused (carried dependences, shared scalars, calls, non-rectangular or
// memory-reading headers, clauses of the inner loop's own).
#include "analysis/InnerParallel.h"

#include "tests/analysis/FrontendCheck.h"

#include <gtest/gtest.h>

using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

const Strings Grid = {"int n", "int m", "double (*a)[m]", "double (*b)[m]"};
const Strings OneGrid = {"int n", "int m", "double (*a)[m]"};

/// The variables of the only nest's shared inner loops, and from which level on they need
/// disjoint pointers ("j,k|1": j always, k only when a and b do not overlap).
std::string innerOf(const std::string &Body, const Strings &Decls = OneGrid,
                    const std::string &Loop = "#pragma acc parallel loop") {
  KernelInfo K = analyze(Loop + "\n" + Body, Decls);
  if (K.Nests.size() != 1) {
    ADD_FAILURE() << "expected one nest:\n" << Body;
    return "?";
  }
  const ParallelNest &N = K.Nests[0];
  std::string S;
  for (const CanonicalLoop &L : N.InnerParallel)
    S += (S.empty() ? "" : ",") + L.Var;
  if (N.InnerNeedsDisjointFrom < N.InnerParallel.size())
    S += "|" + std::to_string(N.InnerNeedsDisjointFrom);
  return S;
}

TEST(InnerParallelTest, AStencilIsIndependentAlongItsRowsWhenItsArraysDoNotOverlap) {
  EXPECT_EQ(innerOf("for (int i = 1; i < n - 1; i++)\n"
                    "  for (int j = 1; j < m - 1; j++)\n"
                    "    b[i][j] = a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1];\n",
                    Grid),
            "j|0");
}

TEST(InnerParallelTest, OneArrayUpdatedInPlaceNeedsNoDisjointPointers) {
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++) {\n"
                    "  for (int j = 0; j < m; j++) {\n"
                    "    double t = a[i][j];\n"
                    "    if (t < 0) a[i][j] = -t;\n"
                    "  }\n}\n"),
            "j");
  // Flat indices move with j alone too (their other terms are not affine).
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    x[i * m + j] = 2 * x[i * m + j];\n",
                    {"int n", "int m", "double *x"}, "#pragma acc parallel loop"),
            "j");
}

TEST(InnerParallelTest, ALoopCarriedDependenceKeepsTheLoopSequential) {
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 1; j < m; j++)\n"
                    "    a[i][j] = a[i][j - 1] + 1;\n"),
            "");
  // Every iteration adds to the same element.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    y[i] += a[i][j] * x[j];\n",
                    {"int n", "int m", "double (*a)[m]", "double *x", "double *y"},
                    "#pragma acc parallel loop"),
            "");
  // Written through an index that does not move with j.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    a[i][k[j]] = 1;\n",
                    {"int n", "int m", "double (*a)[m]", "const int *k"},
                    "#pragma acc parallel loop"),
            "");
}

// A pointer that is not an argument's own may point into the array the loop writes (a row one
// element on), which only the sequential order makes well defined.
TEST(InnerParallelTest, ReadsThroughOtherPointersKeepTheLoopSequential) {
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m - 1; j++) {\n"
                    "    const double *r = b[i];\n"
                    "    a[i][j] = r[j + 1];\n"
                    "  }\n",
                    Grid),
            "");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m - 1; j++)\n"
                    "    a[i][j] = rows[i][j + 1];\n",
                    {"int n", "int m", "double (*a)[m]", "double **rows"}),
            "");
}

TEST(InnerParallelTest, ScalarsSharedBetweenIterationsKeepTheLoopSequential) {
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++) {\n"
                    "  double t;\n"
                    "  for (int j = 0; j < m; j++) { t = a[i][j]; b[i][j] = t; }\n}\n",
                    Grid),
            "");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++) { b[i][j] = c; c = a[i][j]; }\n",
                    {"int n", "int m", "double (*a)[m]", "double (*b)[m]", "double c"}),
            "");
}

TEST(InnerParallelTest, AReductionOfTheNestMayBeUpdatedButNotRead) {
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    s += a[i][j];\n",
                    {"int n", "int m", "double (*a)[m]", "double s"},
                    "#pragma acc parallel loop reduction(+:s)"),
            "j");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++) { s += a[i][j]; a[i][j] = s; }\n",
                    {"int n", "int m", "double (*a)[m]", "double s"},
                    "#pragma acc parallel loop reduction(+:s)"),
            "");
}

TEST(InnerParallelTest, ALoopDirectiveAssertsIndependenceUnlessItSaysOtherwise) {
  const std::string Carried = "  for (int j = 1; j < m; j++)\n"
                              "    a[i][j] = a[i][j - 1] + 1;\n";
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n#pragma acc loop vector\n" + Carried), "j");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n#pragma acc loop independent\n" + Carried), "j");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n#pragma acc loop seq\n" + Carried), "");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n#pragma acc loop auto\n" + Carried), "");
  // Clauses of its own (a reduction, private variables) are the inner loop's to honour.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "#pragma acc loop vector reduction(+:s)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    s += a[i][j];\n",
                    {"int n", "int m", "double (*a)[m]", "double s"}, "#pragma acc parallel loop"),
            "");
}

// NPB declares its loop variables and temporaries in the function, outside the construct: such
// a loop joins when what it assigns stays in it (each thread of a GPU then holds its own copies),
// and not when a value crosses iterations or the construct reads it elsewhere.
TEST(InnerParallelTest, TheProgramsLoopVariableJoinsWhenWhatTheLoopAssignsStaysInIt) {
  const Strings Outside = {"int n", "int m", "int j", "double t", "double (*a)[m]"};
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "#pragma acc loop vector\n"
                    "  for (j = 0; j < m; j++) {\n"
                    "    t = 2 * a[i][j];\n"
                    "    a[i][j] = t + 1;\n"
                    "  }\n",
                    Outside),
            "j");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (j = 0; j < m; j++) a[i][j] = 2 * a[i][j];\n",
                    {"int n", "int m", "int j", "double (*a)[m]"}),
            "j");
  // t carries a value from one iteration to the next.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "#pragma acc loop vector\n"
                    "  for (j = 0; j < m; j++) {\n"
                    "    a[i][j] = t;\n"
                    "    t = 2 * a[i][j];\n"
                    "  }\n",
                    Outside),
            "");
  // The construct reads j after the nest.
  EXPECT_EQ(innerOf("{\n"
                    "  #pragma acc loop\n"
                    "  for (int i = 0; i < n; i++)\n"
                    "    #pragma acc loop vector\n"
                    "    for (j = 0; j < m; j++) a[i][j] = 0;\n"
                    "  a[0][0] = j;\n"
                    "}\n",
                    {"int n", "int m", "int j", "double (*a)[m]"}, "#pragma acc parallel"),
            "");
}

TEST(InnerParallelTest, DeeperLoopsJoinOneLevelAtATime) {
  const Strings Cube = {"int n", "double (*a)[n][n]", "double (*b)[n][n]"};
  EXPECT_EQ(innerOf("for (int i = 1; i < n - 1; i++)\n"
                    "#pragma acc loop worker\n"
                    "  for (int j = 0; j < n; j++)\n"
                    "    for (int k = 0; k < n; k++)\n"
                    "      b[i][j][k] = a[i - 1][j][k] + a[i + 1][j][k];\n",
                    Cube),
            "j,k|1");
  // The middle loop sums along k: it stays sequential, and so does everything inside it.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < n; j++)\n"
                    "    for (int k = 1; k < n; k++)\n"
                    "      b[i][j][k] = b[i][j][k - 1] + a[i][j][k];\n",
                    Cube),
            "j|0");
}

TEST(InnerParallelTest, OnlyRectangularLoopsWithPlainHeadersAndNoCallsJoin) {
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < i; j++)\n"
                    "    a[i][j] = 0;\n"),
            "");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < len[0]; j++)\n"
                    "    a[i][j] = 0;\n",
                    {"int n", "int m", "double (*a)[m]", "const int *len"},
                    "#pragma acc parallel loop"),
            "");
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++) {\n"
                    "  int j;\n"
                    "  for (j = 0; j < m; j++) a[i][j] = 0;\n}\n"),
            "");
  EXPECT_EQ(innerOf("void set(double *p);\n#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    set(&a[i][j]);\n",
                    OneGrid, ""),
            "");
  // Not perfectly nested: the statement before the inner loop belongs to the outer one.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++) {\n"
                    "  a[i][0] = 0;\n"
                    "  for (int j = 1; j < m; j++) a[i][j] = 1;\n}\n"),
            "");
  // Tiles keep their own order.
  EXPECT_EQ(innerOf("for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    a[i][j] = 0;\n",
                    OneGrid, "#pragma acc parallel loop tile(8)"),
            "");
}

} // namespace
