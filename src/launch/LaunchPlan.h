// How one push binds to the devices, decided before anything runs: each device's argument cells
// (pointers translated through the present table), the mappings the kernel uses, the device a
// deviceptr kernel must run on, the split targets (aliasing and cut checks) and the reductions.
// Pure apart from reading the data environment's table, whose lock the caller holds.
#ifndef JACC_SRC_LAUNCH_LAUNCHPLAN_H
#define JACC_SRC_LAUNCH_LAUNCHPLAN_H

#include "jacc/jacc.h"
#include "jit/specialize/Specialization.h"
#include "src/data/DataEnvironment.h"
#include "src/launch/KernelLaunch.h"
#include "src/launch/NativeKernels.h"
#include "src/launch/Reduction.h"
#include "src/launch/SplitGroup.h"

#include <optional>
#include <string>
#include <vector>

namespace jacc {

struct LaunchPlan {
  /// The push's number for the profiling listeners (prof::LaunchEvent::Push); 0: not observed.
  uint64_t ObservedPush = 0;
  /// Each device's argument cells (a split launch: two more per split array, its mapping
  /// relative to the pointer in bytes).
  llvm::SmallVector<ArgCells, 4> Cells;
  /// Each device's bytes of the struct arguments (null when none): one vector shared by every
  /// device, unless a struct argument is present (mapped), whose device copies each device's
  /// launch gets (with the pointers attached in them).
  llvm::SmallVector<AggregateArgs, 4> Aggregates;
  /// The mappings the kernel may use: their last-use tickets advance with the launch.
  llvm::SmallVector<Mapping *, 8> Used;
  /// The devices the kernel runs on: those holding a copy of every mapping it uses (every
  /// device unless some data lives at a location). The others get no launch.
  HolderSet Devices = 0;
  /// By argument position: the mapping a pointer argument points into (null for others), and
  /// the pointer's host value.
  llvm::SmallVector<Mapping *, 16> ArgMappings;
  llvm::SmallVector<void *, 16> ArgHosts;
  /// What the binding proved about the pointer arguments, for a kernel that may assume it
  /// (KernelInfo::MayRestrict, MayAlign; false otherwise): each points into a mapping no other
  /// one points into; each device's copy of each is 64-byte aligned.
  jit::PointerFacts Pointers;
  /// A kernel given device memory (deviceptr) runs on the device that owns it, alone; the
  /// argument that decided it.
  std::optional<unsigned> Owner;
  std::string OwnerArg;
  /// A split launch: each split array's mapping, and whether it is really split.
  std::vector<SplitTarget> Targets;
  /// A split launch runs only the iterations each device's owned ranges need.
  bool Narrow = false;
  /// A split launch: each device's share (src/launch/Distribution.h); empty: equal shares.
  std::vector<SplitShare> Shares;
  /// Time each device's part (a synchronous launch): the scheduler then fills PartNanos, one
  /// per device (-1: unknown).
  bool TimeParts = false;
  std::vector<int64_t> PartNanos;
  ReductionResults Reductions;
  /// JACC_CHECK=bounds: per parameter, the [lo, hi) bytes relative to the pointer the kernel
  /// receives that it may reach (its argument's mapping; unbounded for other memory). Empty
  /// when not checking.
  std::vector<long long> Bounds;
  /// Filled by the scheduler: what was copied between devices before the kernel, and whether
  /// the exchange worked out its ranges for probe results new to it (a one-off cost).
  CopyCost Fetched;
  bool ListedOnce = false;
  /// Each device's native implementation (empty: every device runs the generated code).
  NativeChoice Natives;
  /// The code device D runs: Code, with its native implementation if it has one.
  LaunchCode codeOn(const LaunchCode &Code, unsigned D) const;
};

/// The code device D runs: Code, with its native implementation of Natives if it has one.
LaunchCode codeOn(const LaunchCode &Code, const NativeChoice &Natives, unsigned D);

/// What the push decided before binding.
struct PlanOptions {
  bool Split = false;  ///< the kernel runs split (its split entry)
  bool Narrow = true;  ///< JACC_NARROW
  bool CheckBounds = false; ///< JACC_CHECK=bounds: fill LaunchPlan::Bounds
  /// The devices the kernel targets (its location's; 0: every device, as a kernel that cannot
  /// split targeting a location without devices runs) and that location's name ("": none
  /// targeted), for the message when data it uses has no copy on one of them.
  HolderSet Target = 0;
  std::string TargetName{};
  bool OneDevice = false; ///< the kernel runs on one device: the first holding its data
};

/// Bind a push of Info with the user's Args to NDevices devices. NotPresent when a pointer
/// argument points into no mapped data; InvalidArgument when deviceptr arguments are memory of
/// two devices, or when a device the kernel targets (or a deviceptr kernel's owner) has no copy
/// of data it uses (it lives at a location without that device). Caller holds Data's lock.
llvm::Expected<LaunchPlan> planLaunch(const analysis::KernelInfo &Info, const jacc_arg *Args,
                                      unsigned NDevices, const PlanOptions &O,
                                      DataEnvironment &Data);

} // namespace jacc

#endif
