// A kernel compiled for the host: what the analysis learnt, the generated code and its entry point.
#ifndef JACC_JIT_COMPILEDKERNEL_H
#define JACC_JIT_COMPILEDKERNEL_H

#include "analysis/Kernel.h"
#include "jit/cuda/CudaCodegen.h"
#include "jit/cuda/NvrtcCompiler.h"
#include "jit/host/CallInterface.h"
#include "jit/specialize/KernelVariants.h"
#include "support/SavedError.h"

#include <llvm/Support/Error.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace jacc::jit {

class DiskCache;

/// Where a kernel's disk cache entry is (a null Cache: the kernel is not on disk).
struct DiskSlot {
  std::shared_ptr<DiskCache> Cache;
  std::string Key;
};

/// The split entry of a kernel, compiled the first time the kernel runs split.
struct SplitCode {
  std::string HostSource;
  llvm::SmallVector<char, 0> Object;
  void *Entry = nullptr;
  std::shared_ptr<const void> Code; ///< keeps Entry's code loaded (jit/host/HostJIT.h)
  std::unique_ptr<CallInterface> Call;
  double CompileMs = 0;
};

/// The kernel for one GPU architecture: generated CUDA C++, the NVRTC image, its launch ABI
/// checked against the PTX.
struct CudaCode {
  CudaKernelSource Kernel;
  CudaImage Image;
  /// Never the same for two CudaCodes of a process, unlike their addresses once the kernel
  /// cache lets kernels go: what GPUs key their loaded modules by.
  const uint64_t Id = newId();

  CudaCode() = default;
  CudaCode(const CudaCode &) = delete;
  CudaCode &operator=(const CudaCode &) = delete;
  ~CudaCode();
  /// Whether the CudaCode of this Id still exists: a GPU unloads the modules of those gone (their
  /// kernel was let go by the kernel cache and by every launch).
  static bool alive(uint64_t Id);

private:
  static uint64_t newId();
};

/// Code of a kernel built after its first compile, on first use: the split entry, a GPU image.
struct LateCode {
  const struct CompiledKernel *Kernel;
  const char *Part;   ///< "split entry", "cuda sm_80", "cuda sm_80 split"
  bool FromDisk;      ///< loaded from the disk cache rather than compiled
  std::chrono::steady_clock::time_point Start, End;
};
/// Who hears of late code (src/profile reports it as a compile; jit knows no observers). Set once,
/// before kernels run; null: nobody.
using LateCodeObserver = void (*)(const LateCode &);
void setLateCodeObserver(LateCodeObserver Observer);

struct CompiledKernel {
  /// The analysis. After a load from the disk cache only its runtime part (arguments,
  /// reductions, split plan: InfoComplete false); completeInfo() analyses again when code
  /// must be generated (a split entry or a GPU architecture not yet on disk).
  analysis::KernelInfo Info;
  bool InfoComplete = true;
  llvm::Expected<const analysis::KernelInfo *> completeInfo() const;
  /// Its disk cache entry: later artifacts (split entry, GPU images) are read from and added to
  /// it.
  DiskSlot Disk;
  std::string HostSource;             ///< generated C (JACC_DEBUG=codegen prints it)
  llvm::SmallVector<char, 0> Object;  ///< the host object linked by the JIT
  void *Entry = nullptr;              ///< host entry point (every device computes everything)
  std::shared_ptr<const void> Code;   ///< keeps Entry's code loaded (jit/host/HostJIT.h)
  std::unique_ptr<CallInterface> Call;
  /// The split entry (Info.Split.Enabled only), compiled on first use: a kernel that only ever
  /// runs on one device, or in duplicate mode, never pays for it. Thread-safe.
  llvm::Expected<const SplitCode *> splitCode() const;
  /// The plain or split entry for a GPU of compute capability Sm, generated and compiled by
  /// NVRTC on first use, then kept (failures too: a kernel that cannot compile for CUDA is not
  /// recompiled at every launch). Thread-safe.
  llvm::Expected<const CudaCode *> cudaCode(unsigned Sm, bool Split) const;

private:
  mutable std::once_flag CompleteOnce;
  mutable std::unique_ptr<analysis::KernelInfo> Complete;
  mutable SavedError CompleteFailure;
  mutable std::mutex CudaMutex;
  mutable std::map<std::pair<unsigned, bool>, std::unique_ptr<CudaCode>> CudaCodes;
  mutable std::map<std::pair<unsigned, bool>, SavedError> CudaFailures;

  mutable std::once_flag SplitOnce;
  mutable std::unique_ptr<SplitCode> Split;
  mutable SavedError SplitFailure;

public:
  double AnalysisMs = 0, CompileMs = 0;
  /// How profiling names the kernel (src/profile/KernelNames), set on first use.
  mutable std::atomic<const void *> ObservedName{nullptr};
  /// Its specialized variants (JACC_SPECIALIZE): chosen at each push, compiled in the background.
  mutable KernelVariants Variants;
};

/// JACC_CUDA_VERIFY=75,80,90 (the test suites set it): the GPU architectures every kernel is
/// also generated and compiled for by NVRTC, both entries, launch ABI checked (a failure fails
/// the push): machines without a GPU verify the CUDA path this way. Empty when unset; read at
/// each compile. JACC_CUDA_VERIFY=source gives {CudaSourceOnly}.
llvm::Expected<std::vector<unsigned>> cudaVerifyArchsFromEnv();
/// The architecture that stands for JACC_CUDA_VERIFY=source: the CUDA entries are generated,
/// not compiled (the sanitized tests: NVRTC is not instrumented, and the normal build's tests
/// compile the same kernels).
inline constexpr unsigned CudaSourceOnly = 0;

/// Bits of a compile's CodeFlags (part of both caches' keys): how the code is generated.
enum CodeFlag : unsigned {
  /// JACC_CHECK=bounds: every element access checked (KernelInfo::CheckBounds).
  CodeCheckBounds = 1,
};

/// Analyse, generate, compile and link a kernel. Not cached in memory: see KernelCache. With a
/// Disk slot, the kernel is stored there as soon as its host code is compiled.
llvm::Expected<std::shared_ptr<const CompiledKernel>>
compileKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls,
              const DiskSlot &Disk = {}, unsigned CodeFlags = 0);

} // namespace jacc::jit

#endif
