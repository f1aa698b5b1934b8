// A kernel's launch on a CUDA device: the image for the device's architecture (compiled on first
// use and kept by the CompiledKernel), the argument buffer laid out as the PTX entry expects
// (jit/cuda/CudaLaunchABI.h checks that layout against every compiled image), the grid, and the
// read-back of reduction partials and split information, all enqueued in order on the device's
// stream; finished() runs once the device's event poller saw them complete.
#ifndef JACC_SRC_CUDA_CUDAKERNELLAUNCH_H
#define JACC_SRC_CUDA_CUDAKERNELLAUNCH_H

#include "jit/cuda/CudaCodeTarget.h"
#include "src/cuda/CudaLaunch.h"
#include "src/launch/KernelLaunch.h"

namespace jacc {

/// The key a kernel image's module is loaded under on a GPU (CudaDevice::loadFunction): its
/// code's Id (jit::DeviceCode), never reused in a process.
std::string cudaModuleKey(const jit::CudaCode &Code);
/// Whether Key is the key of a kernel image whose CudaCode no longer exists (the kernel cache and
/// every launch let its kernel go): its module can be unloaded.
bool cudaModuleGone(llvm::StringRef Key);

class CudaKernelLaunch final : public KernelLaunch, public CudaLaunch {
public:
  /// Variant: launch its image for the device's architecture (compiled with the variant) instead
  /// of the generic one: same parameters.
  CudaKernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                   AggregateArgs Aggregates, const jit::VariantCode *Variant);
  ~CudaKernelLaunch() override;

  llvm::Error enqueue(CudaDevice &D) override;
  void finished() override;
  Geometry geometry() const override { return {Grid, Block}; }

  /// The launch geometry chosen by enqueue (for tests and JACC_DEBUG=launch).
  unsigned grid() const { return Grid; }
  unsigned block() const { return Block; }

  /// The argument buffer for S.Params, each parameter at its aligned offset (Buffer), and the
  /// pointer to each parameter in it (Pointers): what cuLaunchKernel reads as kernelParams.
  static void argumentBuffer(const jit::CudaKernelSource &S, const analysis::KernelInfo &Info,
                             const ArgCells &Cells,
                             const std::vector<std::vector<char>> *Aggregates, const void *Team,
                             std::vector<char> &Buffer, std::vector<void *> &Pointers);

private:
  unsigned Grid = 0, Block = 0;
  std::vector<char> Buffer;
  std::vector<void *> ParamPointers;
  CudaDevice *Dev = nullptr;
  const jit::VariantCode *Variant = nullptr;
  void *Scratch = nullptr; ///< barrier words, split information, reduction partials
  size_t ScratchCapacity = 0; ///< its size (CudaDevice::takeScratch)
  uint64_t ZeroBarrier[2] = {0, 0};
};

} // namespace jacc

#endif
