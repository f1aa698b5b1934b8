// One iteration's dependence graph: edges from SSA definitions to their uses, and from each
// array write to the reads it may reach, walking the CFG back until a write surely overwrote it.
#include "analysis/Dependences.h"

#include <algorithm>
#include <map>

namespace jacc::analysis {

static unsigned versionAt(const IRStmt &S, const std::string &Var) {
  auto It = S.VersionIn.find(Var);
  return It == S.VersionIn.end() ? 0 : It->second;
}

/// Same affine form, over the same variable values.
static bool sameForm(const IndexExpr &X, const IRStmt &AtX, const IndexExpr &Y, const IRStmt &AtY,
                     const std::set<std::string> &Clobbered) {
  if (!X.Affine || !Y.Affine || X.Coeffs != Y.Coeffs)
    return false;
  for (const auto &[Var, Coeff] : X.Coeffs)
    if (Clobbered.count(Var) || versionAt(AtX, Var) != versionAt(AtY, Var))
      return false;
  return true;
}

IndexRelation compareAccesses(const ArrayAccess &X, const IRStmt &AtX, const ArrayAccess &Y,
                              const IRStmt &AtY, const std::set<std::string> &Clobbered) {
  if (X.Index.size() != Y.Index.size())
    return IndexRelation::Unknown;
  bool AllSame = true;
  for (size_t D = 0; D < X.Index.size(); ++D) {
    bool Form = sameForm(X.Index[D], AtX, Y.Index[D], AtY, Clobbered);
    if (Form && X.Index[D].Const != Y.Index[D].Const)
      return IndexRelation::Different;
    AllSame &= Form;
  }
  return AllSame ? IndexRelation::Same : IndexRelation::Unknown;
}

namespace {

class Builder {
public:
  explicit Builder(const RegionIR &IR) : IR(IR) {
    D.Sink = IR.Stmts.size();
    D.G = DependenceGraph(IR.Stmts.size() + 1);
    for (const IRStmt &S : IR.Stmts)
      if (S.K == IRStmt::Kind::ScalarDef || S.K == IRStmt::Kind::Phi)
        DefOf[{S.Var, S.DefVersion}] = S.Id;
  }

  Dependences run() {
    for (const IRStmt &U : IR.Stmts) {
      if (U.K == IRStmt::Kind::Phi) {
        for (unsigned V : U.PhiOperands)
          scalarEdge(U.Var, V, U.Id);
        continue;
      }
      if (U.VersionIn.empty() && !reachable(U))
        continue;
      bool NeverFiltered = U.K == IRStmt::Kind::Control || U.K == IRStmt::Kind::Call;
      for (const std::string &Var : U.Uses)
        scalarEdge(Var, versionAt(U, Var), NeverFiltered ? D.Sink : U.Id);
      for (const std::string &Var : U.IndexUses)
        scalarEdge(Var, versionAt(U, Var), D.Sink);
      for (const ArrayAccess &R : U.Reads)
        arrayEdges(R, U, NeverFiltered ? D.Sink : U.Id);
      for (const ArrayAccess &R : U.IndexReads)
        arrayEdges(R, U, D.Sink);
    }
    return std::move(D);
  }

private:
  bool reachable(const IRStmt &S) const { return S.Block == IR.Entry || !IR.Blocks[S.Block].Preds.empty(); }

  void scalarEdge(const std::string &Var, unsigned Version, unsigned To) {
    if (Version == 0)
      return; // the value at the iteration's start: no statement of this iteration made it
    auto It = DefOf.find({Var, Version});
    if (It != DefOf.end())
      boost::add_edge(It->second, To, D.G);
  }

  /// Writes of R's array whose value may reach the read R of statement U: walk backwards from U,
  /// stopping on each path at a write that certainly overwrote the element R reads.
  void arrayEdges(const ArrayAccess &R, const IRStmt &U, unsigned To) {
    struct Item {
      unsigned Block;
      int Pos; // scan statements [0, Pos) of Block backwards
      std::set<std::string> Clobbered;
    };
    std::map<unsigned, std::set<std::string>> Seen; // block -> clobbers it was scanned with
    std::vector<Item> Work;
    const auto &US = IR.Blocks[U.Block].Stmts;
    int Pos = std::find(US.begin(), US.end(), U.Id) - US.begin();
    Work.push_back({U.Block, Pos, {}});
    bool First = true;
    while (!Work.empty()) {
      Item It = std::move(Work.back());
      Work.pop_back();
      if (!First) {
        auto S = Seen.find(It.Block);
        if (S != Seen.end() &&
            std::includes(S->second.begin(), S->second.end(), It.Clobbered.begin(),
                          It.Clobbered.end()))
          continue;
        Seen[It.Block].insert(It.Clobbered.begin(), It.Clobbered.end());
        It.Clobbered = Seen[It.Block];
      }
      First = false;
      bool Killed = false;
      const auto &Stmts = IR.Blocks[It.Block].Stmts;
      for (int P = It.Pos - 1; P >= 0 && !Killed; --P) {
        const IRStmt &W = IR.Stmts[Stmts[P]];
        if (W.K == IRStmt::Kind::ScalarDef || W.K == IRStmt::Kind::Phi) {
          It.Clobbered.insert(W.Var);
          continue;
        }
        if (W.K != IRStmt::Kind::ArrayWrite || W.Write.Name != R.Name)
          continue;
        IndexRelation Rel = compareAccesses(W.Write, W, R, U, It.Clobbered);
        if (Rel == IndexRelation::Different)
          continue;
        boost::add_edge(W.Id, To, D.G);
        Killed = Rel == IndexRelation::Same && !W.Conditional && !W.Atomic;
      }
      if (Killed)
        continue;
      for (unsigned Pred : IR.Blocks[It.Block].Preds)
        Work.push_back({Pred, static_cast<int>(IR.Blocks[Pred].Stmts.size()), It.Clobbered});
    }
  }

  const RegionIR &IR;
  Dependences D;
  std::map<std::pair<std::string, unsigned>, unsigned> DefOf;
};

} // namespace

Dependences buildDependences(const RegionIR &IR) { return Builder(IR).run(); }

} // namespace jacc::analysis
