// The expected compile time of a kernel's variant, which its generic launches must pay for first:
// the generic kernel's own, twice for a kernel with a split entry.
#include "jit/specialize/VariantPayback.h"

#include "jit/CompiledKernel.h"

namespace jacc::jit {

double expectedVariantCompileSeconds(const CompiledKernel &K) {
  // A variant's source is the generic one with constants in place of some arguments: it
  // compiles in about the generic kernel's time (docs/performance.md).
  constexpr double TypicalEntrySeconds = 0.050;
  double Entry = K.CompileMs > 0 ? K.CompileMs * 1e-3 : TypicalEntrySeconds;
  return K.Info.Split.Enabled ? 2 * Entry : Entry;
}

} // namespace jacc::jit
