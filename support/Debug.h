// JACC_DEBUG: a comma-separated list of topics (analysis, rewrite, codegen, ir, device, launch,
// data, cache) or "all"; each enabled topic prints its trace to stderr with a "[jacc] " prefix.
#ifndef JACC_SUPPORT_DEBUG_H
#define JACC_SUPPORT_DEBUG_H

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>

namespace jacc {

/// Whether JACC_DEBUG enables Topic (read once per process).
bool debugEnabled(llvm::StringRef Topic);
/// Print "[jacc:Topic] Message" to stderr if Topic is enabled.
void debugLog(llvm::StringRef Topic, const llvm::Twine &Message);

/// JACC_DEBUG lists known topics only (InvalidArgument naming the others and the topics).
llvm::Error checkDebugTopics();

} // namespace jacc

#endif
