// The C that the targets' atomic operations share (AtomicText.h).
#include "jit/AtomicText.h"

namespace jacc::jit {

using analysis::AtomicOp;

bool insideAtomic(const analysis::KernelInfo &K, unsigned Begin, unsigned End) {
  for (const AtomicOp &A : K.Atomics)
    if (Begin >= A.Begin && End <= A.End)
      return true;
  return false;
}

std::string atomicNewValue(const AtomicOp &A, AtomicPartText Text) {
  switch (A.How) {
  case AtomicOp::Change::Increment:
    return "__jacc_o + 1";
  case AtomicOp::Change::Decrement:
    return "__jacc_o - 1";
  case AtomicOp::Change::Replace:
    return "(" + Text(A.Operand) + ")";
  case AtomicOp::Change::Operator:
    break;
  }
  if (A.Op == "max" || A.Op == "min") // e read twice, as every operand is at each retry
    return "(__jacc_o " + std::string(A.Op == "max" ? ">" : "<") + " (" + Text(A.Operand) +
           ") ? __jacc_o : (" + Text(A.Operand) + "))";
  if (A.OldOnLeft)
    return "__jacc_o " + A.Op + " (" + Text(A.Operand) + ")";
  return "(" + Text(A.Operand) + ") " + A.Op + " __jacc_o";
}

std::string atomicDelta(const AtomicOp &A, AtomicPartText Text) {
  switch (A.How) {
  case AtomicOp::Change::Increment:
    return "1";
  case AtomicOp::Change::Decrement:
    return "-1";
  case AtomicOp::Change::Operator:
  case AtomicOp::Change::Replace: // never an IntegerAdd
    break;
  }
  return (A.Op == "-" ? "-(" : "(") + Text(A.Operand) + ")";
}

} // namespace jacc::jit
