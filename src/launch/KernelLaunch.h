// One compiled kernel's launch on one device: argument values translated to that device's copies,
// the partial reduction results it produces, the split information it reports, and what to do
// when it is done. Backends derive their launch from it (src/host/HostKernelLaunch.h,
// src/cuda/CudaKernelLaunch.h); the scheduler and the exchange see only this common part.
#ifndef JACC_SRC_LAUNCH_KERNELLAUNCH_H
#define JACC_SRC_LAUNCH_KERNELLAUNCH_H

#include "jit/CompiledKernel.h"
#include "src/DeviceLaunch.h"
#include "src/LaunchCode.h"

#include <functional>
#include <memory>
#include <vector>

namespace jacc {

class SplitGroup;

/// A device's share of a split launch: the part [Begin / Scale, End / Scale) of the outermost
/// iterations (reductions) and of each split array's owned range. Passed to the generated code
/// at launch (its team's share_* words), never compiled in: shares may differ per device.
struct SplitShare {
  long long Begin = 0, End = 1, Scale = 1;
  /// Device D's equal share among N devices.
  static SplitShare equal(unsigned D, unsigned N) { return {D, D + 1ll, N}; }
};

class KernelLaunch : public DeviceLaunch {
public:
  /// Cells: one 16-byte cell per entry parameter (ArgInfo::Param order), pointers already
  /// translated. Aggregates: for struct parameters, their bytes.
  KernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
               AggregateArgs Aggregates);

  /// Partial reduction results: one per host thread, one per CUDA block.
  unsigned partials() const { return Partials; }
  /// Partial Part's 8-byte slot number Slot (ReductionVar::Slot, + i for an array's element i).
  const void *reductionSlot(unsigned Part, unsigned Slot) const {
    return &Slots[Part * NumReductions + Slot];
  }
  /// Run the split entry as device Device of the group G (Cells then hold the split
  /// parameters) on its Share, narrowing the iterations when Narrow; G exchanges the results
  /// after the kernel.
  void setSplit(unsigned Device, SplitShare Share, bool Narrow, std::shared_ptr<SplitGroup> G);
  const long long *splitInfo() const { return SplitInfo.data(); }
  /// Split array I (KernelInfo::Split.Plan.Arrays) is computed whole here after all: the "not
  /// split" bounds, and every iteration run.
  void keepWhole(size_t I);
  /// Run the read probe (jit/ReadProbe.h) of this split launch on the calling thread: the
  /// kernel's host split entry, whatever the device, on a team of one with this launch's cells,
  /// share and narrowing, where each pointer argument is its host value (ArgHosts, by argument
  /// position; the probe may read memory, which a GPU's address is not). It reports the split
  /// information and the read extents of this device's iterations and runs none of them.
  /// False when the host split code cannot be had (then nothing ran).
  bool probe(llvm::ArrayRef<void *> ArgHosts);
  /// What the last probe() wrote: jit::extentWords per read extent of the kernel.
  const long long *readInfo() const { return ReadInfo.data(); }
  /// Called once the launch is split (setSplit) and before it is queued, with the pointer
  /// arguments' host values by position: a native implementation's launch computes its part
  /// (src/launch/NativeLaunch.h); Disjoint: the devices share one memory.
  virtual llvm::Error prepare(llvm::ArrayRef<void *> /*ArgHosts*/, bool /*Disjoint*/) {
    return llvm::Error::success();
  }
  /// JACC_CHECK=bounds: check the kernel's accesses against Ranges (LaunchPlan::Bounds), on
  /// device Device (for the message).
  void checkBounds(llvm::ArrayRef<long long> Ranges, unsigned Device);
  /// The bounds violation the kernel recorded, once.
  llvm::Error takeFailure() override;
  /// Called by finished() once the device's part is done.
  std::function<void(const KernelLaunch &)> OnFinished;
  void finished() override;
  /// "kernel 'for (int i = 0; i < n; i++) y[i] += a * x[i];'" (its first loop's line).
  std::string describe() const override;

protected:
  std::shared_ptr<const jit::CompiledKernel> K;
  ArgCells Cells; // 2 words per parameter
  AggregateArgs Aggregates;
  unsigned NumReductions; ///< slots per partial (KernelInfo::reductionSlots)
  unsigned Partials = 0;
  std::vector<uint64_t> Slots; ///< Partials x NumReductions, filled by the kernel
  bool Split = false;
  bool Narrow = false;
  unsigned Device = 0;
  SplitShare Share;
  std::vector<long long> SplitInfo;
  std::vector<long long> ReadInfo; ///< a probe's read extents
  std::shared_ptr<SplitGroup> Group;
  /// JACC_CHECK=bounds: the bounds block (src/launch/BoundsReport.h), else empty.
  std::vector<long long> Bounds;
  unsigned BoundsDevice = 0;
  std::string BoundsKernel; ///< "kernel '...' on device 1", for a fault's report
};

} // namespace jacc

#endif
