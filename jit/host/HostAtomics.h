// The host's atomic operations: an `#pragma acc atomic` as a GNU C statement expression with the
// __atomic builtins, a compare-and-swap loop for what has no builtin.
#ifndef JACC_JIT_HOST_HOSTATOMICS_H
#define JACC_JIT_HOST_HOSTATOMICS_H

#include "analysis/Kernel.h"

#include <string>

namespace jacc::jit {

/// The C expression that performs A (one of K.Atomics) atomically on the host, its parts spelt
/// as K.Source has them.
std::string hostAtomicText(const analysis::AtomicOp &A, const analysis::KernelInfo &K);

} // namespace jacc::jit

#endif
