// A native part on a host device: one call, by team member 0, its failure kept for the device.
#include "src/host/HostNativeLaunch.h"

namespace jacc {

void HostNativeLaunch::runMember(unsigned Tid, unsigned, void *, void (*)(void *)) {
  if (Tid == 0)
    Failure.keep(call(/*Stream=*/nullptr)); // the device reports it through takeFailure()
}

} // namespace jacc
