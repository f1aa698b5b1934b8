// One compiled kernel's launch on one device: argument values translated to that device's copies,
// the partial reduction results it produces, the split information it reports, and what to do
// when it is done. The host and CUDA launches differ only in how they run (runHostMember,
// enqueueCuda); the scheduler and the exchange see this common part.
#ifndef JACC_SRC_LAUNCH_KERNELLAUNCH_H
#define JACC_SRC_LAUNCH_KERNELLAUNCH_H

#include "jit/CompiledKernel.h"
#include "src/Device.h"
#include "src/launch/SplitGroup.h"

#include <llvm/ADT/SmallVector.h>

#include <functional>
#include <memory>
#include <vector>

namespace jacc {

/// Argument cells, inline for up to 16 parameters: no allocation on the push path.
using ArgCells = llvm::SmallVector<uint64_t, 32>;

class KernelLaunch : public DeviceLaunch {
public:
  /// Cells: one 16-byte cell per entry parameter (ArgInfo::Param order), pointers already
  /// translated. Aggregates: for struct parameters, their bytes.
  KernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
               std::shared_ptr<const std::vector<std::vector<char>>> Aggregates);

  /// Partial reduction results: one per host thread, one per CUDA block.
  unsigned partials() const { return Partials; }
  /// Partial Part's slot for reduction R (8 bytes).
  const void *reductionSlot(unsigned Part, unsigned R) const {
    return &Slots[Part * NumReductions + R];
  }
  /// Run the split entry as device Device of NDevices (Cells then hold the split parameters),
  /// narrowing the iterations when Narrow; Group exchanges the results after the kernel.
  void setSplit(unsigned Device, unsigned NDevices, bool Narrow, std::shared_ptr<SplitGroup> G);
  const long long *splitInfo() const { return SplitInfo.data(); }
  /// Called by finished() once the device's part is done.
  std::function<void(const KernelLaunch &)> OnFinished;
  void finished() override;

protected:
  std::shared_ptr<const jit::CompiledKernel> K;
  ArgCells Cells; // 2 words per parameter
  std::shared_ptr<const std::vector<std::vector<char>>> Aggregates;
  unsigned NumReductions;
  unsigned Partials = 0;
  std::vector<uint64_t> Slots; ///< Partials x NumReductions, filled by the kernel
  bool Split = false;
  bool Narrow = false;
  unsigned Device = 0, NDevices = 1;
  std::vector<long long> SplitInfo;
  std::shared_ptr<SplitGroup> Group;
};

class HostKernelLaunch final : public KernelLaunch {
public:
  /// Threads: the team size of the device (one reduction partial per thread).
  HostKernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                   std::shared_ptr<const std::vector<std::vector<char>>> Aggregates,
                   unsigned Threads);
  /// Run the split entry (compiled, see CompiledKernel::splitCode) instead of the plain one.
  void useSplitEntry(const jit::SplitCode &Code) { SplitEntry = &Code; }
  /// Run variant V's entry (the plain or split one, as chosen) instead of the generic one: same
  /// parameters, so the generic call interface calls it.
  void useVariant(const jit::VariantCode &V) { Variant = &V; }
  void runHostMember(unsigned Tid, unsigned NThreads, void *Team,
                     void (*Barrier)(void *Team)) override;

private:
  const jit::SplitCode *SplitEntry = nullptr;
  const jit::VariantCode *Variant = nullptr;
};

} // namespace jacc

#endif
