// One compiled kernel's launch on one host device: argument values translated to that device's
// copies, per-thread reduction slots, and what to do when every thread is done.
#ifndef JACC_SRC_KERNELLAUNCH_H
#define JACC_SRC_KERNELLAUNCH_H

#include "CompiledKernel.h"
#include "Device.h"
#include "SplitGroup.h"

#include <llvm/ADT/SmallVector.h>

#include <functional>
#include <memory>
#include <vector>

namespace jacc {

/// Argument cells, inline for up to 16 parameters: no allocation on the push path.
using ArgCells = llvm::SmallVector<uint64_t, 32>;

class HostKernelLaunch final : public DeviceLaunch {
public:
  /// Cells: one 16-byte cell per entry parameter (ArgInfo::Param order), pointers already
  /// translated. Aggregates: for struct parameters, their bytes (the cell then points to them).
  HostKernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                   std::shared_ptr<const std::vector<std::vector<char>>> Aggregates,
                   unsigned Threads);
  void runHostMember(unsigned Tid, unsigned NThreads, void *Team,
                     void (*Barrier)(void *Team)) override;
  void finished() override;

  /// Thread Tid's slot for reduction R (8 bytes).
  const void *reductionSlot(unsigned Tid, unsigned R) const {
    return &Slots[Tid * NumReductions + R];
  }
  unsigned threads() const { return Threads; }
  /// Called by finished(), on the thread that ran member 0.
  std::function<void(const HostKernelLaunch &)> OnFinished;

  /// Run the split entry as device Device of NDevices (Cells then hold the split parameters),
  /// narrowing the iterations when Narrow; Group exchanges the results after the kernel.
  void setSplit(const jit::SplitCode &Code, unsigned Device, unsigned NDevices, bool Narrow,
                std::shared_ptr<SplitGroup> G);
  const long long *splitInfo() const { return SplitInfo.data(); }

private:
  std::shared_ptr<const jit::CompiledKernel> K;
  ArgCells Cells; // 2 words per parameter
  std::shared_ptr<const std::vector<std::vector<char>>> Aggregates;
  unsigned Threads;
  unsigned NumReductions;
  std::vector<uint64_t> Slots;
  const jit::SplitCode *SplitEntry = nullptr; ///< set: run the split entry
  bool Narrow = false;
  unsigned Device = 0, NDevices = 1;
  std::vector<long long> SplitInfo;
  std::shared_ptr<SplitGroup> Group;
};

} // namespace jacc

#endif
