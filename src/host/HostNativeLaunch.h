// A native implementation's part on a host device: one call on the thread that runs the
// device's work (the caller of a synchronous push, the device's stream thread for an async one),
// not one per team member: the function parallelises itself (a threaded BLAS, OpenMP) over the
// device's compute_units.
#ifndef JACC_SRC_HOST_HOSTNATIVELAUNCH_H
#define JACC_SRC_HOST_HOSTNATIVELAUNCH_H

#include "src/host/HostLaunch.h"
#include "src/launch/NativeLaunch.h"

namespace jacc {

class HostNativeLaunch final : public NativeLaunch, public HostLaunch {
public:
  using NativeLaunch::NativeLaunch;
  void runMember(unsigned Tid, unsigned NThreads, void *Team,
                 void (*Barrier)(void *Team)) override;
  bool runsAlone() const override { return true; }
};

} // namespace jacc

#endif
