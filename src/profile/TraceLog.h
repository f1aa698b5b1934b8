// What JACC_TRACE's listener gathers: one record per span (a construct, a kernel run, a copy...)
// or mark (memory), in arrival order, and the names the tracks get at the end.
#ifndef JACC_SRC_PROFILE_TRACELOG_H
#define JACC_SRC_PROFILE_TRACELOG_H

#include "src/profile/Events.h"

#include <deque>
#include <string>
#include <variant>
#include <vector>

namespace jacc::prof {

/// A data operation's span.
struct DataSpan {
  DataOp Op;
  const void *Host;
  size_t Bytes;
};

/// A device starting or stopping (its index and kind, "host").
struct DeviceSpan {
  int Index;
  const char *Kind;
};

/// One span of the timeline, or a memory mark (Start == End, its arrival).
struct TraceRecord {
  enum class Kind : uint8_t {
    Construct, Data, Launch, Wait, DeviceInit, DeviceShutdown, Push, // the calling thread's
    KernelRun, Copy, Compile, Memory
  };
  Kind What;
  /// Begun and not ended yet (a begin/end pair's begin whose end has not come).
  bool Open = false;
  /// The number of the thread that reported it (see TraceLog::ThreadIds).
  unsigned Thread = 0;
  /// The device kind of a device's record ("host"), from its deviceInit; null: not seen.
  const char *DeviceKind = nullptr;
  Nanos Start = 0, End = 0;
  std::variant<Site, DataSpan, DeviceSpan, LaunchEvent, PushEvent, CopyEvent, CompileEvent,
               MemEvent>
      Detail;
};

/// Everything gathered, with what the writer needs to name the tracks.
struct TraceLog {
  std::deque<TraceRecord> Records; // a deque: growing never copies what is there
  /// How many events did not fit (the cap).
  uint64_t Dropped = 0;
  size_t MaxRecords = 0;
  /// The OS thread id of each thread number (0: unknown).
  std::vector<long> ThreadIds;
  /// Ends that matched no begin on their thread, and begins closed by an outer end.
  uint64_t Unmatched = 0;
};

} // namespace jacc::prof

#endif
