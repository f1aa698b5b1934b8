// What generating a kernel entry needs to know about its target: the few places where the
// host's team entry and a GPU kernel differ, as one description each target provides
// (jit/host/HostCodegen.cpp: hostEntryTarget(), jit/cuda/CudaCodegen.cpp: cudaEntryTarget()).
// jit/EntryCodegen.cpp asks the description, never which target it is.
#ifndef JACC_JIT_ENTRYTARGET_H
#define JACC_JIT_ENTRYTARGET_H

#include "analysis/Kernel.h"
#include "support/TextEdits.h"

#include <string>

namespace jacc::jit {

struct EntryTarget {
  /// What precedes the entry's name: "void " on the host, the CUDA kernel qualifiers (with its
  /// launch bounds) on a GPU.
  std::string EntryPrefix;
  /// The team parameter, last in the list ("const jacc_host_team *__jacc_t").
  std::string TeamParam;
  /// Declarations at the top of the body, after the folded constants, that give the entry a
  /// `__jacc_t` pointing to a view of its team (tid, nthreads, share_*, narrow, split_info,
  /// reduction); empty when the team parameter is that pointer already.
  std::string TeamView;
  /// The statement that waits for the whole team between region statements.
  std::string Barrier;
  /// How the target's compiler spells +infinity (the identity of min over floating types).
  std::string Infinity;
  /// The target has no variably modified types (C++): pointers to variable-length arrays are
  /// flat element pointers, their row strides computed at entry, their subscripts flattened
  /// (KernelInfo::Cuda edits).
  bool FlatVlaPointers = false;
  /// Struct arguments arrive by address and are copied on entry (else by value).
  bool AggregatesByAddress = false;
  /// Folded literals are cast to `decltype(name)`: C++ converts no integer to an enumeration
  /// implicitly.
  bool CastFoldedLiterals = false;
  /// The target shares a nest's independent inner loops (ParallelNest::InnerParallel) among its
  /// threads as if collapsed: a GPU, whose neighbouring threads then touch neighbouring elements.
  /// (A CPU thread keeps whole rows, which its vector units take.)
  bool SharesInnerLoops = false;
  /// The target runs each of a nest's ParallelNest::Interchanges swapped: a CPU thread, whose
  /// vector units then take the loop its accesses move along contiguously. (A GPU shares such
  /// a loop among its threads instead.)
  bool InterchangesLoops = false;
  /// A split entry runs an iteration whose writes it owns whole (SplitArray::testsWholeIterations)
  /// through an unguarded copy of the body: a CPU, whose vectorizer turns the guard of every
  /// element into masked stores (slow on some CPUs). (A GPU thread tests its element's guard.)
  bool UnguardedWholeIterations = false;
  /// Split entries answer a read probe (jit/ReadProbe.h): the runtime runs them on a one-thread
  /// team before the launch.
  bool ReadProbe = false;

  /// The loop that deals a shared nest's flattened iterations [__jacc_db, __jacc_de) x
  /// __jacc_inner to this thread, opening the innermost body: it declares the loop variables,
  /// `__jacc_outer`, then ShareDecl and PrivateDecls. The nest's trip counts are declared.
  /// Jam: the entry's pointers are restrict and the nest sums along an inner loop
  /// (ParallelNest::SumsAlongInnerLoop, no reduction): a target that can may jam iterations of
  /// the innermost loop into one pass of the inner loop.
  std::string (*IterationLoop)(const analysis::ParallelNest &N, const std::string &ShareDecl,
                               const std::string &PrivateDecls, bool Jam);
  /// What closes the nest IterationLoop opened.
  std::string (*NestTrailer)(const analysis::ParallelNest &N);
  /// How Value, one value of reduction R (its variable, or an element of an array reduction),
  /// leaves the kernel into 8-byte slot Slot (C text) of the reduction buffer: this thread's
  /// on the host, the block's combined value on a GPU.
  std::string (*ReductionWriteBack)(const analysis::KernelInfo &K,
                                    const analysis::ReductionVar &R, const std::string &Value,
                                    const std::string &Slot);
  /// JACC_CHECK=bounds (jit/BoundsChecks.h): the texts before and after access Site (a number
  /// naming the check) of pointer argument Arg that check its address with the target's helper
  /// Check (`__jacc_bcheck`: against the mapping; `__jacc_bowned`: also against the device's
  /// owned range of a split array); Where is the check's constants after the address and the
  /// argument (the owned range's, then the parameter, line, column, how: HostABI.h).
  std::string (*BoundsCheckOpen)(size_t Site, const std::string &Check);
  std::string (*BoundsCheckClose)(size_t Site, const std::string &Check, const std::string &Arg,
                                  const std::string &Where);
  /// The text performing atomic statement A (one of K.Atomics) on this target, each of its parts
  /// spelt with the edits of Parts inside it applied (the entry's edits of what the atomic
  /// replaces: checked accesses, flattened subscripts).
  std::string (*AtomicText)(const analysis::AtomicOp &A, const analysis::KernelInfo &K,
                            const TextEdits &Parts);
};

/// `T v = (T)(lo +/- (Idx) * st);`: loop variable I of a nest from its flattened index Idx.
std::string loopVarDecl(const analysis::CanonicalLoop &L, unsigned I, const std::string &Idx);

/// Loop variables Last, Last - 1, ..., 0 of N from the flattened index in `__jacc_row`, which is
/// divided by each inner trip count on the way (it ends as loop 0's index).
std::string rowLoopVarDecls(const analysis::ParallelNest &N, unsigned Last);

/// C literal of a reduction operator's identity for a type, e.g. "0", "(-2147483647-1)";
/// Infinity is how the target spells +infinity.
std::string reductionIdentity(analysis::ReductionOp Op, analysis::ScalarType T,
                              const std::string &Infinity = "__builtin_inf()");

} // namespace jacc::jit

#endif
