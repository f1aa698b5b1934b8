// One split kernel launch across the devices: after every device ran its part, each pulls the
// ranges the others own and may have written (the exchange), the reductions are combined once,
// and no device starts its next work before every exchange is complete.
#ifndef JACC_SRC_LAUNCH_SPLITGROUP_H
#define JACC_SRC_LAUNCH_SPLITGROUP_H

#include "analysis/Kernel.h"
#include "src/Device.h"
#include "src/data/PresentTable.h"
#include "support/SavedError.h"
#include "support/SpinWait.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace jacc {

class KernelLaunch;

/// A split array as the runtime maps it for one launch.
struct SplitTarget {
  unsigned Info = 0;           ///< index of its words in each device's split_info
  uintptr_t Pointer = 0;       ///< the host pointer the kernel indexes from
  uintptr_t Begin = 0, End = 0;///< its mapping
  std::vector<void *> DevicePtrs; ///< the mapping's copy on each device (address of Begin)
  Mapping *Map = nullptr;         ///< the mapping, when split
  bool Split = true;           ///< false: aliased, every device computes it whole, no exchange
  /// Other pointer arguments into its mapping that the kernel reads after a write of the
  /// iteration (by argument index): split only when the probes show that those reads miss
  /// every byte written (aliasedReadsMissWrites).
  std::vector<unsigned> AliasReads;
};

class SplitGroup {
public:
  /// Devices: by device index, null for a device without a part (its data lives at a location
  /// without it); the others are the group's members.
  /// Spin: how members waiting for the others spin before they sleep (null: they sleep at once).
  SplitGroup(std::vector<Device *> Devices, std::vector<SplitTarget> Targets,
             SpinPolicy *Spin = nullptr);

  /// JACC_EXCHANGE=demand, the launch probed: nothing moves after the kernel (the next user
  /// of the data fetches what it lacks) and no device waits for the others. The reductions are
  /// combined by the last device to finish, which needs the others' launches kept alive.
  void withoutExchange(std::vector<std::shared_ptr<const KernelLaunch>> Launches);
  /// Target I is computed whole by every device after all (its aliased reads meet its writes).
  void keepWhole(size_t I) { Targets[I].Split = false; }

  /// Called by each member once its part of the kernel is done (on the thread that ran it):
  /// waits for the others, pulls their ranges, runs OnAllComputed on the first member, waits
  /// again.
  void deviceFinished(unsigned D, const KernelLaunch &L);

  /// Runs on the first member once every member has computed, with every member's launch.
  std::function<void(const std::vector<const KernelLaunch *> &)> OnAllComputed;

  /// The first error of the exchange, if any.
  llvm::Error takeError();

  /// Byte ranges [first, second) relative to the mapping's begin that device D's launch owns
  /// and may have written for target T (rows of a strided split are listed one by one).
  static std::vector<std::pair<uint64_t, uint64_t>> ownedWritten(const SplitTarget &T,
                                                                 const long long *Info);

private:
  void rendezvous(unsigned Phase);
  /// The members' launches, in device order.
  std::vector<const KernelLaunch *> memberLaunches() const;

  std::vector<Device *> Devices;
  unsigned Members = 0, Lead = 0; ///< how many members; the first one's device
  std::vector<SplitTarget> Targets;
  std::vector<const KernelLaunch *> Launches;
  std::mutex M;
  std::condition_variable CV;
  SpinPolicy *Spin;
  std::atomic<unsigned> Arrived[2] = {0, 0};
  SavedError Failure; ///< the first error of any device's pulls
  bool Exchange = true;
  unsigned Finished = 0;                                 ///< devices done, without exchange
  std::vector<std::shared_ptr<const KernelLaunch>> Kept; ///< until the reductions are combined
};

} // namespace jacc

#endif
