// Loading OpenACC profiling tools (OpenACC 3.3 chapter 5.3.3): the libraries ACC_PROFLIB names
// and the program's own acc_register_library.
#ifndef JACC_SRC_PROFILE_TOOLLIBRARIES_H
#define JACC_SRC_PROFILE_TOOLLIBRARIES_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

namespace jacc::prof {

/// Loads each library of Paths (':'-separated, empty entries skipped) and calls its
/// acc_register_library, then the program's own if it defines one (each routine once).
/// InvalidArgument naming ACC_PROFLIB, the path and the loader's reason when a library cannot be
/// loaded or defines no acc_register_library; the libraries before it stay registered.
llvm::Error loadToolLibraries(llvm::StringRef Paths);

} // namespace jacc::prof

#endif
