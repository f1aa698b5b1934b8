// Private and firstprivate arrays of a Fortran compute construct: each loop body that owns a
// copy declares it as a C array of the host array's shape, so the kernel's indexing is the
// same, and a firstprivate copy starts as the original (`jacc_original_<name>`).
#ifndef JACC_TRANSLATE_FORTRAN_PRIVATECOPIES_H
#define JACC_TRANSLATE_FORTRAN_PRIVATECOPIES_H

#include "translate/fortran/FortranKernel.h"

#include <string>
#include <vector>

namespace jacc::translate::fortran {

/// The kernel lines that open a loop body owning a copy of V: its declaration and, when First,
/// the loops that copy the original's elements into it.
std::vector<std::string> privateCopyLines(const HostVariable &V, bool First);

/// The kernel parameter that carries a firstprivate array's original: a pointer to its rows.
std::string originalParameter(const HostVariable &V);

} // namespace jacc::translate::fortran

#endif
