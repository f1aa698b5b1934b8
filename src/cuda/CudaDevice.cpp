// A GPU through the CUDA Driver API. Launches are enqueued in ticket order on one stream, each
// followed by an event; a poller thread queries the oldest event (as OmpSs-2 does: no blocked CPU
// thread per GPU wait, no callback latency), calls finished() and completes the ticket, in order.
#include "src/cuda/CudaDevice.h"

#include "jit/specialize/KernelVariants.h"
#include "src/cuda/CudaKernelLaunch.h"
#include "src/cuda/CudaNativeLaunch.h"
#include "src/cuda/DynamicCuda.h"
#include "support/SavedError.h"
#include "support/SpinWait.h"

#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/SmallVector.h>

#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jacc {

namespace {

/// Poll interval of the event poller: it starts short (a kernel that just finished is seen within
/// microseconds) and doubles up to the cap while the same event stays pending, so that a long
/// kernel costs a few thousand wake-ups per second rather than a spinning core.
constexpr std::chrono::microseconds MinPoll{2}, MaxPoll{50};

/// Size of each of the two pinned buffers a staged peer copy alternates between: large enough to
/// reach full PCIe bandwidth, small enough that the two directions overlap.
constexpr size_t StagingChunk = size_t(4) << 20;

CUdeviceptr devicePtr(const void *P) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(P));
}

/// Identifies a device object for its peers' caches (an address could be reused after deletion).
std::atomic<uint64_t> NextSerial{1};

/// One piece of a staged copy: Rows rows of Width bytes, at Offset from both base pointers.
struct Piece {
  size_t Offset, Width, Rows;
};

} // namespace

struct CudaDevice::Impl {
  Impl(const CudaDriver &Drv, int Ordinal, std::chrono::microseconds HandOffSpin)
      : Drv(Drv), Ordinal(Ordinal), Name("cuda:" + std::to_string(Ordinal)),
        WorkSpin(HandOffSpin), DoneSpin(HandOffSpin) {}

  /// Launch scratch buffers given back, by capacity (a power of two from 256 bytes), at most
  /// MaxFreeScratch of them; freed with the device.
  std::mutex ScratchMutex;
  std::multimap<size_t, void *> FreeScratch;
  static constexpr size_t MaxFreeScratch = 32;

  /// Make this device's context current on the calling thread (calls come from any thread).
  llvm::Error current() { return check(Drv.cuCtxSetCurrent(Ctx), "cuCtxSetCurrent"); }
  llvm::Error check(CUresult R, const llvm::Twine &Call) {
    if (R == CUDA_SUCCESS)
      return llvm::Error::success();
    return cudaError(Drv, R, Call, Name);
  }
  /// Enqueue a strided copy on Stream; Height == 1 copies are plain (Width bytes).
  llvm::Error copy2D(CUstream Stream, CUmemorytype SrcType, const void *Src, size_t SrcPitch,
                     CUmemorytype DstType, void *Dst, size_t DstPitch, size_t Width, size_t Height);
  /// A synchronous strided copy on the copy stream (both sides Pitch bytes apart), this device's
  /// context made current first.
  llvm::Error copy2DNow(CUmemorytype SrcType, const void *Src, CUmemorytype DstType, void *Dst,
                        size_t Width, size_t Height, size_t Pitch) {
    if (auto E = current())
      return E;
    if (auto E = copy2D(CopyStream, SrcType, Src, Pitch, DstType, Dst, Pitch, Width, Height))
      return E;
    return check(Drv.cuStreamSynchronize(CopyStream), "cuStreamSynchronize");
  }
  /// Whether copies to Peer can go straight to it (peer access enabled once per pair).
  llvm::Expected<bool> peerAccess(Impl &Peer);
  llvm::Expected<CUevent> takeEvent();
  void pollerMain();
  /// Return with M held (Lock) once every launch up to Ticket completed; spins without M first.
  void waitUntilDone(std::unique_lock<std::mutex> &Lock, uint64_t Ticket);

  const CudaDriver &Drv;
  const int Ordinal;
  const std::string Name;
  const uint64_t Serial = NextSerial.fetch_add(1, std::memory_order_relaxed);
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr; ///< the primary context, retained by create()
  unsigned Sm = 0, SMs = 0;
  bool Coop = false;
  std::string Model;
  size_t TotalMem = 0;
  /// Kernels and the copies ordered with them.
  CUstream LaunchStream = nullptr;
  /// Caller-synchronous copies: independent of the kernels (the runtime waits for the tickets of
  /// the kernels that use a mapping before copying it).
  CUstream CopyStream = nullptr;

  std::mutex ModuleM;
  std::unordered_map<std::string, CUmodule> Modules;
  std::map<std::pair<std::string, std::string>, CUfunction> Functions;

  /// Unload the modules of kernel images that are gone, and forget their functions (ModuleM
  /// held, the context current): a program that streams distinct kernels keeps GPU memory flat.
  void unloadGoneModules() {
    for (auto It = Modules.begin(); It != Modules.end();) {
      if (!cudaModuleGone(It->first)) {
        ++It;
        continue;
      }
      (void)Drv.cuModuleUnload(It->second); // nothing runs it any more: failure leaks it alone
      auto F = Functions.lower_bound({It->first, ""});
      while (F != Functions.end() && F->first.first == It->first)
        F = Functions.erase(F);
      It = Modules.erase(It);
    }
  }

  std::mutex PeerM;
  std::map<uint64_t, bool> PeerDirect; ///< by the peer's Serial

  std::mutex StagingM;
  void *Staging[2] = {nullptr, nullptr};
  size_t StagingBytes = 0;

  /// One submitted launch, from enqueue to completion.
  struct Entry {
    uint64_t Ticket = 0;
    std::shared_ptr<DeviceLaunch> L;
    CUevent Event = nullptr; ///< recorded after the launch's work; null if recording failed
    bool Async = false;
    SavedError Failure; ///< its enqueue's or its event's error
  };

  /// Serialises submissions so that stream order is ticket order. Taken before M.
  std::mutex EnqueueM;
  /// Guards everything below (LastIssued is also read without it).
  std::mutex M;
  std::condition_variable PollCV; ///< the poller: work pending, or Stop
  std::condition_variable DoneCV; ///< waiters: Done advanced
  std::deque<std::shared_ptr<Entry>> Pending;
  std::vector<CUevent> FreeEvents;
  std::atomic<uint64_t> LastIssued{0};
  /// Written under M; read without it by waiters and the poller while they spin.
  std::atomic<uint64_t> Done{0};
  std::atomic<size_t> PendingCount{0}; ///< Pending.size()
  std::atomic<bool> Stop{false};
  /// Whether the poller is polling or spinning for work, rather than sleeping.
  std::atomic<bool> PollerAwake{false};
  /// Spinning before the poller sleeps for work, and before a waiter sleeps for a ticket.
  SpinPolicy WorkSpin, DoneSpin;
  std::thread Poller;
  /// The first error of an async launch, reported (and cleared) by the next waitFor().
  SavedError AsyncFailure;
};

llvm::Error CudaDevice::Impl::copy2D(CUstream Stream, CUmemorytype SrcType, const void *Src,
                                     size_t SrcPitch, CUmemorytype DstType, void *Dst,
                                     size_t DstPitch, size_t Width, size_t Height) {
  if (Height == 1) {
    if (SrcType == CU_MEMORYTYPE_HOST)
      return check(Drv.cuMemcpyHtoDAsync(devicePtr(Dst), Src, Width, Stream), "cuMemcpyHtoDAsync");
    if (DstType == CU_MEMORYTYPE_HOST)
      return check(Drv.cuMemcpyDtoHAsync(Dst, devicePtr(Src), Width, Stream), "cuMemcpyDtoHAsync");
    return check(Drv.cuMemcpyDtoDAsync(devicePtr(Dst), devicePtr(Src), Width, Stream),
                 "cuMemcpyDtoDAsync");
  }
  CUDA_MEMCPY2D C = {};
  C.srcMemoryType = SrcType;
  if (SrcType == CU_MEMORYTYPE_HOST)
    C.srcHost = Src;
  else
    C.srcDevice = devicePtr(Src);
  C.srcPitch = SrcPitch;
  C.dstMemoryType = DstType;
  if (DstType == CU_MEMORYTYPE_HOST)
    C.dstHost = Dst;
  else
    C.dstDevice = devicePtr(Dst);
  C.dstPitch = DstPitch;
  C.WidthInBytes = Width;
  C.Height = Height;
  return check(Drv.cuMemcpy2DAsync(&C, Stream), "cuMemcpy2DAsync");
}

llvm::Expected<bool> CudaDevice::Impl::peerAccess(Impl &Peer) {
  std::lock_guard<std::mutex> Lock(PeerM);
  auto It = PeerDirect.find(Peer.Serial);
  if (It != PeerDirect.end())
    return It->second;
  int Can = 0;
  if (auto E = check(Drv.cuDeviceCanAccessPeer(&Can, Dev, Peer.Dev), "cuDeviceCanAccessPeer"))
    return E;
  bool Direct = false;
  if (Can) {
    // Enables this (current) context's access to Peer's memory, for copies on this device's
    // streams. Already enabled: an earlier device object on the same primary contexts did it.
    CUresult R = Drv.cuCtxEnablePeerAccess(Peer.Ctx, 0);
    // Any other failure (e.g. too many peers) leaves the staged path, which always works.
    Direct = R == CUDA_SUCCESS || R == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  }
  PeerDirect.emplace(Peer.Serial, Direct);
  return Direct;
}

llvm::Expected<CUevent> CudaDevice::Impl::takeEvent() {
  {
    std::lock_guard<std::mutex> Lock(M);
    if (!FreeEvents.empty()) {
      CUevent Ev = FreeEvents.back();
      FreeEvents.pop_back();
      return Ev;
    }
  }
  CUevent Ev = nullptr;
  // No timing: recording and querying such an event is cheaper.
  if (auto E = check(Drv.cuEventCreate(&Ev, CU_EVENT_DISABLE_TIMING), "cuEventCreate"))
    return E;
  return Ev;
}

void CudaDevice::Impl::pollerMain() {
  // A failure here makes every query below fail, which reports it on each launch.
  (void)Drv.cuCtxSetCurrent(Ctx);
  // The default 50 us timer slack would turn every short sleep below into 50 us.
  prctl(PR_SET_TIMERSLACK, 1000UL /* ns */, 0UL, 0UL, 0UL);
  std::chrono::microseconds Sleep = MinPoll;
  std::unique_lock<std::mutex> Lock(M);
  BusyMark Busy;
  auto HasWork = [&] {
    return PendingCount.load(std::memory_order_acquire) != 0 ||
           Stop.load(std::memory_order_acquire);
  };
  for (;;) {
    // Spins without M, which the launching thread takes to queue the work.
    waitForWork(WorkSpin, Busy, PollerAwake, Lock, PollCV, HasWork,
                [&] { return Stop || !Pending.empty(); });
    // Drain before stopping: every launch gets its finished().
    if (Pending.empty())
      return;
    std::shared_ptr<Entry> E = Pending.front();
    Lock.unlock();
    // Only the oldest event needs querying: the stream completes in order. Only this thread
    // writes an entry once it is queued, and waiters read it after Done passes it (under M).
    if (E->Event) {
      CUresult R = Drv.cuEventQuery(E->Event);
      if (R == CUDA_ERROR_NOT_READY) {
        std::this_thread::sleep_for(Sleep);
        Sleep = std::min(Sleep * 2, MaxPoll);
        Lock.lock();
        continue;
      }
      if (R != CUDA_SUCCESS && !E->Failure)
        E->Failure.keep(
            check(R, "kernel launch (ticket " + llvm::Twine(E->Ticket) + "): cuEventQuery"));
    }
    Sleep = MinPoll;
    // Called even for a failed launch: it releases what the launch holds (and may unblock the
    // launch's partners); its results are not used, since the error is reported.
    E->L->complete();
    if (llvm::Error Own = E->L->takeFailure(); Own && !E->Failure)
      E->Failure.keep(std::move(Own));
    else
      llvm::consumeError(std::move(Own));
    E->L.reset();
    Lock.lock();
    Pending.pop_front();
    PendingCount.store(Pending.size(), std::memory_order_release);
    if (E->Event)
      FreeEvents.push_back(E->Event);
    if (E->Async)
      AsyncFailure.keep(E->Failure);
    Done.store(E->Ticket, std::memory_order_release);
    DoneCV.notify_all();
  }
}

llvm::Expected<std::unique_ptr<CudaDevice>>
CudaDevice::create(unsigned Index, int Ordinal, std::chrono::microseconds HandOffSpin) {
  auto Drv = cudaDriver();
  if (!Drv)
    return Drv.takeError();
  return create(Index, Ordinal, *Drv, HandOffSpin);
}

llvm::Expected<std::unique_ptr<CudaDevice>>
CudaDevice::create(unsigned Index, int Ordinal, const CudaDriver &Drv,
                   std::chrono::microseconds HandOffSpin) {
  auto P = std::make_unique<Impl>(Drv, Ordinal, HandOffSpin);
  int Count = 0;
  if (auto E = P->check(Drv.cuDeviceGetCount(&Count), "cuDeviceGetCount"))
    return E;
  if (Ordinal < 0 || Ordinal >= Count)
    return makeError(ErrorCode::InvalidArgument,
                     P->Name + " does not exist: the CUDA driver found " + llvm::Twine(Count) +
                         " GPU(s)" +
                         (Count ? " (cuda:0 to cuda:" + llvm::Twine(Count - 1) + ")" : ""));
  if (auto E = P->check(Drv.cuDeviceGet(&P->Dev, Ordinal), "cuDeviceGet"))
    return E;
  int Major = 0, Minor = 0, SMs = 0, Coop = 0;
  char Model[256] = {};
  const std::pair<CUdevice_attribute, int *> Attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &Major},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &Minor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &SMs},
      {CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, &Coop}};
  for (auto [Attribute, Value] : Attributes)
    if (auto E = P->check(Drv.cuDeviceGetAttribute(Value, Attribute, P->Dev),
                          "cuDeviceGetAttribute " + llvm::Twine(Attribute)))
      return E;
  if (auto E = P->check(Drv.cuDeviceGetName(Model, sizeof Model - 1, P->Dev), "cuDeviceGetName"))
    return E;
  if (auto E = P->check(Drv.cuDeviceTotalMem(&P->TotalMem, P->Dev), "cuDeviceTotalMem"))
    return E;
  P->Sm = unsigned(10 * Major + Minor);
  P->SMs = unsigned(std::max(SMs, 1));
  P->Coop = Coop != 0;
  P->Model = Model;
  // From here on the destructor releases what was acquired, if a later step fails.
  if (auto E = P->check(Drv.cuDevicePrimaryCtxRetain(&P->Ctx, P->Dev), "cuDevicePrimaryCtxRetain"))
    return E;
  std::unique_ptr<CudaDevice> D(new CudaDevice(Index, std::move(P)));
  Impl &I = *D->P;
  if (auto E = I.current())
    return E;
  // Non-blocking: no implicit synchronisation with the legacy default stream, which another
  // library in the process may use.
  if (auto E =
          I.check(Drv.cuStreamCreate(&I.LaunchStream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return E;
  if (auto E = I.check(Drv.cuStreamCreate(&I.CopyStream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return E;
  return D;
}

CudaDevice::CudaDevice(unsigned Index, std::unique_ptr<Impl> Impl)
    : Device(Index, Impl->Name, /*HostMemory=*/false), P(std::move(Impl)) {}

CudaDevice::~CudaDevice() {
  std::thread Poller;
  {
    std::lock_guard<std::mutex> Lock(P->M);
    P->Stop = true;
    Poller = std::move(P->Poller);
  }
  P->PollCV.notify_all();
  if (Poller.joinable())
    Poller.join();
  if (!P->Ctx)
    return;
  // Nobody can report errors any more: release everything best effort.
  const CudaDriver &Drv = P->Drv;
  (void)Drv.cuCtxSetCurrent(P->Ctx);
  for (CUstream S : {P->LaunchStream, P->CopyStream})
    if (S) {
      (void)Drv.cuStreamSynchronize(S);
      (void)Drv.cuStreamDestroy(S);
    }
  for (CUevent Ev : P->FreeEvents)
    (void)Drv.cuEventDestroy(Ev);
  for (auto &[Key, Module] : P->Modules)
    (void)Drv.cuModuleUnload(Module);
  for (void *Buffer : P->Staging)
    if (Buffer)
      (void)Drv.cuMemFreeHost(Buffer);
  // Through the front: observers see each scratch buffer's free as they saw its allocation.
  for (auto &[Capacity, Buffer] : P->FreeScratch)
    llvm::consumeError(release(Buffer, Capacity));
  (void)Drv.cuCtxSetCurrent(nullptr);
  (void)Drv.cuDevicePrimaryCtxRelease(P->Dev);
}

int CudaDevice::ordinal() const {
  return P->Ordinal;
}

unsigned CudaDevice::smVersion() const {
  return P->Sm;
}

unsigned CudaDevice::computeUnits() const {
  return P->SMs;
}

bool CudaDevice::cooperativeLaunch() const {
  return P->Coop;
}

const std::string &CudaDevice::model() const {
  return P->Model;
}

size_t CudaDevice::totalMemory() const {
  return P->TotalMem;
}

llvm::Expected<void *> CudaDevice::loadFunction(const std::string &Key, llvm::StringRef Image,
                                                const char *Entry) {
  if (Image.empty() || !Entry || !*Entry)
    return makeError(ErrorCode::InvalidArgument,
                     name() + ": loadFunction needs a non-empty image and entry name");
  std::lock_guard<std::mutex> Lock(P->ModuleM);
  auto FIt = P->Functions.find({Key, Entry});
  if (FIt != P->Functions.end())
    return static_cast<void *>(FIt->second);
  if (auto E = P->current())
    return E;
  auto MIt = P->Modules.find(Key);
  if (MIt == P->Modules.end()) {
    P->unloadGoneModules();
    // A copy, because PTX must be NUL-terminated and a StringRef need not be.
    std::string Copy = Image.str();
    CUmodule Module = nullptr;
    if (auto E = P->check(P->Drv.cuModuleLoadData(&Module, Copy.c_str()),
                          llvm::Twine("cuModuleLoadData (the image of ") + Entry + ")"))
      return E;
    MIt = P->Modules.emplace(Key, Module).first;
  }
  CUfunction F = nullptr;
  if (auto E = P->check(P->Drv.cuModuleGetFunction(&F, MIt->second, Entry),
                        llvm::Twine("cuModuleGetFunction (") + Entry + ")"))
    return E;
  P->Functions.emplace(std::make_pair(Key, std::string(Entry)), F);
  return static_cast<void *>(F);
}

llvm::Expected<unsigned> CudaDevice::maxActiveBlocksPerSM(void *Function, unsigned BlockSize) {
  if (auto E = P->current())
    return E;
  int Blocks = 0;
  if (auto E = P->check(P->Drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                            &Blocks, static_cast<CUfunction>(Function), int(BlockSize), 0),
                        "cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    return E;
  return unsigned(std::max(Blocks, 0));
}

llvm::Error CudaDevice::launchKernel(void *Function, unsigned Grid, unsigned Block, void **Params,
                                     bool Cooperative) {
  if (Cooperative && !P->Coop)
    return makeError(ErrorCode::Unsupported,
                     name() + " (" + P->Model +
                         ") cannot launch cooperative kernels, which grid-wide barriers need; "
                         "run this kernel on other devices (JACC_DEVICES)");
  if (auto E = P->current())
    return E;
  auto F = static_cast<CUfunction>(Function);
  if (Cooperative)
    return P->check(
        P->Drv.cuLaunchCooperativeKernel(F, Grid, 1, 1, Block, 1, 1, 0, P->LaunchStream, Params),
        "cuLaunchCooperativeKernel (grid " + llvm::Twine(Grid) + ", block " + llvm::Twine(Block) +
            ")");
  return P->check(
      P->Drv.cuLaunchKernel(F, Grid, 1, 1, Block, 1, 1, 0, P->LaunchStream, Params, nullptr),
      "cuLaunchKernel (grid " + llvm::Twine(Grid) + ", block " + llvm::Twine(Block) + ")");
}

llvm::Error CudaDevice::copyToHostAsync(void *HostDst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  if (auto E = P->current())
    return E;
  return P->check(P->Drv.cuMemcpyDtoHAsync(HostDst, devicePtr(Src), Bytes, P->LaunchStream),
                  "cuMemcpyDtoHAsync");
}

void *CudaDevice::launchStream() const { return P->LaunchStream; }

llvm::Error CudaDevice::copyToDeviceAsync(void *Dst, const void *HostSrc, size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  if (auto E = P->current())
    return E;
  return P->check(P->Drv.cuMemcpyHtoDAsync(devicePtr(Dst), HostSrc, Bytes, P->LaunchStream),
                  "cuMemcpyHtoDAsync");
}

/// An error for a strided copy whose rows overlap (Pitch < Width), naming the copy's Direction.
static llvm::Error badPitch(const llvm::Twine &Direction, size_t Width, size_t Pitch) {
  return makeError(ErrorCode::InvalidArgument,
                   "strided copy " + Direction + " with a pitch (" + llvm::Twine(Pitch) +
                       ") smaller than its rows (" + llvm::Twine(Width) + " bytes)");
}

void CudaDevice::addCodeTargets(jit::SpecializeSettings &S) const {
  jit::TargetArch Mine{&jit::cudaCodeTarget(), smVersion()};
  if (!llvm::is_contained(S.DeviceArchs, Mine))
    S.DeviceArchs.push_back(Mine);
}

DeviceProperties CudaDevice::propertiesImpl() const {
  DeviceProperties D;
  D.Type = acc_device_nvidia;
  D.Model = model();
  D.Vendor = "NVIDIA";
  D.Driver = "jacc " JACC_VERSION " (CUDA Driver API)";
  D.TotalMemory = totalMemory(); // free memory: unknown (0)
  D.ComputeCapability = smVersion();
  return D;
}

llvm::Error CudaDevice::copyToDevice2DImpl(void *Dst, const void *HostSrc, size_t Width,
                                           size_t Height, size_t Pitch) {
  if (Height > 1 && Pitch < Width)
    return badPitch("to " + name(), Width, Pitch);
  return P->copy2DNow(CU_MEMORYTYPE_HOST, HostSrc, CU_MEMORYTYPE_DEVICE, Dst, Width, Height,
                      Pitch);
}

llvm::Expected<void *> CudaDevice::allocateImpl(size_t Bytes) {
  if (auto E = P->current())
    return E;
  CUdeviceptr Ptr = 0;
  CUresult R = P->Drv.cuMemAlloc(&Ptr, Bytes);
  if (R == CUDA_ERROR_OUT_OF_MEMORY)
    return makeError(ErrorCode::OutOfMemory,
                     name() + ": out of memory allocating " + llvm::Twine(Bytes) +
                         " bytes (the GPU has " + llvm::Twine(P->TotalMem) +
                         " bytes in all); map less data at a time or use more devices");
  if (auto E = P->check(R, "cuMemAlloc of " + llvm::Twine(Bytes) + " bytes"))
    return E;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(Ptr));
}

llvm::Expected<void *> CudaDevice::allocateUnifiedImpl(size_t Bytes) {
  if (!P->Drv.cuMemAllocManaged)
    return makeError(ErrorCode::Unsupported,
                     name() + ": the CUDA driver " + P->Drv.Library +
                         " has no cuMemAllocManaged (managed memory); update the NVIDIA driver "
                         "or unset JACC_MEMORY (separate copies)");
  if (auto E = P->current())
    return E;
  CUdeviceptr Ptr = 0;
  CUresult R = P->Drv.cuMemAllocManaged(&Ptr, Bytes, CU_MEM_ATTACH_GLOBAL);
  if (R == CUDA_ERROR_OUT_OF_MEMORY)
    return makeError(ErrorCode::OutOfMemory, name() + ": out of managed memory allocating " +
                                                 llvm::Twine(Bytes) +
                                                 " bytes; map less data at a time");
  if (auto E = P->check(R, "cuMemAllocManaged of " + llvm::Twine(Bytes) + " bytes"))
    return E;
  return reinterpret_cast<void *>(static_cast<uintptr_t>(Ptr));
}

llvm::Error CudaDevice::prefetchImpl(const void *Ptr, size_t Bytes, bool ReadMostly) {
  // Hints: a driver without them (or a system that cannot migrate) still reads the memory.
  if (!P->Drv.cuMemPrefetchAsync)
    return llvm::Error::success();
  if (auto E = P->current())
    return E;
  if (ReadMostly && P->Drv.cuMemAdvise)
    if (auto E = P->check(P->Drv.cuMemAdvise(devicePtr(Ptr), Bytes, CU_MEM_ADVISE_SET_READ_MOSTLY,
                                             P->Dev),
                          "cuMemAdvise"))
      return E;
  // On the launch stream: ahead of the kernel that reads it.
  return P->check(P->Drv.cuMemPrefetchAsync(devicePtr(Ptr), Bytes, P->Dev, P->LaunchStream),
                  "cuMemPrefetchAsync");
}

llvm::Expected<void *> CudaDevice::takeScratch(size_t Bytes, size_t &Capacity) {
  Capacity = 256;
  while (Capacity < Bytes)
    Capacity *= 2;
  {
    std::lock_guard<std::mutex> Lock(P->ScratchMutex);
    if (auto It = P->FreeScratch.find(Capacity); It != P->FreeScratch.end()) {
      void *Buffer = It->second;
      P->FreeScratch.erase(It);
      return Buffer;
    }
  }
  return allocate(Capacity);
}

void CudaDevice::giveScratch(void *Ptr, size_t Capacity) {
  {
    std::lock_guard<std::mutex> Lock(P->ScratchMutex);
    if (P->FreeScratch.size() < Impl::MaxFreeScratch) {
      P->FreeScratch.emplace(Capacity, Ptr);
      return;
    }
  }
  llvm::consumeError(release(Ptr, Capacity));
}

llvm::Error CudaDevice::releaseImpl(void *DevicePtr) {
  if (auto E = P->current())
    return E;
  return P->check(P->Drv.cuMemFree(devicePtr(DevicePtr)), "cuMemFree");
}

llvm::Error CudaDevice::copyToDeviceImpl(void *Dst, const void *HostSrc, size_t Bytes) {
  return copyToDevice2DImpl(Dst, HostSrc, Bytes, 1, Bytes);
}

llvm::Error CudaDevice::copyToHostImpl(void *HostDst, const void *Src, size_t Bytes) {
  if (auto E = P->current())
    return E;
  if (auto E = P->check(P->Drv.cuMemcpyDtoHAsync(HostDst, devicePtr(Src), Bytes, P->CopyStream),
                        "cuMemcpyDtoHAsync"))
    return E;
  return P->check(P->Drv.cuStreamSynchronize(P->CopyStream), "cuStreamSynchronize");
}

llvm::Error CudaDevice::copyToHost2DImpl(void *HostDst, const void *Src, size_t Width,
                                         size_t Height, size_t Pitch) {
  if (Height > 1 && Pitch < Width)
    return badPitch("from " + name(), Width, Pitch);
  return P->copy2DNow(CU_MEMORYTYPE_DEVICE, Src, CU_MEMORYTYPE_HOST, HostDst, Width, Height,
                      Pitch);
}

llvm::Error CudaDevice::copyToPeer2DImpl(Device &DstDevice, void *Dst, const void *Src,
                                         size_t Width, size_t Height, size_t Pitch) {
  auto *Peer = dynamic_cast<CudaDevice *>(&DstDevice);
  if (!Peer)
    return Device::copyToPeer2DImpl(DstDevice, Dst, Src, Width, Height, Pitch);
  if (Height > 1 && Pitch < Width)
    return badPitch("from " + name(), Width, Pitch);
  if (auto E = P->current())
    return E;
  if (Peer->P->Ctx != P->Ctx) {
    auto Direct = P->peerAccess(*Peer->P);
    if (!Direct)
      return Direct.takeError();
    if (!*Direct)
      return copyStaged(*Peer, static_cast<char *>(Dst), static_cast<const char *>(Src), Width,
                        Height, Pitch);
    if (Height == 1) {
      if (auto E = P->check(P->Drv.cuMemcpyPeerAsync(devicePtr(Dst), Peer->P->Ctx, devicePtr(Src),
                                                     P->Ctx, Width, P->CopyStream),
                            "cuMemcpyPeerAsync to " + Peer->name()))
        return E;
      return P->check(P->Drv.cuStreamSynchronize(P->CopyStream), "cuStreamSynchronize");
    }
    // Strided: with peer access enabled, unified addressing lets one 2-D copy span both GPUs.
  }
  return P->copy2DNow(CU_MEMORYTYPE_DEVICE, Src, CU_MEMORYTYPE_DEVICE, Dst, Width, Height, Pitch);
}

llvm::Error CudaDevice::prepareCodeImpl(const jit::CompiledKernel &K, const LaunchCode &C) {
  // Each GPU architecture's image (the generic one: a variant compiles its own images).
  return jit::cudaCodeOf(K, smVersion(), C.Split).takeError();
}

llvm::Expected<std::shared_ptr<KernelLaunch>>
CudaDevice::constructLaunchImpl(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                                AggregateArgs Aggregates, const LaunchCode &C) {
  if (C.Native)
    return std::make_shared<CudaNativeLaunch>(std::move(K), std::move(Cells),
                                              std::move(Aggregates), *C.Native,
                                              NativeDevice{index(), name(), computeUnits()});
  return std::make_shared<CudaKernelLaunch>(std::move(K), std::move(Cells), std::move(Aggregates),
                                            C.Variant);
}

llvm::Error CudaDevice::copyStaged(CudaDevice &Peer, char *Dst, const char *Src, size_t Width,
                                   size_t Height, size_t Pitch) {
  // Cut the copy into pieces that fit one staging buffer: byte ranges of a plain copy, groups of
  // rows of a strided one (packed in the buffer), or ranges of each row when rows are too long.
  llvm::SmallVector<Piece, 8> Pieces;
  if (Height == 1 || Width > StagingChunk) {
    for (size_t R = 0; R < Height; ++R)
      for (size_t Off = 0; Off < Width; Off += StagingChunk)
        Pieces.push_back({R * Pitch + Off, std::min(StagingChunk, Width - Off), 1});
  } else {
    size_t RowsPerPiece = StagingChunk / Width;
    for (size_t R = 0; R < Height; R += RowsPerPiece)
      Pieces.push_back({R * Pitch, Width, std::min(RowsPerPiece, Height - R)});
  }
  size_t Largest = 0;
  for (const Piece &Pc : Pieces)
    Largest = std::max(Largest, Pc.Width * Pc.Rows);

  std::lock_guard<std::mutex> Lock(P->StagingM);
  const CudaDriver &Drv = P->Drv;
  if (P->StagingBytes < Largest) {
    for (void *&Buffer : P->Staging) {
      if (Buffer)
        (void)Drv.cuMemFreeHost(Buffer);
      Buffer = nullptr;
    }
    P->StagingBytes = 0;
    // Portable: pinned for the peer's context too, so its copy from the buffer is a real DMA.
    size_t Bytes = Largest <= (size_t(64) << 10) ? size_t(64) << 10 : StagingChunk;
    for (void *&Buffer : P->Staging)
      if (auto E = P->check(Drv.cuMemHostAlloc(&Buffer, Bytes, CU_MEMHOSTALLOC_PORTABLE),
                            "cuMemHostAlloc of a " + llvm::Twine(Bytes) + "-byte staging buffer"))
        return E;
    P->StagingBytes = Bytes;
  }

  // Double buffering: while the peer copies piece i out of one buffer, this device copies piece
  // i+1 into the other. BufferFree[b] is recorded on the peer's stream after its copy out of b.
  CUevent BufferFree[2] = {nullptr, nullptr};
  bool InUse[2] = {false, false};
  Impl &Q = *Peer.P;
  auto Cleanup = llvm::make_scope_exit([&] {
    // Also on errors: the buffers must be idle before anyone reuses them.
    (void)Drv.cuCtxSetCurrent(Q.Ctx);
    (void)Drv.cuStreamSynchronize(Q.CopyStream);
    for (CUevent Ev : BufferFree)
      if (Ev)
        (void)Drv.cuEventDestroy(Ev);
    (void)Drv.cuCtxSetCurrent(P->Ctx);
  });
  if (auto E = Q.current())
    return E;
  for (CUevent &Ev : BufferFree)
    if (auto E = Q.check(Drv.cuEventCreate(&Ev, CU_EVENT_DISABLE_TIMING), "cuEventCreate"))
      return E;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    const Piece &Pc = Pieces[I];
    unsigned B = I % 2;
    if (InUse[B])
      if (auto E = Q.check(Drv.cuEventSynchronize(BufferFree[B]), "cuEventSynchronize"))
        return E;
    if (auto E = P->current())
      return E;
    if (auto E = P->copy2D(P->CopyStream, CU_MEMORYTYPE_DEVICE, Src + Pc.Offset, Pitch,
                           CU_MEMORYTYPE_HOST, P->Staging[B], Pc.Width, Pc.Width, Pc.Rows))
      return E;
    if (auto E = P->check(Drv.cuStreamSynchronize(P->CopyStream), "cuStreamSynchronize"))
      return E;
    if (auto E = Q.current())
      return E;
    if (auto E = Q.copy2D(Q.CopyStream, CU_MEMORYTYPE_HOST, P->Staging[B], Pc.Width,
                          CU_MEMORYTYPE_DEVICE, Dst + Pc.Offset, Pitch, Pc.Width, Pc.Rows))
      return E;
    if (auto E = Q.check(Drv.cuEventRecord(BufferFree[B], Q.CopyStream), "cuEventRecord"))
      return E;
    InUse[B] = true;
  }
  // The cleanup waits for the last copies; report a failure of that wait.
  if (auto E = Q.check(Drv.cuStreamSynchronize(Q.CopyStream), "cuStreamSynchronize"))
    return E;
  return llvm::Error::success();
}

llvm::Expected<uint64_t> CudaDevice::launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) {
  std::unique_lock<std::mutex> Enqueue(P->EnqueueM);
  if (auto E = P->current())
    return E; // nothing issued
  {
    std::lock_guard<std::mutex> Lock(P->M);
    // Started on the first launch: devices used only for data cost no thread.
    if (!P->Poller.joinable()) {
      P->PollerAwake.store(true, std::memory_order_relaxed);
      P->Poller = std::thread([this] { P->pollerMain(); });
    }
  }
  auto En = std::make_shared<Impl::Entry>();
  En->Ticket = P->LastIssued.load(std::memory_order_relaxed) + 1;
  En->Async = Async;
  En->L = std::move(L);
  auto *Work = dynamic_cast<CudaLaunch *>(En->L.get());
  llvm::Error Err = Work ? Work->enqueue(*this)
                         : makeError(ErrorCode::Unsupported,
                                     "this kernel launch carries no CUDA code");
  // Recorded even after a failed enqueue: finished() must not run before whatever part of the
  // launch did reach the stream has completed. The first error is the one reported.
  auto Ev = P->takeEvent();
  if (!Ev) {
    if (Err)
      llvm::consumeError(Ev.takeError());
    else
      Err = Ev.takeError();
  } else if (CUresult R = P->Drv.cuEventRecord(*Ev, P->LaunchStream)) {
    if (!Err)
      Err = P->check(R, "cuEventRecord");
    std::lock_guard<std::mutex> Lock(P->M);
    P->FreeEvents.push_back(*Ev);
  } else {
    En->Event = *Ev;
  }
  En->Failure.keep(std::move(Err));
  uint64_t Ticket = En->Ticket;
  {
    std::lock_guard<std::mutex> Lock(P->M);
    P->Pending.push_back(En);
    P->PendingCount.store(P->Pending.size(), std::memory_order_release);
    P->LastIssued.store(Ticket, std::memory_order_release);
  }
  Enqueue.unlock();
  P->PollCV.notify_one();
  if (Async)
    return Ticket;

  std::unique_lock<std::mutex> Lock(P->M, std::defer_lock);
  P->waitUntilDone(Lock, Ticket);
  if (En->Failure)
    return En->Failure.error();
  return Ticket;
}

void CudaDevice::Impl::waitUntilDone(std::unique_lock<std::mutex> &Lock, uint64_t Ticket) {
  auto Completed = [&] { return Done.load(std::memory_order_acquire) >= Ticket; };
  auto Sleep = [&] {
    lockSpinning(Lock);
    DoneCV.wait(Lock, Completed);
  };
  // A sleeping poller takes a futex wake-up to see the launch: spinning meanwhile would only
  // take a core from it.
  if (PollerAwake.load(std::memory_order_relaxed))
    spinThenBlock(DoneSpin, Completed, Sleep);
  else
    Sleep();
  if (!Lock.owns_lock())
    lockSpinning(Lock);
}

llvm::Error CudaDevice::waitForImpl(uint64_t Ticket) {
  std::unique_lock<std::mutex> Lock(P->M, std::defer_lock);
  P->waitUntilDone(Lock, std::min(Ticket, P->LastIssued.load(std::memory_order_acquire)));
  return P->AsyncFailure.take();
}

uint64_t CudaDevice::lastTicketImpl() const {
  return P->LastIssued.load(std::memory_order_acquire);
}

uint64_t CudaDevice::completedTicketImpl() const {
  return P->Done.load(std::memory_order_acquire);
}

} // namespace jacc
