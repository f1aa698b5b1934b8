// `#pragma acc atomic` with jacc's CUDA atomic helpers (CudaAtomics.h).
#include "jit/cuda/CudaAtomics.h"

#include "jit/AtomicText.h"

namespace jacc::jit {

using analysis::AtomicOp;
using analysis::SourceSpan;

std::string cudaAtomicText(const AtomicOp &A, const analysis::KernelInfo &K,
                           const TextEdits &Parts) {
  auto Text = [&](SourceSpan S) { return Parts.apply(K.Source, S.Begin, S.End); };
  std::string X = Text(A.X);
  switch (A.Kind) {
  case AtomicOp::Form::Update:
    if (A.IntegerAdd)
      return "__jacc_atomic_add(&(" + X + "), " + atomicDelta(A, Text) + ")";
    return "__jacc_atomic_rmw(&(" + X + "), [&](auto __jacc_o) { return " +
           atomicNewValue(A, Text) + "; }, false)";
  case AtomicOp::Form::Read:
    return Text(A.V) + " = __jacc_atomic_load(&(" + X + "))";
  case AtomicOp::Form::Write:
    return "__jacc_atomic_store(&(" + X + "), (" + Text(A.Operand) + "))";
  case AtomicOp::Form::Capture:
    break;
  }
  return Text(A.V) + " = __jacc_atomic_rmw(&(" + X + "), [&](auto __jacc_o) { return " +
         atomicNewValue(A, Text) + "; }, " + (A.Post ? "true" : "false") + ")";
}

} // namespace jacc::jit
