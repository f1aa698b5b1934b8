// How a translated file registers its routines for the kernels of other files: a constructor
// calling jacc_define_routine once per routine (jit/KernelRoutines.h links the texts), written
// alike by the C and the Fortran translations.
#ifndef JACC_TRANSLATE_ROUTINEREGISTRATION_H
#define JACC_TRANSLATE_ROUTINEREGISTRATION_H

#include <string>

namespace jacc::translate {

/// The text registered for a routine no kernel can carry: `#error "Why"`, which a kernel
/// calling it reports when it is compiled (quotes and backslashes in Why become ').
std::string routineError(std::string Why);

/// One call of the constructor: registers Text under Name, written at Site ("file:line").
std::string routineRegistration(const std::string &Name, const std::string &Text,
                                const std::string &Site);

/// The constructor making Calls (routineRegistration's), under a comment saying Whose; empty
/// when there are none.
std::string registrationConstructor(const std::string &Calls, const std::string &Whose);

} // namespace jacc::translate

#endif
