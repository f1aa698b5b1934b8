// The trace file: metadata naming each track, the tracks' spans, arrows from launches to their
// runs, counters for device memory, and what was left out.
#include "src/profile/TraceFile.h"

#include "src/profile/TraceTracks.h"

#include "support/Error.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <unistd.h>

namespace jacc::prof {

namespace {

using Kind = TraceRecord::Kind;

/// Text the JSON writer accepts (kernel text need not be UTF-8).
std::string utf8(llvm::StringRef S) {
  return llvm::json::isUTF8(S) ? S.str() : llvm::json::fixUTF8(S);
}

std::string hexAddress(const void *P) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%p", P);
  return Text;
}

const char *dataOpName(DataOp Op) {
  switch (Op) {
  case DataOp::Enter: return "enter data";
  case DataOp::Exit: return "exit data";
  case DataOp::UpdateDevice: return "update device";
  case DataOp::UpdateSelf: return "update self";
  }
  return "data";
}

/// Writes the JSON of the trace: one JSON object per event, times as exact decimals of
/// microseconds.
class EventWriter {
public:
  EventWriter(llvm::json::OStream &J, Nanos Zero, int Pid) : J(J), Zero(Zero), Pid(Pid) {}

  void metadata(const char *Name, int Tid, llvm::function_ref<void()> Args) {
    J.object([&] {
      J.attribute("name", Name);
      J.attribute("ph", "M");
      J.attribute("pid", Pid);
      if (Tid)
        J.attribute("tid", Tid);
      J.attributeObject("args", Args);
    });
  }

  void span(const TrackSpan &S, int Tid) {
    const TraceRecord &R = *S.Record;
    J.object([&] {
      J.attribute("name", utf8(nameOf(R)));
      J.attribute("cat", categoryOf(R));
      J.attribute("ph", "X");
      time("ts", S.Start - Zero);
      time("dur", S.End - S.Start);
      J.attribute("pid", Pid);
      J.attribute("tid", Tid);
      J.attributeObject("args", [&] {
        args(R);
        if (R.Open)
          J.attribute("unfinished", true);
      });
    });
  }

  /// One end of the arrow from a launch's enqueue to its run: Phase "s" at T inside the
  /// enqueue, "f" bound to the run enclosing T.
  void flow(const char *Phase, uint64_t Id, Nanos T, int Tid) {
    J.object([&] {
      J.attribute("name", "launch");
      J.attribute("cat", "launch");
      J.attribute("ph", Phase);
      if (Phase[0] == 'f')
        J.attribute("bp", "e");
      J.attribute("id", static_cast<int64_t>(Id));
      time("ts", T - Zero);
      J.attribute("pid", Pid);
      J.attribute("tid", Tid);
    });
  }

  void counter(const std::string &Name, Nanos T, uint64_t Bytes) {
    J.object([&] {
      J.attribute("name", Name);
      J.attribute("cat", "memory");
      J.attribute("ph", "C");
      time("ts", T - Zero);
      J.attribute("pid", Pid);
      J.attributeObject("args", [&] { J.attribute("bytes", static_cast<int64_t>(Bytes)); });
    });
  }

private:
  /// Nanoseconds as microseconds, written exactly ("12.345"; never negative).
  void time(const char *Key, Nanos Ns) {
    Nanos Rel = std::max<Nanos>(Ns, 0);
    J.attributeBegin(Key);
    J.rawValue([&](llvm::raw_ostream &OS) {
      char Text[48];
      std::snprintf(Text, sizeof Text, "%" PRId64 ".%03" PRId64, Rel / 1000, Rel % 1000);
      OS << Text;
    });
    J.attributeEnd();
  }

  static std::string nameOf(const TraceRecord &R) {
    switch (R.What) {
    case Kind::Construct: {
      const Site &S = std::get<Site>(R.Detail);
      if (S.Implicit && S.Func)
        return S.Func;
      return std::string(constructName(S.Kind)) + (S.ExitPart ? " (exit)" : "");
    }
    case Kind::Data: return dataOpName(std::get<DataSpan>(R.Detail).Op);
    case Kind::Launch:
      return std::string("launch ") + std::get<LaunchEvent>(R.Detail).Kernel.Name;
    case Kind::Wait: return "wait";
    case Kind::DeviceInit:
    case Kind::DeviceShutdown: {
      const DeviceSpan &D = std::get<DeviceSpan>(R.Detail);
      return (R.What == Kind::DeviceInit ? "start " : "stop ") + deviceName(D.Index, D.Kind);
    }
    case Kind::Push: return std::string("push ") + std::get<PushEvent>(R.Detail).Kernel.Name;
    case Kind::KernelRun: return std::get<LaunchEvent>(R.Detail).Kernel.Name;
    case Kind::Copy: return directionName(std::get<CopyEvent>(R.Detail).Dir);
    case Kind::Compile: return std::get<CompileEvent>(R.Detail).Kernel.Name;
    case Kind::Memory: break;
    }
    return "event";
  }

  static const char *categoryOf(const TraceRecord &R) {
    switch (R.What) {
    case Kind::Construct:
      return std::get<Site>(R.Detail).Implicit ? "api" : "construct";
    case Kind::Data: return "data";
    case Kind::Launch: return "launch";
    case Kind::Wait: return "wait";
    case Kind::DeviceInit:
    case Kind::DeviceShutdown: return "device";
    case Kind::Push: return "push";
    case Kind::KernelRun: return "kernel";
    case Kind::Copy: return "copy";
    case Kind::Compile: return "compile";
    case Kind::Memory: break;
    }
    return "jacc";
  }

  void args(const TraceRecord &R) {
    std::visit([&](const auto &D) { detail(D); }, R.Detail);
  }

  void detail(const Site &S) {
    J.attribute("kind", constructName(S.Kind));
    if (S.File)
      J.attribute("site", utf8(std::string(S.File) + ":" + std::to_string(S.Line)));
    if (S.Func)
      J.attribute("function", utf8(S.Func));
    if (S.ExitPart)
      J.attribute("exit part", true);
  }
  void detail(const DataSpan &D) {
    J.attribute("host", hexAddress(D.Host));
    J.attribute("bytes", static_cast<int64_t>(D.Bytes));
  }
  void detail(const DeviceSpan &D) {
    J.attribute("device", D.Index);
    if (D.Kind)
      J.attribute("kind", utf8(D.Kind));
  }
  void detail(const LaunchEvent &E) {
    J.attribute("kernel", utf8(E.Kernel.Name));
    J.attribute("push", static_cast<int64_t>(E.Push));
    J.attribute("device", E.Device);
    J.attribute("mode", modeName(E.How));
    if (E.ShareScale > 0) {
      double Begin = double(E.ShareBegin) / E.ShareScale, End = double(E.ShareEnd) / E.ShareScale;
      char Text[64];
      std::snprintf(Text, sizeof Text, "[%g, %g)", Begin, End);
      J.attribute("share", Text);
      J.attribute("share fraction", End - Begin);
    }
  }
  void detail(const PushEvent &E) {
    J.attribute("kernel", utf8(E.Kernel.Name));
    J.attribute("push", static_cast<int64_t>(E.Id));
    J.attribute("mode", modeName(E.How));
    J.attribute("devices", E.Devices);
    J.attribute("cache source", cacheSourceName(E.Source));
    if (E.CompileSeconds > 0)
      J.attribute("compile ms", E.CompileSeconds * 1e3);
    J.attribute("variant", E.Variant);
    J.attribute("async", E.Async);
  }
  void detail(const CopyEvent &E) {
    J.attribute("bytes", static_cast<int64_t>(E.Bytes));
    J.attribute("direction", directionName(E.Dir));
    J.attribute("device", E.Device);
    if (E.Peer >= 0)
      J.attribute("peer", E.Peer);
  }
  void detail(const CompileEvent &E) {
    J.attribute("kernel", utf8(E.Kernel.Name));
    J.attribute("cache source", cacheSourceName(E.Source));
    J.attribute("variant", E.Variant);
  }
  void detail(const MemEvent &) {}

  llvm::json::OStream &J;
  Nanos Zero;
  int Pid;
};

/// Arrows from each launch's enqueue (on its thread) to its run (on its device), matched by push
/// and device in time order. Each end sits mid-span, where the viewers bind it to that span.
void writeLaunchFlows(const std::vector<Track> &Tracks, EventWriter &W) {
  struct End {
    Nanos Middle;
    int Tid;
  };
  std::map<std::pair<uint64_t, int>, std::pair<std::vector<End>, std::vector<End>>> ByLaunch;
  for (size_t I = 0; I < Tracks.size(); ++I)
    for (const TrackSpan &S : Tracks[I].Spans) {
      Kind What = S.Record->What;
      if (What != Kind::Launch && What != Kind::KernelRun)
        continue;
      const LaunchEvent &E = std::get<LaunchEvent>(S.Record->Detail);
      auto &[Enqueues, Runs] = ByLaunch[{E.Push, E.Device}];
      (What == Kind::Launch ? Enqueues : Runs)
          .push_back({S.Start + (S.End - S.Start) / 2, static_cast<int>(I) + 1});
    }
  uint64_t Id = 0;
  for (auto &[Key, Ends] : ByLaunch) {
    auto &[Enqueues, Runs] = Ends;
    auto Earlier = [](const End &A, const End &B) { return A.Middle < B.Middle; };
    std::sort(Enqueues.begin(), Enqueues.end(), Earlier);
    std::sort(Runs.begin(), Runs.end(), Earlier);
    for (size_t I = 0; I < std::min(Enqueues.size(), Runs.size()); ++I) {
      W.flow("s", ++Id, Enqueues[I].Middle, Enqueues[I].Tid);
      W.flow("f", Id, Runs[I].Middle, Runs[I].Tid);
    }
  }
}

/// The running totals of each device's allocated and mapped bytes, one counter event per change.
/// A free or delete takes off what its allocation or mapping added.
void writeMemoryCounters(const TraceLog &Log, EventWriter &W) {
  std::map<std::tuple<int, const void *, bool>, uint64_t> Live; // device, address, mapping
  std::map<std::pair<int, bool>, uint64_t> Totals;
  for (const TraceRecord &R : Log.Records) {
    if (R.What != Kind::Memory)
      continue;
    const MemEvent &E = std::get<MemEvent>(R.Detail);
    bool Mapping = E.Op == MemOp::Create || E.Op == MemOp::Delete;
    const void *Address = Mapping ? E.Host : E.DevicePtr;
    uint64_t &Total = Totals[{E.Device, Mapping}];
    if (E.Op == MemOp::Create || E.Op == MemOp::Alloc) {
      Live[{E.Device, Address, Mapping}] += E.Bytes;
      Total += E.Bytes;
    } else {
      auto It = Live.find({E.Device, Address, Mapping});
      uint64_t Gone = It == Live.end() ? 0 : It->second;
      if (It != Live.end())
        Live.erase(It);
      Total -= std::min(Total, Gone);
    }
    W.counter(deviceName(E.Device, R.DeviceKind) + (Mapping ? " mapped" : " allocated"), R.Start,
              Total);
  }
}

} // namespace

void writeTrace(const TraceLog &Log, Nanos Finish, llvm::raw_ostream &OS) {
  Nanos Zero = Finish;
  uint64_t Unfinished = 0;
  for (const TraceRecord &R : Log.Records) {
    Zero = std::min(Zero, R.Start);
    Unfinished += R.Open;
  }
  uint64_t Clamped = 0;
  std::vector<Track> Tracks = layoutTracks(Log, Finish, Clamped);
  int Pid = static_cast<int>(::getpid());

  llvm::json::OStream J(OS);
  EventWriter W(J, Zero, Pid);
  J.object([&] {
    J.attributeArray("traceEvents", [&] {
      W.metadata("process_name", 0, [&] { J.attribute("name", utf8("jacc " + programName())); });
      for (size_t I = 0; I < Tracks.size(); ++I) {
        int Tid = static_cast<int>(I) + 1;
        W.metadata("thread_name", Tid, [&] { J.attribute("name", utf8(Tracks[I].Name)); });
        W.metadata("thread_sort_index", Tid, [&] { J.attribute("sort_index", Tid); });
      }
      for (size_t I = 0; I < Tracks.size(); ++I)
        for (const TrackSpan &S : Tracks[I].Spans)
          W.span(S, static_cast<int>(I) + 1);
      writeLaunchFlows(Tracks, W);
      writeMemoryCounters(Log, W);
    });
    J.attribute("displayTimeUnit", "ns");
    J.attributeObject("otherData", [&] {
      J.attribute("writer", "jacc JACC_TRACE");
      J.attribute("program", utf8(programName()));
      J.attribute("clock", "steady clock, microseconds from the first event");
      J.attribute("events", static_cast<int64_t>(Log.Records.size()));
      J.attribute("event_cap", static_cast<int64_t>(Log.MaxRecords));
      J.attribute("dropped_events", static_cast<int64_t>(Log.Dropped));
      J.attribute("unfinished_spans", static_cast<int64_t>(Unfinished));
      J.attribute("unmatched_ends", static_cast<int64_t>(Log.Unmatched));
      J.attribute("clamped_spans", static_cast<int64_t>(Clamped));
    });
  });
  OS << "\n";
}

llvm::Error writeTraceFile(const TraceLog &Log, Nanos Finish, llvm::StringRef Path) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (!EC) {
    writeTrace(Log, Finish, OS);
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (EC)
    return makeError(ErrorCode::InvalidArgument,
                     "cannot write the trace to '" + Path + "': " + EC.message() +
                         " (set JACC_TRACE to a file in a writable directory)");
  return llvm::Error::success();
}

} // namespace jacc::prof
