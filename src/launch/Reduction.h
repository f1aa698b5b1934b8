// Combining reduction partial results on the host: Acc = Acc op Partial, for every OpenACC
// reduction operator and C scalar type.
#ifndef JACC_SRC_LAUNCH_REDUCTION_H
#define JACC_SRC_LAUNCH_REDUCTION_H

#include "analysis/Kernel.h"

namespace jacc {

/// Acc = Acc op Partial, both pointing to values of type T.
void combineReduction(analysis::ReductionOp Op, analysis::ScalarType T, void *Acc,
                      const void *Partial);

} // namespace jacc

#endif
