// Checking and locating the parts of an `#pragma acc atomic` statement (AtomicForm.h).
#include "analysis/AtomicForm.h"

#include "support/Error.h"

#include <clang/AST/Expr.h>

using namespace clang;

namespace jacc::analysis {
namespace {

using SpanFn = llvm::function_ref<SourceSpan(SourceRange)>;

/// OpenACC 3.3's binop: the operators an atomic update may apply (gcc and nvc accept no other).
bool isAtomicBinop(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add:
  case BO_Mul:
  case BO_Sub:
  case BO_Div:
  case BO_And:
  case BO_Xor:
  case BO_Or:
  case BO_Shl:
  case BO_Shr:
    return true;
  default:
    return false;
  }
}

/// `v = x` (or `x = expr`): a plain assignment, or null.
const BinaryOperator *plainAssign(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreParens()) : nullptr;
  return B && B->getOpcode() == BO_Assign ? B : nullptr;
}

/// Reads the parts of one atomic statement out of the kernel source.
class AtomicReader {
public:
  AtomicReader(llvm::StringRef Source, SpanFn Span) : Source(Source), Span(Span) {}

  /// E's spelling without its parentheses: `(x)--` updates the x of `v = x`.
  llvm::StringRef text(const Expr *E) const { return text(span(E)); }
  SourceSpan span(const Expr *E) const { return Span(E->IgnoreParenImpCasts()->getSourceRange()); }
  llvm::StringRef text(SourceSpan S) const { return Source.slice(S.Begin, S.End); }

  /// Describes the update of x that U is (++x, x--, x binop= expr, x = x binop expr,
  /// x = expr binop x) into A; false when U is none of them, with BadOperator set when U has
  /// an update's shape but an operator outside binop.
  bool update(const Stmt *S, AtomicOp &A) {
    const auto *U = dyn_cast_or_null<Expr>(S);
    if (!U)
      return false;
    U = U->IgnoreParens();
    A.IntegerAdd = false;
    if (auto *UO = dyn_cast<UnaryOperator>(U); UO && UO->isIncrementDecrementOp()) {
      A.X = span(UO->getSubExpr());
      A.How = UO->isIncrementOp() ? AtomicOp::Change::Increment : AtomicOp::Change::Decrement;
      A.Post = UO->isPostfix();
      A.IntegerAdd = UO->getSubExpr()->getType()->isIntegerType();
      return true;
    }
    auto *B = dyn_cast<BinaryOperator>(U);
    if (!B)
      return false;
    A.Post = false;
    A.How = AtomicOp::Change::Operator;
    if (B->isCompoundAssignmentOp()) {
      BinaryOperatorKind Op = BinaryOperator::getOpForCompoundAssignment(B->getOpcode());
      if (!isAtomicBinop(Op))
        return badOperator(BinaryOperator::getOpcodeStr(B->getOpcode()));
      A.X = span(B->getLHS());
      A.Op = BinaryOperator::getOpcodeStr(Op).str();
      A.Operand = Span(B->getRHS()->getSourceRange());
      A.OldOnLeft = true;
      A.IntegerAdd = B->getLHS()->getType()->isIntegerType() && (Op == BO_Add || Op == BO_Sub);
      return true;
    }
    if (B->getOpcode() != BO_Assign)
      return false;
    const Expr *Value = B->getRHS()->IgnoreParenImpCasts();
    llvm::StringRef X = text(B->getLHS());
    if (const auto *C = dyn_cast<ConditionalOperator>(Value))
      return extremum(C, X, A) ? setX(A, B) : badOperator("?:");
    if (const auto *Call = dyn_cast<CallExpr>(Value);
        Call && B->getLHS()->getType()->isRealFloatingType() &&
        Call->getType().getCanonicalType() ==
            B->getLHS()->getType().getCanonicalType().getUnqualifiedType() &&
        fminFmax(Call, X, A))
      return setX(A, B);
    auto *RB = dyn_cast<BinaryOperator>(Value);
    if (!RB)
      return false;
    // x is recognised by its spelling on either side of the operator.
    bool Left = text(RB->getLHS()) == X, Right = !Left && text(RB->getRHS()) == X;
    if (!Left && !Right)
      return false;
    if (!isAtomicBinop(RB->getOpcode()))
      return badOperator(RB->getOpcodeStr());
    A.X = span(B->getLHS());
    A.Op = RB->getOpcodeStr().str();
    A.OldOnLeft = Left;
    A.Operand = Span((Left ? RB->getRHS() : RB->getLHS())->getSourceRange());
    return true;
  }

  /// `x > e ? x : e` (max) or `x < e ? x : e` (min), and each form with x and e swapped or
  /// with >= and <= (an extension of binop, which has no max or min: the MAX and MIN macros of C
  /// programs, and Fortran's max and min): true with A's Op and Operand set.
  bool extremum(const ConditionalOperator *C, llvm::StringRef X, AtomicOp &A) {
    const auto *Cmp = dyn_cast<BinaryOperator>(C->getCond()->IgnoreParenImpCasts());
    if (!Cmp || !Cmp->isRelationalOp())
      return false;
    llvm::StringRef L = text(Cmp->getLHS()), R = text(Cmp->getRHS());
    llvm::StringRef T = text(C->getTrueExpr()), F = text(C->getFalseExpr());
    if (!((L == X) != (R == X)) || !((T == L && F == R) || (T == R && F == L)))
      return false;
    bool Greater = Cmp->getOpcode() == BO_GT || Cmp->getOpcode() == BO_GE;
    // The arm taken when the left operand compares greater is the larger one.
    A.Op = Greater == (T == L) ? "max" : "min";
    A.Operand = span(L == X ? Cmp->getRHS() : Cmp->getLHS());
    A.OldOnLeft = true;
    return true;
  }

  /// `x = fmax(x, e)` or `fmin` (or their float and long double forms, either argument x; the
  /// caller checks that the call's type is x's): true with A's Op and Operand set.
  bool fminFmax(const CallExpr *Call, llvm::StringRef X, AtomicOp &A) {
    const FunctionDecl *F = Call->getDirectCallee();
    if (!F || Call->getNumArgs() != 2)
      return false;
    llvm::StringRef Name = F->getName();
    if (!Name.consume_front("fmax") && !(Name = F->getName(), Name.consume_front("fmin")))
      return false;
    if (!(Name.empty() || Name == "f" || Name == "l"))
      return false;
    bool First = text(Call->getArg(0)) == X, Second = text(Call->getArg(1)) == X;
    if (First == Second)
      return false;
    A.Op = F->getName().startswith("fmax") ? "max" : "min";
    A.Operand = span(Call->getArg(First ? 1 : 0));
    A.OldOnLeft = true;
    return true;
  }

  /// An update of the whole assignment B's left side, its operator and operand already set.
  bool setX(AtomicOp &A, const BinaryOperator *B) {
    A.X = span(B->getLHS());
    A.How = AtomicOp::Change::Operator;
    return true;
  }

  /// A structured capture block: `{v = x; <update>}` or `{v = x; x = expr;}` (v gets the old
  /// value), `{<update>; v = x;}` (the new one). False when Block is none of them.
  bool capture(const CompoundStmt *Block, AtomicOp &A) {
    if (Block->size() != 2)
      return false;
    const Stmt *First = Block->body_front(), *Second = Block->body_back();
    if (const BinaryOperator *Read = plainAssign(First)) {
      llvm::StringRef X = text(Read->getRHS());
      if (update(Second, A) && text(A.X) == X)
        return captured(A, Read, /*Post=*/true);
      const BinaryOperator *Write = plainAssign(Second);
      if (Write && text(Write->getLHS()) == X && BadOperator.empty()) {
        A.How = AtomicOp::Change::Replace;
        A.X = span(Write->getLHS());
        A.Operand = Span(Write->getRHS()->getSourceRange());
        return captured(A, Read, /*Post=*/true);
      }
    }
    const BinaryOperator *Read = plainAssign(Second);
    if (Read && update(First, A) && text(A.X) == text(Read->getRHS()))
      return captured(A, Read, /*Post=*/false);
    return false;
  }

  /// The operator of an update outside binop ("%=", "?:"), empty if none was met.
  std::string BadOperator;

private:
  bool badOperator(llvm::StringRef Op) {
    BadOperator = Op.str();
    return false;
  }

  bool captured(AtomicOp &A, const BinaryOperator *Read, bool Post) {
    A.V = Span(Read->getLHS()->getSourceRange());
    A.Post = Post;
    return true;
  }

  llvm::StringRef Source;
  SpanFn Span;
};

} // namespace

llvm::Expected<AtomicOp> describeAtomic(const Stmt *S, const Directive &D, llvm::StringRef Source,
                                        SpanFn Span) {
  AtomicReader Reader(Source, Span);
  auto Bad = [&](const llvm::Twine &Why) {
    std::string Operator;
    if (!Reader.BadOperator.empty())
      Operator = "'" + Reader.BadOperator +
                 "' is not an atomic operator (binop is one of +, *, "
                 "-, /, &, ^, |, <<, >>; max and min as x > e ? x : e, x < e ? x : e or "
                 "fmax/fmin(x, e)); ";
    return makeError(ErrorCode::Unsupported, "kernel:" + llvm::Twine(D.Line) + ": '#pragma acc " +
                                                 D.Text + "': " + Operator + Why);
  };
  AtomicOp A;
  A.Kind = D.has(ClauseKind::Read)      ? AtomicOp::Form::Read
           : D.has(ClauseKind::Write)   ? AtomicOp::Form::Write
           : D.has(ClauseKind::Capture) ? AtomicOp::Form::Capture
                                        : AtomicOp::Form::Update;
  SourceSpan Whole = Span(S->getSourceRange());
  A.Begin = Whole.Begin;
  A.End = Whole.End;
  const char *CaptureForms = "an atomic capture must be v = x++, v = --x, v = x binop= expr, "
                             "v = x = x binop expr, or a block {v = x; x binop= expr;}, "
                             "{x binop= expr; v = x;}, {v = x; x = expr;}, {v = x; x++;}...";
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    if (A.Kind != AtomicOp::Form::Capture)
      return Bad("only an atomic capture may be followed by a block; write one expression "
                 "statement");
    A.Block = true;
    if (!Reader.capture(Block, A))
      return Bad(CaptureForms);
    return A;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return Bad("must be followed by one expression statement");
  const Expr *X = E->IgnoreParens();
  if (A.Kind == AtomicOp::Form::Update) {
    if (!Reader.update(X, A))
      return Bad("an atomic update must be x++, x--, x binop= expr, x = x binop expr or "
                 "x = expr binop x");
    return A;
  }
  const BinaryOperator *Assign = plainAssign(X);
  if (!Assign)
    return A.Kind == AtomicOp::Form::Capture ? Bad(CaptureForms)
                                             : Bad("expected an assignment v = x or x = expr");
  SourceSpan Left = Span(Assign->getLHS()->getSourceRange()),
             Right = Span(Assign->getRHS()->getSourceRange());
  switch (A.Kind) {
  case AtomicOp::Form::Read:
    A.V = Left;
    A.X = Right;
    return A;
  case AtomicOp::Form::Write:
    A.X = Left;
    A.Operand = Right;
    return A;
  default:
    A.V = Left;
    if (!Reader.update(Assign->getRHS(), A))
      return Bad(CaptureForms);
    return A;
  }
}

} // namespace jacc::analysis
