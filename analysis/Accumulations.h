// Floating-point accumulations in a parallel nest's body (issue 17): `s += a[k] * b[k]` makes a
// chain from one update to the next, whose length is the latency of each update.
#ifndef JACC_ANALYSIS_ACCUMULATIONS_H
#define JACC_ANALYSIS_ACCUMULATIONS_H

namespace jacc::analysis {

struct ParallelNest;

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

} // namespace jacc::analysis

#endif
