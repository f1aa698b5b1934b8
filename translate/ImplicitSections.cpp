// Implicit copies of unmapped pointers, as NVHPC makes them: the section each pointer's
// subscripts reach, inferred from the construct's for loops.
#include "translate/ImplicitSections.h"

#include "analysis/Stores.h"
#include "support/CText.h"
#include "support/DynamicASTVisitor.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

namespace {

/// S as an operand: parenthesised unless it is one name or number.
std::string operand(const std::string &S) {
  if (llvm::all_of(S, isIdentChar) ||
      (S.size() > 1 && S[0] == '-' && llvm::all_of(llvm::StringRef(S).drop_front(), isIdentChar)))
    return S;
  return "(" + S + ")";
}

/// One end of a range of index values: a sum of C expressions (variables, or products that are
/// not simplified further) times integer coefficients, plus Off.
struct Bound {
  std::map<std::string, long long> Terms; ///< no zero coefficients
  long long Off = 0;
  static Bound constant(long long K) { return {{}, K}; }
  static Bound symbol(const std::string &S) { return {{{S, 1}}, 0}; }
  bool isConstant() const { return Terms.empty(); }
  /// Whether the value cannot be negative, taking every variable as non-negative (sizes).
  bool nonNegative() const {
    return Off >= 0 && llvm::all_of(Terms, [](const auto &T) { return T.second > 0; });
  }
  std::string text() const {
    std::string Out;
    for (auto &[S, K] : Terms) {
      long long A = K < 0 ? -K : K;
      std::string Term = A == 1 ? S : std::to_string(A) + " * " + operand(S);
      Out += Out.empty() ? (K < 0 ? "-" + Term : Term) : (K < 0 ? " - " : " + ") + Term;
    }
    if (Out.empty())
      return std::to_string(Off);
    if (Off)
      Out += (Off > 0 ? " + " : " - ") + std::to_string(Off > 0 ? Off : -Off);
    return Out;
  }
  bool operator==(const Bound &B) const { return Terms == B.Terms && Off == B.Off; }
};

Bound scaled(const Bound &B, long long K) {
  Bound R = Bound::constant(B.Off * K);
  if (K)
    for (auto &[S, C] : B.Terms)
      R.Terms[S] = C * K;
  return R;
}

Bound plus(const Bound &A, const Bound &B, bool Minus = false) {
  Bound R = A;
  R.Off += Minus ? -B.Off : B.Off;
  for (auto &[S, C] : B.Terms)
    if ((R.Terms[S] += Minus ? -C : C) == 0)
      R.Terms.erase(S);
  return R;
}

/// B times the value of the C expression S (taken as non-negative: a size or a stride).
Bound times(const Bound &B, const std::string &S) {
  if (B.isConstant())
    return B.Off ? scaled(Bound::symbol(S), B.Off) : B;
  return Bound::symbol(operand(B.text()) + " * " + operand(S));
}

/// The smaller (Max: larger) of two bounds, evaluated at run time when they are not comparable.
Bound extreme(const Bound &A, const Bound &B, bool Max) {
  Bound D = plus(A, B, true);
  if (D.isConstant())
    return (D.Off > 0) == Max ? A : B;
  std::string X = operand(A.text()), Y = operand(B.text());
  return Bound::symbol("(" + X + (Max ? " > " : " < ") + Y + " ? " + X + " : " + Y + ")");
}

/// The iterator a for loop's init statement sets (`int i = e` or `i = e`), and e; null if none.
std::pair<const VarDecl *, const Expr *> loopStart(const ForStmt *F) {
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl())
    if (auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()); V && V->getInit())
      return {V, V->getInit()};
  if (auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit()); A && A->getOpcode() == BO_Assign)
    if (auto *DRE = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts()))
      if (auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        return {V, A->getRHS()};
  return {nullptr, nullptr};
}

/// The values an index takes, both ends included.
struct Range {
  Bound Lo, Hi;
  bool point() const { return Lo == Hi; }
};

/// The index ranges of the subscripts in a construct: integer literals, variables the construct
/// does not change, and the iterators of its for loops, combined by +, - and * (other operators
/// only between values that do not vary).
class IndexRanges {
public:
  IndexRanges(const std::set<const VarDecl *> &Invariant) : Invariant(Invariant) {}
  /// Loops enclosing the subscript being evaluated, by iterator.
  std::map<const VarDecl *, const ForStmt *> Loops;

  std::optional<Range> of(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (auto *L = dyn_cast<IntegerLiteral>(E)) {
      Bound B = Bound::constant(L->getValue().getSExtValue());
      return Range{B, B};
    }
    if (auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
        Bound B = Bound::constant(EC->getInitVal().getSExtValue());
        return Range{B, B};
      }
      auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return std::nullopt;
      if (auto It = Loops.find(V); It != Loops.end())
        return iterator(V, It->second);
      if (!Invariant.count(V))
        return std::nullopt;
      Bound B = Bound::symbol(V->getName().str());
      return Range{B, B};
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      auto R = of(U->getSubExpr());
      if (!R || (U->getOpcode() != UO_Minus && U->getOpcode() != UO_Plus))
        return std::nullopt;
      if (U->getOpcode() == UO_Plus)
        return R;
      return Range{scaled(R->Hi, -1), scaled(R->Lo, -1)};
    }
    auto *B = dyn_cast<BinaryOperator>(E);
    if (!B)
      return std::nullopt;
    auto L = of(B->getLHS()), R = of(B->getRHS());
    if (!L || !R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Add:
      return Range{plus(L->Lo, R->Lo), plus(L->Hi, R->Hi)};
    case BO_Sub:
      return Range{plus(L->Lo, R->Hi, true), plus(L->Hi, R->Lo, true)};
    case BO_Mul: {
      if (!L->point())
        std::swap(L, R);
      if (!L->point())
        return std::nullopt;    // a product of two varying values
      if (L->Lo.isConstant()) { // a constant factor
        long long K = L->Lo.Off;
        Range Out{scaled(R->Lo, K), scaled(R->Hi, K)};
        if (K < 0)
          std::swap(Out.Lo, Out.Hi);
        return Out;
      }
      return Range{times(R->Lo, L->Lo.text()), times(R->Hi, L->Lo.text())};
    }
    default:
      if (!L->point() || !R->point())
        return std::nullopt;
      Bound P = Bound::symbol(operand(L->Lo.text()) + " " + B->getOpcodeStr().str() + " " +
                              operand(R->Lo.text()));
      return Range{P, P};
    }
  }

private:
  const std::set<const VarDecl *> &Invariant;
  std::set<const VarDecl *> Visiting;

  /// The values iterator V of loop F takes: `for (V = a; V < b; V++)` and the other canonical
  /// forms (<=, >, >=, !=; ++, --, += k, -= k, V = V + k), its body never assigning V.
  std::optional<Range> iterator(const VarDecl *V, const ForStmt *F) {
    if (!Visiting.insert(V).second)
      return std::nullopt;
    auto R = iteratorRange(V, F);
    Visiting.erase(V);
    return R;
  }
  static bool isVar(const Expr *E, const VarDecl *V) {
    auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
    return DRE && DRE->getDecl() == V;
  }
  /// The step of F's increment of V (0 when not a constant step).
  static long long step(const VarDecl *V, const Expr *Inc) {
    Inc = Inc ? Inc->IgnoreParens() : nullptr;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && isVar(U->getSubExpr(), V))
      return U->isIncrementOp() ? 1 : U->isDecrementOp() ? -1 : 0;
    auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
    if (!B || !isVar(B->getLHS(), V))
      return 0;
    const Expr *K = B->getRHS()->IgnoreParenImpCasts();
    long long Sign = B->getOpcode() == BO_AddAssign ? 1 : B->getOpcode() == BO_SubAssign ? -1 : 0;
    if (B->getOpcode() == BO_Assign) { // V = V + k, V = V - k
      auto *A = dyn_cast<BinaryOperator>(K);
      if (!A || !isVar(A->getLHS(), V) || (A->getOpcode() != BO_Add && A->getOpcode() != BO_Sub))
        return 0;
      Sign = A->getOpcode() == BO_Add ? 1 : -1;
      K = A->getRHS()->IgnoreParenImpCasts();
    }
    auto *L = dyn_cast<IntegerLiteral>(K);
    if (!L || L->getValue().getSExtValue() <= 0)
      return 0;
    return Sign * L->getValue().getSExtValue();
  }
  std::optional<Range> iteratorRange(const VarDecl *V, const ForStmt *F) {
    const Expr *Init = loopStart(F).second;
    auto *Cond =
        dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParens() : nullptr);
    long long Step = step(V, F->getInc());
    if (!Init || !Cond || !Cond->isComparisonOp() || !Step)
      return std::nullopt;
    BinaryOperatorKind Op = Cond->getOpcode();
    const Expr *Limit = Cond->getRHS();
    if (isVar(Cond->getRHS(), V)) { // `n > i` is `i < n`
      Limit = Cond->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    } else if (!isVar(Cond->getLHS(), V)) {
      return std::nullopt;
    }
    bool Assigned = false;
    forEachStore(
        const_cast<Stmt *>(F->getBody()), [&](Expr *T) { Assigned |= isVar(T, V); }, true);
    auto Start = of(Init), End = of(Limit);
    if (Assigned || !Start || !End)
      return std::nullopt;
    if (Step > 0 && (Op == BO_LT || Op == BO_NE))
      return Range{Start->Lo, plus(End->Hi, Bound::constant(-1))};
    if (Step > 0 && Op == BO_LE)
      return Range{Start->Lo, End->Hi};
    if (Step < 0 && (Op == BO_GT || Op == BO_NE))
      return Range{plus(End->Lo, Bound::constant(1)), Start->Hi};
    if (Step < 0 && Op == BO_GE)
      return Range{End->Lo, Start->Hi};
    return std::nullopt;
  }
};

/// The base variable of an lvalue built of subscripts and members (`c[i].x` -> c).
const VarDecl *baseVar(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase();
    else if (auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
      E = M->getBase();
    else if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr();
    else
      break;
  }
  auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

} // namespace

std::vector<ImplicitSection> implicitSections(SourceFile &File, DataClauses &Data, const Region &R,
                                              const KernelNeeds &N,
                                              const std::set<std::string> &Explicit) {
  const Pragma &P = *R.P;
  // Candidates: pointers to data (not to pointers or functions) that no clause here names and
  // that no data or host_data construct around maps or translates.
  auto NamedAround = [&](const VarDecl *V) {
    for (size_t K = 0; K < File.Pragmas.size(); ++K) {
      const Pragma &Q = File.Pragmas[K];
      if (!File.Dirs[K] || Q.Hash >= P.Hash || File.Idx.lookupVar(V->getName(), Q.Hash) != V)
        continue;
      const Directive &QD = *File.Dirs[K];
      bool Around =
          llvm::any_of(File.Datas, [&](const Region &D) { return D.P == &Q && P.Hash < D.End; });
      if (QD.Kind == DirectiveKind::HostData)
        if (Stmt *S = File.Idx.statementAfter(Q))
          Around = P.Hash < File.Idx.endOf(S);
      if (!Around)
        continue;
      for (const Clause &C : QD.Clauses)
        for (const std::string &Item : C.Vars)
          if (File.itemBase(Item) == V->getName())
            return true;
    }
    return false;
  };
  std::set<std::string> Named = Explicit; // in a clause here or on a loop inside
  for (auto [Q, QD] : File.directivesIn(P, R.End))
    for (const Clause &C : QD->Clauses)
      for (const std::string &Item : C.Vars)
        Named.insert(File.itemBase(Item).str());
  std::set<const VarDecl *> Candidates, Invariant;
  for (VarDecl *V : N.Vars) {
    QualType T = V->getType().getCanonicalType();
    if (T->isIntegralOrEnumerationType() && !N.Assigned.count(V) && !N.LoopVars.count(V))
      Invariant.insert(V);
    if (!T->isPointerType() || Data.wholeArray(V) || Named.count(V->getName().str()))
      continue;
    QualType E = T->getPointeeType().getCanonicalType();
    if (E->isPointerType() || E->isFunctionType() || File.DeclaredGlobals.count(V) ||
        NamedAround(V))
      continue;
    Candidates.insert(V);
  }
  if (Candidates.empty())
    return {};

  // Every use of a candidate must be a subscript `c[index]` whose index range is known.
  struct Uses : public DynamicASTVisitor {
    const std::set<const VarDecl *> &Candidates;
    IndexRanges Ranges;
    std::vector<const ForStmt *> Loops;
    std::set<const DeclRefExpr *> Subscripted;
    std::map<const VarDecl *, Range> Reached;
    std::map<const VarDecl *, std::string> Unknown; ///< why the section is unknown
    Uses(const std::set<const VarDecl *> &C, const std::set<const VarDecl *> &I)
        : Candidates(C), Ranges(I) {}
    bool TraverseForStmt(ForStmt *F) override {
      Loops.push_back(F);
      bool Ok = DynamicASTVisitor::TraverseForStmt(F);
      Loops.pop_back();
      return Ok;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) override {
      auto *DRE = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
      auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!V || !Candidates.count(V))
        return true;
      Subscripted.insert(DRE);
      Ranges.Loops.clear();
      for (const ForStmt *F : Loops)
        if (const VarDecl *I = loopStart(F).first)
          Ranges.Loops[I] = F;
      auto Index = Ranges.of(E->getIdx());
      if (!Index) {
        Unknown.try_emplace(V, "a subscript is not an affine function of the iterators of the "
                               "construct's for loops");
        return true;
      }
      auto [It, New] = Reached.try_emplace(V, *Index);
      if (!New)
        It->second = {extreme(It->second.Lo, Index->Lo, false),
                      extreme(It->second.Hi, Index->Hi, true)};
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      auto *V = dyn_cast<VarDecl>(E->getDecl());
      if (V && Candidates.count(V) && !Subscripted.count(E))
        Unknown.try_emplace(V, "it is used other than as '" + V->getName().str() + "[index]'");
      return true;
    }
  } U(Candidates, Invariant);
  U.TraverseStmt(R.S);
  std::set<const VarDecl *> Written;
  forEachStore(
      R.S,
      [&](Expr *T) {
        if (const VarDecl *V = baseVar(T))
          Written.insert(V);
      },
      /*AddressTaken=*/true);

  std::vector<ImplicitSection> Out;
  for (VarDecl *V : N.Vars) {
    if (!Candidates.count(V))
      continue;
    std::string Name = V->getName().str();
    auto Why = U.Unknown.find(V);
    if (Why != U.Unknown.end() || !U.Reached.count(V)) {
      File.warning(P, "the size of the data pointer '" + Name + "' points to is unknown (" +
                          (Why != U.Unknown.end() ? Why->second : "no subscript") +
                          "): unless it is present when the construct starts, the launch fails; "
                          "add the section it uses to a data clause of the construct, e.g. copy(" +
                          Name + "[0:n])");
      continue;
    }
    // The section starts at the pointer at the latest (jacc hands a kernel a pointer only into
    // mapped data): at 0 unless the lowest index may be negative (variables taken as sizes).
    Range Reach = U.Reached.at(V);
    Bound Lo = Reach.Lo.nonNegative() ? Bound() : extreme(Reach.Lo, Bound(), false);
    ImplicitSection S;
    S.Var = V;
    S.Lower = Lo.text();
    S.Length = plus(plus(Reach.Hi, Lo, true), Bound::constant(1)).text();
    S.Written = Written.count(V);
    Out.push_back(S);
  }
  // Written ones first: a read-only pointer to the same data then finds it present, and the
  // data goes back to the host at the construct's end.
  std::stable_partition(Out.begin(), Out.end(), [](const ImplicitSection &S) { return S.Written; });
  return Out;
}

} // namespace jacc::translate
