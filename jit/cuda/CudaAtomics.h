// CUDA's atomic operations: an `#pragma acc atomic` with jacc's CUDA atomic helpers
// (__jacc_atomic_add, _rmw, _load, _store), its parts written with the entry's edits.
#ifndef JACC_JIT_CUDA_CUDAATOMICS_H
#define JACC_JIT_CUDA_CUDAATOMICS_H

#include "analysis/Kernel.h"
#include "support/TextEdits.h"

#include <string>

namespace jacc::jit {

/// The CUDA C++ expression that performs A (one of K.Atomics) atomically, each part spelt as
/// K.Source has it with the edits of Parts inside the part applied (subscripts through
/// variable-length array pointers, flattened; JACC_CHECK=bounds: the checked accesses).
std::string cudaAtomicText(const analysis::AtomicOp &A, const analysis::KernelInfo &K,
                           const TextEdits &Parts);

} // namespace jacc::jit

#endif
