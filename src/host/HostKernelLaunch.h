// A kernel's launch on a host device: the JIT'd entry (plain, split, or a variant's) called
// through the kernel's libffi call interface by every team member, with its team descriptor.
#ifndef JACC_SRC_HOST_HOSTKERNELLAUNCH_H
#define JACC_SRC_HOST_HOSTKERNELLAUNCH_H

#include "src/host/HostLaunch.h"
#include "src/launch/KernelLaunch.h"

namespace jacc {

class HostKernelLaunch final : public KernelLaunch, public HostLaunch {
public:
  /// Threads: the team size of the device (one reduction partial per thread). SplitEntry: the
  /// kernel's compiled split entry, to run instead of the plain one; Variant: run the variant's
  /// entry, which takes the same parameters (the generic call interface calls it).
  HostKernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                   AggregateArgs Aggregates, unsigned Threads, const jit::SplitCode *SplitEntry,
                   const jit::VariantCode *Variant);
  void runMember(unsigned Tid, unsigned NThreads, void *Team,
                 void (*Barrier)(void *Team)) override;
  /// The entry runMember calls, unless the kernel has a barrier between its loop nests.
  const void *codeRunnableInTurn() const override;
  /// Each thread of its team a gang.
  Geometry geometry() const override { return {partials(), 1}; }

private:
  /// Call the entry this launch runs with the argument pointers Values.
  void callEntry(void **Values);
  const jit::SplitCode *SplitEntry = nullptr;
  const jit::VariantCode *Variant = nullptr;
};

} // namespace jacc

#endif
