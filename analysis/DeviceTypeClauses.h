// OpenACC's device_type clause on compute, combined and loop directives:
// the clauses after `device_type(list)` apply to the listed device types only, until the next
// device_type. jacc runs one kernel on host devices and NVIDIA GPUs together, so the groups
// are resolved into one clause list at parse time, for every consumer (the kernel frontend,
// the CUDA code generator, jacc-translate):
//  - a group applies when it names `*`, host, multicore, nvidia or default; the clauses of
//    other device types (radeon, ...) are dropped, as OpenACC ignores them elsewhere;
//  - of the clauses that set a value (num_gangs, num_workers, vector_length, async, wait,
//    tile, gang/worker/vector with arguments), one per kind is kept: nvidia's first (the GPU
//    code is what reads them), then `*`'s, then the ungrouped one, then the host's;
//  - a loop is parallel when any applying group makes it so (gang, worker, vector or
//    independent: its iterations are independent whatever device runs them), which drops
//    seq and auto; collapse takes the deepest count given.
// On routine the groups stay as written: each device kind calls its own binding (routineBind).
#ifndef JACC_ANALYSIS_DEVICETYPECLAUSES_H
#define JACC_ANALYSIS_DEVICETYPECLAUSES_H

#include "analysis/Directive.h"

#include <optional>
#include <string>

namespace jacc::analysis {

/// A clause OpenACC does not allow after device_type on that directive: the clause and why.
struct DeviceTypeProblem {
  unsigned Column = 0;
  std::string Why;
};

/// Resolves D's device_type groups (compute, combined and loop directives; others unchanged).
/// On routine, checks only that what follows device_type may (gang, worker, vector, seq, bind).
std::optional<DeviceTypeProblem> resolveDeviceTypes(Directive &D);

/// The kinds of device jacc runs kernels on, as device_type names them: host devices (host,
/// multicore, default) and NVIDIA GPUs (nvidia).
enum class DeviceKind { Host, Nvidia };

/// The bind clause of routine directive D that devices of kind K follow (OpenACC 3.3 2.15.1):
/// that of a group naming K; when no group names K, that of a `*` group; else (or when K's
/// group has none) the one before any device_type. The first of several. nullptr: K's devices
/// call the routine itself.
const Clause *routineBind(const Directive &D, DeviceKind K);

} // namespace jacc::analysis

#endif
