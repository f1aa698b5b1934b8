// A device's part of a split launch run by a native implementation (src/launch/NativeKernels.h)
// instead of the generated code. The part is the generated code's: the read probe (the kernel's
// host split entry, jit/ReadProbe.h) computes this device's iterations of the partitioned loop,
// its reduction share and its split information, so the exchange, the validity map and the
// reductions treat the launch as any other. Each backend derives the launch its devices run
// (src/host/HostNativeLaunch.h: one call on the device's thread; src/cuda/CudaNativeLaunch.h: a
// call that queues work on the launch stream).
#ifndef JACC_SRC_LAUNCH_NATIVELAUNCH_H
#define JACC_SRC_LAUNCH_NATIVELAUNCH_H

#include "src/launch/KernelLaunch.h"
#include "src/launch/NativeKernels.h"
#include "support/SavedError.h"

#include <string>
#include <vector>

namespace jacc {

/// Who runs a native part: the device's index and name, and its compute units.
struct NativeDevice {
  unsigned Index = 0;
  std::string Name;
  unsigned ComputeUnits = 0;
};

class NativeLaunch : public KernelLaunch {
public:
  /// Cells and Aggregates: as a KernelLaunch's, for this device (pointers translated).
  NativeLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
               AggregateArgs Aggregates, NativeImpl Impl, NativeDevice On);

  /// Probes the launch (once split) and computes its part. Disjoint (one memory for every
  /// device): the iterations are the reduction share, which no other device's overlaps.
  llvm::Error prepare(llvm::ArrayRef<void *> ArgHosts, bool Disjoint) override;
  /// What the function is given (valid once prepared; stream set by call()).
  const jacc_native_part &part() const { return Part; }
  /// The function's failure, else the base's (a bounds record).
  llvm::Error takeFailure() override;
  std::string describe() const override;

protected:
  /// Calls the function with Stream (a GPU's; null on host devices), unless the part is empty:
  /// Device naming its failure.
  llvm::Error call(void *Stream);
  /// A failure call() returned where the backend reports it through takeFailure().
  SavedError Failure;

private:
  NativeImpl Impl;
  NativeDevice On;
  std::vector<void *> ArgValues; ///< jacc_native_part::args
  jacc_native_part Part{};
};

} // namespace jacc

#endif
