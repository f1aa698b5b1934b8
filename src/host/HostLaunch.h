// What a host device runs: a part per member of its thread team. Host devices accept only
// launches that implement this (kernel launches, and the tests' own).
#ifndef JACC_SRC_HOST_HOSTLAUNCH_H
#define JACC_SRC_HOST_HOSTLAUNCH_H

#include "src/DeviceLaunch.h"

namespace jacc {

class HostLaunch {
public:
  virtual ~HostLaunch() = default;
  /// Execute team member Tid's part. Team is the device's ThreadTeam, passed on to generated
  /// code for barriers. Called on every member of the team, concurrently; then the launch's
  /// finished() once, on the thread that ran member 0.
  virtual void runMember(unsigned Tid, unsigned NThreads, void *Team,
                         void (*Barrier)(void *Team)) = 0;
  /// The code the members run, naming the work for the device's ForkChoice, when the members
  /// may also run one after another on one thread (none waits for another at a barrier); null
  /// (the default) when they must run together, on the team.
  virtual const void *codeRunnableInTurn() const { return nullptr; }
  /// The work is one call, runMember(0, 1, ...) on the thread that runs the device's work,
  /// instead of a part per member (a native implementation, which uses the cores itself).
  virtual bool runsAlone() const { return false; }
  /// Members it was built for when more than the device's team: a launch that has the cores to
  /// itself runs on a team as large as all host devices' (0: the device's team).
  unsigned WideTeam = 0;
};

} // namespace jacc

#endif
