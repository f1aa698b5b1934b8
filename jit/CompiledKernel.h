// A kernel compiled for the host: what the analysis learnt, the generated code and its entry point.
#ifndef JACC_JIT_COMPILEDKERNEL_H
#define JACC_JIT_COMPILEDKERNEL_H

#include "CallInterface.h"
#include "CudaCodegen.h"
#include "Kernel.h"
#include "NvrtcCompiler.h"

#include <llvm/Support/Error.h>

#include <map>
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

/// The kernel for one GPU architecture: generated CUDA C++, the NVRTC image, its launch ABI
/// checked against the PTX.
struct CudaCode {
  CudaKernelSource Kernel;
  CudaImage Image;
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
  /// The plain or split entry for a GPU of compute capability Sm, generated and compiled by
  /// NVRTC on first use, then kept (failures too: a kernel that cannot compile for CUDA is not
  /// recompiled at every launch). Thread-safe.
  llvm::Expected<const CudaCode *> cudaCode(unsigned Sm, bool Split) const;

private:
  mutable std::mutex CudaMutex;
  mutable std::map<std::pair<unsigned, bool>, std::unique_ptr<CudaCode>> CudaCodes;
  mutable std::map<std::pair<unsigned, bool>, std::pair<int, std::string>> CudaErrors;

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
