// Writing a TraceLog as a Chrome trace-event JSON file: records become tracks, properly nested
// per thread, in non-overlapping lanes per device and for compiles.
#ifndef JACC_SRC_PROFILE_TRACEFILE_H
#define JACC_SRC_PROFILE_TRACEFILE_H

#include "src/profile/TraceLog.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/raw_ostream.h>

namespace jacc::prof {

/// Writes Log as {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}} to OS.
/// Spans still open end at Finish (marked "unfinished"). Times are microseconds from the
/// earliest record.
void writeTrace(const TraceLog &Log, Nanos Finish, llvm::raw_ostream &OS);

/// writeTrace to the file Path (replacing it); an error naming the file and the reason.
llvm::Error writeTraceFile(const TraceLog &Log, Nanos Finish, llvm::StringRef Path);

} // namespace jacc::prof

#endif
