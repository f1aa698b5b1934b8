// The kernel frontend: clang parses the wrapped kernel in process; the compute construct, its
// directives, arguments and parallel loop nests are described as a KernelInfo.
#ifndef JACC_ANALYSIS_FRONTEND_H
#define JACC_ANALYSIS_FRONTEND_H

#include "analysis/Kernel.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

namespace jacc::analysis {

/// Parse and describe a kernel. Errors: Compile (clang diagnostics, "kernel:LINE:COL: ..."),
/// InvalidArgument (bad directive, unused arg), Unsupported (a clause or form not honoured).
llvm::Expected<KernelInfo> analyzeKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls);

} // namespace jacc::analysis

#endif
