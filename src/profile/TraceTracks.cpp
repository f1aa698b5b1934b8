// Laying out a trace's tracks: grouping, sorting, nesting each thread's spans, lanes for devices
// and compiles.
#include "src/profile/TraceTracks.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unistd.h>

namespace jacc::prof {

namespace {

using Kind = TraceRecord::Kind;

/// Where a track sorts: host threads first (by number), then each device's kernels and copies,
/// then compiles.
enum class Group : uint8_t { Thread, Device, Compile };
enum class DevicePart : uint8_t { Kernels, Copies };
using TrackKey = std::tuple<Group, int, std::string, DevicePart>;

/// Groups records into tracks and makes each track's spans well formed (layoutTracks).
class TrackBuilder {
public:
  TrackBuilder(const TraceLog &Log, Nanos Finish) : Log(Log), Finish(Finish) {}

  std::vector<Track> build() {
    std::map<TrackKey, std::vector<TrackSpan>> Groups;
    for (const TraceRecord &R : Log.Records) {
      if (R.What == Kind::Memory)
        continue;
      TrackSpan S{R.Start, R.Open ? std::max(Finish, R.Start) : std::max(R.End, R.Start), &R};
      if (R.End < R.Start && !R.Open)
        ++Clamped;
      Groups[keyOf(R)].push_back(S);
    }
    std::vector<Track> Tracks;
    for (auto &[Key, Spans] : Groups) {
      std::stable_sort(Spans.begin(), Spans.end(), [](const TrackSpan &A, const TrackSpan &B) {
        return A.Start != B.Start ? A.Start < B.Start : A.End > B.End;
      });
      if (std::get<Group>(Key) == Group::Thread)
        Tracks.push_back({threadName(std::get<1>(Key)), nest(std::move(Spans))});
      else
        addLanes(Tracks, nameOf(Key), std::move(Spans));
    }
    return Tracks;
  }

  uint64_t clamped() const { return Clamped; }

private:
  static TrackKey keyOf(const TraceRecord &R) {
    switch (R.What) {
    case Kind::KernelRun: {
      const auto &E = std::get<LaunchEvent>(R.Detail);
      return {Group::Device, E.Device, R.DeviceKind ? R.DeviceKind : "", DevicePart::Kernels};
    }
    case Kind::Copy: {
      const auto &E = std::get<CopyEvent>(R.Detail);
      return {Group::Device, E.Device, R.DeviceKind ? R.DeviceKind : "", DevicePart::Copies};
    }
    case Kind::Compile:
      return {Group::Compile, 0, "", DevicePart::Kernels};
    default:
      return {Group::Thread, static_cast<int>(R.Thread), "", DevicePart::Kernels};
    }
  }

  static std::string nameOf(const TrackKey &Key) {
    if (std::get<Group>(Key) == Group::Compile)
      return "compile";
    const std::string &DeviceKind = std::get<2>(Key);
    std::string Name =
        deviceName(std::get<1>(Key), DeviceKind.empty() ? nullptr : DeviceKind.c_str());
    return std::get<DevicePart>(Key) == DevicePart::Copies ? Name + " copies" : Name;
  }

  std::string threadName(int Number) const {
    long Tid = static_cast<size_t>(Number) < Log.ThreadIds.size() ? Log.ThreadIds[Number] : 0;
    if (!Tid)
      return "thread #" + std::to_string(Number);
    if (Tid == static_cast<long>(::getpid()))
      return "main thread " + std::to_string(Tid);
    return "thread " + std::to_string(Tid);
  }

  /// Spans sorted by start (longest first): each must end within the innermost span it starts in.
  std::vector<TrackSpan> nest(std::vector<TrackSpan> Spans) {
    std::vector<Nanos> Ends; // of the spans enclosing the current one
    for (TrackSpan &S : Spans) {
      while (!Ends.empty() && Ends.back() <= S.Start)
        Ends.pop_back();
      if (!Ends.empty() && S.End > Ends.back()) {
        S.End = Ends.back();
        ++Clamped;
      }
      Ends.push_back(S.End);
    }
    return Spans;
  }

  /// Spans sorted by start into the first lane free at their start: "device 0 (host)", then
  /// "device 0 (host) #2", ...
  static void addLanes(std::vector<Track> &Tracks, const std::string &Name,
                       std::vector<TrackSpan> Spans) {
    size_t First = Tracks.size();
    for (const TrackSpan &S : Spans) {
      size_t L = First;
      while (L < Tracks.size() && Tracks[L].Spans.back().End > S.Start)
        ++L;
      if (L == Tracks.size()) {
        size_t Lane = L - First;
        Tracks.push_back({Lane ? Name + " #" + std::to_string(Lane + 1) : Name, {}});
      }
      Tracks[L].Spans.push_back(S);
    }
  }

  const TraceLog &Log;
  Nanos Finish;
  uint64_t Clamped = 0;
};

} // namespace

std::string deviceName(int Index, const char *DeviceKind) {
  std::string Name = "device " + std::to_string(Index);
  if (DeviceKind)
    Name += std::string(" (") + DeviceKind + ")";
  return Name;
}

std::vector<Track> layoutTracks(const TraceLog &Log, Nanos Finish, uint64_t &Clamped) {
  TrackBuilder Builder(Log, Finish);
  std::vector<Track> Tracks = Builder.build();
  Clamped = Builder.clamped();
  return Tracks;
}

} // namespace jacc::prof
