#include "src/launch/KernelLaunch.h"

#include "jit/cache/KernelSummary.h"
#include "jit/host/HostABI.h"
#include "src/launch/BoundsReport.h"
#include "src/launch/SplitGroup.h"

namespace jacc {

KernelLaunch::KernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                           AggregateArgs Aggregates)
    : K(std::move(K)), Cells(std::move(Cells)), Aggregates(std::move(Aggregates)),
      NumReductions(this->K->Info.reductionSlots()) {}

void KernelLaunch::setSplit(unsigned D, SplitShare S, bool DoNarrow,
                            std::shared_ptr<SplitGroup> G) {
  Split = true;
  Device = D;
  Share = S;
  Narrow = DoNarrow;
  Group = std::move(G);
  SplitInfo.assign(JACC_SPLIT_INFO_WORDS * K->Info.Split.Plan.Arrays.size(), 0);
}

void KernelLaunch::checkBounds(llvm::ArrayRef<long long> Ranges, unsigned D) {
  Bounds = boundsBlock(K->Info, Ranges);
  BoundsDevice = D;
  BoundsKernel = describe() + " on device " + std::to_string(D);
}

llvm::Error KernelLaunch::takeFailure() {
  llvm::Error E = boundsViolation(K->Info, Bounds, BoundsDevice);
  if (!Bounds.empty())
    Bounds[0] = 0;
  return E;
}

std::string KernelLaunch::describe() const {
  return jit::describeKernel(K->Info);
}

void KernelLaunch::finished() {
  if (Group)
    Group->deviceFinished(Device, *this);
  if (OnFinished)
    OnFinished(*this);
}

} // namespace jacc
