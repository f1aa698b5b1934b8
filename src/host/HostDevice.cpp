// A host device. Launches complete strictly in ticket order: each one waits until its predecessor
// completed, whether it runs on the caller (sync) or on the device's stream thread (async).
#include "src/host/HostDevice.h"

#include "src/cuda/CudaDevice.h"
#include "src/host/ThreadTeam.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace jacc {

namespace {

/// Cache-line alignment: no false sharing between arrays, and aligned vector loads in kernels.
constexpr size_t Alignment = 64;

/// The barrier callback handed to generated code, which only knows the team as an opaque pointer.
void barrierThunk(void *Team) {
  static_cast<ThreadTeam *>(Team)->barrier();
}

} // namespace

struct HostDevice::Impl {
  Impl(unsigned Threads, std::chrono::microseconds SpinTime)
      : Threads(Threads), Team(Threads, SpinTime) {}

  /// Run L on the team with the calling thread as member 0.
  llvm::Error run(DeviceLaunch &L);
  /// Block (with M held) until every launch up to Ticket completed.
  void waitUntilDone(std::unique_lock<std::mutex> &Lock, uint64_t Ticket);
  /// Mark Ticket, the successor of the last completed launch, as completed.
  void markDone(uint64_t Ticket);
  /// markDone() for async launches, whose errors are kept for the next waitFor().
  void complete(uint64_t Ticket, llvm::Error E);
  void streamMain();

  const unsigned Threads;
  ThreadTeam Team;

  /// Guards everything below except the atomics, which fast paths read without it. Kept off the
  /// lines above, which helpers read while the launching thread writes these.
  alignas(64) std::mutex M;
  /// Signals the stream thread: queued work or Stop.
  std::condition_variable QueueCV;
  /// Signals waiters: Done advanced.
  std::condition_variable DoneCV;
  std::deque<std::pair<uint64_t, std::shared_ptr<DeviceLaunch>>> Queue;
  std::atomic<uint64_t> LastIssued{0};
  /// Every launch with a ticket <= Done completed (completion is in ticket order). Atomic so that
  /// completing a launch takes M only when someone waits (DoneWaiters).
  std::atomic<uint64_t> Done{0};
  std::atomic<unsigned> DoneWaiters{0};
  bool Stop = false;
  std::thread Stream;

  /// The first error of an async launch, reported (and cleared) by the next waitFor(). Kept as code
  /// and text because an llvm::Error must be consumed before it is destroyed.
  bool HasError = false;
  ErrorCode PendingCode = ErrorCode::Internal;
  std::string PendingMessage;
};

llvm::Error HostDevice::Impl::run(DeviceLaunch &L) {
  // Capture by value: helpers then read only this closure (one cache line of the caller's stack),
  // not Impl's lines, which the caller writes on every launch.
  Team.run(
      [&L, T = &Team, N = Threads](unsigned Tid) { L.runHostMember(Tid, N, T, barrierThunk); });
  L.finished();
  // runHostMember() cannot fail today; this is where a backend-level failure would be returned.
  return llvm::Error::success();
}

void HostDevice::Impl::waitUntilDone(std::unique_lock<std::mutex> &Lock, uint64_t Ticket) {
  if (Done.load(std::memory_order_acquire) >= Ticket)
    return;
  // Dekker-style handshake with markDone(): we publish DoneWaiters then read Done, it publishes
  // Done then reads DoneWaiters (all seq_cst), so either we see the new Done or it sees us and
  // takes M (which we hold until wait() releases it) before notifying.
  DoneWaiters.fetch_add(1, std::memory_order_seq_cst);
  DoneCV.wait(Lock, [&] { return Done.load(std::memory_order_seq_cst) >= Ticket; });
  DoneWaiters.fetch_sub(1, std::memory_order_relaxed);
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
    if (!HasError) {
      HasError = true;
      PendingCode = takeError(std::move(E), PendingMessage);
    }
  }
  llvm::consumeError(std::move(E));
  markDone(Ticket);
}

void HostDevice::Impl::streamMain() {
  std::unique_lock<std::mutex> Lock(M);
  for (;;) {
    QueueCV.wait(Lock, [&] { return Stop || !Queue.empty(); });
    // Drain before stopping, so queued work is never silently dropped.
    if (Queue.empty())
      return;
    auto [Ticket, L] = std::move(Queue.front());
    Queue.pop_front();
    // A sync launch from another thread may hold the previous ticket.
    waitUntilDone(Lock, Ticket - 1);
    Lock.unlock();
    llvm::Error E = run(*L);
    L.reset(); // release the launch's resources before the next one, not at the next pop
    complete(Ticket, std::move(E));
    Lock.lock();
  }
}

llvm::Expected<std::unique_ptr<HostDevice>> HostDevice::create(unsigned Index, unsigned Threads,
                                                               std::chrono::microseconds SpinTime) {
  if (Threads == 0)
    return makeError(ErrorCode::InvalidArgument,
                     "host:" + llvm::Twine(Index) + " needs at least one thread");
  // The constructor is private, so std::make_unique cannot call it.
  return std::unique_ptr<HostDevice>(new HostDevice(Index, Threads, SpinTime));
}

HostDevice::HostDevice(unsigned Index, unsigned Threads, std::chrono::microseconds SpinTime)
    : Device(DeviceKind::Host, Index, "host:" + std::to_string(Index)),
      P(std::make_unique<Impl>(Threads, SpinTime)) {}

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

llvm::Expected<void *> HostDevice::allocateImpl(size_t Bytes) {
  void *Ptr = nullptr;
  if (posix_memalign(&Ptr, Alignment, Bytes == 0 ? 1 : Bytes) != 0)
    return makeError(ErrorCode::OutOfMemory,
                     name() + ": out of memory allocating " + llvm::Twine(Bytes) + " bytes");
  return Ptr;
}

llvm::Error HostDevice::releaseImpl(void *DevicePtr) {
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

llvm::Error HostDevice::copyToPeerImpl(Device &DstDevice, void *Dst, const void *Src,
                                       size_t Bytes) {
  return copyToPeer2DImpl(DstDevice, Dst, Src, Bytes, 1, Bytes);
}

llvm::Error HostDevice::copyToPeer2DImpl(Device &DstDevice, void *Dst, const void *Src,
                                         size_t Width, size_t Height, size_t Pitch) {
  // This device's memory is plain host memory: a GPU reads it like any host buffer.
  if (DstDevice.kind() == DeviceKind::Cuda)
    return static_cast<CudaDevice &>(DstDevice).copyFromHostMemory(Dst, Src, Width, Height, Pitch);
  // Every host device lives in this process's address space, so a peer copy is a plain copy.
  for (size_t R = 0; R < Height; ++R)
    std::memcpy(static_cast<char *>(Dst) + R * Pitch, static_cast<const char *>(Src) + R * Pitch,
                Width);
  return llvm::Error::success();
}

llvm::Expected<uint64_t> HostDevice::launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) {
  std::unique_lock<std::mutex> Lock(P->M);
  uint64_t Ticket = P->LastIssued.load(std::memory_order_relaxed) + 1;
  P->LastIssued.store(Ticket, std::memory_order_release);

  if (Async) {
    // Created lazily: programs that never launch async pay for no extra thread.
    if (!P->Stream.joinable())
      P->Stream = std::thread([this] { P->streamMain(); });
    P->Queue.emplace_back(Ticket, std::move(L));
    Lock.unlock();
    P->QueueCV.notify_one();
    return Ticket;
  }

  // Sync: the low-latency path runs on the caller, once everything before it completed (when the
  // device is idle this is one uncontended lock).
  P->waitUntilDone(Lock, Ticket - 1);
  Lock.unlock();
  llvm::Error E = P->run(*L);
  P->markDone(Ticket);
  if (E)
    return E;
  return Ticket;
}

llvm::Error HostDevice::waitForImpl(uint64_t Ticket) {
  std::unique_lock<std::mutex> Lock(P->M);
  P->waitUntilDone(Lock, std::min(Ticket, P->LastIssued.load(std::memory_order_relaxed)));
  if (!P->HasError)
    return llvm::Error::success();
  P->HasError = false;
  return makeError(P->PendingCode, P->PendingMessage);
}

uint64_t HostDevice::lastTicketImpl() const {
  return P->LastIssued.load(std::memory_order_acquire);
}

uint64_t HostDevice::completedTicketImpl() const {
  return P->Done.load(std::memory_order_acquire);
}

} // namespace jacc
