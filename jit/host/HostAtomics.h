// The host's atomic operations: an `#pragma acc atomic` as a GNU C statement expression with the
// __atomic builtins, a compare-and-swap loop for what has no builtin.
#ifndef JACC_JIT_HOST_HOSTATOMICS_H
#define JACC_JIT_HOST_HOSTATOMICS_H

#include "analysis/Kernel.h"
#include "support/TextEdits.h"

#include <string>

namespace jacc::jit {

/// The C expression that performs A (one of K.Atomics) atomically on the host, its parts spelt
/// as K.Source has them with the edits of Parts inside each part applied (JACC_CHECK=bounds: the
/// checked accesses).
std::string hostAtomicText(const analysis::AtomicOp &A, const analysis::KernelInfo &K,
                           const TextEdits &Parts);

} // namespace jacc::jit

#endif
