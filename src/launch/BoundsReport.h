// JACC_CHECK=bounds at run time: a launch's bounds block (jit/host/HostABI.h), built from the
// launch plan's ranges, and the push's error its violation record becomes:
//   kernel:4:7: write y[1048580] outside its mapping [0, 1048576) on device 1
// or, for a write a split launch's predicates should have kept in the device's owned range,
//   kernel:4:7: write y[600] outside device 1's owned range [512, 1024) of y in a split launch:
//   the split predicates failed to filter it; this is a jacc bug, please report it (...)
#ifndef JACC_SRC_LAUNCH_BOUNDSREPORT_H
#define JACC_SRC_LAUNCH_BOUNDSREPORT_H

#include "analysis/Kernel.h"
#include "support/Error.h"

#include <llvm/ADT/ArrayRef.h>

#include <vector>

namespace jacc {

/// A launch's bounds block: an empty record, Ranges (LaunchPlan::Bounds) and scratch bytes as
/// large as the largest pointee of K's arguments.
std::vector<long long> boundsBlock(const analysis::KernelInfo &K, llvm::ArrayRef<long long> Ranges);

/// The error of Block's violation record on device Device (ErrorCode::Bounds), or success when
/// it holds none.
llvm::Error boundsViolation(const analysis::KernelInfo &K, llvm::ArrayRef<long long> Block,
                            unsigned Device);

} // namespace jacc

#endif
