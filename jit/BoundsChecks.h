// JACC_CHECK=bounds code generation: each element access of a pointer argument (an
// analysis::BoundsSite) is wrapped so that its address is checked against the argument's mapping,
// passed at launch in the team's bounds block (jit/host/HostABI.h). A failed check records the
// first violation in the block and redirects the access to the block's scratch bytes; every
// thread stops its iterations at the next one. The record becomes the push's error
// (src/launch/BoundsReport.h).
#ifndef JACC_JIT_BOUNDSCHECKS_H
#define JACC_JIT_BOUNDSCHECKS_H

#include "analysis/Kernel.h"
#include "support/TextEdits.h"

#include <string>

namespace jacc::jit {

struct EntryTarget;

/// Which half of the checks to insert. Insertions at one offset keep their order, and a check
/// must nest inside a split guard starting or ending at the same place: the entry inserts the
/// closing texts before the guards and the opening texts after them.
enum class BoundsPart { Closes, Opens };

/// Which accesses to wrap: those the entry's text keeps, or those inside atomic statements,
/// whose parts the target's atomic text spells (EntryTarget::AtomicText applies them there).
enum class BoundsScope { OutsideAtomics, InsideAtomics };

/// Wrap every checked access of K (K.CheckBounds) in Scope in Target's check: insertions only,
/// so that they nest (`a[b[i]]`) and compose with the other edits of the entry. Accesses of
/// array-reduction arguments stay unchecked (the kernel's private copy). In the split entry
/// (Split), a write whose guard is exactly own(A, <its index>) is checked against its mapping and
/// the device's owned range of A (a failure of the latter is a jacc bug: the guard should have
/// filtered it).
void insertBoundsChecks(const analysis::KernelInfo &K, const EntryTarget &Target, BoundsScope Scope,
                        BoundsPart Part, bool Split, TextEdits &Edits);

/// Names of what the split entry's owned-range checks of split array A compare with: the bytes
/// [lo, hi) of the device's owned part along the split dimension, relative to the pointer for
/// dimension 0, else to the start of the enclosing sub-array of pitch bytes (0 for dimension 0).
/// Part: "lo", "hi" or "pitch".
std::string ownedBytesName(const std::string &A, const char *Part);

/// Whether K's split entry widens the guards' bounds of split array A: under bounds checks, the
/// first and last devices also own the indices before and after the split dimension's (along
/// dimension 0, what lies before and after the array; along an inner one, a subscript past its
/// row), so that a write there gets to its check (EntryCodegen's bounds prologue) instead of no
/// device writing it.
bool guardsReachPastArray(const analysis::KernelInfo &K, const analysis::SplitArray &A);

/// The true bounds of a device's owned range of A when guardsReachPastArray (Part "lb" or "ub"),
/// and the extent of an inner split dimension ("ext").
std::string ownedIndexName(const std::string &A, const char *Part);

/// The statement at the top of each iteration that stops the thread's iterations once a
/// violation was recorded (empty unless K.CheckBounds).
std::string boundsStop(const analysis::KernelInfo &K);

/// The first word of the scratch bytes in the bounds block of a kernel with NParams parameters.
unsigned boundsScratchWord(unsigned NParams);

} // namespace jacc::jit

#endif
