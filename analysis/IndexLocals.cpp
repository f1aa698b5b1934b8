// Index locals (see IndexLocals.h).
#include "analysis/IndexLocals.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>
#include <cctype>

namespace jacc::analysis {

namespace {

/// Past these an index is not a sum of a few products (as LowerRegion's polynomials).
constexpr size_t MostTerms = 32, MostDegree = 4;

/// R += C * M; false on overflow.
bool addTerm(Polynomial &R, const Monomial &M, long long C) {
  if (__builtin_add_overflow(R[M], C, &R[M]))
    return false;
  if (R[M] == 0)
    R.erase(M);
  return true;
}

/// P * Q, or nothing when it grows past MostTerms or MostDegree or overflows.
std::optional<Polynomial> times(const Polynomial &P, const Polynomial &Q) {
  Polynomial R;
  for (const auto &[MP, CP] : P)
    for (const auto &[MQ, CQ] : Q) {
      if (MP.size() + MQ.size() > MostDegree)
        return std::nullopt;
      Monomial M = MP;
      M.insert(M.end(), MQ.begin(), MQ.end());
      std::sort(M.begin(), M.end());
      long long C;
      if (__builtin_mul_overflow(CP, CQ, &C) || !addTerm(R, M, C))
        return std::nullopt;
    }
  if (R.size() > MostTerms)
    return std::nullopt;
  return R;
}

/// P with every factor Var replaced by Value, or nothing when it grows too large.
std::optional<Polynomial> substitute(const Polynomial &P, const std::string &Var,
                                     const Polynomial &Value) {
  Polynomial R;
  for (const auto &[M, C] : P) {
    Monomial Rest;
    unsigned Power = 0;
    for (const std::string &V : M)
      (V == Var ? ++Power : (Rest.push_back(V), 0));
    std::optional<Polynomial> Term = Polynomial{{Rest, C}};
    for (unsigned K = 0; K < Power && Term; ++K)
      Term = times(*Term, Value);
    if (!Term)
      return std::nullopt;
    for (const auto &[TM, TC] : *Term)
      if (!addTerm(R, TM, TC))
        return std::nullopt;
  }
  if (R.size() > MostTerms)
    return std::nullopt;
  return R;
}

/// Text with each whole identifier Var replaced by "(Value)".
std::string replaceIdentifier(const std::string &Text, const std::string &Var,
                              const std::string &Value) {
  auto Ident = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    if (Text.compare(I, Var.size(), Var) == 0 && (I == 0 || !Ident(Text[I - 1])) &&
        (I + Var.size() == Text.size() || !Ident(Text[I + Var.size()]))) {
      Out += "(" + Value + ")";
      I += Var.size();
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

unsigned versionAt(const IRStmt &S, const std::string &Var) {
  auto It = S.VersionIn.find(Var);
  return It == S.VersionIn.end() ? 0 : It->second;
}

class Substitution {
public:
  explicit Substitution(RegionIR &IR) : IR(IR) {}

  /// Rewrite X, an index of statement Stmt, over the definitions it reaches.
  void index(IndexExpr &X, unsigned Stmt) {
    // A definition may read another local: a few rounds.
    for (int Round = 0; Round < 4; ++Round) {
      bool Changed = false;
      for (const std::string &V : std::set<std::string>(X.Vars))
        if (const IRStmt *D = definitionFor(V, Stmt))
          Changed |= replace(X, V, *D, Stmt);
      if (!Changed)
        return;
    }
  }

private:
  RegionIR &IR;

  bool loopVariable(const std::string &V, unsigned Stmt) const {
    return llvm::is_contained(IR.ParallelVars, V) || IR.collapsedLoop(V) || IR.innerLoopOf(V, Stmt);
  }

  /// The definition of V that reaches Stmt, when it is an integer polynomial of loop variables
  /// and invariants that hold the same values at Stmt; else null.
  const IRStmt *definitionFor(const std::string &V, unsigned Stmt) const {
    if (IR.invariant(V) || loopVariable(V, Stmt))
      return nullptr;
    const IRStmt &Use = IR.Stmts[Stmt];
    unsigned Version = versionAt(Use, V);
    if (Version == 0)
      return nullptr; // the iteration's entry value
    for (const IRStmt &D : IR.Stmts) {
      if (D.K != IRStmt::Kind::ScalarDef || D.Var != V || D.DefVersion != Version)
        continue;
      if (D.Compound || D.Conditional || !D.IntValue || !D.IntValue->IsPolynomial ||
          D.IntValue->ReadsMemory)
        return nullptr;
      for (const std::string &U : D.IntValue->Vars)
        if (U == V || versionAt(D, U) != versionAt(Use, U) ||
            !(IR.invariant(U) || loopVariable(U, Stmt)))
          return nullptr;
      return &D;
    }
    return nullptr;
  }

  bool replace(IndexExpr &X, const std::string &V, const IRStmt &D, unsigned Stmt) {
    const IndexExpr &Value = *D.IntValue;
    std::optional<Polynomial> Poly;
    if (X.IsPolynomial && !(Poly = substitute(X.Poly, V, Value.Poly)))
      return false;
    if (X.IsPolynomial)
      X.Poly = std::move(*Poly);
    if (X.Affine && Value.Affine) {
      long long C = X.Coeffs[V];
      X.Coeffs.erase(V);
      for (const auto &[U, K] : Value.Coeffs)
        if ((X.Coeffs[U] += C * K) == 0)
          X.Coeffs.erase(U);
      X.Const += C * Value.Const;
    } else if (X.Affine) {
      X.Affine = false;
      X.Coeffs.clear();
      X.Const = 0;
    }
    X.Text = replaceIdentifier(X.Text, V, Value.Text);
    X.Vars.erase(V);
    IRStmt &Use = IR.Stmts[Stmt];
    for (const std::string &U : Value.Vars) {
      X.Vars.insert(U);
      Use.IndexUses.insert(U);
      if (unsigned Version = versionAt(D, U))
        Use.VersionIn[U] = Version;
    }
    return true;
  }
};

} // namespace

RegionIR substituteIndexLocals(RegionIR IR) {
  Substitution S(IR);
  // Definitions first, in order, so that one reading another local (e = i * c + k) is over
  // loop variables and invariants when an index reaches it.
  for (unsigned I = 0; I < IR.Stmts.size(); ++I)
    if (IR.Stmts[I].K == IRStmt::Kind::ScalarDef && IR.Stmts[I].IntValue &&
        IR.Stmts[I].IntValue->IsPolynomial)
      S.index(*IR.Stmts[I].IntValue, I);
  for (unsigned I = 0; I < IR.Stmts.size(); ++I) {
    IRStmt &St = IR.Stmts[I];
    if (St.K == IRStmt::Kind::ArrayWrite)
      for (IndexExpr &X : St.Write.Index)
        S.index(X, I);
    for (auto *List : {&St.Reads, &St.IndexReads})
      for (ArrayAccess &A : *List)
        for (IndexExpr &X : A.Index)
          S.index(X, I);
  }
  return IR;
}

} // namespace jacc::analysis
