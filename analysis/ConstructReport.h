// What jaccc -Minfo=accel says of a kernel: how its construct will run, one line per fact, at the
// user's file and line (nvc's -Minfo=accel in jacc's words).
#ifndef JACC_ANALYSIS_CONSTRUCTREPORT_H
#define JACC_ANALYSIS_CONSTRUCTREPORT_H

#include "analysis/Kernel.h"

#include <string>
#include <vector>

namespace jacc::analysis {

/// "heat.c:13: loop i: iterations shared among each device's threads", ...: the loops that share
/// their iterations, the loops and statements that run sequentially and why, the reductions, and
/// whether the kernel can be split across devices (why not, when it cannot).
std::vector<std::string> describeConstruct(const KernelInfo &K);

} // namespace jacc::analysis

#endif
