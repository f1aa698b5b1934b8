// SSA for the region's scalars: immediate dominators, phis at iterated dominance frontiers and
// renaming; and which scalars an iteration may read at their entry value.
#include "analysis/SSA.h"

#include <llvm/ADT/STLExtras.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>

#include <map>

namespace jacc::analysis {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

std::vector<int> immediateDominators(const RegionIR &IR) {
  // Only edges out of reachable blocks: code after a break or continue is unreachable, and an
  // unnumbered predecessor would corrupt the semidominators of the block it joins.
  std::vector<bool> Reachable(IR.Blocks.size(), false);
  std::vector<unsigned> Work = {IR.Entry};
  Reachable[IR.Entry] = true;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    for (unsigned S : IR.Blocks[B].Succs)
      if (!Reachable[S]) {
        Reachable[S] = true;
        Work.push_back(S);
      }
  }
  Graph G(IR.Blocks.size());
  for (unsigned B = 0; B < IR.Blocks.size(); ++B)
    if (Reachable[B])
      for (unsigned S : IR.Blocks[B].Succs)
        boost::add_edge(B, S, G);
  std::vector<Vertex> Dom(IR.Blocks.size(), boost::graph_traits<Graph>::null_vertex());
  auto DomMap = boost::make_iterator_property_map(Dom.begin(), boost::get(boost::vertex_index, G));
  boost::lengauer_tarjan_dominator_tree(G, boost::vertex(IR.Entry, G), DomMap);
  std::vector<int> Idom(IR.Blocks.size(), -1);
  for (unsigned B = 0; B < Dom.size(); ++B)
    if (Dom[B] != boost::graph_traits<Graph>::null_vertex())
      Idom[B] = static_cast<int>(Dom[B]);
  return Idom;
}

namespace {

class Renamer {
public:
  Renamer(RegionIR &IR, const std::vector<int> &Idom) : IR(IR) {
    Children.resize(IR.Blocks.size());
    for (unsigned B = 0; B < Idom.size(); ++B)
      if (Idom[B] >= 0)
        Children[Idom[B]].push_back(B);
    for (const IRStmt &S : IR.Stmts)
      if (S.K == IRStmt::Kind::ScalarDef || S.K == IRStmt::Kind::Phi)
        Stacks[S.Var]; // every variable defined somewhere, starting at version 0
  }

  void run() { rename(IR.Entry); }

private:
  std::map<std::string, unsigned> snapshot() const {
    std::map<std::string, unsigned> M;
    for (const auto &[Var, Stack] : Stacks)
      if (!Stack.empty())
        M[Var] = Stack.back();
    return M;
  }

  void rename(unsigned B) {
    std::vector<std::string> Pushed;
    for (unsigned Id : IR.Blocks[B].Stmts) {
      IRStmt &S = IR.Stmts[Id];
      if (S.K != IRStmt::Kind::Phi)
        S.VersionIn = snapshot();
      if (S.K == IRStmt::Kind::ScalarDef || S.K == IRStmt::Kind::Phi) {
        S.DefVersion = ++Counter[S.Var];
        Stacks[S.Var].push_back(S.DefVersion);
        Pushed.push_back(S.Var);
      }
    }
    for (unsigned Succ : IR.Blocks[B].Succs)
      for (unsigned Id : IR.Blocks[Succ].Stmts) {
        IRStmt &Phi = IR.Stmts[Id];
        if (Phi.K != IRStmt::Kind::Phi)
          break;
        const auto &Stack = Stacks[Phi.Var];
        // Operand per predecessor, in Preds order; one block may appear twice (both edges).
        for (unsigned P = 0; P < IR.Blocks[Succ].Preds.size(); ++P)
          if (IR.Blocks[Succ].Preds[P] == B)
            Phi.PhiOperands[P] = Stack.empty() ? 0 : Stack.back();
      }
    for (unsigned Child : Children[B])
      rename(Child);
    for (const std::string &V : Pushed)
      Stacks[V].pop_back();
  }

  RegionIR &IR;
  std::vector<std::vector<unsigned>> Children; ///< the dominator tree
  std::map<std::string, std::vector<unsigned>> Stacks;
  std::map<std::string, unsigned> Counter;
};

} // namespace

RegionIR buildSSA(RegionIR IR) {
  std::vector<int> Idom = immediateDominators(IR);
  unsigned N = IR.Blocks.size();
  // Dominance frontiers (Cooper, Harvey and Kennedy).
  std::vector<std::set<unsigned>> DF(N);
  for (unsigned B = 0; B < N; ++B) {
    if (IR.Blocks[B].Preds.size() < 2 || (Idom[B] < 0 && B != IR.Entry))
      continue;
    for (unsigned P : IR.Blocks[B].Preds) {
      int Runner = static_cast<int>(P);
      if (Idom[Runner] < 0 && Runner != static_cast<int>(IR.Entry))
        continue; // unreachable predecessor
      while (Runner >= 0 && Runner != Idom[B]) {
        DF[Runner].insert(B);
        Runner = Idom[Runner];
      }
    }
  }
  // Phis at the iterated dominance frontier of each variable's definitions.
  std::map<std::string, std::set<unsigned>> DefBlocks;
  for (const IRStmt &S : IR.Stmts)
    if (S.K == IRStmt::Kind::ScalarDef)
      DefBlocks[S.Var].insert(S.Block);
  std::vector<std::vector<unsigned>> PhisAt(N);
  for (auto &[Var, Blocks] : DefBlocks) {
    std::vector<unsigned> Work(Blocks.begin(), Blocks.end());
    std::set<unsigned> HasPhi;
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      for (unsigned F : DF[B])
        if (HasPhi.insert(F).second) {
          IRStmt Phi;
          Phi.K = IRStmt::Kind::Phi;
          Phi.Var = Var;
          Phi.PhiOperands.assign(IR.Blocks[F].Preds.size(), 0);
          Phi.Id = IR.Stmts.size();
          Phi.Block = F;
          IR.Stmts.push_back(Phi);
          PhisAt[F].push_back(Phi.Id);
          if (!Blocks.count(F))
            Work.push_back(F);
        }
    }
  }
  for (unsigned B = 0; B < N; ++B)
    if (!PhisAt[B].empty()) {
      auto &Stmts = IR.Blocks[B].Stmts;
      Stmts.insert(Stmts.begin(), PhisAt[B].begin(), PhisAt[B].end());
    }
  Renamer(IR, Idom).run();
  return IR;
}

std::set<std::string> entryValuesRead(const RegionIR &IR) {
  // The versions that may hold the entry value: 0, and each phi with such an operand.
  std::map<std::string, std::set<unsigned>> Carries;
  for (const IRStmt &S : IR.Stmts)
    Carries[S.Var].insert(0);
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const IRStmt &S : IR.Stmts)
      if (S.K == IRStmt::Kind::Phi && !Carries[S.Var].count(S.DefVersion))
        for (unsigned Op : S.PhiOperands)
          if (Carries[S.Var].count(Op)) {
            Carries[S.Var].insert(S.DefVersion);
            Grew = true;
            break;
          }
  }
  std::set<std::string> Read;
  auto Check = [&](const IRStmt &S, const std::string &Var) {
    auto It = S.VersionIn.find(Var);
    unsigned Version = It == S.VersionIn.end() ? 0 : It->second;
    auto C = Carries.find(Var);
    if (Version == 0 || (C != Carries.end() && C->second.count(Version)))
      Read.insert(Var);
  };
  auto CheckIndices = [&](const IRStmt &S, const ArrayAccess &A) {
    for (const IndexExpr &X : A.Index)
      for (const std::string &V : X.Vars)
        Check(S, V);
  };
  for (const IRStmt &S : IR.Stmts) {
    if (S.K == IRStmt::Kind::Phi)
      continue;
    for (const std::string &V : S.Uses)
      Check(S, V);
    for (const std::string &V : S.IndexUses)
      Check(S, V);
    CheckIndices(S, S.Write);
    for (const ArrayAccess &A : S.Reads)
      CheckIndices(S, A);
    for (const ArrayAccess &A : S.IndexReads)
      CheckIndices(S, A);
  }
  return Read;
}

bool assignsBeforeReading(const RegionIR &IR, std::set<std::string> &Assigned) {
  for (const IRStmt &S : IR.Stmts)
    if (S.K == IRStmt::Kind::ScalarDef)
      Assigned.insert(S.Var);
  std::set<std::string> Carried = entryValuesRead(buildSSA(IR));
  return llvm::none_of(Assigned, [&](const std::string &V) { return Carried.count(V); });
}

} // namespace jacc::analysis
