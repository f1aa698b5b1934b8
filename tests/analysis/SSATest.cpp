// Tests of the SSA pass: immediate dominators of hand-built CFGs, phi placement at joins and loop
// headers, the versions of the variables each statement reads and the phi operands per
// predecessor, on hand-built regions and on lowered kernels.
#include "analysis/SSA.h"
#include "analysis/Pipeline.h"
#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace jacc::analysis;
using jacc::analysis::test::analyzed;

namespace {

using Versions = std::map<std::string, unsigned>;
using Idoms = std::vector<int>;

RegionIR graph(unsigned Blocks, const std::vector<std::pair<unsigned, unsigned>> &Edges,
               unsigned Entry = 0) {
  RegionIR IR;
  for (unsigned B = 0; B < Blocks; ++B)
    IR.addBlock();
  for (auto [From, To] : Edges)
    IR.addEdge(From, To);
  IR.Entry = Entry;
  IR.Exit = Blocks - 1;
  return IR;
}

/// Var = f(Uses).
unsigned def(RegionIR &IR, unsigned Block, const std::string &Var,
             std::set<std::string> Uses = {}) {
  IRStmt S;
  S.K = IRStmt::Kind::ScalarDef;
  S.Var = Var;
  S.Uses = std::move(Uses);
  return IR.addStmt(std::move(S), Block);
}

/// A statement reading Uses (a write of a[0], which does not define a scalar).
unsigned use(RegionIR &IR, unsigned Block, std::set<std::string> Uses) {
  IRStmt S;
  S.K = IRStmt::Kind::ArrayWrite;
  S.Write.Name = "a";
  S.Write.Arg = 0;
  S.Uses = std::move(Uses);
  return IR.addStmt(std::move(S), Block);
}

/// The phis at the start of a block, by variable.
std::map<std::string, const IRStmt *> phisOf(const RegionIR &IR, unsigned B) {
  std::map<std::string, const IRStmt *> R;
  for (unsigned Id : IR.Blocks.at(B).Stmts)
    if (IR.Stmts[Id].K == IRStmt::Kind::Phi)
      R[IR.Stmts[Id].Var] = &IR.Stmts[Id];
  return R;
}

unsigned countPhis(const RegionIR &IR) {
  unsigned N = 0;
  for (const IRStmt &S : IR.Stmts)
    N += S.K == IRStmt::Kind::Phi;
  return N;
}

/// The N-th lowered statement that defines Var (0 = first), or the N-th write of array Var.
const IRStmt *stmt(const RegionIR &IR, IRStmt::Kind Kind, const std::string &Name,
                   unsigned N = 0) {
  for (const IRStmt &S : IR.Stmts)
    if (S.K == Kind && (Kind == IRStmt::Kind::ArrayWrite ? S.Write.Name : S.Var) == Name &&
        N-- == 0)
      return &S;
  ADD_FAILURE() << "no statement for '" << Name << "'";
  return nullptr;
}

// ---- dominators ------------------------------------------------------------------------------

TEST(SSATest, DominatorsOfADiamond) {
  RegionIR IR = graph(4, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
  EXPECT_EQ(immediateDominators(IR), (Idoms{-1, 0, 0, 0}));
}

TEST(SSATest, DominatorsOfALoop) {
  // 0 -> header 1 -> body 2 -> back to 1; 1 -> exit 3.
  RegionIR IR = graph(4, {{0, 1}, {1, 2}, {2, 1}, {1, 3}});
  EXPECT_EQ(immediateDominators(IR), (Idoms{-1, 0, 1, 1}));
  // A diamond inside the loop body: its join (4) is dominated by the branch (2), the exit (5)
  // by the header.
  RegionIR N = graph(6, {{0, 1}, {1, 2}, {1, 5}, {2, 3}, {2, 4}, {3, 4}, {4, 1}});
  EXPECT_EQ(immediateDominators(N), (Idoms{-1, 0, 1, 2, 2, 1}));
}

TEST(SSATest, UnreachableBlocksHaveNoDominator) {
  RegionIR IR = graph(4, {{0, 1}, {2, 3}});
  EXPECT_EQ(immediateDominators(IR), (Idoms{-1, 0, -1, -1}));
  // The entry need not be block 0.
  RegionIR E = graph(3, {{2, 0}, {0, 1}}, /*Entry=*/2);
  EXPECT_EQ(immediateDominators(E), (Idoms{2, 0, -1}));
}

// The dead block a `break` or `continue` leaves behind is a predecessor of the next block: it
// must not hide that block from the dominator tree.
TEST(SSATest, UnreachablePredecessorDoesNotChangeDominators) {
  RegionIR IR = graph(4, {{0, 1}, {1, 2}, {3, 2}});
  EXPECT_EQ(immediateDominators(IR), (Idoms{-1, 0, 1, -1}));
  RegionIR D = graph(6, {{0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {5, 4}});
  EXPECT_EQ(immediateDominators(D), (Idoms{-1, 0, 1, 1, 1, -1}));
}

// ---- phis and versions -----------------------------------------------------------------------

TEST(SSATest, VersionsAlongStraightLineCode) {
  RegionIR IR = graph(2, {{0, 1}});
  unsigned U0 = use(IR, 0, {"x", "n"});
  unsigned D1 = def(IR, 0, "x", {"x"});
  unsigned U1 = use(IR, 0, {"x"});
  unsigned D2 = def(IR, 0, "x", {"x"});
  unsigned U2 = use(IR, 0, {"x"});
  RegionIR S = buildSSA(std::move(IR));
  EXPECT_EQ(countPhis(S), 0u);
  // Absent: the value at the iteration's start. Variables never defined never appear.
  EXPECT_EQ(S.Stmts[U0].VersionIn, Versions{});
  EXPECT_EQ(S.Stmts[D1].VersionIn, Versions{});
  EXPECT_EQ(S.Stmts[D1].DefVersion, 1u);
  EXPECT_EQ(S.Stmts[U1].VersionIn, (Versions{{"x", 1}}));
  EXPECT_EQ(S.Stmts[D2].VersionIn, (Versions{{"x", 1}}));
  EXPECT_EQ(S.Stmts[D2].DefVersion, 2u);
  EXPECT_EQ(S.Stmts[U2].VersionIn, (Versions{{"x", 2}}));
}

TEST(SSATest, PhiAtTheJoinOfAnIfElse) {
  // 0 branches to 1 and 2, both define x; 3 joins them. The edge from 2 is added first.
  RegionIR IR = graph(5, {{0, 1}, {0, 2}, {2, 3}, {1, 3}, {3, 4}});
  unsigned Before = use(IR, 0, {"x"});
  unsigned D1 = def(IR, 1, "x");
  unsigned D2 = def(IR, 2, "x");
  unsigned After = use(IR, 3, {"x"});
  RegionIR S = buildSSA(std::move(IR));
  EXPECT_EQ(countPhis(S), 1u);
  auto Phis = phisOf(S, 3);
  ASSERT_EQ(Phis.count("x"), 1u);
  const IRStmt &Phi = *Phis["x"];
  // The phi comes first in its block and has one operand per predecessor, in Preds order.
  EXPECT_EQ(S.Blocks[3].Stmts.front(), Phi.Id);
  EXPECT_EQ(Phi.Block, 3u);
  EXPECT_EQ(S.Blocks[3].Preds, (std::vector<unsigned>{2, 1}));
  EXPECT_EQ(S.Stmts[D1].DefVersion, 1u);
  EXPECT_EQ(S.Stmts[D2].DefVersion, 2u);
  EXPECT_EQ(Phi.PhiOperands, (std::vector<unsigned>{2, 1}));
  EXPECT_EQ(Phi.DefVersion, 3u);
  EXPECT_EQ(S.Stmts[Before].VersionIn, Versions{});
  EXPECT_EQ(S.Stmts[After].VersionIn, (Versions{{"x", 3}}));
}

TEST(SSATest, PhiOperandIsZeroOnAPathWithoutDefinition) {
  // if (c) x = ...; use(x): the fall-through edge carries the entry value.
  RegionIR IR = graph(4, {{0, 1}, {0, 2}, {1, 2}, {2, 3}});
  unsigned D = def(IR, 1, "x");
  unsigned After = use(IR, 2, {"x"});
  unsigned Exit = use(IR, 3, {"x"});
  RegionIR S = buildSSA(std::move(IR));
  auto Phis = phisOf(S, 2);
  ASSERT_EQ(Phis.count("x"), 1u);
  EXPECT_EQ(S.Stmts[D].DefVersion, 1u);
  EXPECT_EQ(Phis["x"]->PhiOperands, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(Phis["x"]->DefVersion, 2u);
  EXPECT_EQ(S.Stmts[After].VersionIn, (Versions{{"x", 2}}));
  EXPECT_EQ(S.Stmts[Exit].VersionIn, (Versions{{"x", 2}}));
  EXPECT_EQ(countPhis(S), 1u);
}

TEST(SSATest, PhiAtALoopHeader) {
  // x = ...; while (x) x = x - 1; use(x)
  RegionIR IR = graph(5, {{0, 1}, {1, 2}, {2, 1}, {1, 3}, {3, 4}});
  unsigned D0 = def(IR, 0, "x");
  unsigned Cond = use(IR, 1, {"x"});
  unsigned D1 = def(IR, 2, "x", {"x"});
  unsigned After = use(IR, 3, {"x"});
  RegionIR S = buildSSA(std::move(IR));
  EXPECT_EQ(countPhis(S), 1u);
  auto Phis = phisOf(S, 1);
  ASSERT_EQ(Phis.count("x"), 1u);
  const IRStmt &Phi = *Phis["x"];
  EXPECT_EQ(S.Stmts[D0].DefVersion, 1u);
  EXPECT_EQ(Phi.DefVersion, 2u);
  EXPECT_EQ(S.Stmts[D1].DefVersion, 3u);
  EXPECT_EQ(Phi.PhiOperands, (std::vector<unsigned>{1, 3})); // entry edge, back edge
  EXPECT_EQ(S.Stmts[Cond].VersionIn, (Versions{{"x", 2}}));
  EXPECT_EQ(S.Stmts[D1].VersionIn, (Versions{{"x", 2}}));
  EXPECT_EQ(S.Stmts[After].VersionIn, (Versions{{"x", 2}}));
}

TEST(SSATest, EntryValuesReadDirectlyOrThroughPhis) {
  // if (c) { x = ...; } use(x); t = ...; use(t); while (w) { y = ...; } (y unused after)
  RegionIR IR = graph(7, {{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {4, 3}, {3, 5}, {5, 6}});
  use(IR, 0, {"c"});
  def(IR, 1, "x");
  use(IR, 2, {"x"});
  def(IR, 2, "t");
  use(IR, 2, {"t"});
  use(IR, 3, {"w"});
  def(IR, 4, "y");
  RegionIR S = buildSSA(std::move(IR));
  // x: the join's phi has the entry value on the path without the definition; y's loop-header
  // phi carries it too, but nothing reads the phi; t is assigned before its read.
  EXPECT_EQ(entryValuesRead(S), (std::set<std::string>{"c", "w", "x"}));
}

TEST(SSATest, LoweredInnerLoopAccumulation) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double s = 0;\n"
                          "  for (int k = 0; k < m; k++)\n"
                          "    s += b[k];\n"
                          "  a[i] = s;\n"
                          "}\n",
                          {"int n", "int m", "double *a", "const double *b"});
  const RegionIR &IR = K.Split.IR;
  const IRStmt *S0 = stmt(IR, IRStmt::Kind::ScalarDef, "s", 0),
               *Acc = stmt(IR, IRStmt::Kind::ScalarDef, "s", 1),
               *K0 = stmt(IR, IRStmt::Kind::ScalarDef, "k", 0),
               *Inc = stmt(IR, IRStmt::Kind::ScalarDef, "k", 1),
               *W = stmt(IR, IRStmt::Kind::ArrayWrite, "a");
  const IRStmt *Cond = nullptr;
  for (const IRStmt &S : IR.Stmts)
    if (S.K == IRStmt::Kind::Control)
      Cond = &S;
  ASSERT_TRUE(S0 && Acc && K0 && Inc && W && Cond);
  unsigned Head = Cond->Block;
  EXPECT_EQ(countPhis(IR), 2u);
  auto Phis = phisOf(IR, Head);
  ASSERT_EQ(Phis.size(), 2u);
  ASSERT_EQ(IR.Blocks[Head].Preds.size(), 2u);
  EXPECT_EQ(IR.Blocks[Head].Preds[0], IR.Entry);
  EXPECT_EQ(IR.Blocks[Head].Preds[1], Inc->Block); // the latch
  EXPECT_EQ(S0->DefVersion, 1u);
  EXPECT_EQ(K0->DefVersion, 1u);
  EXPECT_EQ(Phis["s"]->DefVersion, 2u);
  EXPECT_EQ(Phis["k"]->DefVersion, 2u);
  EXPECT_EQ(Acc->DefVersion, 3u);
  EXPECT_EQ(Inc->DefVersion, 3u);
  EXPECT_EQ(Phis["s"]->PhiOperands, (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(Phis["k"]->PhiOperands, (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(Cond->VersionIn, (Versions{{"k", 2}, {"s", 2}}));
  EXPECT_EQ(Acc->VersionIn, (Versions{{"k", 2}, {"s", 2}}));
  EXPECT_EQ(Inc->VersionIn, (Versions{{"k", 2}, {"s", 3}}));
  EXPECT_EQ(W->VersionIn, (Versions{{"k", 2}, {"s", 2}}));
  // The entry's statements: k's initialiser sees s, s's sees nothing.
  EXPECT_EQ(S0->VersionIn, Versions{});
  EXPECT_EQ(K0->VersionIn, (Versions{{"s", 1}}));
}

// The same loop with a `break`: the dead block after it flows into the rest of the body, which
// must still be renamed (versions reach it, k++ defines a version, the header's phi sees it).
TEST(SSATest, LoweredLoopWithBreakIsRenamed) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t = b[i];\n"
                          "  c[i] = t;\n"
                          "  for (int k = 0; k < m; k++) {\n"
                          "    if (b[k] < 0) break;\n"
                          "    a[i][k] = t;\n"
                          "  }\n"
                          "}\n",
                          {"int n", "int m", "double (*a)[64]", "const double *b", "double *c"});
  const RegionIR &IR = K.Split.IR;
  const IRStmt *T = stmt(IR, IRStmt::Kind::ScalarDef, "t"),
               *Inc = stmt(IR, IRStmt::Kind::ScalarDef, "k", 1),
               *W = stmt(IR, IRStmt::Kind::ArrayWrite, "a");
  ASSERT_TRUE(T && Inc && W);
  std::vector<const IRStmt *> Controls; // the loop's condition, then the if's
  for (const IRStmt &S : IR.Stmts)
    if (S.K == IRStmt::Kind::Control)
      Controls.push_back(&S);
  ASSERT_EQ(Controls.size(), 2u);
  const IRStmt *Cond = Controls[0], *If = Controls[1];
  Idoms Idom = immediateDominators(IR);
  EXPECT_EQ(Idom.at(W->Block), static_cast<int>(If->Block));
  EXPECT_EQ(T->DefVersion, 1u);
  EXPECT_EQ(W->VersionIn.count("t") ? W->VersionIn.at("t") : 0u, 1u);
  auto Phis = phisOf(IR, Cond->Block);
  ASSERT_EQ(Phis.count("k"), 1u);
  EXPECT_NE(Inc->DefVersion, 0u);
  EXPECT_EQ(Phis["k"]->PhiOperands, (std::vector<unsigned>{1, Inc->DefVersion}));
  EXPECT_EQ(W->VersionIn.count("k") ? W->VersionIn.at("k") : 0u, Phis["k"]->DefVersion);
}

} // namespace
