// Tests of the loops a CPU thread runs swapped: an independent loop around a sequential
// recurrence whose accesses move contiguously along the independent loop (NPB's Thomas sweeps),
// and each way an interchange is refused (a carried scalar, an atomic, a reduction, an early exit,
// a triangular or memory-reading header, a variable read after the loops, accesses already
// contiguous along the inner loop, iterations not known to be independent).
#include "analysis/Interchange.h"
#include "analysis/KernelSource.h"

#include "tests/analysis/FrontendCheck.h"

#include <gtest/gtest.h>

using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

/// NPB's declarations: the loop variables and temporaries are the function's, declared outside
/// the construct; the arrays' last dimension is j.
const Strings Sweep = {"int nz",
                       "int nx",
                       "int ny",
                       "int i",
                       "int j",
                       "int i1",
                       "double fac",
                       "double (*lhs)[nx + 2][ny]",
                       "double (*rhs)[nx + 2][ny]"};

/// The name a declaration declares: `p` of "double (*p)[n]", `n` of "int n".
std::string declared(const std::string &Decl) {
  size_t Star = Decl.find("(*");
  if (Star != std::string::npos)
    return Decl.substr(Star + 2, Decl.find(')') - Star - 2);
  return Decl.substr(Decl.rfind(' ') + 1);
}

/// Those of Decls that Text or another kept declaration names (the frontend refuses an argument
/// the kernel does not use).
Strings usedBy(const std::string &Text, const Strings &Decls) {
  Strings Kept;
  for (const std::string &D : Decls) {
    std::string Context = Text;
    for (const std::string &Other : Decls)
      if (&Other != &D && mentionsIdentifier(Text, declared(Other)))
        Context += "\n" + Other;
    if (mentionsIdentifier(Context, declared(D)))
      Kept.push_back(D);
  }
  return Kept;
}

/// "outer>inner" for each interchange of the only nest ("" when none).
std::string interchangesOf(const std::string &Body, const Strings &Decls = Sweep,
                           const std::string &Loop = "#pragma acc parallel loop gang") {
  std::string Src = Loop + "\nfor (int k = 0; k < nz; k++) {\n" + Body + "}\n";
  KernelInfo K = analyze(Src, usedBy(Src, Decls));
  if (K.Nests.size() != 1) {
    ADD_FAILURE() << "expected one nest:\n" << Body;
    return "?";
  }
  std::string S;
  for (const LoopInterchange &X : K.Nests[0].Interchanges)
    S += (S.empty() ? "" : ",") + X.Outer.Var + ">" + X.Inner.Var;
  return S;
}

/// The forward elimination of a tridiagonal sweep along i for every j: Pre opens the j loop's
/// body, Step replaces its last statement.
std::string forwardSweep(const std::string &JLoop = "#pragma acc loop worker vector\n",
                         const std::string &Step = "rhs[k][i1][j] = rhs[k][i1][j] - "
                                                   "lhs[k][i1][j] * rhs[k][i][j];\n") {
  return JLoop +
         "for (j = 0; j < ny; j++) {\n"
         "  for (i = 0; i < nx; i++) {\n"
         "    i1 = i + 1;\n"
         "    fac = 1.0 / lhs[k][i][j];\n"
         "    rhs[k][i][j] = fac * rhs[k][i][j];\n" +
         Step + "  }\n}\n";
}

TEST(InterchangeTest, AnIndependentLoopAroundARecurrenceAlongItsRowsRunsInside) {
  EXPECT_EQ(interchangesOf(forwardSweep()), "j>i");
  // Backwards, unbraced, the loop variables declared by the loops, an independent clause.
  EXPECT_EQ(interchangesOf("#pragma acc loop independent\n"
                           "for (int jj = ny - 1; jj >= 0; jj--)\n"
                           "  for (int ii = nx - 1; ii >= 0; ii--)\n"
                           "    rhs[k][ii][jj] = rhs[k][ii][jj] - lhs[k][ii][jj] * "
                           "rhs[k][ii + 1][jj];\n"),
            "jj>ii");
  // Without a directive, iterations the analysis proves independent (scalars of their own, one
  // array).
  EXPECT_EQ(interchangesOf("for (int jj = 0; jj < ny; jj++)\n"
                           "  for (int ii = 0; ii < nx; ii++) {\n"
                           "    double t = rhs[k][ii][jj] * 0.5;\n"
                           "    rhs[k][ii + 1][jj] = rhs[k][ii + 1][jj] - t * rhs[k][ii][jj];\n"
                           "  }\n"),
            "jj>ii");
}

TEST(InterchangeTest, AScalarCarriedFromOneIterationToTheNextKeepsTheOrder) {
  // fac is read before it is assigned: it carries the previous i's value.
  EXPECT_EQ(interchangesOf("#pragma acc loop vector\n"
                           "for (j = 0; j < ny; j++)\n"
                           "  for (i = 0; i < nx; i++) {\n"
                           "    rhs[k][i][j] = rhs[k][i][j] + fac;\n"
                           "    fac = lhs[k][i][j];\n"
                           "  }\n"),
            "");
  // Assigned on one path only.
  EXPECT_EQ(interchangesOf("#pragma acc loop vector\n"
                           "for (j = 0; j < ny; j++)\n"
                           "  for (i = 0; i < nx; i++) {\n"
                           "    if (lhs[k][i][j] > 0) fac = lhs[k][i][j];\n"
                           "    rhs[k][i][j] = fac;\n"
                           "  }\n"),
            "");
}

TEST(InterchangeTest, AtomicsReductionsAndEarlyExitsKeepTheOrder) {
  Strings WithSum = Sweep;
  WithSum.push_back("double s");
  // A math function reads only its arguments: the order still does not matter.
  EXPECT_EQ(interchangesOf(forwardSweep("#pragma acc loop vector\n", "rhs[k][i][j] = sin(fac);\n")),
            "j>i");
  EXPECT_EQ(interchangesOf(forwardSweep("#pragma acc loop vector\n",
                                        "#pragma acc atomic update\nlhs[k][0][j] += fac;\n")),
            "");
  EXPECT_EQ(interchangesOf(forwardSweep("#pragma acc loop vector\n", "s += rhs[k][i][j];\n"),
                           WithSum, "#pragma acc parallel loop gang reduction(+:s)"),
            "");
  EXPECT_EQ(interchangesOf(forwardSweep("#pragma acc loop vector\n", "if (fac < 0) break;\n")), "");
}

TEST(InterchangeTest, HeadersThatDependOnEachOtherOrOnMemoryKeepTheOrder) {
  // Triangular: the inner loop's bound is the outer loop's variable.
  EXPECT_EQ(interchangesOf("#pragma acc loop vector\n"
                           "for (j = 0; j < ny; j++)\n"
                           "  for (i = 0; i < j; i++)\n"
                           "    rhs[k][i + 1][j] = rhs[k][i][j];\n"),
            "");
  // A bound read from an array the loop writes.
  EXPECT_EQ(interchangesOf("#pragma acc loop vector\n"
                           "for (j = 0; j < ny; j++)\n"
                           "  for (i = 0; i < (int)lhs[k][0][0]; i++)\n"
                           "    rhs[k][i + 1][j] = rhs[k][i][j];\n"),
            "");
  // A bound the body assigns.
  Strings WithBound = Sweep;
  WithBound.push_back("int m");
  EXPECT_EQ(interchangesOf("#pragma acc loop vector\n"
                           "for (j = 0; j < ny; j++)\n"
                           "  for (i = 0; i < m; i++) {\n"
                           "    m = nx;\n"
                           "    rhs[k][i + 1][j] = rhs[k][i][j];\n"
                           "  }\n",
                           WithBound),
            "");
}

TEST(InterchangeTest, AVariableTheLoopsLeaveBehindThatIsReadAfterThemKeepsTheOrder) {
  // After zero iterations of i, the interchanged loops would leave j unchanged.
  EXPECT_EQ(interchangesOf(forwardSweep() + "lhs[k][0][0] = j + fac;\n"), "");
}

TEST(InterchangeTest, AccessesContiguousAlongTheInnerLoopAlreadyKeepTheOrder) {
  const Strings ByRow = {"int nz", "int nx", "int ny", "double (*u)[ny][nx]"};
  EXPECT_EQ(interchangesOf("#pragma acc loop vector\n"
                           "for (int j = 0; j < ny; j++)\n"
                           "  for (int i = 1; i < nx; i++)\n"
                           "    u[k][j][i] = u[k][j][i] + u[k][j][i - 1];\n",
                           ByRow),
            "");
}

TEST(InterchangeTest, IterationsNotKnownToBeIndependentKeepTheOrder) {
  // seq says the j loop runs in order; without a directive, j's scalars are shared.
  EXPECT_EQ(interchangesOf(forwardSweep("#pragma acc loop seq\n")), "");
  EXPECT_EQ(interchangesOf(forwardSweep("")), "");
  // A dependence along j that no directive overrides.
  EXPECT_EQ(interchangesOf("for (int jj = 1; jj < ny; jj++)\n"
                           "  for (int ii = 0; ii < nx; ii++)\n"
                           "    rhs[k][ii][jj] = rhs[k][ii][jj - 1] + lhs[k][ii][jj];\n"),
            "");
}

} // namespace
