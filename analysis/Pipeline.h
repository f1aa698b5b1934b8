// The analysis pipeline: runs the passes in order on a kernel string. With JACC_DEBUG=analysis each
// pass's result is printed to stderr.
#ifndef JACC_ANALYSIS_PIPELINE_H
#define JACC_ANALYSIS_PIPELINE_H

#include "analysis/Kernel.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

namespace jacc::analysis {

/// Frontend (with the region IR of each nest), access traits, then SSA, dependences, the split
/// plan, predicates and the rewrite.
llvm::Expected<KernelInfo> runAnalysis(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls);

/// The region IR with versions and predicates (after the split passes).
void dumpRegion(const KernelInfo &K, llvm::raw_ostream &OS);

/// Human-readable summary of a KernelInfo (args, construct, nests, reductions, execution modes).
void dumpKernelInfo(const KernelInfo &K, llvm::raw_ostream &OS);

} // namespace jacc::analysis

#endif
