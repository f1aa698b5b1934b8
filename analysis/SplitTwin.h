// A kernel's split twin: the same kernel with its parallel loop and the loop nested perfectly
// inside it swapped, so that a split cuts the iterations, and the arrays they write, along the
// inner loop's axis. Kernels that build work arrays along one axis and sweep them along another
// (NPB BT's solvers: the left-hand sides built with the sweep axis as the gang loop) keep one
// decomposition from the build to the sweep through it. Which of the two a split launch runs is
// the runtime's to choose (src/launch/SplitTwins.h).
#ifndef JACC_ANALYSIS_SPLITTWIN_H
#define JACC_ANALYSIS_SPLITTWIN_H

#include "analysis/Kernel.h"

#include <optional>
#include <string>

namespace jacc::analysis {

/// The twin's source, when K splits and its one parallel loop (no collapse, no reduction) has a
/// loop nested perfectly inside whose iterations are independent for any arguments and whose
/// header reads neither loop's variable (ParallelNest::InnerParallel): both computing the same,
/// in another order. Nullopt otherwise.
std::optional<std::string> splitTwinSource(const KernelInfo &K);

/// The split axes of K's arrays: each array it writes (SplitPlan::Arrays), then each it only
/// reads in bounded ranges (SplitInfo::Reads), once each.
std::vector<SplitAxis> splitAxes(const KernelInfo &K);

} // namespace jacc::analysis

#endif
