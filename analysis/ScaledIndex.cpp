// Reading an index polynomial over the region's scalars as the split iterator times an invariant
// scale plus invariant terms plus inner loops' terms bounded by their loops.
#include "analysis/ScaledIndex.h"

#include <llvm/ADT/STLExtras.h>

namespace jacc::analysis {

namespace {

/// "(n) * (m)", "" for the empty monomial.
std::string productText(const Monomial &M) {
  std::string T;
  for (const std::string &V : M)
    T += (T.empty() ? "(" : " * (") + V + ")";
  return T;
}

/// C * M as a long long term: "-2LL * (n) * (m)".
std::string termText(long long C, const Monomial &M) {
  std::string T = std::to_string(C) + "LL";
  for (const std::string &V : M)
    T += " * (" + V + ")";
  return T;
}

/// The terms of P (all, or all but the constant) joined by " + ".
std::string sumText(const Polynomial &P, bool WithConstant) {
  std::string T;
  for (const auto &[M, C] : P)
    if (C != 0 && (WithConstant || !M.empty()))
      T += (T.empty() ? "" : " + ") + termText(C, M);
  return T;
}

/// P + Scale * Q.
void addScaled(Polynomial &P, const Polynomial &Q, long long Scale = 1) {
  for (const auto &[M, C] : Q)
    if ((P[M] += Scale * C) == 0)
      P.erase(M);
}

/// An inner loop's bound, affine over invariants, as a polynomial.
Polynomial boundPolynomial(const IndexExpr &B) {
  Polynomial P;
  if (B.Const)
    P[{}] = B.Const;
  for (const auto &[V, C] : B.Coeffs)
    if (C)
      P[{V}] = C;
  return P;
}

} // namespace

long long InvariantValue::constant() const {
  auto It = Poly.find({});
  return It == Poly.end() ? 0 : It->second;
}

std::string InvariantValue::termsText() const {
  std::string T = sumText(Poly, false);
  if (!Runtime.empty())
    T += (T.empty() ? "" : " + ") + Runtime;
  return T;
}

std::string InvariantValue::text() const {
  std::string T = sumText(Poly, true);
  if (!Runtime.empty())
    T += (T.empty() ? "" : " + ") + Runtime;
  return T.empty() ? "" : "(" + T + ")";
}

void InvariantValue::add(const InvariantValue &O) {
  addScaled(Poly, O.Poly);
  if (!O.Runtime.empty())
    Runtime += (Runtime.empty() ? "" : " + ") + O.Runtime;
}

std::string ScaledIndex::offsetText() const {
  std::string Terms = Offset.termsText();
  return std::to_string(Offset.constant()) + (Terms.empty() ? "" : " + " + Terms);
}

std::string scaleValue(const std::string &Scale) {
  return Scale.empty() ? "1LL" : "(1LL * " + Scale + ")";
}

std::optional<ScaledIndex> scaledIndex(const RegionIR &IR, const IndexExpr &X, unsigned Stmt,
                                       const std::string &Outer, std::string &Why) {
  if (!X.IsPolynomial || X.ReadsMemory) {
    Why = X.ReadsMemory ? "the index is data-dependent" : "the index is not a polynomial";
    return std::nullopt;
  }
  ScaledIndex S;
  // Per inner loop variable: the invariant polynomial it is multiplied by.
  std::map<std::string, Polynomial> Inner;
  for (const auto &[M, C] : X.Poly) {
    Monomial Rest;
    unsigned LoopFactors = 0;
    std::string InnerVar;
    for (const std::string &V : M) {
      bool Parallel = llvm::is_contained(IR.ParallelVars, V);
      if (V != Outer && IR.invariant(V) && !Parallel) {
        Rest.push_back(V);
        continue;
      }
      ++LoopFactors;
      if (V == Outer)
        continue;
      if (Parallel && !IR.collapsedLoop(V)) {
        Why = "the index varies with the inner parallel loop's '" + V + "'";
        return std::nullopt;
      }
      if (!Parallel && !IR.innerLoopOf(V, Stmt)) {
        Why = "the index reads '" + V + "', which the region computes";
        return std::nullopt;
      }
      InnerVar = V;
    }
    if (LoopFactors > 1) {
      Why = "the index multiplies loop variables";
      return std::nullopt;
    }
    if (LoopFactors == 0)
      addScaled(S.Offset.Poly, {{Rest, C}});
    else if (InnerVar.empty())
      addScaled(S.Step, {{Rest, C}});
    else
      addScaled(Inner[InnerVar], {{Rest, C}});
  }
  // The split iterator's coefficient: an integer times one product of invariants, or a sum of
  // them (a scale of its own).
  if (S.Step.size() == 1) {
    S.Coef = S.Step.begin()->second;
    S.Scale = productText(S.Step.begin()->first);
  } else if (!S.Step.empty()) {
    S.Coef = 1;
    S.Scale = "(" + sumText(S.Step, true) + ")";
  }
  for (const auto &[Var, Coef] : Inner) {
    // A loop collapsed into the split one runs whole for each of its iterations.
    const InnerLoop *L = IR.collapsedLoop(Var);
    if (!L)
      L = IR.innerLoopOf(Var, Stmt);
    for (const IndexExpr *B : {&L->Min, &L->Max})
      if (!B->Affine || B->ReadsMemory || llvm::any_of(B->Coeffs, [&](const auto &VC) {
            return VC.first == Outer || !IR.invariant(VC.first) ||
                   llvm::is_contained(IR.ParallelVars, VC.first);
          })) {
        Why = "the inner loop over '" + Var + "' at line " + std::to_string(L->Line) +
              " has a bound '" + B->Text + "' that is not invariant in the region";
        return std::nullopt;
      }
    Polynomial Min = boundPolynomial(L->Min), Max = boundPolynomial(L->Max);
    if (Coef.size() == 1 && Coef.begin()->first.empty()) {
      // An integer coefficient: its sign picks the bound.
      long long C = Coef.begin()->second;
      addScaled(S.Least.Poly, C > 0 ? Min : Max, C);
      addScaled(S.Greatest.Poly, C > 0 ? Max : Min, C);
      continue;
    }
    // The coefficient's sign is known when the kernel runs.
    auto Value = [](const Polynomial &Q) {
      std::string T = sumText(Q, true);
      return "(" + (T.empty() ? std::string("0LL") : T) + ")";
    };
    std::string P = Value(Coef), Lo = Value(Min), Hi = Value(Max);
    auto Pick = [&](const std::string &IfPositive, const std::string &Else) {
      return "(" + P + " >= 0 ? " + P + " * " + IfPositive + " : " + P + " * " + Else + ")";
    };
    S.Least.add({{}, Pick(Lo, Hi)});
    S.Greatest.add({{}, Pick(Hi, Lo)});
  }
  return S;
}

} // namespace jacc::analysis
