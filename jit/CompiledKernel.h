// A kernel compiled for the host: what the analysis learnt, the generated code and its entry point.
#ifndef JACC_JIT_COMPILEDKERNEL_H
#define JACC_JIT_COMPILEDKERNEL_H

#include "CallInterface.h"
#include "Kernel.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <string>

namespace jacc::jit {

struct CompiledKernel {
  analysis::KernelInfo Info;
  std::string HostSource;             ///< generated C (JACC_DEBUG=codegen prints it)
  llvm::SmallVector<char, 0> Object;  ///< the host object linked by the JIT
  void *Entry = nullptr;              ///< host entry point (every device computes everything)
  std::unique_ptr<CallInterface> Call;
  void *SplitEntry = nullptr;         ///< the split entry, when Info.Split.Enabled
  std::unique_ptr<CallInterface> SplitCall;
  double AnalysisMs = 0, CompileMs = 0;
};

/// Analyse, generate, compile and link a kernel. Not cached: see KernelCache.
llvm::Expected<std::shared_ptr<const CompiledKernel>>
compileKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls);

} // namespace jacc::jit

#endif
