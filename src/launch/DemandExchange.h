// Moving only what the next kernel reads. Before a launch, each device is given what
// its part will read and it does not hold current, fetched on the pushing thread from a device
// that holds it: for a probed split launch (JACC_EXCHANGE=demand and an exact probe, on any
// device: jit/ReadProbe.h) the read extents of its iterations; otherwise the whole of every
// mapping the kernel uses. After a probed split launch nothing moves: each device's owned and
// written ranges are recorded as current there alone. Under the present table's lock, in push
// order, so that the validity maps describe the queued work.
#ifndef JACC_SRC_LAUNCH_DEMANDEXCHANGE_H
#define JACC_SRC_LAUNCH_DEMANDEXCHANGE_H

#include "src/data/DataEnvironment.h"
#include "src/launch/ExchangeMemo.h"
#include "src/launch/LaunchPlan.h"

#include <memory>
#include <optional>

namespace jacc {

/// Probe every device's split launch (Launches: by device, null for a device without a launch;
/// at least two have one). False (and the launch exchanges eagerly) when the kernel's
/// probe is not exact or the host split code cannot be had. A split along an inner dimension
/// (a column split) is probed too: its ranges are bands of every row, fetched in 2-D.
bool probeSplitLaunches(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                        llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches);

/// Why the reads of a split array's aliases (SplitTarget::AliasReads), over every device's
/// probed part, may meet a byte the array's devices write, or empty when they miss them all:
/// then each device's reads see what they would on one device. Not probed, or a read's extent
/// not known, they may.
std::string aliasedReadsMeetWrites(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                                   llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                                   bool Probed);

/// Make current on each device what its launch will read: when Probed, the read extents and
/// the owned and written ranges of its split arrays (a write hull may hold elements it does not
/// write); else every mapping the plan uses, whole. The copies are added to Cost. Unified
/// memory (JACC_MEMORY=unified) moves nothing but is prefetched to the device, read-mostly when
/// the kernel does not write it. Memo: a probed launch's ranges are listed once per probe
/// result and walked only when a map changed since they were last found current there;
/// ListedOnce is set when they were listed for a new result the memo keeps (a cost the
/// kernel's next launches with that result do not pay).
llvm::Error fetchForLaunch(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                           llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches, bool Probed,
                           DataEnvironment &Data, CopyCost &Cost,
                           std::optional<ExchangeMemo::Use> Memo = std::nullopt,
                           bool *ListedOnce = nullptr);

/// After a probed split launch was queued: each device's owned and written ranges of each
/// split array are current on that device alone. Launches: by device, null for a device
/// without a launch. Memo: the one fetchForLaunch was given for the launch.
void recordSplitWrites(const LaunchPlan &Plan,
                       llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                       std::optional<ExchangeMemo::Use> Memo = std::nullopt);

/// After a launch that is not probed was queued on some devices only (On: its data lives at a
/// location, or it runs on one device): every mapping the kernel may write is current on those
/// devices alone. Each of them held all of it before (the launch fetched it whole), and computes
/// or receives (the eager exchange) what the kernel writes; the other copies are stale.
void recordWholeWrites(const analysis::KernelInfo &Info, const LaunchPlan &Plan, HolderSet On);

} // namespace jacc

#endif
