// Tests of the index locals pass: indices that read a scalar the iteration computes from loop
// variables and invariants are rewritten over its definition (narrowing, read extents and guards
// then see through it); other scalars are left as they are.
#include "analysis/IndexLocals.h"
#include "analysis/Pipeline.h"
#include "analysis/ReadExtents.h"
#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;
using jacc::analysis::test::analyzed;

namespace {

std::vector<std::string> readExtents(const KernelInfo &K) {
  std::vector<std::string> R;
  for (const ReadExtent &E : K.Split.Reads)
    R.push_back(describeReadExtent(E));
  return R;
}

/// The index text of the first write to Name.
std::string writtenIndex(const KernelInfo &K, const std::string &Name) {
  for (const IRStmt &S : K.Split.IR.Stmts)
    if (S.K == IRStmt::Kind::ArrayWrite && S.Write.Name == Name)
      return S.Write.Index[0].Text;
  return "";
}

// NPB MG's restriction: the fine grid's index is computed from the coarse one's in the body.
TEST(IndexLocalsTest, LocalsComputedFromTheIteratorAreSeenThrough) {
  KernelInfo K =
      analyzed("#pragma acc parallel loop\n"
               "for (int j = 1; j < m - 1; j++) {\n"
               "  int i = 2 * j - d;\n"
               "  coarse[j] = fine[i] + fine[i + 1];\n"
               "  fine2[i] = coarse[j];\n"
               "}\n",
               {"int m", "int d", "const double *fine", "double *coarse", "double *fine2"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Narrowable) << P.NoNarrowing;
  const SplitArray *F = P.find("fine2");
  ASSERT_NE(F, nullptr);
  ASSERT_EQ(F->Writes.size(), 1u);
  EXPECT_EQ(F->Writes[0].Coef, 2);
  EXPECT_EQ(writtenIndex(K, "fine2"), "(2 * j - d)");
  // i and i + 1 for j in [lo, hi): from 2 lo - d to 2 (hi - 1) - d + 1.
  EXPECT_EQ(readExtents(K),
            (std::vector<std::string>{
                "fine along dimension 0: [2 * lo + (-1LL * (d)), 2 * hi + (-1LL * (d)))",
                "coarse (read and written) along dimension 0: [lo, hi)"}));
}

// Through several locals and an inner loop's variable, as MG's i3, i2, i1 over j3, j2, j1.
TEST(IndexLocalsTest, ChainsAndInnerLoopVariablesAreSeenThrough) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int j = 1; j < m - 1; j++) {\n"
                          "  int i = 2 * j - d;\n"
                          "  for (int l = 1; l < c - 1; l++) {\n"
                          "    int k = 2 * l - d;\n"
                          "    int e = i * c + k;\n"
                          "    out[e] = in[e - 1] + in[e + 1];\n"
                          "  }\n"
                          "}\n",
                          {"int m", "int c", "int d", "const double *in", "double *out"});
  EXPECT_TRUE(K.Split.Plan.Narrowable) << K.Split.Plan.NoNarrowing;
  ASSERT_EQ(K.Split.Reads.size(), 1u);
  EXPECT_FALSE(K.Split.Reads[0].Whole) << describeReadExtent(K.Split.Reads[0]);
}

// What the iteration cannot see through stays: a value read from memory, a conditional
// definition, a scalar accumulated across an inner loop's trips.
TEST(IndexLocalsTest, OtherScalarsAreLeftAsTheyAre) {
  KernelInfo Indirect = analyzed("#pragma acc parallel loop\n"
                                 "for (int j = 0; j < n; j++) {\n"
                                 "  int i = idx[j];\n"
                                 "  y[i] = x[i];\n"
                                 "}\n",
                                 {"int n", "const int *idx", "const double *x", "double *y"});
  EXPECT_EQ(writtenIndex(Indirect, "y"), "i");
  EXPECT_FALSE(Indirect.Split.Plan.Narrowable);
  KernelInfo Conditional = analyzed("#pragma acc parallel loop\n"
                                    "for (int j = 0; j < n; j++) {\n"
                                    "  int i = j;\n"
                                    "  if (j > 2) i = j - 1;\n"
                                    "  y[i] = x[j];\n"
                                    "}\n",
                                    {"int n", "const double *x", "double *y"});
  EXPECT_EQ(writtenIndex(Conditional, "y"), "i");
  KernelInfo Running = analyzed("#pragma acc parallel loop\n"
                                "for (int j = 0; j < n; j++) {\n"
                                "  int i = j * 4;\n"
                                "  for (int l = 0; l < 4; l++) {\n"
                                "    y[i] = x[j];\n"
                                "    i = i + 1;\n"
                                "  }\n"
                                "}\n",
                                {"int n", "const double *x", "double *y"});
  EXPECT_EQ(writtenIndex(Running, "y"), "i") << "i's value at the write is a phi";
}

} // namespace
