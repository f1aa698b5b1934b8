// Tests of the dependence pass: how two accesses of one array compare (same element, different
// elements, unknown), and the def-use graph of lowered kernels: scalar SSA edges, array edges from
// a write to the reads it reaches (and the kills that stop it), and the sink edges of the uses
// that are never filtered.
#include "analysis/Dependences.h"
#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

// ---- compareAccesses -------------------------------------------------------------------------

IndexExpr affine(const std::string &Text, std::map<std::string, long long> Coeffs,
                 long long Const) {
  IndexExpr X;
  X.Text = Text;
  X.Affine = true;
  X.Const = Const;
  for (const auto &[Var, C] : Coeffs)
    X.Vars.insert(Var);
  X.Coeffs = std::move(Coeffs);
  return X;
}

IndexExpr indirect(const std::string &Text, std::set<std::string> Vars) {
  IndexExpr X;
  X.Text = Text;
  X.Vars = std::move(Vars);
  X.ReadsMemory = true;
  return X;
}

ArrayAccess access(std::vector<IndexExpr> Index) {
  ArrayAccess A;
  A.Name = "a";
  A.Arg = 0;
  A.Index = std::move(Index);
  return A;
}

IRStmt at(std::map<std::string, unsigned> Versions = {}) {
  IRStmt S;
  S.VersionIn = std::move(Versions);
  return S;
}

const IndexExpr I = affine("i", {{"i", 1}}, 0);
const IndexExpr I1 = affine("i + 1", {{"i", 1}}, 1);
const IndexExpr K = affine("k", {{"k", 1}}, 0);
const IndexExpr K1 = affine("k + 1", {{"k", 1}}, 1);
const IndexExpr J = affine("j", {{"j", 1}}, 0);
const IndexExpr J1 = affine("j + 1", {{"j", 1}}, 1);
const std::set<std::string> None;

TEST(DependencesTest, CompareSameIndex) {
  EXPECT_EQ(compareAccesses(access({I}), at(), access({I}), at(), None), IndexRelation::Same);
  // Same variables at the same versions.
  EXPECT_EQ(compareAccesses(access({K}), at({{"k", 2}}), access({K}), at({{"k", 2}}), None),
            IndexRelation::Same);
  // A constant index.
  EXPECT_EQ(compareAccesses(access({affine("0", {}, 0)}), at(), access({affine("0", {}, 0)}),
                            at(), None),
            IndexRelation::Same);
  // Two dimensions.
  EXPECT_EQ(compareAccesses(access({I, J}), at(), access({I, J}), at(), None),
            IndexRelation::Same);
}

TEST(DependencesTest, CompareDifferentIndices) {
  EXPECT_EQ(compareAccesses(access({I}), at(), access({I1}), at(), None),
            IndexRelation::Different);
  EXPECT_EQ(compareAccesses(access({K1}), at({{"k", 1}}), access({K}), at({{"k", 1}}), None),
            IndexRelation::Different);
  // One dimension proven different is enough, whatever the others.
  EXPECT_EQ(compareAccesses(access({I, J}), at(), access({I, J1}), at(), None),
            IndexRelation::Different);
  EXPECT_EQ(compareAccesses(access({K, J}), at(), access({I, J1}), at(), None),
            IndexRelation::Different);
}

TEST(DependencesTest, CompareUnknown) {
  // Different variables.
  EXPECT_EQ(compareAccesses(access({I}), at(), access({K}), at(), None), IndexRelation::Unknown);
  EXPECT_EQ(compareAccesses(access({I, J}), at(), access({I, K}), at(), None),
            IndexRelation::Unknown);
  // Same form, but the variable was redefined between the two points.
  EXPECT_EQ(compareAccesses(access({K}), at(), access({K}), at(), {"k"}),
            IndexRelation::Unknown);
  EXPECT_EQ(compareAccesses(access({K1}), at(), access({K}), at(), {"k"}),
            IndexRelation::Unknown);
  // Same form over different versions.
  EXPECT_EQ(compareAccesses(access({K}), at({{"k", 1}}), access({K}), at({{"k", 2}}), None),
            IndexRelation::Unknown);
  EXPECT_EQ(compareAccesses(access({K1}), at({{"k", 1}}), access({K}), at(), None),
            IndexRelation::Unknown);
  // An indirect index is never provably equal, not even to itself.
  IndexExpr Idx = indirect("idx[i]", {"i"});
  EXPECT_EQ(compareAccesses(access({Idx}), at(), access({Idx}), at(), None),
            IndexRelation::Unknown);
  // Different numbers of subscripts.
  EXPECT_EQ(compareAccesses(access({I}), at(), access({I, J}), at(), None),
            IndexRelation::Unknown);
  // Clobbering a variable the forms do not use changes nothing.
  EXPECT_EQ(compareAccesses(access({I}), at(), access({I}), at(), {"k"}), IndexRelation::Same);
}

// ---- the graph -------------------------------------------------------------------------------

struct Analysed {
  KernelInfo K;
  Dependences D;
  /// The lowered statements (no phis), in lowering order.
  std::vector<unsigned> S;

  bool edge(unsigned From, unsigned To) const { return boost::edge(From, To, D.G).second; }
  bool toSink(unsigned From) const { return edge(From, D.Sink); }
  /// Targets of From's edges.
  std::set<unsigned> out(unsigned From) const {
    std::set<unsigned> R;
    for (auto E : boost::make_iterator_range(boost::out_edges(From, D.G)))
      R.insert(boost::target(E, D.G));
    return R;
  }
  const IRStmt &stmt(unsigned Id) const { return K.Split.IR.Stmts[Id]; }
  /// The writes of array Name, in lowering order.
  std::vector<unsigned> writes(const std::string &Name) const {
    std::vector<unsigned> R;
    for (unsigned Id : S)
      if (stmt(Id).K == IRStmt::Kind::ArrayWrite && stmt(Id).Write.Name == Name)
        R.push_back(Id);
    return R;
  }
};

Analysed analyze(const std::string &Src, const std::vector<std::string> &Decls) {
  Analysed A;
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return A;
  }
  A.K = std::move(*K);
  A.D = buildDependences(A.K.Split.IR);
  for (const IRStmt &S : A.K.Split.IR.Stmts)
    if (S.K != IRStmt::Kind::Phi)
      A.S.push_back(S.Id);
  return A;
}

TEST(DependencesTest, VerticesAreStatementsThenTheSink) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) a[i] = 1;\n",
                       {"int n", "double *a"});
  EXPECT_EQ(A.D.Sink, A.K.Split.IR.Stmts.size());
  EXPECT_EQ(boost::num_vertices(A.D.G), A.K.Split.IR.Stmts.size() + 1);
  EXPECT_EQ(boost::num_edges(A.D.G), 0u);
}

TEST(DependencesTest, ScalarDefToUse) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  double t = b[i];\n"
                       "  double u = t * 2;\n"
                       "  a[i] = t + u;\n"
                       "  t = 0;\n"
                       "}\n",
                       {"int n", "double *a", "const double *b"});
  ASSERT_EQ(A.S.size(), 4u);
  unsigned T = A.S[0], U = A.S[1], W = A.S[2], T2 = A.S[3];
  EXPECT_EQ(A.out(T), (std::set<unsigned>{U, W}));
  EXPECT_EQ(A.out(U), std::set<unsigned>{W});
  EXPECT_TRUE(A.out(W).empty());
  EXPECT_TRUE(A.out(T2).empty()); // a dead definition
  EXPECT_EQ(boost::in_degree(A.D.Sink, A.D.G), 0u);
}

TEST(DependencesTest, WriteToALaterReadOfTheSameElement) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 1; i < n; i++) {\n"
                       "  a[i] = x;\n"
                       "  b[i] = a[i];\n"
                       "  c[i] = a[i - 1];\n"
                       "  c[i] += a[k];\n"
                       "}\n",
                       {"int n", "int k", "double x", "double *a", "double *b", "double *c"});
  ASSERT_EQ(A.S.size(), 4u);
  unsigned Wa = A.S[0], Wb = A.S[1], Wc = A.S[2], Uc = A.S[3];
  // a[i - 1] is another element; a[k] may be a[i]. c[i] += reads the c[i] just written.
  EXPECT_EQ(A.out(Wa), (std::set<unsigned>{Wb, Uc}));
  EXPECT_TRUE(A.out(Wb).empty());
  EXPECT_EQ(A.out(Wc), std::set<unsigned>{Uc});
}

TEST(DependencesTest, PaperFigure3Kill) {
  Analysed A =
      analyze("#pragma acc parallel loop\n"
              "for (int i = 0; i < n; i++) {\n"
              "  a[i] = x; b[i] = a[i]; x = c[j]; a[k] = x; b[k] = a[k];\n"
              "}\n",
              {"int n", "int j", "int k", "double x", "double *a", "double *b", "const double *c"});
  ASSERT_EQ(A.S.size(), 5u);
  unsigned S1 = A.S[0], S2 = A.S[1], S3 = A.S[2], S4 = A.S[3], S5 = A.S[4];
  // a[i] = x reaches b[i] = a[i] only: a[k] = x overwrites a[k] before b[k] = a[k] reads it.
  EXPECT_EQ(A.out(S1), std::set<unsigned>{S2});
  EXPECT_TRUE(A.out(S2).empty());
  EXPECT_EQ(A.out(S3), std::set<unsigned>{S4});
  EXPECT_EQ(A.out(S4), std::set<unsigned>{S5});
  EXPECT_TRUE(A.out(S5).empty());
  // The index variables j and k are entry values: no statement defines them.
  EXPECT_EQ(boost::in_degree(A.D.Sink, A.D.G), 0u);
}

TEST(DependencesTest, KillsOnlyOnEveryPath) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  a[i] = 1;\n"
                       "  if (x > 0) a[i] = 2;\n"
                       "  b[i] = a[i];\n"
                       "  if (x > 0) a[i] = 3; else a[i] = 4;\n"
                       "  c[i] = a[i];\n"
                       "}\n",
                       {"int n", "double x", "double *a", "double *b", "double *c"});
  auto Wa = A.writes("a"), Wb = A.writes("b"), Wc = A.writes("c");
  ASSERT_EQ(Wa.size(), 4u);
  ASSERT_EQ(Wb.size(), 1u);
  ASSERT_EQ(Wc.size(), 1u);
  // The branch without else leaves the first write reaching b[i].
  EXPECT_EQ(A.out(Wa[0]), std::set<unsigned>{Wb[0]});
  EXPECT_EQ(A.out(Wa[1]), std::set<unsigned>{Wb[0]});
  // The if/else overwrites a[i] on both paths: only its two writes reach c[i].
  EXPECT_EQ(A.out(Wa[2]), std::set<unsigned>{Wc[0]});
  EXPECT_EQ(A.out(Wa[3]), std::set<unsigned>{Wc[0]});
}

TEST(DependencesTest, ConditionalAndAtomicWritesDoNotKill) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  a[i] = 1;\n"
                       "  x > 0 && (a[i] = 2);\n"
                       "  b[i] = a[i];\n"
                       "}\n",
                       {"int n", "int x", "double *a", "double *b"});
  auto Wa = A.writes("a"), Wb = A.writes("b");
  ASSERT_EQ(Wa.size(), 2u);
  ASSERT_EQ(Wb.size(), 1u);
  EXPECT_EQ(A.out(Wa[0]), std::set<unsigned>{Wb[0]});
  EXPECT_EQ(A.out(Wa[1]), std::set<unsigned>{Wb[0]});

  Analysed T = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  h[i] = 0;\n"
                       "  #pragma acc atomic update\n"
                       "  h[i] += 1;\n"
                       "  g[i] = h[i];\n"
                       "}\n",
                       {"int n", "int *h", "int *g"});
  auto Wh = T.writes("h"), Wg = T.writes("g");
  ASSERT_EQ(Wh.size(), 2u);
  ASSERT_EQ(Wg.size(), 1u);
  ASSERT_TRUE(T.stmt(Wh[1]).Atomic);
  EXPECT_EQ(T.out(Wh[0]), (std::set<unsigned>{Wh[1], Wg[0]}));
  EXPECT_EQ(T.out(Wh[1]), std::set<unsigned>{Wg[0]});
}

TEST(DependencesTest, RedefinedIndexVariable) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  int k = idx[i];\n"
                       "  a[k] = 1;\n"
                       "  k = k + 1;\n"
                       "  c[i] = a[k];\n"
                       "  a[k] = 2;\n"
                       "  d[i] = a[k];\n"
                       "}\n",
                       {"int n", "double *a", "double *c", "double *d", "const int *idx"});
  ASSERT_EQ(A.S.size(), 6u);
  unsigned K0 = A.S[0], W1 = A.S[1], K1 = A.S[2], Wc = A.S[3], W2 = A.S[4], Wd = A.S[5];
  // After k = k + 1, a[k] may still be the element a[k] = 1 wrote (unknown)...
  EXPECT_EQ(A.out(W1), std::set<unsigned>{Wc});
  // ... but a[k] = 2, over the same k, certainly overwrote what d[i] reads.
  EXPECT_EQ(A.out(W2), std::set<unsigned>{Wd});
  // k is a value for k + 1 and an index: never filtered.
  EXPECT_EQ(A.out(K0), (std::set<unsigned>{K1, A.D.Sink}));
  EXPECT_EQ(A.out(K1), std::set<unsigned>{A.D.Sink});
}

TEST(DependencesTest, IndexUsesGoToTheSink) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  idx[i] = i / 2;\n"
                       "  int k = idx[i];\n"
                       "  a[k] = b[k + 1];\n"
                       "  a[i] = b[idx[i]];\n"
                       "}\n",
                       {"int n", "double *a", "const double *b", "int *idx"});
  ASSERT_EQ(A.S.size(), 4u);
  unsigned Wi = A.S[0], K = A.S[1], W1 = A.S[2], W2 = A.S[3];
  EXPECT_EQ(A.out(K), std::set<unsigned>{A.D.Sink});
  // idx[i] is read as a value by k's definition, and inside the subscript of b[idx[i]].
  EXPECT_EQ(A.out(Wi), (std::set<unsigned>{K, A.D.Sink}));
  EXPECT_TRUE(A.out(W1).empty());
  EXPECT_TRUE(A.out(W2).empty());
}

TEST(DependencesTest, ControlUsesGoToTheSink) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  double x = b[i];\n"
                       "  c[i] = 1;\n"
                       "  if (x > c[i]) a[i] = 1;\n"
                       "  int k = 0;\n"
                       "  while (k < m) k++;\n"
                       "}\n",
                       {"int n", "int m", "double *a", "const double *b", "double *c"});
  ASSERT_EQ(A.S.size(), 7u);
  unsigned X = A.S[0], Wc = A.S[1], If = A.S[2], Wa = A.S[3], K0 = A.S[4], Cond = A.S[5],
           Inc = A.S[6];
  ASSERT_EQ(A.stmt(If).K, IRStmt::Kind::Control);
  ASSERT_EQ(A.stmt(Cond).K, IRStmt::Kind::Control);
  EXPECT_EQ(A.out(X), std::set<unsigned>{A.D.Sink});
  EXPECT_EQ(A.out(Wc), std::set<unsigned>{A.D.Sink}); // an array element a condition reads
  EXPECT_TRUE(A.out(Wa).empty());
  // Through the loop's phi: k = 0 and k++ feed the phi, the phi the condition and k++.
  const IRStmt *Phi = nullptr;
  for (const IRStmt &S : A.K.Split.IR.Stmts)
    if (S.K == IRStmt::Kind::Phi && S.Var == "k")
      Phi = &S;
  ASSERT_NE(Phi, nullptr);
  EXPECT_EQ(A.out(K0), std::set<unsigned>{Phi->Id});
  EXPECT_EQ(A.out(Inc), std::set<unsigned>{Phi->Id});
  EXPECT_EQ(A.out(Phi->Id), (std::set<unsigned>{A.D.Sink, Inc}));
  EXPECT_TRUE(A.out(If).empty());
  EXPECT_TRUE(A.out(Cond).empty());
}

// The condition of ?:, && and || decides whether the writes inside run, as an if's does: the
// values it reads are never filtered. Here x must not be filtered by c's ownership alone.
TEST(DependencesTest, ConditionOfAConditionalWriteGoesToTheSink) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  double x = b[i];\n"
                       "  c[i] = x;\n"
                       "  x > 0 && (a[i] = 1);\n"
                       "}\n",
                       {"int n", "double *a", "const double *b", "double *c"});
  ASSERT_GE(A.S.size(), 3u);
  unsigned X = A.S[0];
  EXPECT_TRUE(A.toSink(X)) << "x = b[i] only reaches statements " << ::testing::PrintToString(A.out(X));

  Analysed T = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  double x = b[i];\n"
                       "  c[i] = x > 0 ? (a[i] = 1) : 0;\n"
                       "}\n",
                       {"int n", "double *a", "const double *b", "double *c"});
  ASSERT_GE(T.S.size(), 1u);
  EXPECT_TRUE(T.toSink(T.S[0])) << "x = b[i] only reaches statements "
                                << ::testing::PrintToString(T.out(T.S[0]));
}

TEST(DependencesTest, AccumulationThroughAnInnerLoopsBackEdge) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  double s = 0;\n"
                       "  a[i] = 0;\n"
                       "  for (int k = 0; k < m; k++) {\n"
                       "    s += b[k];\n"
                       "    a[i] += b[k];\n"
                       "    c[i][k] = 1;\n"
                       "    d[i] = c[i][k];\n"
                       "  }\n"
                       "  y[i] = s + a[i];\n"
                       "}\n",
                       {"int n", "int m", "double *a", "const double *b", "double (*c)[64]",
                        "double *d", "double *y"});
  const RegionIR &IR = A.K.Split.IR;
  // s = 0, a[i] = 0, k = 0, control, s +=, a[i] +=, c[i][k] =, d[i] =, k++, y[i] =
  ASSERT_EQ(A.S.size(), 10u);
  unsigned S0 = A.S[0], A0 = A.S[1], SAcc = A.S[4], AAcc = A.S[5], Wc = A.S[6], Wd = A.S[7],
           Wy = A.S[9];
  const IRStmt *SPhi = nullptr;
  for (const IRStmt &S : IR.Stmts)
    if (S.K == IRStmt::Kind::Phi && S.Var == "s")
      SPhi = &S;
  ASSERT_NE(SPhi, nullptr);
  // Scalar: through the header's phi, both ways.
  EXPECT_EQ(A.out(S0), std::set<unsigned>{SPhi->Id});
  EXPECT_EQ(A.out(SAcc), std::set<unsigned>{SPhi->Id});
  EXPECT_EQ(A.out(SPhi->Id), (std::set<unsigned>{SAcc, Wy}));
  // Array: a[i] += reads what it wrote in the previous inner iteration (the back edge) and what
  // a[i] = 0 wrote before the loop; y[i] reads either.
  EXPECT_EQ(A.out(A0), (std::set<unsigned>{AAcc, Wy}));
  EXPECT_EQ(A.out(AAcc), (std::set<unsigned>{AAcc, Wy}));
  // c[i][k] is read in the same inner iteration only: k changes along the back edge, and the
  // previous iteration's write is killed by this one's on the way.
  EXPECT_EQ(A.out(Wc), std::set<unsigned>{Wd});
  EXPECT_TRUE(A.out(Wd).empty());
}

// A read through a local pointer may read any element of what it points to: a[i] = 1 may reach
// b[i] = p[i].
TEST(DependencesTest, ReadThroughALocalPointer) {
  Analysed A = analyze("#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) {\n"
                       "  const double *p = a;\n"
                       "  a[i] = 1;\n"
                       "  b[i] = p[i];\n"
                       "}\n",
                       {"int n", "double *a", "double *b"});
  ASSERT_EQ(A.S.size(), 3u);
  // (Or the kernel is not split at all.)
  EXPECT_TRUE(A.edge(A.S[1], A.S[2]) || A.toSink(A.S[1]) || !A.K.Split.Enabled)
      << "a[i] = 1 only reaches statements " << ::testing::PrintToString(A.out(A.S[1]));
}

} // namespace
