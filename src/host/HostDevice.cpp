// A host device. Launches complete strictly in ticket order: each one waits until its predecessor
// completed, whether it runs on the caller (sync) or on the device's stream thread (async).
#include "src/host/HostDevice.h"

#include "src/host/GuardedMemory.h"

#include "src/host/HostKernelLaunch.h"
#include "src/host/HostNativeLaunch.h"
#include "src/host/ThreadTeam.h"
#include "support/Debug.h"
#include "support/SavedError.h"
#include "support/SpinWait.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jacc {

namespace {

/// Cache-line alignment: no false sharing between arrays, and aligned vector loads in kernels.
constexpr size_t Alignment = 64;

/// The barrier callback handed to generated code, which only knows the team as an opaque pointer.
void barrierThunk(void *Team) {
  static_cast<ThreadTeam *>(Team)->barrier();
}

/// The system refused a thread (std::thread's system_error): an error naming what failed and the
/// ways out, instead of the exception ending the program.
llvm::Error threadRefused(const llvm::Twine &What, const std::system_error &E) {
  return makeError(ErrorCode::Device,
                   What + " (" + E.what() +
                       "): ask for fewer threads (JACC_HOST_THREADS, host:NxT in JACC_DEVICES) or "
                       "raise the process's limit on threads (ulimit -u)");
}

/// The error for a launch built for another kind of device, else success.
llvm::Error checkHostLaunch(const DeviceLaunch &L, const std::string &Device) {
  if (dynamic_cast<const HostLaunch *>(&L))
    return llvm::Error::success();
  return makeError(ErrorCode::Unsupported,
                   Device + " runs host launches only; this one was built for another device");
}

} // namespace

struct HostDevice::Impl {
  Impl(unsigned Threads, unsigned AloneThreads, std::chrono::microseconds SpinTime,
       ForkChoice::Limits Fork)
      : Threads(Threads), AloneThreads(std::max(Threads, AloneThreads)), SpinTime(SpinTime),
        Team(Threads, SpinTime), Fork(Fork), WorkSpin(handOffSpin(SpinTime)),
        DoneSpin(handOffSpin(SpinTime)) {}

  /// Run L on the team with the calling thread as member 0.
  llvm::Error run(DeviceLaunch &L);
  /// Run W's parts on the team with the calling thread as member 0.
  void runMembers(HostLaunch &W);
  /// Return (with M held, released meanwhile) once every launch up to Ticket completed.
  void waitUntilDone(std::unique_lock<std::mutex> &Lock, uint64_t Ticket);
  /// Mark Ticket, the successor of the last completed launch, as completed.
  void markDone(uint64_t Ticket);
  /// markDone() for async launches, whose errors are kept for the next waitFor().
  void complete(uint64_t Ticket, llvm::Error E);
  /// The next ticket (M held).
  uint64_t issueTicket();
  /// Run L, which holds Ticket, on this thread once every launch before it completed; Lock holds
  /// M and is released for the run.
  llvm::Error runInTurn(std::unique_lock<std::mutex> &Lock, uint64_t Ticket,
                        std::shared_ptr<DeviceLaunch> L);
  void streamMain();

  /// The team of launches that have the cores to themselves, started by their first: null
  /// when the system refused its threads (they run on Team then).
  ThreadTeam *wideTeam();

  const unsigned Threads, AloneThreads;
  const std::chrono::microseconds SpinTime;
  ThreadTeam Team;
  std::once_flag WideOnce;
  std::unique_ptr<ThreadTeam> Wide;
  /// Whether a run forks Team or runs its members in turn (written by the running thread only).
  ForkChoice Fork;
  /// Spinning before the stream thread sleeps for work, and before a waiter sleeps for a ticket.
  SpinPolicy WorkSpin, DoneSpin;

  /// Guards everything below except the atomics, which fast paths read without it. Kept off the
  /// lines above, which helpers read while the launching thread writes these.
  alignas(64) std::mutex M;
  /// Signals the stream thread: queued work or Stop.
  std::condition_variable QueueCV;
  /// Signals waiters: Done advanced.
  std::condition_variable DoneCV;
  std::deque<std::pair<uint64_t, std::shared_ptr<DeviceLaunch>>> Queue;
  /// Launches whose tickets were issued, each to be run by the thread that reserved it.
  std::vector<std::pair<uint64_t, std::shared_ptr<DeviceLaunch>>> Reserved;
  std::atomic<bool> Stop{false}; ///< written under M

  // The hand-off's two directions on lines of their own: the stream thread spins on Queued,
  // which only the launching thread writes, and the waiter on Done, which only the thread
  // completing launches writes; sharing a line with M or with each other made every spin
  // read bounce a line the other side was writing.
  /// Queue.size(), for the stream thread to spin on without M (written under M).
  alignas(64) std::atomic<size_t> Queued{0};
  std::atomic<uint64_t> LastIssued{0};
  /// Every launch with a ticket <= Done completed (completion is in ticket order). Atomic so that
  /// completing a launch takes M only when someone waits (DoneWaiters).
  alignas(64) std::atomic<uint64_t> Done{0};
  std::atomic<unsigned> DoneWaiters{0};
  /// Whether the stream thread is working or spinning for work, rather than sleeping.
  std::atomic<bool> StreamAwake{false};

  alignas(64) std::thread Stream; ///< on a line after Done's, which nothing else shares

  /// The first error of an async launch, reported (and cleared) by the next waitFor().
  SavedError Pending;
  /// How copies are allocated (huge pages, guard pages).
  HostCopies Memory = HostCopies::Plain;
  /// JACC_TEST_SLOWDOWN: each run then sleeps (Slowdown - 1) times its own duration.
  double Slowdown = 1;

  /// This device's allocations and their sizes: its free memory is the machine's less these.
  std::mutex AllocM;
  std::unordered_map<void *, size_t> Allocations;
  size_t Allocated = 0;
};

llvm::Error HostDevice::Impl::run(DeviceLaunch &L) {
  // launchImpl accepts only HostLaunch work.
  if (Slowdown > 1) {
    auto Start = std::chrono::steady_clock::now();
    runMembers(dynamic_cast<HostLaunch &>(L));
    std::this_thread::sleep_for((std::chrono::steady_clock::now() - Start) * (Slowdown - 1));
  } else {
    runMembers(dynamic_cast<HostLaunch &>(L));
  }
  L.complete();
  return L.takeFailure();
}

ThreadTeam *HostDevice::Impl::wideTeam() {
  std::call_once(WideOnce, [&] {
    try {
      Wide = std::make_unique<ThreadTeam>(AloneThreads, SpinTime);
    } catch (const std::system_error &E) {
      debugLog("launch", llvm::Twine("the wide team's threads were refused (") + E.what() +
                             "): launches alone run on the device's own team");
    }
  });
  return Wide.get();
}

void HostDevice::Impl::runMembers(HostLaunch &W) {
  ThreadTeam *Members = &Team;
  if (W.WideTeam > Threads) {
    Members = wideTeam(); // started when the launch was built for it
    assert(Members && Members->size() == W.WideTeam);
  }
  unsigned N = Members->size();
  // Capture by value: helpers then read only this closure (one cache line of the caller's stack),
  // not Impl's lines, which the caller writes on every launch.
  auto Member = [&W, T = Members, N](unsigned Tid) { W.runMember(Tid, N, T, barrierThunk); };
  if (W.runsAlone())
    return W.runMember(0, 1, Members, barrierThunk);
  const void *Code = N > 1 ? W.codeRunnableInTurn() : nullptr;
  if (!Code)
    return Members->run(Member);
  using Clock = std::chrono::steady_clock;
  ForkChoice::Choice C = Fork.choose(Code);
  Clock::time_point Start = C.Timed ? Clock::now() : Clock::time_point();
  if (C.InTurn) {
    // The team's partition, member by member: the same results, reductions' partials too.
    for (unsigned Tid = 0; Tid < N; ++Tid)
      Member(Tid);
  } else {
    Members->run(Member);
  }
  if (C.Timed)
    Fork.record(Code, C.InTurn, Clock::now() - Start);
}

void HostDevice::Impl::waitUntilDone(std::unique_lock<std::mutex> &Lock, uint64_t Ticket) {
  auto Completed = [&] { return Done.load(std::memory_order_seq_cst) >= Ticket; };
  if (Completed())
    return;
  auto Sleep = [&] {
    // Dekker-style handshake with markDone(): we publish DoneWaiters then read Done, it
    // publishes Done then reads DoneWaiters (all seq_cst), so either we see the new Done or it
    // sees us and takes M (which we hold until wait() releases it) before notifying.
    if (!Lock.owns_lock())
      lockSpinning(Lock);
    DoneWaiters.fetch_add(1, std::memory_order_seq_cst);
    DoneCV.wait(Lock, Completed);
    DoneWaiters.fetch_sub(1, std::memory_order_relaxed);
  };
  // A stream thread that sleeps takes a futex wake-up to start our work: spinning meanwhile
  // would only take a core from it (or from the other devices' threads it wakes).
  if (!StreamAwake.load(std::memory_order_relaxed))
    return Sleep();
  // Spin without M: the launch we wait for may need it to complete.
  Lock.unlock();
  spinThenBlock(DoneSpin, Completed, Sleep);
  if (!Lock.owns_lock())
    lockSpinning(Lock);
}

void HostDevice::Impl::markDone(uint64_t Ticket) {
  Done.store(Ticket, std::memory_order_seq_cst);
  if (DoneWaiters.load(std::memory_order_seq_cst) == 0)
    return;
  { std::lock_guard<std::mutex> Lock(M); }
  DoneCV.notify_all();
}

void HostDevice::Impl::complete(uint64_t Ticket, llvm::Error E) {
  if (E) {
    std::lock_guard<std::mutex> Lock(M);
    Pending.keep(std::move(E));
  }
  markDone(Ticket);
}

uint64_t HostDevice::Impl::issueTicket() {
  uint64_t Ticket = LastIssued.load(std::memory_order_relaxed) + 1;
  LastIssued.store(Ticket, std::memory_order_release);
  return Ticket;
}

llvm::Error HostDevice::Impl::runInTurn(std::unique_lock<std::mutex> &Lock, uint64_t Ticket,
                                        std::shared_ptr<DeviceLaunch> L) {
  // When the device is idle this is one uncontended lock.
  waitUntilDone(Lock, Ticket - 1);
  Lock.unlock();
  llvm::Error E = run(*L);
  L.reset(); // release the launch's resources before the next one runs
  markDone(Ticket);
  return E;
}

void HostDevice::Impl::streamMain() {
  auto HasWork = [&] {
    return Queued.load(std::memory_order_acquire) != 0 || Stop.load(std::memory_order_acquire);
  };
  std::unique_lock<std::mutex> Lock(M, std::defer_lock);
  BusyMark Busy;
  for (;;) {
    // Spins without M, which the launching thread takes to queue the work.
    waitForWork(WorkSpin, Busy, StreamAwake, Lock, QueueCV, HasWork,
                [&] { return Stop || !Queue.empty(); });
    // Drain before stopping, so queued work is never silently dropped.
    if (Queue.empty())
      return;
    auto [Ticket, L] = std::move(Queue.front());
    Queue.pop_front();
    Queued.store(Queue.size(), std::memory_order_release);
    // A sync launch from another thread may hold the previous ticket.
    waitUntilDone(Lock, Ticket - 1);
    Lock.unlock();
    llvm::Error E = run(*L);
    L.reset(); // release the launch's resources before the next one, not at the next pop
    complete(Ticket, std::move(E));
  }
}

llvm::Expected<std::unique_ptr<HostDevice>>
HostDevice::create(unsigned Index, unsigned Threads, std::chrono::microseconds SpinTime,
                   HostCopies Memory, ForkChoice::Limits Fork, double Slowdown,
                   unsigned AloneThreads) {
  if (Threads == 0)
    return makeError(ErrorCode::InvalidArgument,
                     "host:" + llvm::Twine(Index) + " needs at least one thread");
  // The constructor is private, so std::make_unique cannot call it.
  if (Memory == HostCopies::Guarded)
    installKernelFaultReport();
  try {
    return std::unique_ptr<HostDevice>(
        new HostDevice(Index, Threads, SpinTime, Memory, Fork, Slowdown, AloneThreads));
  } catch (const std::system_error &E) {
    return threadRefused("host:" + llvm::Twine(Index) + " could not start its " +
                             llvm::Twine(Threads) + " threads",
                         E);
  }
}

HostDevice::HostDevice(unsigned Index, unsigned Threads, std::chrono::microseconds SpinTime,
                       HostCopies Memory, ForkChoice::Limits Fork, double Slowdown,
                       unsigned AloneThreads)
    : Device(Index, "host:" + std::to_string(Index), /*HostMemory=*/true),
      P(std::make_unique<Impl>(Threads, AloneThreads, SpinTime, Fork)) {
  P->Memory = Memory;
  P->Slowdown = Slowdown;
}

HostDevice::~HostDevice() {
  std::thread Stream;
  {
    std::lock_guard<std::mutex> Lock(P->M);
    P->Stop = true;
    Stream = std::move(P->Stream);
  }
  P->QueueCV.notify_all();
  if (Stream.joinable())
    Stream.join();
  // Nobody will report a pending async error any more.
}

unsigned HostDevice::computeUnits() const {
  return P->Threads;
}

DeviceProperties HostDevice::propertiesImpl() const {
  // A host device's memory is the machine's: every host device reports all of it.
  DeviceProperties D;
  D.Type = acc_device_host;
  D.Model = name();
  D.Vendor = "jacc";
  D.Driver = "jacc " JACC_VERSION;
  long PageSize = sysconf(_SC_PAGESIZE), Pages = sysconf(_SC_PHYS_PAGES);
  if (PageSize > 0 && Pages > 0)
    D.TotalMemory = static_cast<size_t>(Pages) * static_cast<size_t>(PageSize);
  // Free: the memory less what this device holds, so that acc_malloc / acc_free show in it as
  // they do on a GPU (the machine's own free pages move with every other process).
  std::lock_guard<std::mutex> L(P->AllocM);
  D.FreeMemory = D.TotalMemory - std::min(D.TotalMemory, P->Allocated);
  return D;
}

llvm::Expected<void *> HostDevice::allocateImpl(size_t Bytes) {
  void *Ptr = nullptr;
  if (P->Memory == HostCopies::Guarded)
    Ptr = allocateGuarded(Bytes, Alignment);
  else if (onHugePages(P->Memory, Bytes))
    Ptr = allocateOnHugePages(Bytes);
  else if (posix_memalign(&Ptr, Alignment, Bytes == 0 ? 1 : Bytes) != 0)
    Ptr = nullptr;
  if (!Ptr)
    return makeError(ErrorCode::OutOfMemory,
                     name() + ": out of memory allocating " + llvm::Twine(Bytes) + " bytes");
  std::lock_guard<std::mutex> L(P->AllocM);
  P->Allocations[Ptr] = Bytes;
  P->Allocated += Bytes;
  return Ptr;
}

/// Guarded copies (JACC_CHECK) catch a use after the release with the block's guard pages.
bool HostDevice::reusesReleasedMemory() const {
  return P->Memory != HostCopies::Guarded;
}

llvm::Error HostDevice::releaseImpl(void *DevicePtr) {
  std::optional<size_t> Bytes;
  {
    std::lock_guard<std::mutex> L(P->AllocM);
    if (auto It = P->Allocations.find(DevicePtr); It != P->Allocations.end()) {
      Bytes = It->second;
      P->Allocated -= It->second;
      P->Allocations.erase(It);
    }
  }
  if (P->Memory == HostCopies::Guarded && Bytes)
    releaseGuarded(DevicePtr, *Bytes, Alignment);
  else if (Bytes && onHugePages(P->Memory, *Bytes))
    releaseHugePages(DevicePtr, *Bytes);
  else
    std::free(DevicePtr);
  return llvm::Error::success();
}

llvm::Error HostDevice::copyToDeviceImpl(void *Dst, const void *HostSrc, size_t Bytes) {
  std::memcpy(Dst, HostSrc, Bytes);
  return llvm::Error::success();
}

llvm::Error HostDevice::copyToHostImpl(void *HostDst, const void *Src, size_t Bytes) {
  std::memcpy(HostDst, Src, Bytes);
  return llvm::Error::success();
}

llvm::Error HostDevice::prepareCodeImpl(const jit::CompiledKernel &K, const LaunchCode &C) {
  // The split entry is compiled the first time a host device runs the kernel split.
  if (!C.Split)
    return llvm::Error::success();
  return K.splitCode().takeError();
}

llvm::Expected<std::shared_ptr<KernelLaunch>>
HostDevice::constructLaunchImpl(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                                AggregateArgs Aggregates, const LaunchCode &C) {
  if (C.Native)
    return std::make_shared<HostNativeLaunch>(std::move(K), std::move(Cells),
                                              std::move(Aggregates), *C.Native,
                                              NativeDevice{index(), name(), P->Threads});
  const jit::SplitCode *Split = nullptr;
  if (C.Split) {
    auto S = K->splitCode();
    if (!S)
      return S.takeError();
    Split = *S;
  }
  // A launch alone on the cores takes the wide team when its threads could be started.
  unsigned Threads =
      C.Alone && P->AloneThreads > P->Threads && P->wideTeam() ? P->AloneThreads : P->Threads;
  auto L = std::make_shared<HostKernelLaunch>(std::move(K), std::move(Cells), std::move(Aggregates),
                                              Threads, Split, C.Variant);
  if (Threads > P->Threads)
    L->WideTeam = Threads;
  return L;
}

llvm::Expected<uint64_t> HostDevice::launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) {
  if (auto E = checkHostLaunch(*L, name()))
    return E;
  std::unique_lock<std::mutex> Lock(P->M, std::defer_lock);
  lockSpinning(Lock);
  // Created lazily: programs that never launch async pay for no extra thread.
  if (Async && !P->Stream.joinable()) {
    try {
      P->StreamAwake.store(true, std::memory_order_relaxed);
      P->Stream = std::thread([this] { P->streamMain(); });
    } catch (const std::system_error &E) {
      return threadRefused(name() + " could not start the thread of its async queue", E);
    }
  }
  uint64_t Ticket = P->issueTicket();

  if (Async) {
    P->Queue.emplace_back(Ticket, std::move(L));
    P->Queued.store(P->Queue.size(), std::memory_order_release);
    Lock.unlock();
    P->QueueCV.notify_one();
    return Ticket;
  }

  // Sync: the low-latency path runs on the caller.
  if (llvm::Error E = P->runInTurn(Lock, Ticket, std::move(L)))
    return E;
  return Ticket;
}

llvm::Expected<uint64_t> HostDevice::reserveLaunchImpl(std::shared_ptr<DeviceLaunch> L) {
  if (auto E = checkHostLaunch(*L, name()))
    return E;
  std::unique_lock<std::mutex> Lock(P->M, std::defer_lock);
  lockSpinning(Lock);
  uint64_t Ticket = P->issueTicket();
  P->Reserved.emplace_back(Ticket, std::move(L));
  return Ticket;
}

llvm::Error HostDevice::runReservedImpl(uint64_t Ticket) {
  std::unique_lock<std::mutex> Lock(P->M, std::defer_lock);
  lockSpinning(Lock);
  auto It = llvm::find_if(P->Reserved, [&](const auto &R) { return R.first == Ticket; });
  if (It == P->Reserved.end())
    return makeError(ErrorCode::Internal,
                     name() + " has no reserved launch with ticket " + llvm::Twine(Ticket));
  std::shared_ptr<DeviceLaunch> L = std::move(It->second);
  P->Reserved.erase(It);
  // As a sync launch: after everything before it, on this thread.
  return P->runInTurn(Lock, Ticket, std::move(L));
}

llvm::Error HostDevice::waitForImpl(uint64_t Ticket) {
  std::unique_lock<std::mutex> Lock(P->M, std::defer_lock);
  lockSpinning(Lock);
  P->waitUntilDone(Lock, std::min(Ticket, P->LastIssued.load(std::memory_order_relaxed)));
  return P->Pending.take();
}

uint64_t HostDevice::lastTicketImpl() const {
  return P->LastIssued.load(std::memory_order_acquire);
}

uint64_t HostDevice::completedTicketImpl() const {
  return P->Done.load(std::memory_order_acquire);
}

} // namespace jacc
