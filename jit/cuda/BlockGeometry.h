// GPU block geometry from a kernel's access traits (analysis/AccessTraits.h): the threads per
// block of its CUDA entries, and the `__launch_bounds__` NVRTC budgets registers for, when the
// kernel gives no constant vector_length. The rule of the Multi-Device Controllers paper's model
// (coalescing, arithmetic intensity, sharing), restricted to the block size because jacc's CUDA
// entries flatten the iterations onto one grid dimension.
#ifndef JACC_JIT_CUDA_BLOCKGEOMETRY_H
#define JACC_JIT_CUDA_BLOCKGEOMETRY_H

#include "analysis/AccessTraits.h"

#include <llvm/Support/Error.h>

#include <string>

namespace jacc::jit {

/// Threads per block when nothing favours another size: 256 keeps 8 warps per block, a full SM
/// at 8 blocks on every architecture NVRTC 13 targets (sm_75 and newer).
constexpr unsigned CudaDefaultBlockSize = 256;

struct BlockGeometry {
  unsigned BlockSize = 256; ///< threads per block: 128, 256 or 512
  std::string Why;          ///< the rule that chose it, for JACC_DEBUG=codegen and jacc-cache
};

/// The block size for a kernel with traits T:
///  - high arithmetic intensity: 128. Compute-bound code needs registers more than threads:
///    __launch_bounds__(128) lets NVRTC give each thread up to 255 registers without spilling,
///    and small blocks even out irregular work (escape-time loops) across the SMs.
///  - fully coalesced and either low intensity (streaming) or high sharing (stencils, a row
///    read by every thread): 512. Such kernels are bound by memory bandwidth, use few registers
///    (the 128 a thread __launch_bounds__(512) allows are plenty), and a larger block keeps more
///    loads in flight per block and more of its neighbours' elements in the SM's L1.
///  - otherwise (scattered or partly coalesced accesses, medium intensity): 256, eight warps,
///    the default that reaches full occupancy on every architecture NVRTC 13 targets.
///  - a kernel without a parallel loop (serial): 256.
BlockGeometry chooseBlockGeometry(const analysis::AccessTraits &T);

/// JACC_CUDA_BLOCK_SIZE: `auto` or unset (0: the traits choose), else a multiple of 32 from 32
/// to 1024 that every kernel without a constant vector_length uses (comparing against the rule
/// on a GPU). InvalidArgument naming the variable otherwise. Read when code is generated and
/// in the disk cache key; jacc_init checks it.
llvm::Expected<unsigned> blockSizeOverrideFromEnv();

/// blockSizeOverrideFromEnv for code generation and cache keys: 0 for an invalid value too
/// (jacc_init has refused it).
unsigned blockSizeOverride();

} // namespace jacc::jit

#endif
