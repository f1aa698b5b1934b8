// jacc's events as OpenACC profiling events (OpenACC 3.3 chapter 5.1):
//   compute constructs (parallel, kernels, serial)   compute_construct_start/end
//   enter data, a data construct's entry              enter_data_start/end
//   exit data, a data construct's exit                exit_data_start/end
//   update, wait constructs                           update_start/end, wait_start/end
//   a runtime routine's implicit construct            the same, parent construct runtime_api
//   a data clause's operation in a compute construct  enter_data / exit_data (implicit)
//   a wait outside a wait construct                   wait_start/end (implicit)
//   copies to a device, from a device                 enqueue_upload / enqueue_download
//   a copy between devices                            enqueue_upload to the receiving device,
//                                                     host_ptr NULL
//   a device's part of a kernel queued                enqueue_launch_start/end
//   mappings and memory                               create, delete, alloc, free
//   devices started and stopped                       device_init / device_shutdown start/end
//   the process's exit                                runtime_shutdown
// Start and end events pair up on their thread; a start callback's tool_info reaches its end.
#include "src/profile/AccProfListener.h"

#include "src/profile/AccProf.h"

#include <atomic>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <vector>

namespace jacc::prof {

namespace {

using accprof::dispatch;
using accprof::wanted;

constexpr int ProfInfoBytes = offsetof(acc_prof_info, func_end_line_no) + sizeof(int);
constexpr int DataInfoBytes = offsetof(acc_data_event_info, device_ptr) + sizeof(void *);
constexpr int LaunchInfoBytes = offsetof(acc_launch_event_info, vector_length) + sizeof(size_t);
constexpr int OtherInfoBytes = offsetof(acc_other_event_info, tool_info) + sizeof(void *);
constexpr int ApiInfoBytes = offsetof(acc_api_info, async_handle) + sizeof(void *);

/// The pairs begun on this thread and not yet ended, innermost last: the end event each expects
/// and the tool_info its start's callbacks left. A fixed array, nothing to destroy: events may
/// come at the exit, after the thread's destructors ran. Pairs nest a few deep (a construct, a
/// data operation, a copy); deeper ones are counted in Unrecorded and not reported.
struct OpenPair {
  acc_event_t End;
  void *ToolInfo;
};
constexpr unsigned MaxOpenPairs = 32;
thread_local OpenPair Pairs[MaxOpenPairs];
thread_local unsigned PairDepth = 0, Unrecorded = 0;

/// The chapter's thread_id: host threads numbered in the order of their first event.
int threadId() {
  static std::atomic<int> Next{0};
  thread_local int Id = Next.fetch_add(1, std::memory_order_relaxed);
  return Id;
}

bool isCompute(Construct K) {
  return K == Construct::Parallel || K == Construct::Kernels || K == Construct::Serial;
}

/// A construct's start event, or acc_ev_none for constructs the chapter gives no events.
acc_event_t constructStart(const Site &S) {
  switch (S.Kind) {
  case Construct::Parallel:
  case Construct::Kernels:
  case Construct::Serial: return acc_ev_compute_construct_start;
  case Construct::EnterData: return acc_ev_enter_data_start;
  case Construct::ExitData: return acc_ev_exit_data_start;
  case Construct::Data: return S.ExitPart ? acc_ev_exit_data_start : acc_ev_enter_data_start;
  case Construct::Update: return acc_ev_update_start;
  case Construct::Wait: return acc_ev_wait_start;
  default: return acc_ev_none;
  }
}

/// The construct an event belongs to: a runtime routine's for an implicit construct or none.
acc_construct_t parentOf(const Site *S) {
  return S && !S->Implicit ? acc_construct_t(S->Kind) : acc_construct_runtime_api;
}

/// Whether the runtime, not a directive, asked for an event nested in S (a runtime routine's
/// work, or what a compute construct's data clauses and end imply).
int impliedIn(const Site *S) { return !S || S->Implicit || isCompute(S->Kind); }

acc_event_info otherInfo(acc_event_t E, const Site *S, int Implicit) {
  acc_event_info I;
  std::memset(&I, 0, sizeof I);
  I.other_event = {E, OtherInfoBytes, parentOf(S), Implicit, nullptr};
  return I;
}

acc_event_info dataInfo(acc_event_t E, const Site *S, const void *Host, const void *Dev,
                        size_t Bytes) {
  acc_event_info I;
  std::memset(&I, 0, sizeof I);
  I.data_event = {E, DataInfoBytes, parentOf(S), impliedIn(S), nullptr, nullptr, Bytes, Host,
                  Dev};
  return I;
}

class AccProfListener final : public Listener {
public:
  void constructBegin(const Site &S, Nanos) override {
    acc_event_t E = constructStart(S);
    if (E != acc_ev_none)
      start(E, &S, 0, otherInfo(E, &S, S.Implicit));
  }
  void constructEnd(const Site &S, Nanos) override {
    acc_event_t E = constructStart(S);
    if (E != acc_ev_none)
      end(acc_event_t(E + 1), &S, 0, otherInfo(acc_event_t(E + 1), &S, S.Implicit));
  }

  // Enter and exit data events carry the chapter's acc_other_event_info: no address or size.
  void dataBegin(DataOp Op, const void *, size_t, Nanos) override {
    if (acc_event_t E = clauseStart(Op); E != acc_ev_none)
      start(E, currentSite(), 0, otherInfo(E, currentSite(), 1));
  }
  void dataEnd(DataOp Op, const void *, size_t, Nanos) override {
    if (acc_event_t E = clauseStart(Op); E != acc_ev_none)
      end(acc_event_t(E + 1), currentSite(), 0, otherInfo(acc_event_t(E + 1), currentSite(), 1));
  }

  void memory(const MemEvent &M) override {
    static const acc_event_t Events[] = {acc_ev_create, acc_ev_delete, acc_ev_alloc, acc_ev_free};
    acc_event_t E = Events[unsigned(M.Op)];
    if (!wanted(E))
      return;
    acc_event_info I = dataInfo(E, currentSite(), M.Host, M.DevicePtr, M.Bytes);
    send(E, currentSite(), M.Device, I);
  }

  void copyBegin(const CopyEvent &C) override { copy(C, /*Start=*/true); }
  void copyEnd(const CopyEvent &C) override { copy(C, /*Start=*/false); }

  void launchBegin(const LaunchEvent &L) override { launch(L, acc_ev_enqueue_launch_start); }
  void launchEnd(const LaunchEvent &L) override { launch(L, acc_ev_enqueue_launch_end); }

  void waitBegin(Nanos) override {
    if (const Site *S = currentSite(); !S || S->Kind != Construct::Wait)
      start(acc_ev_wait_start, S, 0, otherInfo(acc_ev_wait_start, S, 1));
  }
  void waitEnd(Nanos) override {
    if (const Site *S = currentSite(); !S || S->Kind != Construct::Wait)
      end(acc_ev_wait_end, S, 0, otherInfo(acc_ev_wait_end, S, 1));
  }

  void deviceInit(int Index, const DeviceKind &Kind, bool Begin, Nanos) override {
    if (Begin)
      noteKind(Index, Kind);
    device(Index, Begin ? acc_ev_device_init_start : acc_ev_device_init_end);
  }
  void deviceShutdown(int Index, const DeviceKind &, bool Begin, Nanos) override {
    device(Index, Begin ? acc_ev_device_shutdown_start : acc_ev_device_shutdown_end);
  }

  void finish(bool AtExit) override {
    if (!AtExit || ShutdownSent.exchange(true) || !wanted(acc_ev_runtime_shutdown))
      return;
    acc_event_info I = otherInfo(acc_ev_runtime_shutdown, nullptr, 1);
    send(acc_ev_runtime_shutdown, nullptr, 0, I);
  }

private:
  /// A data clause's operation inside a compute construct: its implicit data region's entry or
  /// exit. Elsewhere the construct's own events cover it.
  static acc_event_t clauseStart(DataOp Op) {
    const Site *S = currentSite();
    if (!S || !isCompute(S->Kind))
      return acc_ev_none;
    return Op == DataOp::Enter ? acc_ev_enter_data_start
           : Op == DataOp::Exit ? acc_ev_exit_data_start
                                : acc_ev_none;
  }

  void copy(const CopyEvent &C, bool Start) {
    bool Download = C.Dir == Direction::DeviceToHost;
    acc_event_t E = Download ? acc_ev_enqueue_download_start : acc_ev_enqueue_upload_start;
    if (!Start)
      E = acc_event_t(E + 1);
    const void *Host = Download ? C.Dst : C.Dir == Direction::HostToDevice ? C.Src : nullptr;
    const void *Dev = Download ? C.Src : C.Dst;
    int Device = C.Dir == Direction::DeviceToDevice ? C.Peer : C.Device;
    acc_event_info I = dataInfo(E, currentSite(), Host, Dev, C.Bytes);
    if (Start)
      start(E, currentSite(), Device, I);
    else
      end(E, currentSite(), Device, I);
  }

  void launch(const LaunchEvent &L, acc_event_t E) {
    const Site *S = currentSite();
    acc_event_info I;
    std::memset(&I, 0, sizeof I);
    // A launch is the construct's own work, not implied: implicit only for a runtime routine's.
    I.launch_event = {
        E,       LaunchInfoBytes,   parentOf(S),   !S || S->Implicit, nullptr, L.Kernel.Name,
        L.Gangs, L.Gangs ? 1u : 0u, L.VectorLength};
    if (E == acc_ev_enqueue_launch_start)
      start(E, S, L.Device, I);
    else
      end(E, S, L.Device, I);
  }

  void device(int Index, acc_event_t E) {
    const Site *S = currentSite();
    int Implicit = !S || S->Implicit;
    if (accprof::isEndEvent(E))
      end(E, S, Index, otherInfo(E, S, Implicit));
    else
      start(E, S, Index, otherInfo(E, S, Implicit));
  }

  /// A start event: opens its pair on this thread (whether or not anyone wants it, so that the
  /// end finds it) and keeps what the callbacks left in tool_info for the end.
  void start(acc_event_t E, const Site *S, int Device, acc_event_info I) {
    if (PairDepth == MaxOpenPairs || Unrecorded) {
      ++Unrecorded;
      return;
    }
    OpenPair &P = Pairs[PairDepth++];
    P = {acc_event_t(E + 1), nullptr};
    if (!wanted(E))
      return;
    send(E, S, Device, I);
    P.ToolInfo = I.other_event.tool_info;
  }

  /// An end event: sent only when it closes the thread's innermost pair (an end whose start came
  /// before the first registration is dropped, not reported unpaired).
  void end(acc_event_t E, const Site *S, int Device, acc_event_info I) {
    if (Unrecorded) {
      --Unrecorded;
      return;
    }
    if (PairDepth == 0 || Pairs[PairDepth - 1].End != E)
      return;
    I.other_event.tool_info = Pairs[--PairDepth].ToolInfo;
    if (wanted(E))
      send(E, S, Device, I);
  }

  void send(acc_event_t E, const Site *S, int Device, acc_event_info &I) {
    DeviceId D = deviceId(Device);
    acc_prof_info P = {E,
                       ProfInfoBytes,
                       _OPENACC,
                       D.Type,
                       D.Number,
                       threadId(),
                       acc_async_sync,
                       acc_async_sync,
                       S ? S->File : nullptr,
                       S ? S->Func : nullptr,
                       S ? S->Line : 0,
                       0,
                       0,
                       0};
    acc_api_info A = {D.Api, ApiInfoBytes, D.Type, 0, nullptr, nullptr, nullptr};
    dispatch(&P, &I, &A);
  }

  /// A device's OpenACC type and API.
  struct AccKind {
    acc_device_t Type;
    acc_device_api Api;
  };
  static constexpr AccKind HostKind{acc_device_host, acc_device_api_none};

  /// Device kinds as the devices start (a device never seen starting counts as a host device).
  void noteKind(int Index, const DeviceKind &Kind) {
    if (Index < 0)
      return;
    std::lock_guard<std::mutex> G(KindsLock);
    if (Kinds.size() <= size_t(Index))
      Kinds.resize(Index + 1, HostKind);
    Kinds[Index] = {acc_device_t(Kind.AccType), acc_device_api(Kind.AccApi)};
  }

  struct DeviceId {
    acc_device_t Type;
    acc_device_api Api;
    int Number; ///< among the devices of Type, as acc_get_device_num counts
  };
  DeviceId deviceId(int Index) {
    std::lock_guard<std::mutex> G(KindsLock);
    auto KindOf = [&](int I) { return size_t(I) < Kinds.size() ? Kinds[I] : HostKind; };
    AccKind Mine = Index >= 0 ? KindOf(Index) : HostKind;
    int Number = 0;
    for (int I = 0; I < Index; ++I)
      Number += KindOf(I).Type == Mine.Type;
    return {Mine.Type, Mine.Api, Number};
  }

  std::mutex KindsLock;
  std::vector<AccKind> Kinds;
  std::atomic<bool> ShutdownSent{false};
};

} // namespace

std::unique_ptr<Listener> makeAccProfListener() { return std::make_unique<AccProfListener>(); }

} // namespace jacc::prof
