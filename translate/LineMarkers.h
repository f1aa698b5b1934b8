// `#line` markers in a translated file, so that the back-end compiler's diagnostics name the
// user's file and line rather than the translation's.
#ifndef JACC_TRANSLATE_LINEMARKERS_H
#define JACC_TRANSLATE_LINEMARKERS_H

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>

#include <string>

namespace jacc::translate {

/// Out, the text Original became by edits, with `#line N "FileName"` markers: one before its
/// first line, and one before each original line whose number the edits above it changed.
/// MappedOffset gives an original offset's position in Out (after any text inserted there). A
/// marker goes only where a directive may start a line (not inside a comment, a string or a
/// continued line) and where Out holds the original line unchanged; the next such line
/// resynchronises the numbers otherwise.
std::string withLineMarkers(llvm::StringRef Original, llvm::StringRef Out,
                            llvm::function_ref<size_t(size_t)> MappedOffset,
                            llvm::StringRef FileName);

} // namespace jacc::translate

#endif
