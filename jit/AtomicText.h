// The C the targets' atomic operations share (jit/host/HostAtomics.h, jit/cuda/CudaAtomics.h): the
// new value of x from its old value `__jacc_o`, and the delta of an integer addition.
#ifndef JACC_JIT_ATOMICTEXT_H
#define JACC_JIT_ATOMICTEXT_H

#include "analysis/Kernel.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <string>

namespace jacc::jit {

/// A part of an atomic as the target spells it.
using AtomicPartText = llvm::function_ref<std::string(analysis::SourceSpan)>;

/// Whether [Begin, End) of K's source lies in one of its atomic statements, which the target's
/// atomic text replaces whole.
bool insideAtomic(const analysis::KernelInfo &K, unsigned Begin, unsigned End);

/// The new value of x by the update A (or the update A captures), from its old value `__jacc_o`:
/// "__jacc_o + 1", "__jacc_o * (expr)", "(expr) - __jacc_o", "(expr)" (Change::Replace).
std::string atomicNewValue(const analysis::AtomicOp &A, AtomicPartText Text);

/// What an IntegerAdd update adds to x: "1", "-1", "(expr)", "-(expr)".
std::string atomicDelta(const analysis::AtomicOp &A, AtomicPartText Text);

} // namespace jacc::jit

#endif
