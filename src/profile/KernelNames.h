// How profiling names a compiled kernel: its site, else its first loop line.
#ifndef JACC_SRC_PROFILE_KERNELNAMES_H
#define JACC_SRC_PROFILE_KERNELNAMES_H

#include "jit/CompiledKernel.h"
#include "src/profile/Events.h"

namespace jacc::prof {

/// K's name ("heat.c:42" from its `// jacc-site:` line, else its first loop line), interned
/// once per kernel.
KernelName kernelNameOf(const jit::CompiledKernel &K);

} // namespace jacc::prof

#endif
