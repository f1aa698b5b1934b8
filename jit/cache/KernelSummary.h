// A compiled kernel as JSON, for its disk cache entry: what `jacc-cache show` displays (sources,
// predicates, split plan, compilers) and, under "kernel", the part of the analysis the runtime
// needs to launch the kernel again without analysing it (arguments, reductions, split plan).
#ifndef JACC_JIT_CACHE_KERNELSUMMARY_H
#define JACC_JIT_CACHE_KERNELSUMMARY_H

#include "analysis/Kernel.h"

#include <llvm/Support/Error.h>
#include <llvm/Support/JSON.h>

namespace jacc::jit {

/// The summary stored with a kernel's entry (the fields `jacc-cache` displays are read back by
/// readKernelSummaryFields, jit/cache/KernelEntry.h).
llvm::json::Object kernelSummary(const analysis::KernelInfo &K, llvm::StringRef Target,
                                 double AnalysisMs, double CompileMs);

/// The runtime part of the analysis back from a summary. Internal error on a malformed summary
/// (the caller treats it as a cache miss).
llvm::Expected<analysis::KernelInfo> runtimeInfoFromSummary(const llvm::json::Object &Summary);

} // namespace jacc::jit

#endif
