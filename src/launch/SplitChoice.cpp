// Split or duplicate for one push: the forcing flags (a distributed or spread push splits when it
// can), then JACC_SPLIT's policy or the adaptive chooser, and whether the launch is timed for the
// chooser.
#include "src/launch/SplitChoice.h"

#include "jacc/jacc.h"

namespace jacc {

llvm::Expected<SplitChoice::Decision> SplitChoice::choose(const void *Kernel,
                                                          const analysis::KernelInfo &Info,
                                                          unsigned Flags, unsigned NDevices,
                                                          bool Async, bool WhenAble) {
  Decision D;
  if (WhenAble && NDevices > 1 && !(Flags & JACC_FORCE_DUPLICATE) && Info.Split.Enabled)
    Flags |= JACC_FORCE_SPLIT;
  bool Forced = Flags & (JACC_FORCE_SPLIT | JACC_FORCE_DUPLICATE);
  if (Flags & JACC_FORCE_SPLIT) {
    if (!Info.Split.Enabled)
      return makeError(ErrorCode::Unsupported,
                       "jacc_kernel_push: JACC_FORCE_SPLIT, but this kernel cannot be split: " +
                           Info.Split.Fallback);
    D.Split = true;
  } else if (!Forced && NDevices > 1 && Info.Split.Enabled && Mode != Policy::Never) {
    D.Split = Mode == Policy::Always || Adaptive.chooseSplit(Kernel);
  }
  // Only the adaptive choice needs the launch's duration.
  D.Measure = !Async && NDevices > 1 && Info.Split.Enabled && Mode == Policy::Auto && !Forced;
  return D;
}

} // namespace jacc
