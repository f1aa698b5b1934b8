// Tests of the lowering of a parallel nest's body into the region IR: the statements it records
// (kinds, order, source ranges, what they read), the affine forms of subscripts, the CFG shapes of
// branches, loops and switches, and what makes a region unattributable. The kernels go through
// runAnalysis; the SSA pass after lowering only adds phis (ignored here) and versions.
#include "analysis/Pipeline.h"
#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace jacc::analysis;
using jacc::analysis::test::analyzed;

namespace {

using Strings = std::vector<std::string>;
using Vars = std::set<std::string>;
using Coeffs = std::map<std::string, long long>;

/// "write a[i][j]", "def t", "control", "call": one statement, for comparing sequences.
std::string describe(const IRStmt &S) {
  switch (S.K) {
  case IRStmt::Kind::ArrayWrite: {
    std::string D = "write " + S.Write.Name;
    for (const IndexExpr &X : S.Write.Index)
      D += "[" + X.Text + "]";
    return D;
  }
  case IRStmt::Kind::ScalarDef:
    return "def " + S.Var;
  case IRStmt::Kind::Phi:
    return "phi " + S.Var;
  case IRStmt::Kind::Control:
    return "control";
  case IRStmt::Kind::Call:
    return "call";
  }
  return "?";
}

/// The lowered statements (not the phis the SSA pass adds), in lowering order.
std::vector<const IRStmt *> lowered(const KernelInfo &K) {
  std::vector<const IRStmt *> R;
  for (const IRStmt &S : K.Split.IR.Stmts)
    if (S.K != IRStmt::Kind::Phi)
      R.push_back(&S);
  return R;
}

Strings sequence(const KernelInfo &K) {
  Strings R;
  for (const IRStmt *S : lowered(K))
    R.push_back(describe(*S));
  return R;
}

/// The n-th lowered statement described as D (0 = first).
const IRStmt *find(const KernelInfo &K, const std::string &D, unsigned N = 0) {
  for (const IRStmt *S : lowered(K))
    if (describe(*S) == D && N-- == 0)
      return S;
  ADD_FAILURE() << "no statement '" << D << "'";
  return nullptr;
}

/// The lowered statements of a block, in order.
Strings blockStmts(const KernelInfo &K, unsigned B) {
  Strings R;
  for (unsigned Id : K.Split.IR.Blocks.at(B).Stmts)
    if (K.Split.IR.Stmts[Id].K != IRStmt::Kind::Phi)
      R.push_back(describe(K.Split.IR.Stmts[Id]));
  return R;
}

std::vector<unsigned> succs(const KernelInfo &K, unsigned B) { return K.Split.IR.Blocks.at(B).Succs; }
std::vector<unsigned> preds(const KernelInfo &K, unsigned B) { return K.Split.IR.Blocks.at(B).Preds; }

std::string text(const KernelInfo &K, unsigned Begin, unsigned End) {
  return K.Source.substr(Begin, End - Begin);
}

Strings names(const std::vector<ArrayAccess> &As) {
  Strings R;
  for (const ArrayAccess &A : As) {
    std::string D = A.Name;
    for (const IndexExpr &X : A.Index)
      D += "[" + X.Text + "]";
    R.push_back(D);
  }
  return R;
}

void expectAffine(const IndexExpr &X, const std::string &Text, const Coeffs &C, long long Const,
                  const Vars &V) {
  EXPECT_EQ(X.Text, Text);
  EXPECT_TRUE(X.Affine) << Text;
  EXPECT_EQ(X.Coeffs, C) << Text;
  EXPECT_EQ(X.Const, Const) << Text;
  EXPECT_EQ(X.Vars, V) << Text;
  EXPECT_FALSE(X.ReadsMemory) << Text;
}

// ---- statements ------------------------------------------------------------------------------

TEST(LowerRegionTest, StraightLineBodyKindsOrderAndRanges) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t = b[i];\n"
                          "  t = t * x;\n"
                          "  t++;\n"
                          "  t += 1;\n"
                          "  a[i] = t;\n"
                          "}\n",
                          {"int n", "double *a", "const double *b", "double x"});
  const RegionIR &IR = K.Split.IR;
  EXPECT_EQ(IR.Unattributable, "");
  EXPECT_EQ(IR.ParallelVars, Strings{"i"});
  EXPECT_EQ(sequence(K), (Strings{"def t", "def t", "def t", "def t", "write a[i]"}));
  // One block for the body, one for the end of the iteration.
  ASSERT_EQ(IR.Blocks.size(), 2u);
  EXPECT_NE(IR.Entry, IR.Exit);
  EXPECT_EQ(blockStmts(K, IR.Entry), sequence(K));
  EXPECT_EQ(succs(K, IR.Entry), std::vector<unsigned>{IR.Exit});
  EXPECT_TRUE(succs(K, IR.Exit).empty());

  auto S = lowered(K);
  ASSERT_EQ(S.size(), 5u);
  for (unsigned N = 0; N < 5; ++N) {
    EXPECT_EQ(S[N]->Id, N);
    EXPECT_EQ(S[N]->Line, N + 3);
    EXPECT_FALSE(S[N]->Conditional);
    EXPECT_FALSE(S[N]->Reduction);
  }
  // double t = b[i]: a declaration; its value is the initialiser.
  EXPECT_TRUE(S[0]->DeclaresVar);
  EXPECT_FALSE(S[0]->Compound);
  EXPECT_EQ(text(K, S[0]->Begin, S[0]->End), "b[i]");
  EXPECT_EQ(S[0]->Uses, Vars{});
  EXPECT_EQ(S[0]->IndexUses, Vars{"i"});
  EXPECT_EQ(names(S[0]->Reads), Strings{"b[i]"});
  EXPECT_EQ(S[0]->Reads[0].Arg, 2);
  // t = t * x: an assignment.
  EXPECT_FALSE(S[1]->DeclaresVar);
  EXPECT_FALSE(S[1]->Compound);
  EXPECT_EQ(text(K, S[1]->Begin, S[1]->End), "t * x");
  EXPECT_EQ(text(K, S[1]->WholeBegin, S[1]->WholeEnd), "t = t * x");
  EXPECT_EQ(S[1]->Uses, (Vars{"t", "x"}));
  EXPECT_TRUE(S[1]->Reads.empty());
  // t++: an update with no value expression of its own.
  EXPECT_TRUE(S[2]->Compound);
  EXPECT_EQ(S[2]->Begin, S[2]->End);
  EXPECT_EQ(text(K, S[2]->WholeBegin, S[2]->WholeEnd), "t++");
  EXPECT_EQ(S[2]->Uses, Vars{"t"});
  // t += 1: an update reads the variable.
  EXPECT_TRUE(S[3]->Compound);
  EXPECT_EQ(text(K, S[3]->Begin, S[3]->End), "1");
  EXPECT_EQ(text(K, S[3]->WholeBegin, S[3]->WholeEnd), "t += 1");
  EXPECT_EQ(S[3]->Uses, Vars{"t"});
  // a[i] = t: the whole write expression is the rewriting range.
  EXPECT_EQ(S[4]->Write.Arg, 1);
  EXPECT_FALSE(S[4]->Compound);
  EXPECT_FALSE(S[4]->Atomic);
  EXPECT_EQ(text(K, S[4]->Begin, S[4]->End), "a[i] = t");
  EXPECT_EQ(S[4]->Uses, Vars{"t"});
  EXPECT_EQ(S[4]->IndexUses, Vars{"i"});
  EXPECT_TRUE(S[4]->Reads.empty());
}

TEST(LowerRegionTest, ArrayWriteSubscriptsAndAffineForms) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  a[i][2 * i + 3] = 1;\n"
                          "  a[i + 1][m - i] = 2;\n"
                          "  c[3 * (i - 1) - -2] = 3;\n"
                          "  c[i * m] = 4;\n"
                          "  c[idx[i]] = 5;\n"
                          "}\n",
                          {"int n", "int m", "double (*a)[64]", "const int *idx", "double *c"});
  EXPECT_EQ(sequence(K), (Strings{"write a[i][2 * i + 3]", "write a[i + 1][m - i]",
                                  "write c[3 * (i - 1) - -2]", "write c[i * m]",
                                  "write c[idx[i]]"}));
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 5u);

  ASSERT_EQ(S[0]->Write.Index.size(), 2u);
  EXPECT_EQ(S[0]->Write.Name, "a");
  EXPECT_EQ(S[0]->Write.Arg, 2);
  expectAffine(S[0]->Write.Index[0], "i", {{"i", 1}}, 0, {"i"});
  expectAffine(S[0]->Write.Index[1], "2 * i + 3", {{"i", 2}}, 3, {"i"});

  ASSERT_EQ(S[1]->Write.Index.size(), 2u);
  expectAffine(S[1]->Write.Index[0], "i + 1", {{"i", 1}}, 1, {"i"});
  expectAffine(S[1]->Write.Index[1], "m - i", {{"i", -1}, {"m", 1}}, 0, {"i", "m"});
  EXPECT_EQ(S[1]->IndexUses, (Vars{"i", "m"}));

  ASSERT_EQ(S[2]->Write.Index.size(), 1u);
  EXPECT_EQ(S[2]->Write.Arg, 4);
  expectAffine(S[2]->Write.Index[0], "3 * (i - 1) - -2", {{"i", 3}}, -1, {"i"});

  // A product of two variables: not affine, no form, but its variables are known.
  const IndexExpr &P = S[3]->Write.Index.at(0);
  EXPECT_FALSE(P.Affine);
  EXPECT_TRUE(P.Coeffs.empty());
  EXPECT_EQ(P.Const, 0);
  EXPECT_EQ(P.Vars, (Vars{"i", "m"}));
  EXPECT_FALSE(P.ReadsMemory);

  // An indirect subscript reads memory: never provably equal to anything.
  const IndexExpr &Ind = S[4]->Write.Index.at(0);
  EXPECT_EQ(Ind.Text, "idx[i]");
  EXPECT_FALSE(Ind.Affine);
  EXPECT_TRUE(Ind.Coeffs.empty());
  EXPECT_EQ(Ind.Vars, Vars{"i"});
  EXPECT_TRUE(Ind.ReadsMemory);
  EXPECT_EQ(text(K, Ind.Begin, Ind.End), "idx[i]");
  EXPECT_EQ(names(S[4]->IndexReads), Strings{"idx[i]"});
  EXPECT_EQ(S[4]->IndexReads[0].Arg, 3);
  EXPECT_TRUE(S[4]->Reads.empty());
  EXPECT_EQ(S[4]->IndexUses, Vars{"i"});
}

TEST(LowerRegionTest, DereferencesAreSubscripts) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  *c = 5;\n"
                          "  *(c + i) = 6;\n"
                          "  (*a)[i] = 7;\n"
                          "  *a[i] = 8;\n"
                          "}\n",
                          {"int n", "double *c", "double (*a)[64]"});
  EXPECT_EQ(K.Split.IR.Unattributable, "");
  EXPECT_EQ(sequence(K),
            (Strings{"write c[0]", "write c[i]", "write a[0][i]", "write a[i][0]"}));
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 4u);
  EXPECT_EQ(S[0]->Write.Arg, 1);
  expectAffine(S[0]->Write.Index.at(0), "0", {}, 0, {});
  EXPECT_EQ(text(K, S[0]->Begin, S[0]->End), "*c = 5");
  expectAffine(S[1]->Write.Index.at(0), "i", {{"i", 1}}, 0, {"i"});
  EXPECT_EQ(text(K, S[1]->Begin, S[1]->End), "*(c + i) = 6");
  EXPECT_EQ(S[2]->Write.Arg, 2);
  ASSERT_EQ(S[2]->Write.Index.size(), 2u);
  expectAffine(S[2]->Write.Index[0], "0", {}, 0, {});
  expectAffine(S[2]->Write.Index[1], "i", {{"i", 1}}, 0, {"i"});
  ASSERT_EQ(S[3]->Write.Index.size(), 2u);
  expectAffine(S[3]->Write.Index[0], "i", {{"i", 1}}, 0, {"i"});
  expectAffine(S[3]->Write.Index[1], "0", {}, 0, {});
}

TEST(LowerRegionTest, CompoundWritesReadTheirElement) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  c[i] = x;\n"
                          "  c[i + 1] += x;\n"
                          "  c[2 * i]++;\n"
                          "}\n",
                          {"int n", "double *c", "double x"});
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 3u);
  EXPECT_FALSE(S[0]->Compound);
  EXPECT_TRUE(S[0]->Reads.empty());
  EXPECT_EQ(S[0]->Uses, Vars{"x"});
  EXPECT_TRUE(S[1]->Compound);
  EXPECT_EQ(names(S[1]->Reads), Strings{"c[i + 1]"});
  EXPECT_EQ(S[1]->Reads[0].Arg, 1);
  EXPECT_EQ(S[1]->Uses, Vars{"x"});
  EXPECT_TRUE(S[2]->Compound);
  EXPECT_EQ(names(S[2]->Reads), Strings{"c[2 * i]"});
  EXPECT_EQ(text(K, S[2]->Begin, S[2]->End), "c[2 * i]++");
  EXPECT_TRUE(S[2]->Uses.empty());
  EXPECT_EQ(S[2]->IndexUses, Vars{"i"});
}

TEST(LowerRegionTest, ScalarDefinitions) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double u;\n"
                          "  double v = 1, w = v + x;\n"
                          "  u = b[i];\n"
                          "  --u;\n"
                          "  w *= u;\n"
                          "  a[i] = w;\n"
                          "}\n",
                          {"int n", "double *a", "const double *b", "double x"});
  // A declaration without initialiser defines nothing.
  EXPECT_EQ(sequence(K),
            (Strings{"def v", "def w", "def u", "def u", "def w", "write a[i]"}));
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 6u);
  EXPECT_TRUE(S[0]->DeclaresVar);
  EXPECT_TRUE(S[1]->DeclaresVar);
  EXPECT_EQ(S[1]->Uses, (Vars{"v", "x"}));
  EXPECT_EQ(text(K, S[1]->Begin, S[1]->End), "v + x");
  EXPECT_FALSE(S[2]->DeclaresVar);
  EXPECT_FALSE(S[2]->Compound);
  EXPECT_EQ(names(S[2]->Reads), Strings{"b[i]"});
  EXPECT_TRUE(S[2]->Uses.empty());
  EXPECT_EQ(S[2]->IndexUses, Vars{"i"});
  EXPECT_TRUE(S[3]->Compound);
  EXPECT_EQ(text(K, S[3]->WholeBegin, S[3]->WholeEnd), "--u");
  EXPECT_EQ(S[3]->Uses, Vars{"u"});
  EXPECT_TRUE(S[4]->Compound);
  EXPECT_EQ(S[4]->Uses, (Vars{"u", "w"}));
  EXPECT_EQ(text(K, S[4]->WholeBegin, S[4]->WholeEnd), "w *= u");
}

TEST(LowerRegionTest, ReductionUpdatesAreFlagged) {
  KernelInfo K = analyzed("#pragma acc parallel loop reduction(+:s)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t = a[i];\n"
                          "  t += 1;\n"
                          "  s += t;\n"
                          "}\n",
                          {"int n", "const double *a", "double s"});
  EXPECT_EQ(sequence(K), (Strings{"def t", "def t", "def s"}));
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 3u);
  EXPECT_FALSE(S[0]->Reduction);
  EXPECT_FALSE(S[1]->Reduction);
  EXPECT_TRUE(S[2]->Reduction);
  EXPECT_TRUE(S[2]->Compound);
  EXPECT_EQ(S[2]->Uses, (Vars{"s", "t"}));
  EXPECT_EQ(text(K, S[2]->WholeBegin, S[2]->WholeEnd), "s += t");
}

TEST(LowerRegionTest, ControlStatementsForConditions) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  if (b[i] > 0) a[i] = 1;\n"
                          "  int k = 0;\n"
                          "  while (k < m) k++;\n"
                          "  for (int j = 0; j < m; j++) a[i] += j;\n"
                          "  do k--; while (k > x);\n"
                          "}\n",
                          {"int n", "int m", "double *a", "const double *b", "int x"});
  // Statements are numbered in lowering order: a do-while's condition, lowered into its
  // header block first, comes before its body's statements.
  EXPECT_EQ(sequence(K),
            (Strings{"control", "write a[i]", "def k", "control", "def k", "def j", "control",
                     "write a[i]", "def j", "control", "def k"}));
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 11u);
  // if: the condition's array reads are value reads of the control, its index an index use.
  EXPECT_EQ(names(S[0]->Reads), Strings{"b[i]"});
  EXPECT_EQ(S[0]->IndexUses, Vars{"i"});
  EXPECT_TRUE(S[0]->Uses.empty());
  EXPECT_EQ(S[0]->Line, 3u);
  EXPECT_EQ(S[3]->Uses, (Vars{"k", "m"}));
  EXPECT_EQ(S[3]->Line, 5u);
  EXPECT_EQ(S[6]->Uses, (Vars{"j", "m"}));
  EXPECT_EQ(S[6]->Line, 6u);
  EXPECT_EQ(S[9]->Uses, (Vars{"k", "x"}));
  EXPECT_EQ(S[9]->Line, 7u);
  EXPECT_EQ(succs(K, S[10]->Block).size(), 1u); // the body goes to the latch, then the header
  EXPECT_EQ(succs(K, succs(K, S[10]->Block)[0]), std::vector<unsigned>{S[9]->Block});
  // A loop without condition has no control.
  KernelInfo F = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int k = 0;; k++) { if (k == i) break; a[k] = 1; }\n",
                          {"int n", "double *a"});
  EXPECT_EQ(sequence(F), (Strings{"def k", "control", "write a[k]", "def k"}));
}

// ---- the CFG ---------------------------------------------------------------------------------

TEST(LowerRegionTest, IfElseIsADiamond) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  if (b[i] > 0) a[i] = 1; else a[i] = 2;\n"
                          "  a[i] += 3;\n"
                          "}\n",
                          {"int n", "double *a", "const double *b"});
  const RegionIR &IR = K.Split.IR;
  const IRStmt *Then = find(K, "write a[i]", 0), *Else = find(K, "write a[i]", 1),
               *After = find(K, "write a[i]", 2);
  ASSERT_TRUE(Then && Else && After);
  EXPECT_EQ(blockStmts(K, IR.Entry), Strings{"control"});
  unsigned T = Then->Block, E = Else->Block, J = After->Block;
  EXPECT_NE(T, E);
  EXPECT_NE(T, J);
  EXPECT_NE(E, J);
  EXPECT_EQ(succs(K, IR.Entry), (std::vector<unsigned>{T, E}));
  EXPECT_EQ(preds(K, T), std::vector<unsigned>{IR.Entry});
  EXPECT_EQ(preds(K, E), std::vector<unsigned>{IR.Entry});
  EXPECT_EQ(succs(K, T), std::vector<unsigned>{J});
  EXPECT_EQ(succs(K, E), std::vector<unsigned>{J});
  EXPECT_EQ(preds(K, J), (std::vector<unsigned>{T, E}));
  EXPECT_EQ(succs(K, J), std::vector<unsigned>{IR.Exit});
  EXPECT_EQ(preds(K, IR.Exit), std::vector<unsigned>{J});
  EXPECT_EQ(IR.Blocks.size(), 5u);
}

TEST(LowerRegionTest, IfWithoutElseFallsThroughToTheJoin) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  if (b[i] > 0) a[i] = 1;\n"
                          "  a[i] += 3;\n"
                          "}\n",
                          {"int n", "double *a", "const double *b"});
  const RegionIR &IR = K.Split.IR;
  const IRStmt *Then = find(K, "write a[i]", 0), *After = find(K, "write a[i]", 1);
  ASSERT_TRUE(Then && After);
  unsigned T = Then->Block, J = After->Block;
  EXPECT_EQ(succs(K, IR.Entry), (std::vector<unsigned>{T, J}));
  EXPECT_EQ(succs(K, T), std::vector<unsigned>{J});
  EXPECT_EQ(preds(K, J), (std::vector<unsigned>{IR.Entry, T}));
}

TEST(LowerRegionTest, ForLoopHeaderBodyLatchExit) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  for (int k = 0; k < m; k++)\n"
                          "    a[i] += b[k];\n"
                          "  a[i] *= 2;\n"
                          "}\n",
                          {"int n", "int m", "double *a", "const double *b"});
  const RegionIR &IR = K.Split.IR;
  EXPECT_EQ(sequence(K),
            (Strings{"def k", "control", "write a[i]", "def k", "write a[i]"}));
  const IRStmt *Init = find(K, "def k", 0), *Cond = find(K, "control"),
               *Body = find(K, "write a[i]", 0), *Inc = find(K, "def k", 1),
               *After = find(K, "write a[i]", 1);
  ASSERT_TRUE(Init && Cond && Body && Inc && After);
  unsigned Head = Cond->Block, B = Body->Block, Latch = Inc->Block, Exit = After->Block;
  EXPECT_EQ(Init->Block, IR.Entry);
  EXPECT_EQ(std::set<unsigned>({IR.Entry, Head, B, Latch, Exit}).size(), 5u);
  EXPECT_EQ(succs(K, IR.Entry), std::vector<unsigned>{Head});
  EXPECT_EQ(succs(K, Head), (std::vector<unsigned>{B, Exit}));
  EXPECT_EQ(preds(K, Head), (std::vector<unsigned>{IR.Entry, Latch})); // the back edge
  EXPECT_EQ(succs(K, B), std::vector<unsigned>{Latch});
  EXPECT_EQ(succs(K, Latch), std::vector<unsigned>{Head});
  EXPECT_EQ(preds(K, Exit), std::vector<unsigned>{Head});
  EXPECT_EQ(succs(K, Exit), std::vector<unsigned>{IR.Exit});
}

TEST(LowerRegionTest, DoWhileRunsTheBodyFirst) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int k = 0;\n"
                          "  do { a[i] += k; k++; } while (k < m);\n"
                          "}\n",
                          {"int n", "int m", "double *a"});
  const RegionIR &IR = K.Split.IR;
  const IRStmt *Body = find(K, "write a[i]"), *Cond = find(K, "control");
  ASSERT_TRUE(Body && Cond);
  unsigned B = Body->Block, Head = Cond->Block;
  EXPECT_EQ(succs(K, IR.Entry), std::vector<unsigned>{B});
  EXPECT_EQ(blockStmts(K, B), (Strings{"write a[i]", "def k"}));
  ASSERT_EQ(succs(K, B).size(), 1u);
  unsigned Latch = succs(K, B)[0];
  EXPECT_EQ(succs(K, Latch), std::vector<unsigned>{Head});
  ASSERT_EQ(succs(K, Head).size(), 2u);
  EXPECT_EQ(succs(K, Head)[0], B);
  EXPECT_EQ(preds(K, B), (std::vector<unsigned>{IR.Entry, Head}));
  EXPECT_EQ(succs(K, succs(K, Head)[1]), std::vector<unsigned>{IR.Exit});
}

TEST(LowerRegionTest, SwitchCasesFallThroughAndBreak) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  switch (i % 3) {\n"
                          "  case 0: a[i] = 1;\n"
                          "  case 1: a[i] = 2; break;\n"
                          "  default: a[i] = 3;\n"
                          "  }\n"
                          "  a[i] += 4;\n"
                          "}\n",
                          {"int n", "double *a"});
  const RegionIR &IR = K.Split.IR;
  EXPECT_EQ(sequence(K),
            (Strings{"control", "write a[i]", "write a[i]", "write a[i]", "write a[i]"}));
  EXPECT_EQ(blockStmts(K, IR.Entry), Strings{"control"});
  EXPECT_EQ(find(K, "control")->Uses, Vars{"i"});
  unsigned C0 = find(K, "write a[i]", 0)->Block, C1 = find(K, "write a[i]", 1)->Block,
           Def = find(K, "write a[i]", 2)->Block, After = find(K, "write a[i]", 3)->Block;
  EXPECT_EQ(std::set<unsigned>({IR.Entry, C0, C1, Def, After}).size(), 5u);
  // Every case is reached from the switch head, and so is the end (no case taken).
  for (unsigned B : {C0, C1, Def, After}) {
    auto P = preds(K, B);
    EXPECT_EQ(std::count(P.begin(), P.end(), IR.Entry), 1) << "block " << B;
  }
  // case 0 falls through into case 1; case 1 breaks to the end of the switch.
  EXPECT_EQ(succs(K, C0), std::vector<unsigned>{C1});
  EXPECT_EQ(succs(K, C1), std::vector<unsigned>{After});
  EXPECT_EQ(succs(K, Def), std::vector<unsigned>{After});
  // What precedes default besides the head is the dead code after the break.
  for (unsigned P : preds(K, Def))
    if (P != IR.Entry) {
      EXPECT_NE(P, C1);
      EXPECT_TRUE(preds(K, P).empty());
    }
  auto AP = preds(K, After);
  EXPECT_EQ(std::set<unsigned>(AP.begin(), AP.end()), (std::set<unsigned>{IR.Entry, C1, Def}));
  EXPECT_EQ(succs(K, After), std::vector<unsigned>{IR.Exit});
}

TEST(LowerRegionTest, BreakAndContinue) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int k = 0;\n"
                          "  while (k < m) {\n"
                          "    if (k == 5) break;\n"
                          "    k++;\n"
                          "    if (k == 2) continue;\n"
                          "    a[i] = k;\n"
                          "  }\n"
                          "  a[i] += 1;\n"
                          "}\n",
                          {"int n", "int m", "double *a"});
  EXPECT_EQ(sequence(K), (Strings{"def k", "control", "control", "def k", "control",
                                  "write a[i]", "write a[i]"}));
  const IRStmt *Head = find(K, "control", 0), *If1 = find(K, "control", 1),
               *Inc = find(K, "def k", 1), *If2 = find(K, "control", 2),
               *Body = find(K, "write a[i]", 0), *After = find(K, "write a[i]", 1);
  ASSERT_TRUE(Head && If1 && Inc && If2 && Body && After);
  auto HS = succs(K, Head->Block);
  ASSERT_EQ(HS.size(), 2u);
  EXPECT_EQ(HS[0], If1->Block);
  unsigned LoopExit = HS[1];
  EXPECT_EQ(succs(K, LoopExit), std::vector<unsigned>{K.Split.IR.Exit});
  EXPECT_EQ(After->Block, LoopExit);
  // break: the then-block goes to the loop's exit.
  auto S1 = succs(K, If1->Block);
  ASSERT_EQ(S1.size(), 2u);
  EXPECT_EQ(succs(K, S1[0]), std::vector<unsigned>{LoopExit});
  EXPECT_EQ(S1[1], Inc->Block);
  EXPECT_EQ(If2->Block, Inc->Block);
  // continue: the then-block goes to the latch, which goes back to the header.
  auto S2 = succs(K, If2->Block);
  ASSERT_EQ(S2.size(), 2u);
  auto ContinueTo = succs(K, S2[0]);
  ASSERT_EQ(ContinueTo.size(), 1u);
  unsigned Latch = ContinueTo[0];
  EXPECT_EQ(succs(K, Latch), std::vector<unsigned>{Head->Block});
  EXPECT_EQ(S2[1], Body->Block);
  EXPECT_EQ(succs(K, Body->Block), std::vector<unsigned>{Latch});
  auto LP = preds(K, LoopExit);
  EXPECT_EQ(std::set<unsigned>(LP.begin(), LP.end()),
            (std::set<unsigned>{Head->Block, S1[0]}));
}

TEST(LowerRegionTest, ContinueInTheParallelBodyEndsTheIteration) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  if (b[i] < 0) continue;\n"
                          "  a[i] = b[i];\n"
                          "}\n",
                          {"int n", "double *a", "const double *b"});
  const RegionIR &IR = K.Split.IR;
  auto S = succs(K, IR.Entry);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(succs(K, S[0]), std::vector<unsigned>{IR.Exit});
  EXPECT_EQ(S[1], find(K, "write a[i]")->Block);
}

// A cast to a narrower integer type wraps around: (unsigned char)(i + 200) is not i + 200 (for
// i = 56 it is 0), so it is not an affine form (narrowing would skip the iterations that wrap,
// and i + 256 would wrongly be "different" from i).
TEST(LowerRegionTest, NarrowingCastsAreNotAffine) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  a[(long long)i + 1] = 1;\n"
                          "  a[(unsigned char)(i + 200)] = 2;\n"
                          "}\n",
                          {"int n", "double *a"});
  auto S = lowered(K);
  ASSERT_EQ(S.size(), 2u);
  expectAffine(S[0]->Write.Index.at(0), "(long long)i + 1", {{"i", 1}}, 1, {"i"});
  const IndexExpr &X = S[1]->Write.Index.at(0);
  EXPECT_EQ(X.Text, "(unsigned char)(i + 200)");
  EXPECT_FALSE(X.Affine);
  EXPECT_EQ(X.Vars, Vars{"i"});
}

// ---- conditional and unattributable writes ----------------------------------------------------

TEST(LowerRegionTest, WritesInsideConditionalExpressionsAreConditional) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  c[i] = x > 0 ? (a[i] = 1) : (a[i + 1] = 2);\n"
                          "  x > 1 && (a[i] = 3);\n"
                          "  x > 2 || (a[i] = 4);\n"
                          "  a[i] = 5, c[i] = 6;\n"
                          "}\n",
                          {"int n", "double *a", "double *c", "double x"});
  // Nested assignments are lowered before the one containing them.
  std::vector<const IRStmt *> S;
  for (const IRStmt *St : lowered(K))
    if (St->K == IRStmt::Kind::ArrayWrite)
      S.push_back(St);
  Strings Seq;
  std::vector<bool> Cond;
  for (const IRStmt *St : S) {
    Seq.push_back(describe(*St));
    Cond.push_back(St->Conditional);
  }
  EXPECT_EQ(Seq, (Strings{"write a[i]", "write a[i + 1]", "write c[i]", "write a[i]",
                          "write a[i]", "write a[i]", "write c[i]"}));
  ASSERT_EQ(S.size(), 7u);
  EXPECT_EQ(Cond, (std::vector<bool>{true, true, false, true, true, false, false}));
  // The value of c[i] = ... is whichever assignment ran: it reads both elements.
  EXPECT_EQ(names(S[2]->Reads), (Strings{"a[i]", "a[i + 1]"}));
  EXPECT_EQ(S[2]->Uses, Vars{"x"});
}

TEST(LowerRegionTest, AccessesThroughRowPointersAreUnattributable) {
  // a[i][j] of `double **a` lands in whatever row a[i] points to: not in a's mapping.
  KernelInfo W = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  b[i] = a[i][0];\n"
                          "  a[i][1] = 2;\n"
                          "}\n",
                          {"int n", "double **a", "double *b"});
  EXPECT_EQ(W.Split.IR.Unattributable,
            "a read through a pointer read from 'a' (its rows may be anywhere) (line 3)");
  const IRStmt *S = find(W, "write *a[i][1]");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->Write.Arg, -1);
  EXPECT_TRUE(S->Write.ThroughLoadedPointer);
  KernelInfo R = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) *a[i] = 1;\n",
                          {"int n", "double **a"});
  EXPECT_EQ(R.Split.IR.Unattributable,
            "a write through a pointer read from 'a' (its rows may be anywhere) (line 2)");
  // The pointer array itself is a's own: writing a[i] is attributed.
  KernelInfo P = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) a[i] = b;\n",
                          {"int n", "double **a", "double *b"});
  EXPECT_EQ(P.Split.IR.Unattributable, "");
  const IRStmt *A = find(P, "write a[i]");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->Write.Arg, 1);
  // A row of a pointer to a VLA row (`double (*v)[m]`) is an array, not a loaded pointer.
  KernelInfo V = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) v[i][0] = 1;\n",
                          {"int n", "int m", "double (*v)[m]"});
  EXPECT_EQ(V.Split.IR.Unattributable, "");
}

TEST(LowerRegionTest, WriteThroughALocalPointerIsUnattributable) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double *p = a + i;\n"
                          "  *p = 1;\n"
                          "  p[1] = 2;\n"
                          "}\n",
                          {"int n", "double *a"});
  const RegionIR &IR = K.Split.IR;
  EXPECT_EQ(IR.Unattributable, "a write through the local pointer 'p' (line 4)");
  EXPECT_EQ(sequence(K), (Strings{"def p", "write *p[0]", "write *p[1]"}));
  const IRStmt *W = find(K, "write *p[0]");
  ASSERT_NE(W, nullptr);
  EXPECT_EQ(W->Write.Arg, -1);
  // The pointer's definition reads its array as a whole.
  const IRStmt *P = find(K, "def p");
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(P->Uses, Vars{"i"});
  ASSERT_EQ(P->Reads.size(), 1u);
  EXPECT_EQ(P->Reads[0].Name, "a");
  EXPECT_EQ(P->Reads[0].Arg, 1);
  ASSERT_EQ(P->Reads[0].Index.size(), 1u);
  EXPECT_TRUE(P->Reads[0].Index[0].ReadsMemory);
  EXPECT_FALSE(P->Reads[0].Index[0].Affine);
  EXPECT_FALSE(K.Split.Enabled);
}

// A GNU statement expression runs statements inside an expression: the write to a[i] must be
// recorded (or the region declared unattributable), or a is neither guarded nor exchanged.
TEST(LowerRegionTest, WritesInsideStatementExpressions) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  b[i] = ({ a[i] = 1; 2.0; });\n",
                          {"int n", "double *a", "double *b"});
  bool WritesA = false;
  for (const IRStmt *S : lowered(K))
    WritesA |= S->K == IRStmt::Kind::ArrayWrite && S->Write.Name == "a";
  EXPECT_TRUE(WritesA || !K.Split.IR.Unattributable.empty())
      << ::testing::PrintToString(sequence(K));
}

TEST(LowerRegionTest, LocalArraysAreAttributable) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t[2];\n"
                          "  t[0] = b[i];\n"
                          "  a[i] = t[0];\n"
                          "}\n",
                          {"int n", "double *a", "const double *b"});
  EXPECT_EQ(K.Split.IR.Unattributable, "");
  const IRStmt *W = find(K, "write t[0]");
  ASSERT_NE(W, nullptr);
  EXPECT_EQ(W->Write.Arg, -1);
  EXPECT_EQ(names(find(K, "write a[i]")->Reads), Strings{"t[0]"});
}

TEST(LowerRegionTest, CallsOfHelpers) {
  KernelInfo K = analyzed("static void set(double *p, int i) { p[i] = 1; }\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) set(a, i);\n",
                          {"int n", "double *a"});
  EXPECT_EQ(K.Split.IR.Unattributable, "a call to 'set' may write through a pointer");
  EXPECT_EQ(sequence(K), Strings{"call"});
  const IRStmt *C = find(K, "call");
  ASSERT_NE(C, nullptr);
  EXPECT_EQ(C->Uses, Vars{"i"});
  EXPECT_EQ(C->Line, 3u);
  ASSERT_EQ(C->Reads.size(), 1u);
  EXPECT_EQ(C->Reads[0].Name, "a");
  EXPECT_TRUE(C->Reads[0].Index.at(0).ReadsMemory);

  // A helper taking a const pointer cannot write through it: no statement of its own, and its
  // pointer argument is a read of the whole array.
  KernelInfo R = analyzed("static double get(const double *p, int i) { return p[i]; }\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) a[i] = get(b, i);\n",
                          {"int n", "double *a", "const double *b"});
  EXPECT_EQ(R.Split.IR.Unattributable, "");
  EXPECT_EQ(sequence(R), Strings{"write a[i]"});
  const IRStmt *W = find(R, "write a[i]");
  ASSERT_NE(W, nullptr);
  ASSERT_EQ(W->Reads.size(), 1u);
  EXPECT_EQ(W->Reads[0].Name, "b");
  EXPECT_EQ(W->Reads[0].Arg, 2);
  EXPECT_EQ(W->Reads[0].Index.at(0).Text, "?");
  EXPECT_TRUE(W->Reads[0].Index.at(0).ReadsMemory);
  EXPECT_EQ(W->Uses, Vars{"i"});
  EXPECT_TRUE(R.Split.Enabled) << R.Split.Fallback;
}

TEST(LowerRegionTest, IndexUsesAreSeparateFromValueUses) {
  KernelInfo K =
      analyzed("#pragma acc parallel loop\n"
               "for (int i = 0; i < n; i++) {\n"
               "  int k = idx[i];\n"
               "  a[k + j] = b[idx[j]] * x + b[i];\n"
               "}\n",
               {"int n", "int j", "double x", "double *a", "const double *b", "const int *idx"});
  const IRStmt *K0 = find(K, "def k");
  ASSERT_NE(K0, nullptr);
  EXPECT_TRUE(K0->Uses.empty());
  EXPECT_EQ(K0->IndexUses, Vars{"i"});
  EXPECT_EQ(names(K0->Reads), Strings{"idx[i]"});
  EXPECT_TRUE(K0->IndexReads.empty());

  const IRStmt *W = find(K, "write a[k + j]");
  ASSERT_NE(W, nullptr);
  EXPECT_EQ(W->Uses, Vars{"x"});
  EXPECT_EQ(W->IndexUses, (Vars{"i", "j", "k"}));
  EXPECT_EQ(names(W->Reads), (Strings{"b[idx[j]]", "b[i]"}));
  EXPECT_EQ(names(W->IndexReads), Strings{"idx[j]"});
  expectAffine(W->Write.Index.at(0), "k + j", {{"j", 1}, {"k", 1}}, 0, {"j", "k"});
}

TEST(LowerRegionTest, AtomicWritesAreMarked) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  #pragma acc atomic update\n"
                          "  h[in[i]] += 1;\n"
                          "  g[i] = 1;\n"
                          "}\n",
                          {"int n", "const int *in", "int *h", "int *g"});
  const IRStmt *H = find(K, "write h[in[i]]"), *G = find(K, "write g[i]");
  ASSERT_TRUE(H && G);
  EXPECT_TRUE(H->Atomic);
  EXPECT_TRUE(H->Compound);
  EXPECT_FALSE(G->Atomic);
}

} // namespace

namespace {

TEST(LowerRegionTest, AGuardOfAnAtomicWrapsTheWholeStatement) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int v;\n"
                          "  #pragma acc atomic write\n"
                          "  h[in[i]] = i * 2;\n"
                          "  #pragma acc atomic read\n"
                          "  v = h[i];\n"
                          "  g[i] = v;\n"
                          "}\n",
                          {"int n", "const int *in", "int *h", "int *g"});
  const IRStmt *H = find(K, "write h[in[i]]"), *V = find(K, "def v");
  ASSERT_TRUE(H && V);
  EXPECT_EQ(text(K, H->Begin, H->End), "h[in[i]] = i * 2");
  EXPECT_TRUE(H->ValueDiscarded);
  // A guard of v's value would land inside the atomic load: v has none.
  EXPECT_EQ(V->Begin, V->End);
  EXPECT_EQ(V->WholeBegin, V->WholeEnd);
  EXPECT_EQ(K.Split.IR.Unattributable, "");
}

TEST(LowerRegionTest, AnAtomicCaptureIsNotSplit) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  #pragma acc atomic capture\n"
                          "  { g[i] = h[i % 4]; h[i % 4] += i; }\n"
                          "}\n",
                          {"int n", "int *h", "int *g"});
  EXPECT_EQ(K.Split.IR.Unattributable, "an atomic capture (line 4)");
  EXPECT_FALSE(K.Split.Enabled);
}

} // namespace
