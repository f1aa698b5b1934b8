// What jacc tells its observers: constructs entered and left, data operations, memory created and
// freed, copies, kernels queued and run on each device, compiles, waits, devices started and
// stopped. The runtime calls one function per event after one check of active(), so a run that
// nobody observes pays a load and a branch per site. Observers (JACC_PROFILE's summary,
// JACC_TRACE's timeline, the OpenACC profiling interface's tools) are Listeners.
#ifndef JACC_SRC_PROFILE_EVENTS_H
#define JACC_SRC_PROFILE_EVENTS_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace jacc::prof {

/// Nanoseconds on the steady clock (the clock every event's times are on).
using Nanos = int64_t;
Nanos now();

/// The running program's name ("heat"): the summary's heading, the trace's process track.
std::string programName();

/// A kind of device as observers see it: jacc's name for it ("host", as JACC_DEVICES writes it)
/// and what OpenACC calls it (acc_device_t and acc_device_api values, from the device table).
struct DeviceKind {
  const char *Name = "";
  int AccType = 0;
  int AccApi = 0;
};

/// The constructs of OpenACC 3.3's acc_construct_t (chapter 5.2.2), with its values.
enum class Construct : uint8_t {
  Parallel = 0, Kernels, Loop, Data, EnterData, ExitData, HostData, Atomic, Declare, Init,
  Shutdown, Set, Update, Routine, Wait, RuntimeApi, Serial
};
const char *constructName(Construct C); ///< "parallel", "enter data", "runtime api"

/// Where a construct is. File and Func are string literals (the translated program's, or the
/// name of the API routine for an implicit construct), never freed.
struct Site {
  Construct Kind = Construct::RuntimeApi;
  const char *File = nullptr; ///< "heat.c"; null for a runtime API call
  const char *Func = nullptr; ///< the enclosing function, or the API routine ("acc_copyin")
  int Line = 0;
  /// A data construct's exit part (its end of region); false for its entry and other constructs.
  bool ExitPart = false;
  /// Made by the runtime for an API call outside any construct (jacc_copyin, a kernel push).
  bool Implicit = false;
};

/// The innermost construct the calling thread is in, or null.
const Site *currentSite();

/// What a data operation does (one clause item, or one API call).
enum class DataOp : uint8_t { Enter, Exit, UpdateDevice, UpdateSelf };

/// Device memory: a mapping created or deleted (present table), memory allocated or freed.
enum class MemOp : uint8_t { Create, Delete, Alloc, Free };
struct MemEvent {
  MemOp Op;
  int Device;            ///< device index
  const void *Host;      ///< the mapped host address (Create, Delete), else null
  const void *DevicePtr; ///< the device copy's address
  size_t Bytes;
};

enum class Direction : uint8_t { HostToDevice, DeviceToHost, DeviceToDevice };
const char *directionName(Direction D); ///< "host to device", ...

/// A copy issued by Device (and, device to device, received by Peer).
struct CopyEvent {
  Direction Dir;
  int Device;
  int Peer; ///< the other device of a device-to-device copy, else -1
  const void *Src;
  const void *Dst;
  uint64_t Bytes;
  Nanos Start, End; ///< End is 0 in copyBegin
};

/// How a compute construct ran.
enum class Mode : uint8_t { Split, Duplicate, OnOwner };
const char *modeName(Mode M); ///< "split", "duplicate", "on owner"

/// Where a push found its kernel.
enum class CacheSource : uint8_t { Memory, Disk, Compiled };
const char *cacheSourceName(CacheSource S); ///< "memory", "disk", "compiled"

/// A kernel as observers name it: its site ("heat.c:42") or its first loop line. Interned for the
/// life of the process (the pointer identifies the kernel).
struct KernelName {
  const char *Name;
  bool FromSite; ///< Name is a "file:line" site
};

/// One jacc_kernel_push, after it was queued (Async) or ran.
struct PushEvent {
  uint64_t Id; ///< the process's push number, from 1 (LaunchEvent::Push)
  KernelName Kernel;
  Mode How;
  unsigned Devices;
  CacheSource Source;
  double CompileSeconds; ///< this push's compile (0 for a memory cache hit)
  bool Variant;          ///< a specialized variant ran
  bool Async;
  Nanos Start, End;
};

/// One device's part of a kernel, queued (launchBegin/End: the enqueue) or run (kernelRun).
struct LaunchEvent {
  uint64_t Push; ///< the push it belongs to (PushEvent::Id)
  KernelName Kernel;
  Mode How;
  int Device;
  long long ShareBegin, ShareEnd, ShareScale; ///< the device's share [Begin/Scale, End/Scale)
  Nanos Start, End; ///< kernelRun: when it ran on the device; launch: the enqueue
  /// The parallel parts it runs as (a host device's threads, a GPU's grid) and each one's vector
  /// lanes (host: 1; GPU: its block); 0 when not known (a GPU launch's enqueue start).
  unsigned Gangs = 0, VectorLength = 0;
};

/// A kernel compiled (or loaded from the disk cache) on the calling thread, or a variant on the
/// background compiler's.
struct CompileEvent {
  KernelName Kernel;
  CacheSource Source;
  bool Variant;
  Nanos Start, End;
  /// Code built on first use after the kernel: "split entry", "cuda", "cuda split"; null for
  /// the kernel's first compile.
  const char *Part = nullptr;
};

/// An observer. Every callback may run on any thread (begin/end pairs of one thread on that
/// thread) and must be thread-safe; none may call back into jacc.
class Listener {
public:
  virtual ~Listener();
  virtual void constructBegin(const Site &, Nanos) {}
  virtual void constructEnd(const Site &, Nanos) {}
  /// One data operation on [Host, Host+Bytes) (inside the construct that asked for it).
  virtual void dataBegin(DataOp, const void * /*Host*/, size_t /*Bytes*/, Nanos) {}
  virtual void dataEnd(DataOp, const void * /*Host*/, size_t /*Bytes*/, Nanos) {}
  virtual void memory(const MemEvent &) {}
  virtual void copyBegin(const CopyEvent &) {}
  virtual void copyEnd(const CopyEvent &) {}
  virtual void launchBegin(const LaunchEvent &) {}
  virtual void launchEnd(const LaunchEvent &) {}
  /// A device's part of a kernel completed (on the device's completion thread).
  virtual void kernelRun(const LaunchEvent &) {}
  virtual void push(const PushEvent &) {}
  virtual void compile(const CompileEvent &) {}
  virtual void waitBegin(Nanos) {}
  virtual void waitEnd(Nanos) {}
  /// Device Index, of Kind, was created (Begin: before) or is going.
  virtual void deviceInit(int /*Index*/, const DeviceKind & /*Kind*/, bool /*Begin*/, Nanos) {}
  virtual void deviceShutdown(int /*Index*/, const DeviceKind & /*Kind*/, bool /*Begin*/, Nanos) {}
  /// jacc_finalize or the process's exit: write what was gathered. May be called again later
  /// (a finalize, then the exit) with more gathered in between.
  virtual void finish(bool /*AtExit*/) {}
};

namespace detail {
extern std::atomic<bool> Active;
extern std::atomic<unsigned> Count;
extern Listener *Slots[];
} // namespace detail

/// Whether anybody listens: the one check before an event is built. A build configured with
/// -Dprofiling=false has no hooks at all (the compiler drops every site): the baseline of the
/// overhead benchmark.
#ifndef JACC_PROFILING
#define JACC_PROFILING 1
#endif
inline bool active() {
  return JACC_PROFILING && detail::Active.load(std::memory_order_relaxed);
}

/// Adds L for the rest of the process (at most 8 listeners). Thread-safe.
void addListener(std::unique_ptr<Listener> L);

/// Calls F on every listener.
template <typename F> void each(F &&Fn) {
  unsigned N = detail::Count.load(std::memory_order_acquire);
  for (unsigned I = 0; I < N; ++I)
    Fn(*detail::Slots[I]);
}

/// A new push number (PushEvent::Id).
uint64_t nextPushId();

/// Every listener's finish(AtExit).
void finishAll(bool AtExit);

/// A construct on the calling thread from its begin to its end (jacc_construct_begin/end).
void beginConstruct(const Site &S);
void endConstruct();

/// A runtime API call's implicit construct: begun when somebody listens and the calling thread is
/// in no construct, ended with the scope.
class ImplicitConstruct {
public:
  ImplicitConstruct(Construct Kind, const char *Api) {
    if (active())
      Begun = begin(Kind, Api);
  }
  ~ImplicitConstruct() {
    if (Begun)
      endConstruct();
  }
  ImplicitConstruct(const ImplicitConstruct &) = delete;
  ImplicitConstruct &operator=(const ImplicitConstruct &) = delete;

private:
  static bool begin(Construct Kind, const char *Api);
  bool Begun = false;
};

/// A data operation's dataBegin/dataEnd around a scope, when somebody listens.
class DataScope {
public:
  DataScope(DataOp Op, const void *Host, size_t Bytes) : Op(Op), Host(Host), Bytes(Bytes) {
    if ((On = active()))
      begin();
  }
  ~DataScope() {
    if (On)
      end();
  }
  DataScope(const DataScope &) = delete;
  DataScope &operator=(const DataScope &) = delete;

private:
  void begin();
  void end();
  DataOp Op;
  const void *Host;
  size_t Bytes;
  bool On;
};

/// The kernel name for a site ("heat.c:42"; empty: none) or else a first line, interned: the
/// result lives as long as the process.
const KernelName *internKernelName(const std::string &Site, const std::string &FirstLine);

} // namespace jacc::prof

#endif
