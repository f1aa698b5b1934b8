// Computing each statement's predicate: own() terms for split-array writes and share terms for
// reductions, propagated from uses to definitions over the dependence graph to a fixed point.
#include "analysis/Predicates.h"

#include <algorithm>
#include <map>

namespace jacc::analysis {

static unsigned versionAt(const IRStmt &S, const std::string &Var) {
  auto It = S.VersionIn.find(Var);
  return It == S.VersionIn.end() ? 0 : It->second;
}

std::string PredTerm::key(const RegionIR &IR) const {
  if (K == Kind::Share)
    return "share";
  std::string Key = Array + "@" + Index.Text;
  for (const std::string &V : Index.Vars)
    Key += " " + V + "." + std::to_string(versionAt(IR.Stmts[Origin], V));
  return Key;
}

namespace {

/// A term can be evaluated at statement At when its index reads the same variable values there
/// as at its origin; otherwise the term is replaced by true (correctness first).
bool evaluableAt(const RegionIR &IR, const PredTerm &T, unsigned At) {
  if (T.K == PredTerm::Kind::Share || IR.Stmts[At].K == IRStmt::Kind::Phi)
    return true; // a phi is not executed: its operands' definitions check for themselves
  if (T.Index.ReadsMemory)
    return At == T.Origin;
  for (const std::string &V : T.Index.Vars)
    if (versionAt(IR.Stmts[At], V) != versionAt(IR.Stmts[T.Origin], V))
      return false;
  return true;
}

/// Merge Src's terms into Dst as seen from statement At; returns whether Dst grew.
bool merge(const RegionIR &IR, Predicate &Dst, const Predicate &Src, unsigned At) {
  if (Dst.Always)
    return false;
  if (Src.Always) {
    Dst.Always = true;
    Dst.Terms.clear();
    return true;
  }
  bool Grew = false;
  for (const PredTerm &T : Src.Terms) {
    if (!evaluableAt(IR, T, At)) {
      Dst.Always = true;
      Dst.Terms.clear();
      return true;
    }
    std::string K = T.key(IR);
    auto Pos = std::lower_bound(Dst.Terms.begin(), Dst.Terms.end(), K,
                                [&](const PredTerm &X, const std::string &Key) {
                                  return X.key(IR) < Key;
                                });
    if (Pos != Dst.Terms.end() && Pos->key(IR) == K)
      continue;
    Dst.Terms.insert(Pos, T);
    Grew = true;
  }
  return Grew;
}

} // namespace

std::vector<Predicate> computePredicates(const RegionIR &IR, const Dependences &D,
                                         const SplitPlan &Plan,
                                         const std::set<std::string> &NestReductions,
                                         std::string *Conflict) {
  auto NestReduction = [&](const IRStmt &S) {
    return S.K == IRStmt::Kind::ScalarDef && S.Reduction && NestReductions.count(S.Var);
  };
  std::vector<Predicate> P(IR.Stmts.size() + 1);
  P[D.Sink].Always = true;
  for (const IRStmt &S : IR.Stmts) {
    Predicate &Q = P[S.Id];
    switch (S.K) {
    case IRStmt::Kind::ArrayWrite: {
      const SplitArray *A = S.Write.Arg >= 0 ? Plan.find(S.Write.Name) : nullptr;
      if (!A || !Plan.Splittable) {
        Q.Always = true; // a local array, or nothing is split: every device executes it
        break;
      }
      PredTerm T;
      T.Array = S.Write.Name;
      T.Index = S.Write.Index[A->Dim];
      T.Origin = S.Id;
      Q.Terms.push_back(T);
      break;
    }
    case IRStmt::Kind::ScalarDef:
      if (S.Reduction) {
        PredTerm T;
        T.K = PredTerm::Kind::Share;
        Q.Terms.push_back(T);
      }
      break;
    case IRStmt::Kind::Control:
    case IRStmt::Kind::Call:
      Q.Always = true;
      break;
    case IRStmt::Kind::Phi:
      break;
    }
  }
  // need(d) includes need(u) for every use u of d's value, to a fixed point (loops and branches
  // make the graph cyclic).
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto E : boost::make_iterator_range(boost::edges(D.G))) {
      unsigned From = boost::source(E, D.G), To = boost::target(E, D.G);
      if (From == D.Sink)
        continue;
      Changed |= merge(IR, P[From], P[To], From);
    }
  }
  // A reduction of the nest runs exactly in the device's share, whatever else reads the
  // variable: each contribution must be counted once. An inner loop's reduction keeps the share
  // (its contributions still reach the kernel's result once) and what its uses need: a device
  // that owns q[j] must compute the sum that q[j] = sum stores, in or out of its share.
  for (const IRStmt &S : IR.Stmts)
    if (NestReduction(S)) {
      bool ShareOnly = !P[S.Id].Always && std::all_of(P[S.Id].Terms.begin(), P[S.Id].Terms.end(),
                                                      [](const PredTerm &T) {
                                                        return T.K == PredTerm::Kind::Share;
                                                      });
      // A narrowed nest runs only its share, and owns what the share writes: no conflict; but
      // where writes span rows, the rows at the ends of its range are also its neighbours'.
      if (!ShareOnly && (!Plan.Narrowable || Plan.spansWrites()) && Conflict && Conflict->empty())
        *Conflict = S.Var;
      P[S.Id].Always = false;
      P[S.Id].Terms.assign(1, PredTerm{PredTerm::Kind::Share, "", {}, 0});
    }
  P.pop_back(); // the sink
  return P;
}

std::string predicateText(const RegionIR &IR, const Predicate &P) {
  if (P.Always)
    return "true";
  if (P.Terms.empty())
    return "none";
  std::string S;
  for (const PredTerm &T : P.Terms) {
    if (!S.empty())
      S += " || ";
    S += T.K == PredTerm::Kind::Share ? "share" : T.Array + "@" + T.Index.Text;
  }
  (void)IR;
  return S;
}

} // namespace jacc::analysis
