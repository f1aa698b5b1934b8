#include "jit/cuda/BlockGeometry.h"

#include "support/Error.h"

#include <llvm/ADT/StringRef.h>

#include <cstdlib>

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
  const char *Env = std::getenv("JACC_CUDA_BLOCK_SIZE");
  llvm::StringRef V = llvm::StringRef(Env ? Env : "").trim();
  if (V.empty() || V.equals_insensitive("auto"))
    return 0;
  unsigned N = 0;
  if (V.getAsInteger(10, N) || N < 32 || N > 1024 || N % 32)
    return makeError(ErrorCode::InvalidArgument,
                     "JACC_CUDA_BLOCK_SIZE='" + V.str() + "' is not valid: use auto (the block "
                     "size follows the kernel's access traits) or a multiple of 32 from 32 to "
                     "1024");
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
