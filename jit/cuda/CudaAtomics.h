// CUDA's atomic operations: an `#pragma acc atomic` with jacc's CUDA atomic helpers
// (__jacc_atomic_add, _rmw, _load, _store), its parts written with the kernel's CUDA source edits.
#ifndef JACC_JIT_CUDA_CUDAATOMICS_H
#define JACC_JIT_CUDA_CUDAATOMICS_H

#include "analysis/Kernel.h"

#include <string>

namespace jacc::jit {

/// The CUDA C++ expression that performs A (one of K.Atomics) atomically, each part spelt as
/// K.Source has it with the edits of K.FlatVla.Edits inside the part applied (subscripts through
/// variable-length array pointers, flattened).
std::string cudaAtomicText(const analysis::AtomicOp &A, const analysis::KernelInfo &K);

} // namespace jacc::jit

#endif
