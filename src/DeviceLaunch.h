// What a device runs: one unit of work submitted to a Device's in-order queue. Each backend
// defines the interface its devices execute (HostLaunch: a part per team member; CudaLaunch:
// work enqueued on a stream) and accepts only launches that implement it.
#ifndef JACC_SRC_DEVICELAUNCH_H
#define JACC_SRC_DEVICELAUNCH_H

#include "src/profile/Events.h"

#include <llvm/Support/Error.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace jacc {

class DeviceLaunch {
public:
  virtual ~DeviceLaunch();
  /// What the launch runs, for messages ("kernel 'for (...)'").
  virtual std::string describe() const { return "device work"; }
  /// How it runs, for profiling tools: gangs (a host launch: its team's threads; a GPU's: its
  /// grid) and each gang's vector lanes (host: 1; GPU: its block); 0 while not known (a GPU
  /// launch's until it is enqueued).
  struct Geometry {
    unsigned Gangs = 0, VectorLength = 0;
  };
  virtual Geometry geometry() const { return {}; }
  /// Called once the launch's work has completed on its device, also when it failed (launch()
  /// or waitFor() reports the error). Host: on the thread that ran member 0. CUDA: on the
  /// device's event poller thread, which must not wait for later work of the same device.
  virtual void finished() {}
  /// What a backend calls when the work completed: the watchdog forgets it, then finished().
  void complete();
  /// The error the work itself reported, taken once after complete() (a JACC_CHECK=bounds
  /// violation); the backend reports it as the launch's error.
  virtual llvm::Error takeFailure() { return llvm::Error::success(); }

  /// Its watchdog token (Device::launch sets it; 0: not watched).
  uint64_t WatchToken = 0;

  /// Report this launch to the profiling listeners (src/profile): its enqueue and its run.
  void observe(uint64_t Push, prof::KernelName Kernel, prof::Mode How, long long ShareBegin = 0,
               long long ShareEnd = 1, long long ShareScale = 1);
  struct ObservedRun {
    prof::LaunchEvent Event;
    std::atomic<int64_t> *LastEnd = nullptr; ///< the device's (Device::launch sets it)
  };
  std::unique_ptr<ObservedRun> Observed; ///< null: not observed

  /// A run timed for the automatic balance (src/launch/Balance.h), set before Device::launch:
  /// it records the enqueue, complete() leaves the run's nanoseconds in Nanos (-1 until then).
  struct TimedRun {
    prof::Nanos Enqueued = 0;
    std::atomic<int64_t> *LastEnd = nullptr; ///< the device's (Device::launch sets it)
    std::atomic<int64_t> Nanos{-1};
  };
  std::unique_ptr<TimedRun> Timing; ///< null: not timed
};

} // namespace jacc

#endif
