// Predicates into guards: each predicate's C condition over the owned bounds and the share, and the
// insertions that wrap each filtered write or scalar definition in it.
#include "analysis/Rewrite.h"

namespace jacc::analysis {

std::string lowerBoundName(const std::string &Array) { return Array + "__lb"; }
std::string upperBoundName(const std::string &Array) { return Array + "__ub"; }

std::string ownedIterationName(const std::string &Array) {
  return Array + "__whole";
}
std::string ownedIterationsName(const std::string &Array, const std::string &Which) {
  return Array + "__whole_" + Which;
}

std::string predicateCondition(const Predicate &P, const std::set<std::string> &WholeIterations) {
  if (P.Always)
    return "1";
  if (P.Terms.empty())
    return "1"; // a value nobody in this iteration needs: left unfiltered, to be safe
  std::string C;
  for (const PredTerm &T : P.Terms) {
    if (!C.empty())
      C += " || ";
    if (T.K == PredTerm::Kind::Share) {
      C += "__jacc_in_share";
      continue;
    }
    std::string E = "(long long)(" + T.Index.Text + ")";
    std::string Owned = "(" + lowerBoundName(T.Array) + " <= " + E + " && " + E +
                        " <= " + upperBoundName(T.Array) + ")";
    // The flag first: an iteration whose writes all lie in the owned range tests nothing else.
    C += WholeIterations.count(T.Array) ? "(" + ownedIterationName(T.Array) + " || " + Owned + ")"
                                        : Owned;
  }
  return C;
}

Insertions rewriteRegion(const RegionIR &IR, const std::vector<Predicate> &Preds,
                         const std::set<std::string> &WholeIterations) {
  Insertions Ins;
  for (const IRStmt &S : IR.Stmts) {
    const Predicate &P = Preds[S.Id];
    if (P.Always || P.Terms.empty())
      continue;
    if (S.K == IRStmt::Kind::ArrayWrite && S.Begin == S.End)
      continue;
    std::string Cond = predicateCondition(P, WholeIterations);
    if (S.K == IRStmt::Kind::ArrayWrite) {
      // The element itself as the "else" value keeps the expression's type and value category.
      std::string Element = S.Write.Name;
      for (const IndexExpr &X : S.Write.Index)
        Element += "[" + X.Text + "]";
      if (S.Write.Index.size() == 1 && S.Write.Index[0].Text == "0")
        Element = "(*" + S.Write.Name + ")";
      if (S.ValueDiscarded) {
        // Nobody reads the value: skip the write whole. The paper's `: a[i]` would read the
        // element back (and store it again once vectorised), a third more memory traffic.
        Ins.push_back({S.Begin, "((" + Cond + ") ? (void)("});
        Ins.push_back({S.End, ") : (void)0)"});
        continue;
      }
      Ins.push_back({S.Begin, "((" + Cond + ") ? ("});
      Ins.push_back({S.End, ") : " + Element + ")"});
    } else if (S.K == IRStmt::Kind::ScalarDef && (S.Reduction || S.Compound) &&
               S.WholeBegin != S.WholeEnd) {
      // A reduction or an update must be skipped whole: `s *= 0` or `m = 0` would be wrong.
      Ins.push_back({S.WholeBegin, "((" + Cond + ") ? ("});
      Ins.push_back({S.WholeEnd, ") : " + S.Var + ")"});
    } else if (S.K == IRStmt::Kind::ScalarDef && !S.Reads.empty() && S.Begin != S.End) {
      Ins.push_back({S.Begin, "((" + Cond + ") ? ("});
      Ins.push_back({S.End, ") : 0)"});
    }
  }
  return Ins;
}

} // namespace jacc::analysis
