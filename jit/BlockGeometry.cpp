#include "BlockGeometry.h"

namespace jacc::jit {

using analysis::Coalescing;
using analysis::Level;

BlockGeometry chooseBlockGeometry(const analysis::AccessTraits &T) {
  if (!T.Known)
    return {CudaDefaultBlockSize, "no parallel loop: the default"};
  if (T.Intensity == Level::High)
    return {128, "high arithmetic intensity: registers before threads"};
  if (T.Coalesce == Coalescing::Full && T.Intensity == Level::Low)
    return {512, "coalesced streaming: bandwidth-bound, few registers"};
  if (T.Coalesce == Coalescing::Full && T.Sharing == Level::High)
    return {512, "coalesced with high sharing: neighbours' elements stay in L1"};
  return {CudaDefaultBlockSize, "no trait favours another size: the default"};
}

} // namespace jacc::jit
