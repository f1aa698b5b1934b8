// The kernel entry function, generated for one target from the analysed kernel: the host's team
// entry (HostCodegen) and the CUDA __global__ kernel (CudaCodegen) share everything but the few
// places where the targets differ (parameters, how iterations are dealt, barriers, reductions),
// which each target describes once (jit/EntryTarget.h).
#ifndef JACC_JIT_ENTRYCODEGEN_H
#define JACC_JIT_ENTRYCODEGEN_H

#include "analysis/Kernel.h"
#include "jit/EntryTarget.h"

#include <string>

namespace jacc::jit {

struct Specialization;

/// Names of the generated entry points, on every target: every device computes everything; and
/// the split one (when KernelInfo::Split.Enabled), with two extra parameters per split array (the
/// mapping's byte range relative to the pointer) before the team parameter.
constexpr const char *EntryName = "__jacc_entry";
constexpr const char *SplitEntryName = "__jacc_entry_split";

/// The split entry's cell of split array I's mapping begin, relative to the pointer (its end:
/// the next cell): after the kernel's own parameters, two per split array.
inline unsigned splitBoundsCell(const analysis::KernelInfo &K, size_t I) {
  return static_cast<unsigned>(K.Args.size() + 2 * I);
}
/// The bounds that tell a split entry that an array is not split (begin > end): every device
/// computes it whole, owning all of it.
constexpr long long NotSplitBounds[2] = {1, 0};

/// The entry function (plain, or the split entry with the per-array bound parameters), without
/// the target's prelude. Expects the prelude to define the team type, what the target's
/// description uses (`__jacc_share` on the host, `__jacc_grid_sync` / `__jacc_block_reduce` on
/// CUDA), `__jacc_floordiv` and `__jacc_ceildiv`.
/// With Spec (which must pass checkSpecialization; entries naming no foldable argument are
/// ignored), the parameters keep their types, sizes and order, but each folded scalar's parameter
/// is renamed `__jacc_spec_unused_<Param>` and the body starts with `<its declaration> =
/// <literal>;` (not const: a kernel may assign its scalar arguments; CUDA casts the literal to
/// `decltype(<name>)`, as C++ converts no integer to an enumeration implicitly). On the host, a
/// pointer parameter whose declaration names a folded scalar (`double (*a)[m]`) becomes
/// `void *__jacc_spec_ptr_<Param>`, declared as written in the body after the constants.
std::string generateEntry(const analysis::KernelInfo &K, bool Split, const EntryTarget &Target,
                          const Specialization *Spec = nullptr);

/// Whether the entry synchronises all its threads between region statements (a grid-wide
/// barrier on CUDA, which needs every block resident).
bool entryHasBarrier(const analysis::KernelInfo &K);

/// `sizeof` of argument A with Subscripts `[0]` appended, as C text. A flat pointer to a
/// variable-length array (a target without variably modified types) takes its rows' sizes from
/// the strides computed at entry.
std::string sizeofSub(const analysis::KernelInfo &K, const std::string &A, unsigned Subscripts,
                      const EntryTarget &Target);

/// `#line` directive (and indentation) that makes the next text report Offset's line and column.
std::string lineDirective(const analysis::KernelInfo &K, unsigned Offset);

} // namespace jacc::jit

#endif
