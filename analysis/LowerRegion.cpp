// The lowering of a nest's body into the region IR: expressions into array accesses, index forms,
// uses and flops; statements into the CFG's blocks, with their loops, branches and jumps.
#include "analysis/LowerRegion.h"

#include "analysis/Stores.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <optional>
#include <tuple>

using namespace clang;

namespace jacc::analysis {
namespace {

class Lowerer {
public:
  Lowerer(const LowerContext &C) : C(C) {}

  RegionIR run(const Stmt *Body) {
    IR.Entry = IR.addBlock();
    IR.ParallelVars = C.ParallelVars;
    Cur = IR.Entry;
    unsigned Exit = IR.addBlock();
    IR.Exit = Exit;
    Loops.push_back({Exit, Exit}); // `continue` in the parallel loop body ends the iteration
    for (const ForStmt *F : C.CollapsedLoops)
      if (std::optional<InnerLoop> L = unitStepLoop(F))
        IR.CollapsedLoops.push_back(std::move(*L));
    lowerStmt(Body);
    IR.addEdge(Cur, Exit);
    return std::move(IR);
  }

private:
  struct LoopTargets {
    unsigned Break, Continue;
  };

  // ---- expressions -------------------------------------------------------------------------

  static const Expr *strip(const Expr *E) { return E->IgnoreParenImpCasts(); }

  /// The array access an lvalue or rvalue expression denotes, if it is one.
  bool accessOf(const Expr *E, ArrayAccess &A,
                std::vector<const Expr *> *IdxExprs = nullptr) {
    E = strip(E);
    std::vector<const Expr *> Indices;
    // A base that is itself an element of pointer type (`a[x]` of `double **a`) is a pointer
    // read from memory: the access lands wherever that row is, not in a's mapping.
    bool Loaded = false;
    auto step = [&](const Expr *Base) {
      Loaded |= Base->getType()->isPointerType() && isElement(Base);
      E = Base;
    };
    while (true) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
        Indices.push_back(AS->getIdx());
        step(strip(AS->getBase()));
        continue;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
        const Expr *Sub = strip(U->getSubExpr());
        if (const auto *B = dyn_cast<BinaryOperator>(Sub);
            B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) &&
            strip(B->getLHS())->getType()->isPointerType() && B->getOpcode() == BO_Add) {
          Indices.push_back(B->getRHS());
          step(strip(B->getLHS()));
          continue;
        }
        Indices.push_back(nullptr); // *p == p[0]
        step(Sub);
        continue;
      }
      break;
    }
    if (Indices.empty())
      return false;
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return false;
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    A.Name = V->getName().str();
    auto It = C.PointerArgs.find(A.Name);
    A.Arg = It == C.PointerArgs.end() || Loaded ? -1 : static_cast<int>(It->second);
    A.ThroughLoadedPointer = Loaded;
    if (A.Arg < 0 && (Loaded || !V->getType()->isArrayType()))
      A.Name = "*" + A.Name; // through a local pointer or a row pointer: not attributable
    for (auto It = Indices.rbegin(); It != Indices.rend(); ++It) {
      A.Index.push_back(indexExpr(*It));
      if (IdxExprs && *It)
        IdxExprs->push_back(*It);
    }
    return true;
  }

  /// Whether E denotes an element (a subscript or a dereference) rather than a variable.
  static bool isElement(const Expr *E) {
    if (isa<ArraySubscriptExpr>(E))
      return true;
    const auto *U = dyn_cast<UnaryOperator>(E);
    return U && U->getOpcode() == UO_Deref;
  }

  /// How an unattributable access A reaches memory, for the reason the analysis records.
  static std::string pointerOf(const ArrayAccess &A) {
    if (A.ThroughLoadedPointer)
      return "a pointer read from '" + A.Name.substr(1) + "' (its rows may be anywhere)";
    return "the local pointer '" + A.Name.substr(1) + "'";
  }

  IndexExpr indexExpr(const Expr *E) {
    IndexExpr X;
    if (!E) {
      X.Affine = true;
      X.Text = "0";
      return X;
    }
    // An index written inside a macro's body has no text of its own: the guard and the
    // predicates use its expansion, printed.
    if (auto Exact = C.ExactOffsets(E->getSourceRange())) {
      std::tie(X.Begin, X.End) = *Exact;
      X.Text = C.Source.substr(X.Begin, X.End - X.Begin).str();
    } else {
      std::tie(X.Begin, X.End) = C.Offsets(E->getSourceRange());
      llvm::raw_string_ostream OS(X.Text);
      E->printPretty(OS, nullptr, PrintingPolicy(C.Ctx->getLangOpts()));
    }
    X.Affine = affine(E, 1, X);
    X.Linear = linearForm(E);
    X.IsPolynomial = polynomial(E, X.Poly);
    Collect Col;
    collectUses(E, Col);
    X.Vars = Col.Vars;
    X.Vars.insert(Col.IndexVars.begin(), Col.IndexVars.end());
    X.ReadsMemory = !Col.Reads.empty() || !Col.IndexReads.empty();
    if (X.ReadsMemory)
      X.Affine = X.IsPolynomial = false;
    if (!X.IsPolynomial)
      X.Poly.clear();
    if (!X.Affine) {
      X.Coeffs.clear();
      X.Const = 0;
    }
    return X;
  }

  /// Whether Cast converts an integer to an integer type that holds every value of it: a
  /// narrowing one wraps (i + 200 in an unsigned char).
  bool preservesValue(const CastExpr *Cast) const {
    QualType To = Cast->getType(), From = Cast->getSubExpr()->getType();
    if (!To->isIntegerType() || !From->isIntegerType())
      return false;
    uint64_t WTo = C.Ctx->getIntWidth(To), WFrom = C.Ctx->getIntWidth(From);
    return WTo > WFrom ||
           (WTo == WFrom && To->isSignedIntegerType() == From->isSignedIntegerType());
  }

  bool affine(const Expr *E, long long Scale, IndexExpr &X) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return preservesValue(Cast) && affine(Cast->getSubExpr(), Scale, X);
    if (const auto *I = dyn_cast<IntegerLiteral>(E)) {
      X.Const += Scale * static_cast<long long>(I->getValue().getLimitedValue());
      return true;
    }
    if (const auto *Ch = dyn_cast<CharacterLiteral>(E)) {
      X.Const += Scale * static_cast<long long>(Ch->getValue());
      return true;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V || !V->getType()->isIntegerType())
        return false;
      X.Coeffs[V->getName().str()] += Scale;
      if (X.Coeffs[V->getName().str()] == 0)
        X.Coeffs.erase(V->getName().str());
      return true;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Minus)
        return affine(U->getSubExpr(), -Scale, X);
      if (U->getOpcode() == UO_Plus)
        return affine(U->getSubExpr(), Scale, X);
      return false;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      switch (B->getOpcode()) {
      case BO_Add:
        return affine(B->getLHS(), Scale, X) && affine(B->getRHS(), Scale, X);
      case BO_Sub:
        return affine(B->getLHS(), Scale, X) && affine(B->getRHS(), -Scale, X);
      case BO_Mul: {
        Expr::EvalResult R;
        if (B->getRHS()->EvaluateAsInt(R, *C.Ctx))
          return affine(B->getLHS(), Scale * R.Val.getInt().getExtValue(), X);
        if (B->getLHS()->EvaluateAsInt(R, *C.Ctx))
          return affine(B->getRHS(), Scale * R.Val.getInt().getExtValue(), X);
        return false;
      }
      default:
        return false;
      }
    }
    return false;
  }

  /// E as a polynomial over integer variables (false when it is not one, or grows past a few
  /// terms of low degree: an index is a sum of a few products).
  bool polynomial(const Expr *E, Polynomial &P) {
    E = E->IgnoreParens();
    auto Add = [&P](const Polynomial &Q, long long Scale) {
      for (const auto &[M, C] : Q) {
        long long Scaled;
        if (__builtin_mul_overflow(C, Scale, &Scaled) ||
            __builtin_add_overflow(P[M], Scaled, &P[M]))
          return false;
        if (P[M] == 0)
          P.erase(M);
      }
      return true;
    };
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return preservesValue(Cast) && polynomial(Cast->getSubExpr(), P);
    // Literals, sizeof, enumerators and constant subexpressions.
    Expr::EvalResult Value;
    if (E->getType()->isIntegerType() && E->EvaluateAsInt(Value, *C.Ctx) &&
        Value.Val.getInt().getMinSignedBits() <= 64)
      return Add({{{}, Value.Val.getInt().getExtValue()}}, 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      return V && V->getType()->isIntegerType() && Add({{{V->getName().str()}, 1}}, 1);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      Polynomial Q;
      if ((U->getOpcode() != UO_Minus && U->getOpcode() != UO_Plus) ||
          !polynomial(U->getSubExpr(), Q))
        return false;
      return Add(Q, U->getOpcode() == UO_Minus ? -1 : 1);
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub && B->getOpcode() != BO_Mul))
      return false;
    Polynomial L, R;
    if (!polynomial(B->getLHS(), L) || !polynomial(B->getRHS(), R))
      return false;
    if (B->getOpcode() != BO_Mul)
      return Add(L, 1) && Add(R, B->getOpcode() == BO_Add ? 1 : -1);
    constexpr size_t MostTerms = 16, MostDegree = 4;
    if (L.size() * R.size() > MostTerms)
      return false;
    for (const auto &[ML, CL] : L)
      for (const auto &[MR, CR] : R) {
        if (ML.size() + MR.size() > MostDegree)
          return false;
        Monomial M = ML;
        M.insert(M.end(), MR.begin(), MR.end());
        std::sort(M.begin(), M.end());
        long long C;
        if (__builtin_mul_overflow(CL, CR, &C) || !Add({{M, C}}, 1))
          return false;
      }
    return true;
  }

  /// How an integer expression varies with the variables it reads (see LinearForm).
  LinearForm linearForm(const Expr *E) {
    LinearForm F;
    linear(E, 1, F);
    for (const std::string &V : F.Nonlinear)
      F.Coef.erase(V); // i * n + i: not a constant coefficient
    for (auto It = F.Coef.begin(); It != F.Coef.end();)
      It = It->second == 0 ? F.Coef.erase(It) : std::next(It);
    return F;
  }

  void linear(const Expr *E, long long Scale, LinearForm &F) {
    E = E->IgnoreParens();
    auto Opaque = [&](const Expr *X) {
      Collect Col;
      collectUses(X, Col);
      F.Nonlinear.insert(Col.Vars.begin(), Col.Vars.end());
      F.Nonlinear.insert(Col.IndexVars.begin(), Col.IndexVars.end());
      F.ReadsMemory |= !Col.Reads.empty() || !Col.IndexReads.empty();
    };
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      if (Cast->getType()->isIntegerType() && Cast->getSubExpr()->getType()->isIntegerType())
        return linear(Cast->getSubExpr(), Scale, F);
      return Opaque(E);
    }
    if (isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E))
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (V && V->getType()->isIntegerType()) {
        F.Coef[V->getName().str()] += Scale;
        return;
      }
      return Opaque(E);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)
        return linear(U->getSubExpr(), U->getOpcode() == UO_Minus ? -Scale : Scale, F);
      return Opaque(E);
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      Expr::EvalResult R;
      switch (B->getOpcode()) {
      case BO_Add:
        linear(B->getLHS(), Scale, F);
        return linear(B->getRHS(), Scale, F);
      case BO_Sub:
        linear(B->getLHS(), Scale, F);
        return linear(B->getRHS(), -Scale, F);
      case BO_Mul:
        if (B->getRHS()->EvaluateAsInt(R, *C.Ctx))
          return linear(B->getLHS(), Scale * R.Val.getInt().getExtValue(), F);
        if (B->getLHS()->EvaluateAsInt(R, *C.Ctx))
          return linear(B->getRHS(), Scale * R.Val.getInt().getExtValue(), F);
        return Opaque(E);
      case BO_Shl:
        if (B->getRHS()->EvaluateAsInt(R, *C.Ctx) && R.Val.getInt().getExtValue() >= 0 &&
            R.Val.getInt().getExtValue() < 32)
          return linear(B->getLHS(), Scale * (1LL << R.Val.getInt().getExtValue()), F);
        return Opaque(E);
      default:
        return Opaque(E);
      }
    }
    Opaque(E);
  }

  /// Floating-point operations of one node of a value (its operands not included). A call to a
  /// transcendental function costs several: it is a sequence of instructions on every target.
  static unsigned flopsOf(const Expr *E) {
    auto Floating = [](const Expr *X) { return X->getType()->isRealFloatingType(); };
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp() || B->isLogicalOp() || B->getOpcode() == BO_Comma)
        return 0;
      return Floating(B) || Floating(strip(B->getLHS())) || Floating(strip(B->getRHS()));
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return U->getOpcode() == UO_Minus && Floating(U);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (!Floating(Call))
        return 0;
      const FunctionDecl *FD = Call->getDirectCallee();
      llvm::StringRef Name = FD ? FD->getName() : "";
      Name.consume_front("__builtin_");
      if (Name.size() > 3 && (Name.endswith("f") || Name.endswith("l")))
        Name = Name.drop_back();
      static const std::set<llvm::StringRef> Transcendental = {
          "sqrt", "cbrt", "exp",  "exp2", "expm1", "log",  "log2",  "log10", "log1p",
          "pow",  "sin",  "cos",  "tan",  "asin",  "acos", "atan",  "atan2", "sinh",
          "cosh", "tanh", "erf",  "erfc", "hypot", "fmod", "tgamma", "lgamma"};
      return Transcendental.count(Name) ? 8 : 1;
    }
    return 0;
  }

  struct Collect {
    unsigned Flops = 0;                 ///< floating-point operations of the value
    std::set<std::string> Vars;         ///< scalars read
    std::vector<ArrayAccess> Reads;     ///< array elements read
    std::set<std::string> IndexVars;    ///< scalars read by indices of those reads
    std::vector<ArrayAccess> IndexReads; ///< array elements read by those indices
  };

  static bool isScalarVar(const VarDecl *V) {
    QualType T = V->getType();
    return !T->isArrayType() && !T->isPointerType();
  }

  /// Uses inside index expressions are index uses: never filtered.
  void collectIndexUses(const std::vector<const Expr *> &Idx, Collect &Col) {
    for (const Expr *I : Idx) {
      Collect Sub;
      collectUses(I, Sub);
      Col.IndexVars.insert(Sub.Vars.begin(), Sub.Vars.end());
      Col.IndexVars.insert(Sub.IndexVars.begin(), Sub.IndexVars.end());
      for (auto &R : Sub.Reads)
        Col.IndexReads.push_back(std::move(R));
      for (auto &R : Sub.IndexReads)
        Col.IndexReads.push_back(std::move(R));
    }
  }

  /// The index of an access that may reach any element of its array.
  static IndexExpr anyElement() {
    IndexExpr Unknown;
    Unknown.ReadsMemory = true;
    Unknown.Text = "?";
    return Unknown;
  }

  /// Scalars and array elements an expression reads (not what it writes); nested assignments
  /// are lowered as statements of their own by lowerExpr, which calls this on their values.
  void collectUses(const Expr *E, Collect &Col) {
    if (!E)
      return;
    E = E->IgnoreParens();
    // An element's address (given to a routine, `f(&a[k])`): any element from there on may be
    // read through it, as through the array itself.
    const auto *Address = dyn_cast<UnaryOperator>(E);
    if (Address && Address->getOpcode() != UO_AddrOf)
      Address = nullptr;
    ArrayAccess A;
    std::vector<const Expr *> Idx;
    if (accessOf(Address ? Address->getSubExpr()->IgnoreParens() : E, A, &Idx)) {
      collectIndexUses(Idx, Col);
      // A local pointer may point into any argument: its reads cannot be matched to writes.
      if (A.Arg < 0 && A.Name[0] == '*')
        unattributable("a read through " + pointerOf(A) + " (line " + std::to_string(line(E)) +
                       ")");
      if (Address)
        A.Index.assign(1, anyElement());
      Col.Reads.push_back(std::move(A));
      return;
    }
    if (isa<StmtExpr>(E))
      unattributable("a GNU statement expression (line " + std::to_string(line(E)) + ")");
    Col.Flops += flopsOf(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (isScalarVar(V))
          Col.Vars.insert(V->getName().str());
        else {
          // A pointer or array used as a value (passed to a function, pointer arithmetic):
          // treat as a read of any of its elements.
          ArrayAccess Any;
          Any.Name = V->getName().str();
          auto It = C.PointerArgs.find(Any.Name);
          Any.Arg = It == C.PointerArgs.end() ? -1 : static_cast<int>(It->second);
          Any.Index.push_back(anyElement());
          Col.Reads.push_back(Any);
        }
      }
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        collectUses(CE, Col);
  }

  /// Lower an expression evaluated for its side effects: each assignment becomes a statement.
  void unattributable(const std::string &Why) {
    if (IR.Unattributable.empty())
      IR.Unattributable = Why;
  }

  void lowerExpr(const Expr *E, bool Conditional = false) {
    if (!E)
      return;
    E = E->IgnoreParens();
    if (isa<StmtExpr>(E)) {
      unattributable("a GNU statement expression (line " + std::to_string(line(E)) + ")");
      return;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp()) {
        lowerExpr(B->getRHS(), Conditional); // nested assignments happen first
        assign(B, B->getLHS(), B->getRHS(), B->isCompoundAssignmentOp(), Conditional);
        return;
      }
      if (B->isLogicalOp() || B->getOpcode() == BO_Comma) {
        lowerExpr(B->getLHS(), Conditional);
        // `c && (a[i] = 1)`: c decides whether the write happens, like an if condition.
        if (B->isLogicalOp() && B->getRHS()->HasSideEffects(*C.Ctx))
          control(B->getLHS(), /*Lower=*/false);
        lowerExpr(B->getRHS(), Conditional || B->isLogicalOp());
        return;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp()) {
      assign(U, U->getSubExpr(), nullptr, true, Conditional);
      return;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      lowerExpr(CO->getCond(), Conditional);
      if (CO->getTrueExpr()->HasSideEffects(*C.Ctx) || CO->getFalseExpr()->HasSideEffects(*C.Ctx))
        control(CO->getCond(), /*Lower=*/false);
      lowerExpr(CO->getTrueExpr(), true);
      lowerExpr(CO->getFalseExpr(), true);
      return;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      for (const Expr *Arg : Call->arguments())
        lowerExpr(Arg, Conditional);
      call(Call);
      return;
    }
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        lowerExpr(CE, Conditional);
  }

  /// A call that may write through a pointer it is given cannot be attributed.
  void call(const CallExpr *Call) {
    if (!callMayWrite(Call))
      return;
    const FunctionDecl *FD = Call->getDirectCallee();
    if (IR.Unattributable.empty())
      IR.Unattributable = "a call to '" + (FD ? FD->getName().str() : std::string("?")) +
                          "' may write through a pointer";
    IRStmt S;
    S.K = IRStmt::Kind::Call;
    Collect Col;
    collectUses(Call, Col);
    fill(S, Col);
    S.Line = line(Call);
    IR.addStmt(std::move(S), Cur);
  }

  unsigned line(const Stmt *S) {
    return C.Ctx->getSourceManager().getPresumedLoc(S->getBeginLoc()).getLine();
  }

  void fill(IRStmt &S, Collect &Col) {
    S.Uses = std::move(Col.Vars);
    S.Reads = std::move(Col.Reads);
    S.IndexUses = std::move(Col.IndexVars);
    S.IndexReads = std::move(Col.IndexReads);
    S.Flops = Col.Flops;
  }

  void assign(const Expr *Whole, const Expr *LHS, const Expr *RHS, bool Compound,
              bool Conditional) {
    IRStmt S;
    S.ValueDiscarded = Whole == DiscardedTop;
    S.Compound = Compound;
    S.Line = line(Whole);
    Collect Col;
    collectUses(RHS, Col);
    const Expr *L = strip(LHS);
    ArrayAccess A;
    std::vector<const Expr *> Idx;
    if (accessOf(L, A, &Idx)) {
      S.K = IRStmt::Kind::ArrayWrite;
      S.Atomic = Atomic.has_value();
      collectIndexUses(Idx, Col);
      // The guard repeats the index text, and wraps the write's own text: neither works for
      // an index with side effects or a write that starts or ends inside a macro's body
      // (`SET(a, i, v)`, `a[i] = max(x, y)` and `I3D(a, i, j) = v` are whole texts).
      for (const Expr *I : Idx)
        if (I->HasSideEffects(*C.Ctx))
          unattributable("an array index with side effects (line " + std::to_string(S.Line) +
                         ")");
      std::optional<std::pair<unsigned, unsigned>> Text = C.ExactOffsets(Whole->getSourceRange());
      if (!Text)
        unattributable("an array write inside a macro's body (line " + std::to_string(S.Line) +
                       ")");
      if (Compound)
        Col.Reads.push_back(A); // a[i] += v reads a[i]
      if (A.Arg < 0 && A.Name[0] == '*' && IR.Unattributable.empty())
        IR.Unattributable =
            "a write through " + pointerOf(A) + " (line " + std::to_string(S.Line) + ")";
      S.Write = std::move(A);
      auto [B, E] = Atomic ? *Atomic : Text ? *Text : C.Offsets(Whole->getSourceRange());
      S.Begin = B;
      S.End = E;
      S.ValueDiscarded |= S.Atomic; // an atomic is an expression statement
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
      const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
      if (!V)
        return;
      S.K = IRStmt::Kind::ScalarDef;
      S.Var = V->getName().str();
      S.Reduction = C.ReductionVars.count(S.Var) != 0;
      if (Compound)
        Col.Vars.insert(S.Var);
      // Inside an atomic a scalar is never guarded: its guard would cut into the operation.
      bool Guardable = !Atomic;
      if (Guardable && !Whole->getBeginLoc().isMacroID() && !Whole->getEndLoc().isMacroID()) {
        auto [WB, WE] = C.Offsets(Whole->getSourceRange());
        S.WholeBegin = WB;
        S.WholeEnd = WE;
      }
      if (Guardable && RHS && V->getType()->isArithmeticType() && !RHS->getBeginLoc().isMacroID() &&
          !RHS->getEndLoc().isMacroID()) {
        auto [B, E] = C.Offsets(RHS->getSourceRange());
        S.Begin = B;
        S.End = E;
      }
    } else {
      // A member of a local struct, or a write the analysis does not model: a definition of the
      // root variable when there is one, otherwise unattributable.
      const Expr *Root = L;
      while (const auto *ME = dyn_cast<MemberExpr>(Root)) {
        if (ME->isArrow())
          break;
        Root = strip(ME->getBase());
      }
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Root)) {
        S.K = IRStmt::Kind::ScalarDef;
        S.Var = DRE->getDecl()->getName().str();
        Col.Vars.insert(S.Var); // a partial update keeps the rest of the value
      } else {
        if (IR.Unattributable.empty())
          IR.Unattributable = "a write the analysis cannot attribute to an argument (line " +
                              std::to_string(S.Line) + ")";
        S.K = IRStmt::Kind::Call;
      }
    }
    fill(S, Col);
    if (Compound && LHS->getType()->isRealFloatingType())
      ++S.Flops; // a[i] += v, x *= v
    if (S.K == IRStmt::Kind::ScalarDef && !Compound && RHS && LHS->getType()->isIntegerType()) {
      S.ValueLinear = linearForm(RHS);
      S.IntValue = indexExpr(RHS);
    }
    S.Conditional = Conditional;
    IR.addStmt(std::move(S), Cur);
  }

  void control(const Expr *Cond, bool Lower = true) {
    if (!Cond)
      return;
    if (Lower)
      lowerExpr(Cond);
    IRStmt S;
    S.K = IRStmt::Kind::Control;
    S.Line = line(Cond);
    Collect Col;
    collectUses(Cond, Col);
    fill(S, Col);
    IR.addStmt(std::move(S), Cur);
  }

  // ---- statements --------------------------------------------------------------------------

  void lowerStmt(const Stmt *S) {
    if (!S)
      return;
    if (auto It = C.AtomicStmts.find(S); It != C.AtomicStmts.end()) {
      // A captured value depends on every update of x before it, in one order; a device
      // updates its copy of x only where it owns x, and no two devices share their order.
      if (It->second == AtomicOp::Form::Capture)
        unattributable("an atomic capture (line " + std::to_string(line(S)) + ")");
      // A guard wraps the whole atomic statement, never a part of the operation replacing it.
      auto [B, E] = C.Offsets(S->getSourceRange());
      Atomic = {B, E};
      lowerStmtInner(S);
      Atomic.reset();
      return;
    }
    lowerStmtInner(S);
  }

  void lowerStmtInner(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : CS->body())
        lowerStmt(Child);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasInit()) {
          lowerExpr(V->getInit());
          IRStmt St;
          St.K = IRStmt::Kind::ScalarDef;
          St.Var = V->getName().str();
          St.DeclaresVar = true;
          St.Line = line(DS);
          Collect Col;
          collectUses(V->getInit(), Col);
          fill(St, Col);
          if (V->getType()->isIntegerType()) {
            St.ValueLinear = linearForm(V->getInit());
            St.IntValue = indexExpr(V->getInit());
          }
          if (V->getType()->isArithmeticType() && !V->getInit()->getBeginLoc().isMacroID() &&
              !V->getInit()->getEndLoc().isMacroID()) {
            auto [B, E] = C.Offsets(V->getInit()->getSourceRange());
            St.Begin = B;
            St.End = E;
          }
          IR.addStmt(std::move(St), Cur);
        }
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S)) {
      // The value of a statement's top expression is discarded: its write can be skipped
      // whole, without reading the element back.
      DiscardedTop = E->IgnoreParens();
      lowerExpr(E);
      DiscardedTop = nullptr;
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      control(If->getCond());
      unsigned Then = IR.addBlock(), Join = IR.addBlock();
      unsigned Else = If->getElse() ? IR.addBlock() : Join;
      IR.addEdge(Cur, Then);
      IR.addEdge(Cur, Else);
      Cur = Then;
      lowerStmt(If->getThen());
      IR.addEdge(Cur, Join);
      if (If->getElse()) {
        Cur = Else;
        lowerStmt(If->getElse());
        IR.addEdge(Cur, Join);
      }
      Cur = Join;
      return;
    }
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      std::optional<InnerLoop> L = unitStepLoop(For);
      lowerStmt(For->getInit());
      unsigned First = IR.Stmts.size();
      loop(For->getCond(), For->getBody(), For->getInc(), false);
      if (L) {
        // Only its increment may assign the variable.
        unsigned Defs = 0;
        for (unsigned Id = First; Id < IR.Stmts.size(); ++Id)
          Defs += IR.Stmts[Id].K == IRStmt::Kind::ScalarDef && IR.Stmts[Id].Var == L->Var;
        L->FirstStmt = First;
        L->EndStmt = IR.Stmts.size();
        if (Defs == 1)
          IR.InnerLoops.push_back(std::move(*L));
      }
      return;
    }
    if (const auto *While = dyn_cast<WhileStmt>(S)) {
      loop(While->getCond(), While->getBody(), nullptr, false);
      return;
    }
    if (const auto *Do = dyn_cast<DoStmt>(S)) {
      loop(Do->getCond(), Do->getBody(), nullptr, true);
      return;
    }
    if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      control(Switch->getCond());
      unsigned Head = Cur, Exit = IR.addBlock();
      Loops.push_back({Exit, Loops.back().Continue});
      SwitchHeads.push_back(Head);
      Cur = IR.addBlock();
      IR.addEdge(Head, Cur);
      IR.addEdge(Head, Exit); // no case taken
      lowerStmt(Switch->getBody());
      IR.addEdge(Cur, Exit);
      SwitchHeads.pop_back();
      Loops.pop_back();
      Cur = Exit;
      return;
    }
    if (isa<CaseStmt>(S) || isa<DefaultStmt>(S)) {
      // A new block reached from the switch head and, by fall-through, from the previous one.
      unsigned Case = IR.addBlock();
      IR.addEdge(Cur, Case);
      if (!SwitchHeads.empty())
        IR.addEdge(SwitchHeads.back(), Case);
      Cur = Case;
      lowerStmt(cast<SwitchCase>(S)->getSubStmt());
      return;
    }
    if (isa<BreakStmt>(S) || isa<ContinueStmt>(S)) {
      IR.addEdge(Cur, isa<BreakStmt>(S) ? Loops.back().Break : Loops.back().Continue);
      Cur = IR.addBlock(); // unreachable code after it
      return;
    }
    if (const auto *L = dyn_cast<LabelStmt>(S)) {
      lowerStmt(L->getSubStmt());
      return;
    }
    // Null statements and anything else without data effects.
  }

  /// The integer variable E names, or null.
  static const VarDecl *integerVar(const Expr *E) {
    const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->getType()->isIntegerType() ? V : nullptr;
  }

  /// F as an inner loop when its variable moves by one towards a compared bound (k++ with < or
  /// <=, k-- with > or >=; k += 1 and k -= 1 too). Whether the body assigns it is checked later.
  std::optional<InnerLoop> unitStepLoop(const ForStmt *F) {
    const VarDecl *Var = nullptr;
    const Expr *Init = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()); DS && DS->isSingleDecl()) {
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
          V && V->getType()->isIntegerType() && V->getInit()) {
        Var = V;
        Init = V->getInit();
      }
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
               B && B->getOpcode() == BO_Assign) {
      Var = integerVar(B->getLHS());
      Init = B->getRHS();
    }
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    if (!Var || !Cond || !Cond->isRelationalOp())
      return std::nullopt;
    BinaryOperatorKind Op = Cond->getOpcode();
    const Expr *Bound = nullptr;
    if (integerVar(Cond->getLHS()) == Var) {
      Bound = Cond->getRHS();
    } else if (integerVar(Cond->getRHS()) == Var) {
      Bound = Cond->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    // The step: +1 or -1.
    int Step = 0;
    const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
        U && U->isIncrementDecrementOp() && integerVar(U->getSubExpr()) == Var) {
      Step = U->isIncrementOp() ? 1 : -1;
    } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
               B && integerVar(B->getLHS()) == Var &&
               (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign)) {
      const auto *One = dyn_cast<IntegerLiteral>(B->getRHS()->IgnoreParenImpCasts());
      if (One && One->getValue() == 1)
        Step = B->getOpcode() == BO_AddAssign ? 1 : -1;
    }
    bool Up = Op == BO_LT || Op == BO_LE, Down = Op == BO_GT || Op == BO_GE;
    if (!Bound || !((Step == 1 && Up) || (Step == -1 && Down)))
      return std::nullopt;
    InnerLoop L;
    L.Var = Var->getName().str();
    L.Line = line(F);
    IndexExpr First = indexExpr(Init), Last = indexExpr(Bound);
    // Strict comparisons stop one short of the bound.
    if (Op == BO_LT)
      Last.Const -= 1;
    if (Op == BO_GT)
      Last.Const += 1;
    L.Min = Up ? First : Last;
    L.Max = Up ? Last : First;
    return L;
  }

  void loop(const Expr *Cond, const Stmt *Body, const Expr *Inc, bool BodyFirst) {
    unsigned Head = IR.addBlock(), BodyB = IR.addBlock(), Latch = IR.addBlock(),
             Exit = IR.addBlock();
    IR.addEdge(Cur, BodyFirst ? BodyB : Head);
    Cur = Head;
    control(Cond);
    IR.addEdge(Cur, BodyB);
    IR.addEdge(Cur, Exit);
    Loops.push_back({Exit, Latch});
    Cur = BodyB;
    lowerStmt(Body);
    IR.addEdge(Cur, Latch);
    Loops.pop_back();
    Cur = Latch;
    lowerExpr(Inc);
    IR.addEdge(Cur, Head);
    Cur = Exit;
  }

  const LowerContext &C;
  RegionIR IR;
  unsigned Cur = 0;
  std::vector<LoopTargets> Loops;
  std::vector<unsigned> SwitchHeads;
  /// The kernel-source range of the atomic statement being lowered.
  std::optional<std::pair<unsigned, unsigned>> Atomic;
  const Expr *DiscardedTop = nullptr;
};

} // namespace

RegionIR lowerRegion(const Stmt *Body, const LowerContext &C) { return Lowerer(C).run(Body); }

} // namespace jacc::analysis
