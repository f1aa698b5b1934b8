// The tracks of a trace: its records grouped by where they happened (a host thread, a device's
// kernels, its copies, the compiles) and laid out as the viewers need them.
#ifndef JACC_SRC_PROFILE_TRACETRACKS_H
#define JACC_SRC_PROFILE_TRACETRACKS_H

#include "src/profile/TraceLog.h"

#include <cstdint>
#include <string>
#include <vector>

namespace jacc::prof {

/// A record's span on its track (its end clamped or, for a span still open, the finish).
struct TrackSpan {
  Nanos Start, End;
  const TraceRecord *Record;
};

/// A track of the file, its spans by start.
struct Track {
  std::string Name;
  std::vector<TrackSpan> Spans;
};

/// "device 0 (host)", or "device 0" when the kind is not known.
std::string deviceName(int Index, const char *DeviceKind);

/// The tracks of Log in display order: host threads, then each device's kernels and copies,
/// then compiles. A thread's spans nest (one reaching past its parent's end is clamped to it,
/// and counted in Clamped); a device's spans, and compiles, go to lanes, a new one ("device 0
/// (host) #2") whenever a span would overlap the lane's last. Spans still open end at Finish.
std::vector<Track> layoutTracks(const TraceLog &Log, Nanos Finish, uint64_t &Clamped);

} // namespace jacc::prof

#endif
