// JACC_TRACE's listener: every event appended to one log under a mutex (events come from the
// threads calling jacc, the devices' threads and the background compiler), begin/end pairs
// matched on their thread as they arrive, the file written at each finish.
#include "src/profile/Trace.h"

#include "src/profile/TraceFile.h"
#include "src/profile/TraceLog.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <unordered_map>

namespace jacc::prof {

namespace {

using Kind = TraceRecord::Kind;

/// The calling thread's number, the same for every listener: 1, 2, ... in order of first event.
unsigned threadNumber() {
  static std::atomic<unsigned> Next{1};
  thread_local unsigned Number = Next.fetch_add(1, std::memory_order_relaxed);
  return Number;
}

/// Copies of the names events point to, kept as long as the log: interned kernel names and
/// device kinds are the runtime's, and the process's exit (when the file is written last) may
/// have destroyed them.
class NameCopies {
public:
  /// The copy of Name (null stays null).
  const char *copy(const char *Name) {
    if (!Name)
      return nullptr;
    std::unique_ptr<std::string> &Copy = ByAddress[Name];
    if (!Copy)
      Copy = std::make_unique<std::string>(Name);
    return Copy->c_str();
  }

private:
  std::unordered_map<const void *, std::unique_ptr<std::string>> ByAddress;
};

/// A begin whose end has not come: its record, or NoRecord when the cap dropped it (its end
/// must still find it, so that the ends around it match their own begins).
struct OpenSpan {
  Kind What;
  size_t Record;
};
constexpr size_t NoRecord = ~size_t(0);

class TraceListener final : public Listener {
public:
  /// A relative Path is taken from the working directory now (the program may change it
  /// before the file is written).
  TraceListener(llvm::StringRef File, size_t MaxEvents) {
    llvm::SmallString<256> Absolute(File);
    llvm::sys::fs::make_absolute(Absolute);
    Path = Absolute.str().str();
    Log.MaxRecords = MaxEvents;
  }

  void constructBegin(const Site &S, Nanos T) override { begin(Kind::Construct, T, S); }
  void constructEnd(const Site &, Nanos T) override { end(Kind::Construct, T); }
  void dataBegin(DataOp Op, const void *Host, size_t Bytes, Nanos T) override {
    begin(Kind::Data, T, DataSpan{Op, Host, Bytes});
  }
  void dataEnd(DataOp, const void *, size_t, Nanos T) override { end(Kind::Data, T); }
  void memory(const MemEvent &E) override {
    Nanos T = now();
    add(Kind::Memory, T, T, E, E.Device);
  }
  // A copy's span is complete at its end; its begin adds nothing.
  void copyEnd(const CopyEvent &E) override { add(Kind::Copy, E.Start, E.End, E, E.Device); }
  // The enqueue, on the pushing thread: complete at its end too.
  void launchEnd(const LaunchEvent &E) override { add(Kind::Launch, E.Start, E.End, E, E.Device); }
  void kernelRun(const LaunchEvent &E) override {
    add(Kind::KernelRun, E.Start, E.End, E, E.Device);
  }
  void push(const PushEvent &E) override { add(Kind::Push, E.Start, E.End, E, -1); }
  void compile(const CompileEvent &E) override { add(Kind::Compile, E.Start, E.End, E, -1); }
  void waitBegin(Nanos T) override { begin(Kind::Wait, T, Site()); }
  void waitEnd(Nanos T) override { end(Kind::Wait, T); }
  void deviceInit(int Index, const DeviceKind &Device, bool Begin, Nanos T) override {
    if (Begin) {
      nameDevice(Index, Device.Name);
      begin(Kind::DeviceInit, T, DeviceSpan{Index, Device.Name});
    } else {
      end(Kind::DeviceInit, T);
    }
  }
  void deviceShutdown(int Index, const DeviceKind &Device, bool Begin, Nanos T) override {
    if (Begin)
      begin(Kind::DeviceShutdown, T, DeviceSpan{Index, Device.Name});
    else
      end(Kind::DeviceShutdown, T);
  }

  void finish(bool) override {
    std::lock_guard<std::mutex> G(Lock);
    if (llvm::Error E = writeTraceFile(Log, now(), Path))
      // stderr, not llvm::errs(): at the process's exit that stream may be gone already.
      std::fprintf(stderr, "jacc: JACC_TRACE: %s\n", llvm::toString(std::move(E)).c_str());
  }

private:
  /// Appends a record, or counts it as dropped beyond the cap; true if appended.
  template <typename D>
  bool add(Kind What, Nanos Start, Nanos End, const D &Detail, int Device, bool Open = false) {
    unsigned Thread = threadNumber();
    std::lock_guard<std::mutex> G(Lock);
    noteThread(Thread);
    if (Log.Records.size() >= Log.MaxRecords) {
      ++Log.Dropped;
      if (Open)
        OpenSpans[Thread].push_back({What, NoRecord});
      return false;
    }
    TraceRecord &R = Log.Records.emplace_back();
    R.What = What;
    R.Open = Open;
    R.Thread = Thread;
    R.Start = Start;
    R.End = End;
    R.Detail = ownNames(Detail);
    if (Device >= 0 && static_cast<size_t>(Device) < DeviceKinds.size())
      R.DeviceKind = DeviceKinds[Device];
    if (Open)
      OpenSpans[Thread].push_back({What, Log.Records.size() - 1});
    return true;
  }

  template <typename D> void begin(Kind What, Nanos T, const D &Detail) {
    add(What, T, T, Detail, -1, /*Open=*/true);
  }

  /// Ends the calling thread's innermost open span of kind What. Spans begun inside it and
  /// never ended end with it (counted: the runtime's pairs should make that impossible).
  void end(Kind What, Nanos T) {
    unsigned Thread = threadNumber();
    std::lock_guard<std::mutex> G(Lock);
    noteThread(Thread);
    std::vector<OpenSpan> &Stack = OpenSpans[Thread];
    size_t I = Stack.size();
    while (I > 0 && Stack[I - 1].What != What)
      --I;
    if (I == 0) {
      ++Log.Unmatched;
      return;
    }
    Log.Unmatched += Stack.size() - I;
    for (size_t J = I - 1; J < Stack.size(); ++J)
      if (Stack[J].Record != NoRecord) {
        TraceRecord &R = Log.Records[Stack[J].Record];
        R.Open = false;
        R.End = T;
      }
    Stack.resize(I - 1);
  }

  /// Records this thread's OS id the first time it reports (under Lock).
  void noteThread(unsigned Thread) {
    if (Thread >= OpenSpans.size()) {
      OpenSpans.resize(Thread + 1);
      Log.ThreadIds.resize(Thread + 1, 0);
    }
    if (!Log.ThreadIds[Thread])
      Log.ThreadIds[Thread] = static_cast<long>(::syscall(SYS_gettid));
  }

  void nameDevice(int Index, const char *DeviceKind) {
    if (Index < 0)
      return;
    std::lock_guard<std::mutex> G(Lock);
    if (static_cast<size_t>(Index) >= DeviceKinds.size())
      DeviceKinds.resize(Index + 1, nullptr);
    DeviceKinds[Index] = Names.copy(DeviceKind);
  }

  // The details with every name the runtime owns replaced by the log's copy (under Lock).
  template <typename D> D ownNames(D Detail) { return Detail; }
  DeviceSpan ownNames(DeviceSpan D) {
    D.Kind = Names.copy(D.Kind);
    return D;
  }
  LaunchEvent ownNames(LaunchEvent E) {
    E.Kernel.Name = Names.copy(E.Kernel.Name);
    return E;
  }
  PushEvent ownNames(PushEvent E) {
    E.Kernel.Name = Names.copy(E.Kernel.Name);
    return E;
  }
  CompileEvent ownNames(CompileEvent E) {
    E.Kernel.Name = Names.copy(E.Kernel.Name);
    return E;
  }

  std::string Path;
  std::mutex Lock;
  TraceLog Log;
  NameCopies Names;
  /// Each thread's open begin/end spans, innermost last, by thread number.
  std::vector<std::vector<OpenSpan>> OpenSpans;
  /// The kind of each device index, from its last deviceInit.
  std::vector<const char *> DeviceKinds;
};

} // namespace

std::unique_ptr<Listener> makeTraceListener(std::string Path, size_t MaxEvents) {
  return std::make_unique<TraceListener>(std::move(Path), MaxEvents);
}

} // namespace jacc::prof
