// A kernel compiled for the host: what the analysis learnt, the generated code and its entry point.
#ifndef JACC_JIT_COMPILEDKERNEL_H
#define JACC_JIT_COMPILEDKERNEL_H

#include "CallInterface.h"
#include "Kernel.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <mutex>
#include <string>

namespace jacc::jit {

/// The split entry of a kernel, compiled the first time the kernel runs split.
struct SplitCode {
  std::string HostSource;
  llvm::SmallVector<char, 0> Object;
  void *Entry = nullptr;
  std::unique_ptr<CallInterface> Call;
  double CompileMs = 0;
};

struct CompiledKernel {
  analysis::KernelInfo Info;
  std::string HostSource;             ///< generated C (JACC_DEBUG=codegen prints it)
  llvm::SmallVector<char, 0> Object;  ///< the host object linked by the JIT
  void *Entry = nullptr;              ///< host entry point (every device computes everything)
  std::unique_ptr<CallInterface> Call;
  /// The split entry (Info.Split.Enabled only), compiled on first use: a kernel that only ever
  /// runs on one device, or in duplicate mode, never pays for it. Thread-safe.
  llvm::Expected<const SplitCode *> splitCode() const;

private:
  mutable std::once_flag SplitOnce;
  mutable std::unique_ptr<SplitCode> Split;
  mutable std::string SplitError;

public:
  double AnalysisMs = 0, CompileMs = 0;
};

/// Analyse, generate, compile and link a kernel. Not cached: see KernelCache.
llvm::Expected<std::shared_ptr<const CompiledKernel>>
compileKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls);

} // namespace jacc::jit

#endif
