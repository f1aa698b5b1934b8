// Which devices a launch runs on when data lives at locations (Gecko's memory at a location,
// docs/locations.md): a device without a copy of something the kernel uses cannot run it, so
// the launch goes to the devices holding every mapping it uses. Those must include every device
// the kernel targets: otherwise the push fails naming the array, where it lives and the fix.
#ifndef JACC_SRC_LAUNCH_LAUNCHDEVICES_H
#define JACC_SRC_LAUNCH_LAUNCHDEVICES_H

#include "src/launch/LaunchPlan.h"

namespace jacc {

/// The devices holding a copy of each of Used (every one of NDevices when Used is empty).
HolderSet devicesHolding(llvm::ArrayRef<Mapping *> Used, unsigned NDevices);

/// InvalidArgument unless P.Devices holds the devices O targets (a deviceptr kernel's owner
/// instead, which runs it alone), naming the first mapping that lacks a copy, the kernel, its
/// target and the fix. ArgMapping: by argument position, the mapping each pointer points into.
llvm::Error checkLaunchDevices(const analysis::KernelInfo &Info, const jacc_arg *Args,
                               const LaunchPlan &P, const PlanOptions &O,
                               llvm::ArrayRef<Mapping *> ArgMapping, DataEnvironment &Data);

} // namespace jacc

#endif
