// Checking and locating the parts of an `#pragma acc atomic` statement (AtomicForm.h).
#include "analysis/AtomicForm.h"

#include "support/Error.h"

using namespace clang;

namespace jacc::analysis {
namespace {

using SpanFn = llvm::function_ref<SourceSpan(SourceRange)>;

/// Describes the update of x that U is (++x, x--, x op= expr, x = x op expr, x = expr op x) into
/// A; false when U is none of them.
bool describeUpdate(const Expr *U, AtomicOp &A, llvm::StringRef Source, SpanFn Span) {
  auto Text = [&](const Expr *E) {
    SourceSpan S = Span(E->getSourceRange());
    return Source.slice(S.Begin, S.End);
  };
  U = U->IgnoreParens();
  A.IntegerAdd = false;
  if (auto *UO = dyn_cast<UnaryOperator>(U); UO && UO->isIncrementDecrementOp()) {
    A.X = Span(UO->getSubExpr()->getSourceRange());
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
    A.X = Span(B->getLHS()->getSourceRange());
    A.Op = BinaryOperator::getOpcodeStr(Op).str();
    A.Operand = Span(B->getRHS()->getSourceRange());
    A.OldOnLeft = true;
    A.IntegerAdd = B->getLHS()->getType()->isIntegerType() && (Op == BO_Add || Op == BO_Sub);
    return true;
  }
  if (B->getOpcode() != BO_Assign)
    return false;
  A.X = Span(B->getLHS()->getSourceRange());
  auto *RB = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
  if (!RB)
    return false;
  A.Op = BinaryOperator::getOpcodeStr(RB->getOpcode()).str();
  // x is recognised by its spelling on either side of the operator.
  llvm::StringRef X = Text(B->getLHS());
  if (Text(RB->getLHS()) == X) {
    A.OldOnLeft = true;
    A.Operand = Span(RB->getRHS()->getSourceRange());
  } else if (Text(RB->getRHS()) == X) {
    A.OldOnLeft = false;
    A.Operand = Span(RB->getLHS()->getSourceRange());
  } else {
    return false;
  }
  return true;
}

} // namespace

llvm::Expected<AtomicOp> describeAtomic(const Expr *E, const Directive &D, llvm::StringRef Source,
                                        SpanFn Span) {
  auto Bad = [&](const char *Why) {
    return makeError(ErrorCode::Unsupported,
                     "kernel:" + llvm::Twine(D.Line) + ": '#pragma acc " + D.Text + "': " + Why);
  };
  AtomicOp A;
  SourceSpan Whole = Span(E->getSourceRange());
  A.Begin = Whole.Begin;
  A.End = Whole.End;
  A.Kind = D.has(ClauseKind::Read)      ? AtomicOp::Form::Read
           : D.has(ClauseKind::Write)   ? AtomicOp::Form::Write
           : D.has(ClauseKind::Capture) ? AtomicOp::Form::Capture
                                        : AtomicOp::Form::Update;
  const Expr *X = E->IgnoreParens();
  if (A.Kind == AtomicOp::Form::Update) {
    if (!describeUpdate(X, A, Source, Span))
      return Bad("an atomic update must be x++, x--, x op= expr or x = x op expr");
    return A;
  }
  auto *Assign = dyn_cast<BinaryOperator>(X);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return Bad("expected an assignment v = x, x = expr or v = <update of x>");
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
    if (!describeUpdate(Assign->getRHS(), A, Source, Span))
      return Bad("an atomic capture must be v = x++, v = ++x, v = x op= expr (or --)");
    return A;
  }
}

} // namespace jacc::analysis
