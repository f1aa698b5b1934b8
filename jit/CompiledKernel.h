// A compiled kernel: what the analysis learnt, its host code and entry point, and its code for
// device targets (jit/CodeTarget.h) built on first use.
#ifndef JACC_JIT_COMPILEDKERNEL_H
#define JACC_JIT_COMPILEDKERNEL_H

#include "analysis/Kernel.h"
#include "jit/CodeTarget.h"
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

/// The split entry of a kernel, compiled the first time the kernel runs split.
struct SplitCode {
  std::string HostSource;
  llvm::SmallVector<char, 0> Object;
  void *Entry = nullptr;
  std::shared_ptr<const void> Code; ///< keeps Entry's code loaded (jit/host/HostJIT.h)
  std::unique_ptr<CallInterface> Call;
  double CompileMs = 0;
};

/// Code of a kernel built after its first compile, on first use: the split entry, a GPU image.
struct LateCode {
  const struct CompiledKernel *Kernel;
  const char *Part;   ///< "split entry", or a device target's CodeTarget::part()
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
  /// Its disk cache entry: later artifacts (split entry, device code) are read from and added
  /// to it.
  DiskSlot Disk;
  std::string HostSource;             ///< generated C (JACC_DEBUG=codegen prints it)
  llvm::SmallVector<char, 0> Object;  ///< the host object linked by the JIT
  void *Entry = nullptr;              ///< host entry point (every device computes everything)
  std::shared_ptr<const void> Code;   ///< keeps Entry's code loaded (jit/host/HostJIT.h)
  std::unique_ptr<CallInterface> Call;
  /// The split entry (Info.Split.Enabled only), compiled on first use: a kernel that only ever
  /// runs on one device, or in duplicate mode, never pays for it. Thread-safe.
  llvm::Expected<const SplitCode *> splitCode() const;
  /// The plain or split entry for architecture Arch of Target, loaded from the disk entry or
  /// built on first use, then kept (failures too: a kernel the target cannot compile is not
  /// compiled again at every launch). Thread-safe.
  llvm::Expected<const DeviceCode *> deviceCode(const CodeTarget &Target, unsigned Arch,
                                                bool Split) const;

private:
  mutable std::once_flag CompleteOnce;
  mutable std::unique_ptr<analysis::KernelInfo> Complete;
  mutable SavedError CompleteFailure;
  mutable std::mutex DeviceMutex;
  mutable std::map<CodeKey, std::unique_ptr<DeviceCode>> DeviceCodes;
  mutable std::map<CodeKey, SavedError> DeviceFailures;

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
