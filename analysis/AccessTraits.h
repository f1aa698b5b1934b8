// Access traits: how a kernel's parallel nests touch global memory, seen from the GPU threads that
// run neighbouring iterations. The three characteristics of the Multi-Device Controllers paper's
// block-geometry model (coalescing, arithmetic intensity, sharing), derived from the region IR
// instead of asked of the programmer; the CUDA code generator picks its block size from them
// (jit/cuda/BlockGeometry.h).
#ifndef JACC_ANALYSIS_ACCESSTRAITS_H
#define JACC_ANALYSIS_ACCESSTRAITS_H

#include <string>

namespace jacc::analysis {

struct KernelInfo;
struct ParallelNest;

/// How the threads of a warp, which run consecutive iterations of the innermost (collapsed)
/// parallel loop, reach one array element access.
enum class AccessPattern {
  Unit,    ///< consecutive elements: one transaction per warp (coalesced)
  Uniform, ///< the same element for every thread: one broadcast
  Strided, ///< a small constant stride (2 to 4 elements): a few transactions
  Scatter  ///< a large or unknown stride (a row apart, idx[i]): up to one per thread
};

enum class Coalescing { Full, Partial, Scatter };
enum class Level { Low, Medium, High };

struct AccessTraits {
  bool Known = false;    ///< a parallel nest was analysed (not a serial kernel)
  unsigned Accesses = 0; ///< distinct global element accesses (reads and writes of pointer
                         ///< arguments) in the nests' bodies
  unsigned Unit = 0, Uniform = 0, Strided = 0, Scattered = 0; ///< Accesses by pattern
  unsigned Reads = 0;       ///< distinct global reads
  unsigned SharedReads = 0; ///< of which other threads of a block read too (uniform, neighbours)
  unsigned Flops = 0;       ///< floating-point operations, a transcendental call counting 8
  Coalescing Coalesce = Coalescing::Full;
  Level Intensity = Level::Low; ///< flops per access: < 1 low, < 4 medium, else high
  Level Sharing = Level::Low;   ///< shared reads: >= 1/2 high, >= 1/4 medium, else low
};

/// The traits of K's parallel nests (ParallelNest::Body). Known false for a serial kernel.
AccessTraits computeAccessTraits(const KernelInfo &K);

/// Whether a vectorised innermost loop of N (its last loop, whose neighbouring iterations run on
/// neighbouring lanes) would gather or scatter every global access: none is unit-stride and some
/// are a large or unknown stride apart (a 5x5 block per iteration, a row apart, idx[i]).
bool innermostLoopOnlyGathers(const KernelInfo &K, const ParallelNest &N);

/// Whether some global access of N's body is indexed by a value read from memory (`x[idx[i]]`,
/// or `u[k][j][i]` after `j = jndx[n]`): LLVM cannot bound such an access for its run-time alias
/// checks, so unless the pointers are restrict it keeps the loop scalar and reloads every value
/// after each store.
bool indexedThroughMemory(const ParallelNest &N);

const char *coalescingName(Coalescing C);
const char *levelName(Level L);

/// "coalescing full, intensity low (0.7 flops/access), sharing high (2 of 3 reads)".
std::string describeTraits(const AccessTraits &T);

} // namespace jacc::analysis

#endif
