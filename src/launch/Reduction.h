// Combining reduction partial results on the host: Acc = Acc op Partial, for every OpenACC
// reduction operator and C scalar type, and a push's reductions from its launches' partials.
#ifndef JACC_SRC_LAUNCH_REDUCTION_H
#define JACC_SRC_LAUNCH_REDUCTION_H

#include "analysis/Kernel.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <vector>

namespace jacc {

class KernelLaunch;

/// Acc = Acc op Partial, both pointing to values of type T.
void combineReduction(analysis::ReductionOp Op, analysis::ScalarType T, void *Acc,
                      const void *Partial);

/// Out = the identity of Op for values of type T (0 for +, 1 for *, the lowest value for max,
/// all bits set for &, ...): where a part that contributes nothing starts.
void reductionIdentity(analysis::ReductionOp Op, analysis::ScalarType T, void *Out);

/// Room for one value of any reduction type (long double _Complex: 32 bytes), aligned for all.
struct alignas(16) ReductionValue {
  unsigned char Bytes[32];
};

/// A push's reductions (by index into KernelInfo::Reductions): each scalar's value before the
/// kernel, and where each result goes: the user's variable, or for an array reduction the host
/// array its pointer argument gives (element `Lower` on, as the kernel reports it).
struct ReductionResults {
  std::vector<ReductionValue> Initial;
  std::vector<void *> Results;
  /// Combine each initial value with every partial result of Parts, once, into its result:
  /// device 0's launch in duplicate mode (every device computed everything), every device's in
  /// split mode (shares). An array's elements start from the array's values now.
  void combine(const analysis::KernelInfo &Info, llvm::ArrayRef<const KernelLaunch *> Parts) const;
};

} // namespace jacc

#endif
