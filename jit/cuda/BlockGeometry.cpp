// The block size rule over a kernel's access traits, and the JACC_CUDA_BLOCK_SIZE override.
#include "jit/cuda/BlockGeometry.h"

#include "support/Env.h"
#include "support/Error.h"

#include <llvm/ADT/StringRef.h>

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

llvm::Expected<unsigned> blockSizeOverrideFromEnv() {
  llvm::StringRef V = env::text(env::Var::CudaBlockSize);
  if (V.empty() || V.equals_insensitive("auto"))
    return 0;
  unsigned N = 0;
  if (V.getAsInteger(10, N) || N < 32 || N > 1024 || N % 32)
    return env::invalid(env::Var::CudaBlockSize, V,
                        "auto (the block size follows the kernel's access traits) or a multiple "
                        "of 32 from 32 to 1024");
  return N;
}

unsigned blockSizeOverride() {
  auto N = blockSizeOverrideFromEnv();
  if (N)
    return *N;
  llvm::consumeError(N.takeError());
  return 0;
}

} // namespace jacc::jit
