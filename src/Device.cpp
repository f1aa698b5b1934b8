// The generic front of every device: argument validation, statistics, tracing and the choice of a
// peer copy's path live here once, so backends only implement the *Impl hooks.
#include "src/Device.h"

#include "jit/CompiledKernel.h"
#include "src/DeviceLaunch.h"
#include "src/launch/Watchdog.h"
#include "src/profile/Events.h"
#include "support/Debug.h"
#include "support/Format.h"
#include "support/Stats.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace jacc {

namespace {

/// Tracing is checked on every operation, so ask Debug once.
bool traceDevice() {
  static const bool Enabled = debugEnabled("device");
  return Enabled;
}

/// One line per operation: "<device> <what>". Building a Twine is free; callers that format
/// strings check traceDevice() first.
void trace(const Device &D, const llvm::Twine &What) {
  if (traceDevice())
    debugLog("device", llvm::Twine(D.name()) + " " + What);
}

/// A copy's copyBegin now and copyEnd when the scope ends (failed copies too: the pairs stay
/// matched), when anybody listens.
class ObservedCopy {
public:
  ObservedCopy(prof::Direction Dir, const Device &D, const Device *Peer, const void *Src,
               const void *Dst, uint64_t Bytes) {
    if (!(On = prof::active()))
      return;
    E = {Dir, int(D.index()), Peer ? int(Peer->index()) : -1, Src, Dst, Bytes, prof::now(), 0};
    prof::each([&](prof::Listener &L) { L.copyBegin(E); });
  }
  ~ObservedCopy() {
    if (!On)
      return;
    E.End = prof::now();
    prof::each([&](prof::Listener &L) { L.copyEnd(E); });
  }
  ObservedCopy(const ObservedCopy &) = delete;
  ObservedCopy &operator=(const ObservedCopy &) = delete;

private:
  bool On;
  prof::CopyEvent E;
};

void observeMemory(prof::MemOp Op, const Device &D, const void *Ptr, size_t Bytes) {
  prof::MemEvent E{Op, int(D.index()), nullptr, Ptr, Bytes};
  prof::each([&](prof::Listener &L) { L.memory(E); });
}

} // namespace

DeviceLaunch::~DeviceLaunch() = default;

void DeviceLaunch::observe(uint64_t Push, prof::KernelName Kernel, prof::Mode How,
                           long long ShareBegin, long long ShareEnd, long long ShareScale) {
  Observed = std::make_unique<ObservedRun>();
  Observed->Event = {Push, Kernel, How, -1, ShareBegin, ShareEnd, ShareScale, 0, 0};
}

void DeviceLaunch::complete() {
  Watchdog::instance().done(WatchToken);
  // A device runs its queue in order: this launch started when it was queued or when the one
  // before it ended, whichever came last (one look at the device's last end serves both).
  std::atomic<int64_t> *LastEnd = Observed && Observed->LastEnd ? Observed->LastEnd
                                  : Timing                     ? Timing->LastEnd
                                                               : nullptr;
  if (LastEnd) {
    prof::Nanos End = prof::now();
    prof::Nanos Before = LastEnd->exchange(End, std::memory_order_relaxed);
    if (Timing)
      Timing->Nanos.store(End - std::max(Timing->Enqueued, Before), std::memory_order_release);
    if (Observed && Observed->LastEnd) {
      prof::LaunchEvent &E = Observed->Event;
      E.End = End;
      E.Start = std::max(E.Start, Before);
      prof::each([&](prof::Listener &L) { L.kernelRun(E); });
    }
  }
  finished();
}

Device::~Device() = default;

llvm::Expected<void *> Device::allocate(size_t Bytes) {
  // Zero-byte arrays are legal in OpenACC; give them a real, unique allocation so that mapping
  // tables can still key on the address (and backends need not special-case it).
  size_t N = std::max<size_t>(Bytes, 1);
  bool Poolable = PoolOn && N >= MemoryPool::MinBytes && reusesReleasedMemory();
  if (Poolable)
    std::call_once(PoolLimitSet, [&] { Pool.setLimit(propertiesImpl().TotalMemory / 8); });
  void *Kept = Poolable ? Pool.take(N) : nullptr;
  llvm::Expected<void *> Ptr = Kept ? llvm::Expected<void *>(Kept) : allocateImpl(N);
  if (!Ptr && Pool.keptBytes() > 0) {
    // Out of memory with blocks kept: they go back to the backend, and the allocation again.
    llvm::consumeError(Ptr.takeError());
    if (auto E = releaseKeptMemory())
      return E;
    Ptr = allocateImpl(N);
  }
  if (Ptr && Poolable && !Kept)
    Pool.allocated(*Ptr, N);
  if (Ptr && traceDevice())
    trace(*this, "allocate " + llvm::Twine(Bytes) + " bytes -> " + hexAddress(*Ptr));
  if (Ptr && prof::active())
    observeMemory(prof::MemOp::Alloc, *this, *Ptr, Bytes);
  return Ptr;
}

llvm::Expected<void *> Device::allocateUnified(size_t Bytes) {
  llvm::Expected<void *> Ptr = allocateUnifiedImpl(std::max<size_t>(Bytes, 1));
  if (Ptr && traceDevice())
    trace(*this, "allocateUnified " + llvm::Twine(Bytes) + " bytes -> " + hexAddress(*Ptr));
  if (Ptr && prof::active())
    observeMemory(prof::MemOp::Alloc, *this, *Ptr, Bytes);
  return Ptr;
}

llvm::Expected<void *> Device::allocateUnifiedImpl(size_t) {
  return makeError(ErrorCode::Unsupported,
                   name() + " cannot allocate memory shared with the other devices; unset "
                            "JACC_MEMORY (separate copies) to use it");
}

llvm::Error Device::prefetch(const void *Ptr, size_t Bytes, bool ReadMostly) {
  if (Bytes == 0)
    return llvm::Error::success();
  if (traceDevice())
    trace(*this, "prefetch " + llvm::Twine(Bytes) + " bytes at " + hexAddress(Ptr) +
                     (ReadMostly ? " (read-mostly)" : ""));
  return prefetchImpl(Ptr, Bytes, ReadMostly);
}

llvm::Error Device::release(void *DevicePtr, size_t Bytes) {
  // Like free(): releasing nothing is fine.
  if (!DevicePtr)
    return llvm::Error::success();
  if (traceDevice())
    trace(*this, "release " + hexAddress(DevicePtr));
  if (prof::active())
    observeMemory(prof::MemOp::Free, *this, DevicePtr, Bytes);
  if (Pool.keep(DevicePtr))
    return llvm::Error::success();
  return releaseImpl(DevicePtr);
}

llvm::Error Device::releaseKeptMemory() {
  llvm::Error Result = llvm::Error::success();
  for (void *P : Pool.drain())
    Result = llvm::joinErrors(std::move(Result), releaseImpl(P));
  return Result;
}

llvm::Error Device::copyToDevice(void *Dst, const void *HostSrc, size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  if (!Dst || !HostSrc)
    return makeError(ErrorCode::InvalidArgument, "copy of " + llvm::Twine(Bytes) + " bytes to " +
                                                     name() + " with a null source or destination");
  if (Dst == HostSrc)
    return llvm::Error::success(); // one memory (JACC_MEMORY=unified): nothing moves
  trace(*this, "copyToDevice " + llvm::Twine(Bytes) + " bytes");
  ObservedCopy Observed(prof::Direction::HostToDevice, *this, nullptr, HostSrc, Dst, Bytes);
  if (llvm::Error E = copyToDeviceImpl(Dst, HostSrc, Bytes))
    return E;
  stats().BytesHostToDevice.fetch_add(Bytes, std::memory_order_relaxed);
  return llvm::Error::success();
}

llvm::Error Device::copyToHost(void *HostDst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  if (!HostDst || !Src)
    return makeError(ErrorCode::InvalidArgument, "copy of " + llvm::Twine(Bytes) + " bytes from " +
                                                     name() + " with a null source or destination");
  if (HostDst == Src)
    return llvm::Error::success(); // one memory (JACC_MEMORY=unified): nothing moves
  trace(*this, "copyToHost " + llvm::Twine(Bytes) + " bytes");
  ObservedCopy Observed(prof::Direction::DeviceToHost, *this, nullptr, Src, HostDst, Bytes);
  if (llvm::Error E = copyToHostImpl(HostDst, Src, Bytes))
    return E;
  stats().BytesDeviceToHost.fetch_add(Bytes, std::memory_order_relaxed);
  return llvm::Error::success();
}

llvm::Error Device::copyToPeer(Device &DstDevice, void *Dst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  if (!Dst || !Src)
    return makeError(ErrorCode::InvalidArgument, "copy of " + llvm::Twine(Bytes) + " bytes from " +
                                                     name() + " to " + DstDevice.name() +
                                                     " with a null source or destination");
  if (Dst == Src)
    return llvm::Error::success(); // one memory (JACC_MEMORY=unified): nothing moves
  trace(*this, "copyToPeer " + llvm::Twine(Bytes) + " bytes -> " + DstDevice.name());
  ObservedCopy Observed(prof::Direction::DeviceToDevice, *this, &DstDevice, Src, Dst, Bytes);
  if (llvm::Error E = peerCopy(DstDevice, Dst, Src, Bytes, 1, Bytes))
    return E;
  stats().BytesDeviceToDevice.fetch_add(Bytes, std::memory_order_relaxed);
  return llvm::Error::success();
}

llvm::Error Device::copyToPeer2D(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                                 size_t Height, size_t Pitch) {
  if (Width == 0 || Height == 0)
    return llvm::Error::success();
  if (!Dst || !Src)
    return makeError(ErrorCode::InvalidArgument, "strided copy from " + name() + " to " +
                                                     DstDevice.name() +
                                                     " with a null source or destination");
  if (Dst == Src)
    return llvm::Error::success(); // one memory (JACC_MEMORY=unified): nothing moves
  trace(*this, "copyToPeer2D " + llvm::Twine(Height) + " x " + llvm::Twine(Width) +
                   " bytes (pitch " + llvm::Twine(Pitch) + ") -> " + DstDevice.name());
  ObservedCopy Observed(prof::Direction::DeviceToDevice, *this, &DstDevice, Src, Dst,
                        uint64_t(Width) * Height);
  if (llvm::Error E = peerCopy(DstDevice, Dst, Src, Width, Height, Pitch))
    return E;
  stats().BytesDeviceToDevice.fetch_add(Width * Height, std::memory_order_relaxed);
  return llvm::Error::success();
}

llvm::Error Device::copyToHost2D(void *HostDst, const void *Src, size_t Width, size_t Height,
                                 size_t Pitch) {
  if (Width == 0 || Height == 0)
    return llvm::Error::success();
  if (!HostDst || !Src)
    return makeError(ErrorCode::InvalidArgument,
                     "strided copy from " + name() + " with a null source or destination");
  if (HostDst == Src)
    return llvm::Error::success(); // one memory (JACC_MEMORY=unified): nothing moves
  trace(*this, "copyToHost2D " + llvm::Twine(Height) + " x " + llvm::Twine(Width) +
                   " bytes (pitch " + llvm::Twine(Pitch) + ")");
  ObservedCopy Observed(prof::Direction::DeviceToHost, *this, nullptr, Src, HostDst,
                        uint64_t(Width) * Height);
  if (llvm::Error E = copyToHost2DImpl(HostDst, Src, Width, Height, Pitch))
    return E;
  stats().BytesDeviceToHost.fetch_add(Width * Height, std::memory_order_relaxed);
  return llvm::Error::success();
}

llvm::Error Device::peerCopy(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                             size_t Height, size_t Pitch) {
  // Host memory on either side is plain host memory to the other device's host copies.
  if (DstDevice.hostMemory())
    return copyToHost2DImpl(Dst, Src, Width, Height, Pitch);
  if (hostMemory())
    return DstDevice.copyToDevice2DImpl(Dst, Src, Width, Height, Pitch);
  return copyToPeer2DImpl(DstDevice, Dst, Src, Width, Height, Pitch);
}

llvm::Error Device::copyToDevice2DImpl(void *Dst, const void *HostSrc, size_t Width,
                                       size_t Height, size_t Pitch) {
  for (size_t R = 0; R < Height; ++R)
    if (llvm::Error E = copyToDeviceImpl(static_cast<char *>(Dst) + R * Pitch,
                                         static_cast<const char *>(HostSrc) + R * Pitch, Width))
      return E;
  return llvm::Error::success();
}

llvm::Error Device::copyToHost2DImpl(void *HostDst, const void *Src, size_t Width, size_t Height,
                                     size_t Pitch) {
  for (size_t R = 0; R < Height; ++R)
    if (llvm::Error E = copyToHostImpl(static_cast<char *>(HostDst) + R * Pitch,
                                       static_cast<const char *>(Src) + R * Pitch, Width))
      return E;
  return llvm::Error::success();
}

llvm::Error Device::copyToPeer2DImpl(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                                     size_t Height, size_t Pitch) {
  // Staged through a host buffer, row by row, a piece of at most Chunk bytes at a time. Only
  // devices of two backends without host memory meet here: none do today, so it stays simple.
  constexpr size_t Chunk = size_t(4) << 20;
  std::vector<char> Buffer(std::min(Chunk, Width));
  for (size_t R = 0; R < Height; ++R)
    for (size_t Off = 0; Off < Width; Off += Buffer.size()) {
      size_t W = std::min(Buffer.size(), Width - Off);
      if (llvm::Error E =
              copyToHostImpl(Buffer.data(), static_cast<const char *>(Src) + R * Pitch + Off, W))
        return E;
      if (llvm::Error E = DstDevice.copyToDeviceImpl(static_cast<char *>(Dst) + R * Pitch + Off,
                                                     Buffer.data(), W))
        return E;
    }
  return llvm::Error::success();
}

llvm::Error Device::prepareCode(const jit::CompiledKernel &K, const LaunchCode &C) {
  // A native implementation runs instead of this device's code: its part comes from the probe,
  // the kernel's host split entry.
  if (C.Native)
    return K.splitCode().takeError();
  return prepareCodeImpl(K, C);
}

llvm::Expected<std::shared_ptr<KernelLaunch>>
Device::constructLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                        AggregateArgs Aggregates, const LaunchCode &C) {
  return constructLaunchImpl(std::move(K), std::move(Cells), std::move(Aggregates), C);
}

llvm::Expected<uint64_t> Device::launch(std::shared_ptr<DeviceLaunch> L, bool Async) {
  return submit(std::move(L), Async ? Submit::Async : Submit::Sync);
}

llvm::Expected<uint64_t> Device::reserveLaunch(std::shared_ptr<DeviceLaunch> L) {
  return submit(std::move(L), Submit::Reserved);
}

llvm::Error Device::runReserved(uint64_t Ticket) {
  trace(*this, "run reserved ticket " + llvm::Twine(Ticket));
  return runReservedImpl(Ticket);
}

llvm::Expected<uint64_t> Device::submit(std::shared_ptr<DeviceLaunch> L, Submit How) {
  if (!L)
    return makeError(ErrorCode::InvalidArgument, "null launch submitted to " + name());
  if (Watchdog::instance().enabled())
    L->WatchToken = Watchdog::instance().watch(L->describe(), name());
  uint64_t Token = L->WatchToken;
  if (L->Timing) {
    L->Timing->Enqueued = prof::now();
    L->Timing->LastEnd = &LastRunEnd;
  }
  // An observed launch: its enqueue is reported now, its run when it completes.
  // Held until the enqueue is reported: a GPU launch's geometry is known once it is enqueued.
  std::optional<prof::LaunchEvent> Enqueue;
  std::shared_ptr<DeviceLaunch> Observed;
  if (L->Observed && prof::active()) {
    prof::LaunchEvent &E = L->Observed->Event;
    E.Device = int(Index);
    DeviceLaunch::Geometry G = L->geometry();
    E.Gangs = G.Gangs;
    E.VectorLength = G.VectorLength;
    E.Start = prof::now();
    L->Observed->LastEnd = &LastRunEnd;
    Enqueue = E;
    Observed = L;
    prof::each([&](prof::Listener &Li) { Li.launchBegin(*Enqueue); });
  }
  llvm::Expected<uint64_t> Ticket = How == Submit::Reserved
                                        ? reserveLaunchImpl(std::move(L))
                                        : launchImpl(std::move(L), How == Submit::Async);
  if (Enqueue) {
    DeviceLaunch::Geometry G = Observed->geometry();
    Enqueue->Gangs = G.Gangs;
    Enqueue->VectorLength = G.VectorLength;
    Enqueue->End = prof::now();
    prof::each([&](prof::Listener &Li) { Li.launchEnd(*Enqueue); });
  }
  if (!Ticket)
    Watchdog::instance().done(Token); // refused: nothing runs
  if (Ticket)
    trace(*this, llvm::Twine("launch ") +
                     (How == Submit::Async  ? "async"
                      : How == Submit::Sync ? "sync"
                                            : "reserved") +
                     " ticket " + llvm::Twine(*Ticket));
  return Ticket;
}

llvm::Error Device::waitFor(uint64_t Ticket) {
  // A ticket not yet issued would never complete: refuse it rather than hang.
  uint64_t Last = lastTicketImpl();
  if (Ticket > Last)
    return makeError(ErrorCode::InvalidArgument, "wait for ticket " + llvm::Twine(Ticket) + " on " +
                                                     name() + ", which has only issued " +
                                                     llvm::Twine(Last));
  trace(*this, "waitFor ticket " + llvm::Twine(Ticket));
  return waitForImpl(Ticket);
}

llvm::Error Device::synchronize() {
  uint64_t Last = lastTicketImpl();
  trace(*this, "synchronize (ticket " + llvm::Twine(Last) + ")");
  return waitForImpl(Last);
}

uint64_t Device::lastTicket() const {
  return lastTicketImpl();
}

uint64_t Device::pending() const {
  uint64_t Last = lastTicketImpl(), Done = completedTicketImpl();
  return Last > Done ? Last - Done : 0;
}

bool Device::idle() const {
  // Last issued first: a launch submitted in between can only make the answer "not idle".
  uint64_t Last = lastTicketImpl();
  return completedTicketImpl() >= Last;
}

} // namespace jacc
