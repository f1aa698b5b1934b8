// `#pragma acc atomic` as GNU C with __atomic builtins (HostAtomics.h).
#include "jit/host/HostAtomics.h"

#include "jit/AtomicText.h"

namespace jacc::jit {

using analysis::AtomicOp;
using analysis::SourceSpan;

/// Replaces x by New (in which `__jacc_o` is x's old value) with a compare-and-swap loop; the
/// statement expression's value is Result (`__jacc_o`, `__jacc_n`: the new value, or "0").
static std::string compareAndSwap(const std::string &X, const std::string &New,
                                  const char *Result) {
  return "({ __typeof__(" + X + ") *__jacc_p = &(" + X + "); __typeof__(" + X +
         ") __jacc_o, __jacc_n; __atomic_load(__jacc_p, &__jacc_o, __ATOMIC_RELAXED); "
         "do { __jacc_n = " +
         New +
         "; } while (!__atomic_compare_exchange(__jacc_p, "
         "&__jacc_o, &__jacc_n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); " +
         Result + "; })";
}

std::string hostAtomicText(const AtomicOp &A, const analysis::KernelInfo &K,
                           const TextEdits &Parts) {
  auto Text = [&](SourceSpan S) { return Parts.apply(K.Source, S.Begin, S.End); };
  std::string X = Text(A.X);
  switch (A.Kind) {
  case AtomicOp::Form::Update:
    if (A.IntegerAdd)
      return "({ __atomic_fetch_add(&(" + X + "), " + atomicDelta(A, Text) +
             ", __ATOMIC_RELAXED); 0; })";
    return compareAndSwap(X, atomicNewValue(A, Text), "0");
  // The value's name must not hide the team pointer `__jacc_t` that a checked access uses.
  case AtomicOp::Form::Read:
    return Text(A.V) + " = ({ __typeof__(" + X + ") __jacc_v; __atomic_load(&(" + X +
           "), &__jacc_v, __ATOMIC_RELAXED); __jacc_v; })";
  case AtomicOp::Form::Write:
    return "({ __typeof__(" + X + ") __jacc_v = (" + Text(A.Operand) + "); __atomic_store(&(" + X +
           "), &__jacc_v, __ATOMIC_RELAXED); 0; })";
  case AtomicOp::Form::Capture:
    break;
  }
  if (A.How == AtomicOp::Change::Replace) // {v = x; x = expr;}: expr evaluated once
    return Text(A.V) + " = ({ __typeof__(" + X + ") __jacc_n = (" + Text(A.Operand) +
           "), __jacc_o; __atomic_exchange(&(" + X +
           "), &__jacc_n, &__jacc_o, __ATOMIC_RELAXED); __jacc_o; })";
  return Text(A.V) + " = " +
         compareAndSwap(X, atomicNewValue(A, Text), A.Post ? "__jacc_o" : "__jacc_n");
}

} // namespace jacc::jit
