// JACC_TRACE: a timeline of what jacc did, written as a Chrome trace-event file (JSON Object
// Format) that ui.perfetto.dev and chrome://tracing open: one track per host thread calling jacc
// (constructs, data operations, pushes, launches, waits), two per device (its kernel runs, its
// copies) and one for compiles.
#ifndef JACC_SRC_PROFILE_TRACE_H
#define JACC_SRC_PROFILE_TRACE_H

#include "src/profile/Events.h"

#include <cstddef>
#include <memory>
#include <string>

namespace jacc::prof {

/// Events a trace keeps; later ones are counted in the file's otherData ("dropped_events").
/// 112 bytes each in memory, 170 to 270 in the file: 2 million events of jacc-split-bench made
/// a 541 MB file, too long for chrome://tracing (it parses a file as one JavaScript string, at
/// most 512 MiB).
constexpr size_t DefaultTraceEvents = 1'000'000;

/// The listener that records events and writes everything gathered so far to Path (relative:
/// to the working directory of the call) at each finish. A file that cannot be written is named
/// on stderr with the reason; nothing else changes.
std::unique_ptr<Listener> makeTraceListener(std::string Path,
                                            size_t MaxEvents = DefaultTraceEvents);

} // namespace jacc::prof

#endif
