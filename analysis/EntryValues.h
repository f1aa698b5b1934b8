// Which scalar arguments the kernel may read as pushed: a variable of the program that the
// construct assigns before every read (a loop counter, a temporary declared outside) is passed
// with whatever value it held, and specialization must not fold that value.
#ifndef JACC_ANALYSIS_ENTRYVALUES_H
#define JACC_ANALYSIS_ENTRYVALUES_H

#include "analysis/Kernel.h"

namespace jacc::analysis {

/// Clear ArgInfo::ValueRead of each scalar argument whose pushed value the kernel never reads: it
/// appears only inside the parallel nests (or as a nest's loop variable), and in each nest body's
/// SSA no read is reached by the value at the body's entry. Conservative: anything else (a serial
/// region, a mention outside the nests, a macro) keeps the value read.
void findUnreadEntryValues(KernelInfo &K);

} // namespace jacc::analysis

#endif
