// The read probe of a split entry: run once per device before a launch, on a team of
// one thread whose read_info is set, the entry computes its trip counts and this device's
// narrowed iterations, writes the split information and what those iterations read of each
// argument (analysis/ReadExtents.h), and returns before the first iteration. The runtime then
// fetches exactly those ranges where they are not current (src/launch/DemandExchange.h). The
// probe also reports the partitioned loop and the device's iterations, from which a native
// implementation's part is computed (src/launch/NativeLaunch.h).
#ifndef JACC_JIT_READPROBE_H
#define JACC_JIT_READPROBE_H

#include "analysis/Kernel.h"

#include <string>

namespace jacc::jit {

struct EntryTarget;

/// The probe's text, after the split header of nest N (empty unless Target.ReadProbe): when the
/// team's read_info is set, thread 0 writes the read extents of the iterations
/// [__jacc_db, __jacc_de), and the entry returns.
std::string readProbe(const analysis::KernelInfo &K, const analysis::ParallelNest &N,
                      const EntryTarget &Target);

/// C text of the hull of window W's ranges: its least begin (Begin) or its greatest end.
std::string windowHull(const analysis::ExtentWindow &W, bool Begin);

/// The read_info words of extent R (JACC_READ_INFO_WORDS).
unsigned extentWords(const analysis::ReadExtent &R);
/// The words of read_info a probe of K writes: extentWords per read extent, then
/// JACC_LOOP_INFO_WORDS about the partitioned loop (jit/host/HostABI.h).
unsigned readInfoWords(const analysis::KernelInfo &K);
/// Where in read_info the partitioned loop's words start (after the read extents).
unsigned loopInfoOffset(const analysis::KernelInfo &K);

} // namespace jacc::jit

#endif
