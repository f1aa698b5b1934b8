// Which kernels may declare their pointer arguments restrict, or aligned: run-time
// facts the binding proves at each push (each pointer in a mapping of its own, so no two point
// into the same memory; each device copy at a 64-byte boundary), which an ahead-of-time compiler
// cannot know. Compiled into variants (jit/specialize/Specialization.h), which then vectorise and
// jam loops a possible alias kept scalar.
#ifndef JACC_ANALYSIS_RESTRICTARGS_H
#define JACC_ANALYSIS_RESTRICTARGS_H

#include "analysis/Kernel.h"

#include <string>

namespace jacc::analysis {

/// A's declaration with `restrict` qualifying the pointer it declares (`double *restrict x`,
/// `const double (*restrict a)[n]`); empty when A is no pointer or its declaration cannot take
/// it (a parameter written as an array, `double x[]`).
std::string restrictDecl(const ArgInfo &A);

/// Whether K's variants may assume its pointer arguments disjoint when each points into a
/// mapping of their own: K has a nest restrict lets the host code jam (jamCandidate,
/// Accumulations.h) or one indexed through memory (ParallelNest::IndexedThroughMemory), the
/// kinds of loop where declaring it was measured to pay (LLVM 16 made the stencils 1.5 times
/// and a short inner sum 2.6 times slower with it, NPB LU's hyperplane kernels twice as fast,
/// docs/performance.md), or inner loops a GPU shares only for disjoint pointers
/// (ParallelNest::InnerParallel); at least two pointers (one alone has nothing to be told apart
/// from), every one a pointer to data without pointers
/// (`double **rows` reaches rows that other arguments may point into, as does a struct argument
/// with a pointer member), none passed to the device as it is (deviceptr: memory the present
/// table does not know), and each declaration able to take the qualifier.
bool restrictableKernel(const KernelInfo &K);

/// Whether K has pointer arguments a variant may declare aligned (when the binding finds each
/// device's copy of each at a 64-byte boundary): at least one, other than an array reduction's
/// (the kernel reduces into a private copy).
bool alignableKernel(const KernelInfo &K);

} // namespace jacc::analysis

#endif
