// Predicates of the region passes, asserted as structured data: per statement, the set of
// (array, index expression) terms, "share", or true.
#include "analysis/Pipeline.h"
#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

using namespace jacc::analysis;
using jacc::analysis::test::analyzed;

namespace {

using Terms = std::set<std::pair<std::string, std::string>>; // (array, index); ("share", "")
const Terms Always = {{"true", ""}};

Terms termsOf(const KernelInfo &K, unsigned Stmt) {
  const Predicate &P = K.Split.Preds.at(Stmt);
  if (P.Always)
    return Always;
  Terms T;
  for (const PredTerm &X : P.Terms)
    T.insert(X.K == PredTerm::Kind::Share ? std::make_pair(std::string("share"), std::string())
                                          : std::make_pair(X.Array, X.Index.Text));
  return T;
}

/// The statements of the region (not phis) in source order.
std::vector<const IRStmt *> statements(const KernelInfo &K) {
  std::vector<const IRStmt *> R;
  for (const IRStmt &S : K.Split.IR.Stmts)
    if (S.K == IRStmt::Kind::ArrayWrite || S.K == IRStmt::Kind::ScalarDef)
      R.push_back(&S);
  return R;
}

TEST(PredicatesTest, PaperFigure3) {
  KernelInfo K = analyzed(
      "#pragma acc parallel loop\n"
      "for (int i = 0; i < n; i++) {\n"
      "  a[i] = x; b[i] = a[i]; x = c[j]; a[k] = x; b[k] = a[k];\n"
      "}\n",
      {"int n", "int j", "int k", "double x", "double *a", "double *b", "const double *c"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  auto S = statements(K);
  ASSERT_EQ(S.size(), 5u);
  EXPECT_EQ(S[0]->Write.Name, "a");
  EXPECT_EQ(termsOf(K, S[0]->Id), (Terms{{"a", "i"}, {"b", "i"}}));
  EXPECT_EQ(termsOf(K, S[1]->Id), (Terms{{"b", "i"}}));
  EXPECT_EQ(S[2]->Var, "x");
  EXPECT_EQ(termsOf(K, S[2]->Id), (Terms{{"a", "k"}, {"b", "k"}}));
  EXPECT_EQ(termsOf(K, S[3]->Id), (Terms{{"a", "k"}, {"b", "k"}}));
  EXPECT_EQ(termsOf(K, S[4]->Id), (Terms{{"b", "k"}}));
}

TEST(PredicatesTest, ChainAcrossThreeArrays) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  a[i] = 1.0; b[i + 1] = a[i] * 2; c[i] = b[i + 1] + 1;\n"
                          "}\n",
                          {"int n", "double *a", "double *b", "double *c"});
  auto S = statements(K);
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(termsOf(K, S[0]->Id), (Terms{{"a", "i"}, {"b", "i + 1"}, {"c", "i"}}));
  EXPECT_EQ(termsOf(K, S[1]->Id), (Terms{{"b", "i + 1"}, {"c", "i"}}));
  EXPECT_EQ(termsOf(K, S[2]->Id), (Terms{{"c", "i"}}));
}

TEST(PredicatesTest, DifferentConstantOffsetsAreNotUses) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 1; i < n; i++) {\n"
                          "  a[i] = 1.0; b[i] = a[i - 1];\n"
                          "}\n",
                          {"int n", "double *a", "double *b"});
  auto S = statements(K);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(termsOf(K, S[0]->Id), (Terms{{"a", "i"}}));
}

TEST(PredicatesTest, IndexComputationIsNeverFiltered) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int k = idx[i] + 1;\n"
                          "  a[k] = b[i];\n"
                          "}\n",
                          {"int n", "double *a", "const double *b", "const int *idx"});
  auto S = statements(K);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(termsOf(K, S[0]->Id), Always);
  EXPECT_EQ(termsOf(K, S[1]->Id), (Terms{{"a", "k"}}));
  EXPECT_FALSE(K.Split.Plan.Narrowable);
}

TEST(PredicatesTest, ReductionRunsInTheShare) {
  KernelInfo K = analyzed("#pragma acc parallel loop reduction(+:s)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t = a[i] * a[i];\n"
                          "  s += t;\n"
                          "}\n",
                          {"int n", "const double *a", "double s"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  auto S = statements(K);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(termsOf(K, S[0]->Id), (Terms{{"share", ""}}));
  EXPECT_EQ(termsOf(K, S[1]->Id), (Terms{{"share", ""}}));
}

/// Rows of a summed into q[j] by an inner reduction loop; GangClauses on the row loop.
KernelInfo rowSums(const std::string &GangClauses) {
  std::string Src = "#pragma acc parallel\n{\n  #pragma acc loop gang" + GangClauses + "\n";
  Src += "  for (int j = 0; j < n; j++) {\n"
         "    sum = 0;\n"
         "    #pragma acc loop vector reduction(+:sum)\n"
         "    for (int i = 0; i < m; i++) sum += a[j * m + i];\n"
         "    q[j] = sum;\n"
         "  }\n}\n";
  return analyzed(Src, {"int n", "int m", "double sum", "const double *a", "double *q"});
}

// A reduction of a loop inside the split nest is per-iteration data: the device that owns q[j]
// must compute the sum stored there even when j is outside its share (q may be longer than the
// loop's range, so the owned rows and the share differ at the boundary).
TEST(PredicatesTest, InnerLoopReductionRunsWhereItsUsesNeedIt) {
  KernelInfo K = rowSums("");
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  // sum = 0, sum += ..., then q[j] = sum (the loop counter's definitions aside).
  std::vector<const IRStmt *> Sum, Q;
  for (const IRStmt *X : statements(K)) {
    if (X->Var == "sum")
      Sum.push_back(X);
    if (X->K == IRStmt::Kind::ArrayWrite && X->Write.Name == "q")
      Q.push_back(X);
  }
  ASSERT_EQ(Sum.size(), 2u);
  ASSERT_EQ(Q.size(), 1u);
  const Terms ShareOrOwner = {{"share", ""}, {"q", "j"}};
  EXPECT_EQ(termsOf(K, Sum[0]->Id), ShareOrOwner);
  EXPECT_EQ(termsOf(K, Sum[1]->Id), ShareOrOwner);
  EXPECT_EQ(termsOf(K, Q[0]->Id), (Terms{{"q", "j"}}));
  // The nest's own reduction stays exactly in the share.
  K = rowSums(" reduction(+:sum)");
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  for (const IRStmt *X : statements(K)) {
    if (X->Var == "sum") {
      EXPECT_EQ(termsOf(K, X->Id), (Terms{{"share", ""}}));
    }
  }
}

// A collapsed nest that stores its own reduction variable at a non-affine index: a device owns
// elements outside its share, where no predicate can both count the contribution once and compute
// the stored value, so the kernel has no split variant (it runs duplicated).
TEST(PredicatesTest, NestReductionStoredOutsideTheShareFallsBack) {
  KernelInfo K = analyzed("#pragma acc parallel loop collapse(2) reduction(+:t)\n"
                          "for (int x = 0; x < n; x++)\n"
                          "  for (int y = 0; y < n; y++) {\n"
                          "    t = 0;\n"
                          "    for (int z = 0; z < n; z++) t += a[z];\n"
                          "    d[x * n + y] = t;\n"
                          "  }\n",
                          {"int n", "double t", "const double *a", "double *d"});
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_NE(K.Split.Fallback.find("'t'"), std::string::npos) << K.Split.Fallback;
}

TEST(PredicatesTest, InnerLoopScalarChain) {
  KernelInfo K =
      analyzed("#pragma acc parallel loop\n"
               "for (int i = 0; i < n; i++) {\n"
               "  double s = 0;\n"
               "  for (int k = 0; k < m; k++)\n"
               "    s += a[i][k] * x[k];\n"
               "  y[i] = s;\n"
               "}\n",
               {"int n", "int m", "const double (*a)[m]", "const double *x", "double *y"});
  auto S = statements(K);
  // s = 0, k = 0, s += ..., k++, y[i] = s
  const IRStmt *Acc = nullptr;
  for (const IRStmt *St : S)
    if (St->Var == "s" && St->Compound)
      Acc = St;
  ASSERT_NE(Acc, nullptr);
  EXPECT_EQ(termsOf(K, Acc->Id), (Terms{{"y", "i"}}));
  EXPECT_TRUE(K.Split.Plan.Narrowable);
}

TEST(PredicatesTest, SplitByColumns) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int j = 0; j < m; j++)\n"
                          "  for (int i = 0; i < n; i++)\n"
                          "    a[i][j] = 2 * a[i][j];\n",
                          {"int n", "int m", "double (*a)[64]"});
  ASSERT_EQ(K.Split.Plan.Arrays.size(), 1u);
  EXPECT_EQ(K.Split.Plan.Arrays[0].Dim, 1u);
  const IRStmt *W = nullptr;
  for (const IRStmt *St : statements(K))
    if (St->K == IRStmt::Kind::ArrayWrite)
      W = St;
  ASSERT_NE(W, nullptr);
  EXPECT_EQ(termsOf(K, W->Id), (Terms{{"a", "j"}}));
  // The inner loop's variable indexes the write: its definitions are never filtered.
  for (const IRStmt *St : statements(K)) {
    if (St->Var == "i") {
      EXPECT_EQ(termsOf(K, St->Id), Always);
    }
  }
}

TEST(PredicatesTest, AtomicUpdatesStaySplitWithoutNarrowing) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  #pragma acc atomic update\n"
                          "  h[in[i]] += 1;\n"
                          "}\n",
                          {"int n", "const int *in", "int *h"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  const IRStmt *W = nullptr;
  for (const IRStmt *St : statements(K))
    if (St->K == IRStmt::Kind::ArrayWrite)
      W = St;
  ASSERT_NE(W, nullptr);
  EXPECT_TRUE(W->Atomic);
  EXPECT_EQ(termsOf(K, W->Id), (Terms{{"h", "in[i]"}}));
  EXPECT_FALSE(K.Split.Plan.Narrowable);
  ASSERT_EQ(K.Atomics.size(), 1u);
  EXPECT_EQ(K.Atomics[0].Kind, AtomicOp::Form::Update);
  EXPECT_TRUE(K.Atomics[0].IntegerAdd); // a fetch-and-add
}

TEST(PredicatesTest, WritesAtStridedAndReversedIndicesNarrow) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  a[2 * i] = x[i]; a[2 * i + 1] = -x[i]; b[n - 1 - i] = x[i];\n"
                          "}\n",
                          {"int n", "const double *x", "double *a", "double *b"});
  ASSERT_TRUE(K.Split.Plan.Narrowable) << K.Split.Plan.NoNarrowing;
  const SplitArray *A = K.Split.Plan.find("a");
  ASSERT_NE(A, nullptr);
  ASSERT_EQ(A->Writes.size(), 2u);
  EXPECT_EQ(A->Writes[0].Coef, 2);
  EXPECT_EQ(A->Writes[1].Coef, 2);
  const SplitArray *B = K.Split.Plan.find("b");
  ASSERT_NE(B, nullptr);
  ASSERT_EQ(B->Writes.size(), 1u);
  EXPECT_EQ(B->Writes[0].Coef, -1);
}

TEST(PredicatesTest, HelperWritingThroughPointerFallsBack) {
  KernelInfo K = analyzed("static void set(double *p, int i) { p[i] = 1; }\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) set(a, i);\n",
                          {"int n", "double *a"});
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_NE(K.Split.Fallback.find("set"), std::string::npos) << K.Split.Fallback;
}

} // namespace
