// Whether a push runs split or duplicated on several devices: the push's flags, JACC_SPLIT, and
// per kernel the adaptive chooser's measurements (src/launch/Adaptive.h).
#ifndef JACC_SRC_LAUNCH_SPLITCHOICE_H
#define JACC_SRC_LAUNCH_SPLITCHOICE_H

#include "analysis/Kernel.h"
#include "src/launch/Adaptive.h"
#include "support/Error.h"

namespace jacc {

class SplitChoice {
public:
  /// JACC_SPLIT: per kernel from measured launches, always, or never; One: every kernel on one
  /// device (LaunchChooser; this chooser is then asked nothing).
  enum class Policy { Auto, Always, Never, One };
  void setPolicy(Policy P) { Mode = P; }
  Policy policy() const { return Mode; }

  struct Decision {
    bool Split = false;   ///< run the split entry on every device
    bool Measure = false; ///< time the launch for the adaptive chooser (record() it)
  };
  /// The mode of a push of kernel Kernel (Info its analysis) with jacc_kernel_push Flags on
  /// NDevices devices. WhenAble: the kernel runs split whenever it can, unmeasured, because a
  /// policy other than the even split was asked for (the chooser would not know what it is
  /// worth) or the program's regime spreads it (what a split costs the kernels after it is the
  /// regime's to weigh; a price of the kernel's own launch cannot see it). Unsupported when
  /// JACC_FORCE_SPLIT asks for a kernel that cannot split.
  llvm::Expected<Decision> choose(const void *Kernel, const analysis::KernelInfo &Info,
                                  unsigned Flags, unsigned NDevices, bool Async,
                                  bool WhenAble = false);
  /// A measured launch (Decision::Measure) of Kernel.
  void record(const void *Kernel, const MeasuredLaunch &L) { Adaptive.record(Kernel, L); }
  /// Forget Kernel (it left the kernel cache).
  void forget(const void *Kernel) { Adaptive.forget(Kernel); }

private:
  Policy Mode = Policy::Auto;
  AdaptiveChooser Adaptive;
};

} // namespace jacc

#endif
