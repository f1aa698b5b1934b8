// A GPU through the CUDA Driver API (loaded at run time, src/cuda/DynamicCuda.h): its primary
// context, a launch stream for kernels (and the copies ordered with them), a copy stream for the
// caller-synchronous data operations, and an event poller thread that completes launches in order.
// It runs CudaLaunch work: kernels (CudaKernelLaunch) enqueue their NVRTC image's launch.
#ifndef JACC_SRC_CUDA_CUDADEVICE_H
#define JACC_SRC_CUDA_CUDADEVICE_H

#include "src/Device.h"
#include "src/cuda/CudaLibraries.h"

#include <llvm/ADT/StringRef.h>

#include <memory>
#include <string>

namespace jacc {

struct CudaDriver;

class CudaDevice final : public Device {
public:
  /// The GPU of this driver Ordinal as runtime device Index, named "cuda:<Ordinal>". Uses
  /// cudaDriver(); retains the GPU's primary context (released by the destructor). HandOffSpin:
  /// how long its event poller and the threads waiting for its tickets spin before they sleep.
  static llvm::Expected<std::unique_ptr<CudaDevice>>
  create(unsigned Index, int Ordinal, std::chrono::microseconds HandOffSpin = MaxHandOffSpin);
  /// The same with a given driver (tests load one explicitly); Driver must outlive the device.
  static llvm::Expected<std::unique_ptr<CudaDevice>>
  create(unsigned Index, int Ordinal, const CudaDriver &Driver,
         std::chrono::microseconds HandOffSpin = MaxHandOffSpin);
  /// Waits for every launch, then frees the streams, events, modules and the context reference.
  ~CudaDevice() override;

  int ordinal() const;
  /// 10 * major + minor compute capability, e.g. 80.
  unsigned smVersion() const;
  /// Streaming multiprocessors.
  unsigned computeUnits() const override;
  /// Whether cuLaunchCooperativeKernel is available (grid-wide barriers).
  bool cooperativeLaunch() const;
  /// The GPU's model, e.g. "NVIDIA A100-SXM4-40GB", and its memory in bytes.
  const std::string &model() const;
  size_t totalMemory() const;

  /// A function of an image (CUBIN or PTX), loaded into this device once per Key (cached,
  /// thread-safe; failures are not cached). Several entries of one image share its module.
  /// Before a new module is loaded, those of kernel images gone (cudaModuleGone) are unloaded.
  llvm::Expected<void *> loadFunction(const std::string &Key, llvm::StringRef Image,
                                      const char *Entry);
  /// How many blocks of BlockSize threads of Function fit on one SM at once.
  llvm::Expected<unsigned> maxActiveBlocksPerSM(void *Function, unsigned BlockSize);
  /// Enqueue on the device's launch stream (called from CudaLaunch::enqueue, in order).
  /// Params: cuLaunchKernel's kernelParams (one pointer per kernel parameter).
  llvm::Error launchKernel(void *Function, unsigned Grid, unsigned Block, void **Params,
                           bool Cooperative);
  /// Async copies on the launch stream, ordered with the kernels (reduction / split-info
  /// read-back). The host memory must stay valid until the launch's finished().
  llvm::Error copyToHostAsync(void *HostDst, const void *Src, size_t Bytes);
  llvm::Error copyToDeviceAsync(void *Dst, const void *HostSrc, size_t Bytes);
  /// The launch stream (a CUstream), which native implementations queue their work on.
  void *launchStream() const;

  /// Device memory for a launch's scratch (barrier words, split information, reduction
  /// partials) of at least Bytes, and its size in Capacity: a buffer an earlier launch gave back
  /// when one is big enough. Launches reuse them rather than free them: cuMemFree waits for the
  /// whole device, which would serialise the launch queue behind every launch's completion.
  llvm::Expected<void *> takeScratch(size_t Bytes, size_t &Capacity);
  /// Gives back a buffer of takeScratch once the launch that used it has completed.
  void giveScratch(void *Ptr, size_t Capacity);

  /// Variants are compiled for this GPU's architecture too.
  void addCodeTargets(jit::SpecializeSettings &S) const override;
  /// A CUDA library in the process (cuBLAS, cuFFT, ...) may write what the program hands it.
  bool nativeCodeMayWriteImpl() const override { return cudaLibraryLoaded(); }

private:
  struct Impl;
  explicit CudaDevice(unsigned Index, std::unique_ptr<Impl> P);

  DeviceProperties propertiesImpl() const override;
  llvm::Expected<void *> allocateImpl(size_t Bytes) override;
  llvm::Error releaseImpl(void *DevicePtr) override;
  llvm::Expected<void *> allocateUnifiedImpl(size_t Bytes) override;
  llvm::Error prefetchImpl(const void *Ptr, size_t Bytes, bool ReadMostly) override;
  llvm::Error copyToDeviceImpl(void *Dst, const void *HostSrc, size_t Bytes) override;
  llvm::Error copyToHostImpl(void *HostDst, const void *Src, size_t Bytes) override;
  /// Synchronous 2-D copies between host memory and this device on the copy stream.
  llvm::Error copyToDevice2DImpl(void *Dst, const void *HostSrc, size_t Width, size_t Height,
                                 size_t Pitch) override;
  llvm::Error copyToHost2DImpl(void *HostDst, const void *Src, size_t Width, size_t Height,
                               size_t Pitch) override;
  /// To another GPU: peer copies where cuDeviceCanAccessPeer allows, else staged through two
  /// pinned buffers; to a device of another backend, the generic path.
  llvm::Error copyToPeer2DImpl(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                               size_t Height, size_t Pitch) override;
  llvm::Error prepareCodeImpl(const jit::CompiledKernel &K, const LaunchCode &C) override;
  llvm::Expected<std::shared_ptr<KernelLaunch>>
  constructLaunchImpl(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                      AggregateArgs Aggregates, const LaunchCode &C) override;
  llvm::Expected<uint64_t> launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) override;
  llvm::Error waitForImpl(uint64_t Ticket) override;
  uint64_t lastTicketImpl() const override;
  uint64_t completedTicketImpl() const override;

  /// The staged path of a peer copy (no peer access): through pinned host memory.
  llvm::Error copyStaged(CudaDevice &Peer, char *Dst, const char *Src, size_t Width, size_t Height,
                         size_t Pitch);

  std::unique_ptr<Impl> P;
};

} // namespace jacc

#endif
