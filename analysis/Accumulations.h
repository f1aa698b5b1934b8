// Floating-point accumulations in a parallel nest's body: `s += a[k] * b[k]` makes a
// chain from one update to the next, whose length is the latency of each update.
#ifndef JACC_ANALYSIS_ACCUMULATIONS_H
#define JACC_ANALYSIS_ACCUMULATIONS_H

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>

#include <optional>

namespace jacc::analysis {

struct ParallelNest;

/// The integer value a variant folds for a scalar (jit/specialize/Specialization.h), nullopt for
/// one it does not: inner loops whose bounds become small constants are short after all.
using FoldedValue = llvm::function_ref<std::optional<long long>(llvm::StringRef Name)>;

/// Whether N's body updates a scalar with a floating-point expression of its own old value and
/// another operation (s += a * b, s = s + x / y) along a long chain: a reduction variable, or a
/// sum over an inner loop of a scalar or large constant trip count. Contracted into a fused
/// multiply-add, each update waits for the FMA's latency (4 cycles on current x86 cores, against
/// 2 - 3 for an add whose product is computed off the chain).
bool accumulatesFloats(const ParallelNest &N);

/// Whether N's body updates a floating-point scalar that way along an inner loop of a scalar or
/// large constant trip count (the sum of a dense product: `s += a[i][k] * b[k][j]` over k), not
/// only as a reduction variable. Each iteration of the innermost parallel loop is then one long
/// chain, waiting for each add; several iterations jammed into one pass of the inner loop run
/// their chains side by side (gcc pairs two of them; jacc jams four, see jit/host/HostCodegen).
bool sumsAlongInnerLoop(const ParallelNest &N);
/// The same in a variant folding Folded's values.
bool sumsAlongInnerLoop(const ParallelNest &N, FoldedValue Folded);

/// Whether N's iterations may be jammed (when its pointers are restrict): it sums along an inner
/// loop (ParallelNest::SumsAlongInnerLoop) and has no reduction, whose partial sums would follow
/// the jam's partition of the iterations.
bool jamCandidate(const ParallelNest &N);
/// The same in a variant folding Folded's values: a sum along `m` folded to 4 is no long chain
/// (LLVM unrolls it whole and vectorises the parallel loop, which a jam would prevent).
bool jamCandidate(const ParallelNest &N, FoldedValue Folded);

} // namespace jacc::analysis

#endif
