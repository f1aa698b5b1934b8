// A fake CUDA driver: the subset of libcuda.so.1's C ABI that jacc calls (exported under the
// driver's versioned symbol names), over host memory, so the CUDA device tests run on machines
// without a GPU (they point JACC_LIBCUDA at this library).
//
// Environment, read when the call needs it:
//   MOCKCUDA_DEVICES       number of fake GPUs (cuInit; default 2; 0: cuInit fails, no device)
//   MOCKCUDA_NO_PEER=1     no peer access between fake GPUs
//   MOCKCUDA_NO_COOP=1     no cooperative launch support
//   MOCKCUDA_MEM_LIMIT     bytes of memory per fake GPU (default 16 GiB)
//   MOCKCUDA_EVENT_DELAY_US  an event completes this long after it is recorded (default 0)
// Every fake GPU is compute capability 8.0 with 4 SMs. Copies happen at once; kernels only call the
// hook a test installed. The mock is stricter than the driver where that catches jacc bugs: device
// memory must be used from its own GPU's context (or one with peer access to it), streams and
// events belong to the current context, and a module only has the functions whose names its image
// contains. Introspection, fault injection and holding events pending: the mockcuda_* functions at
// the end.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#define MOCK_API extern "C" __attribute__((visibility("default")))

namespace {

// The driver's types and codes (cuda.h), as the mock's callers see them.
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720;

constexpr int MaxDevices = 16;
constexpr int SmCount = 4;

/// cuda.h's CUDA_MEMCPY2D.
struct Memcpy2D {
  size_t srcXInBytes, srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  void *srcArray;
  size_t srcPitch;
  size_t dstXInBytes, dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  void *dstArray;
  size_t dstPitch;
  size_t WidthInBytes, Height;
};
static_assert(sizeof(Memcpy2D) == 128, "CUDA_MEMCPY2D layout");
constexpr int MemHost = 1, MemDevice = 2, MemUnified = 4;

struct Context {
  int Device = 0;
  int Refs = 0;
  bool Peer[MaxDevices] = {};
  size_t LiveBytes = 0;
};
struct Stream {
  Context *Ctx;
  uint64_t ReadyNs = 0; ///< when everything recorded on it so far has completed
};
struct Event {
  Context *Ctx;
  bool Recorded = false;
  uint64_t ReadyNs = 0;
};
struct Module {
  Context *Ctx;
  std::string Image;
};
struct Function {
  Module *Mod;
  std::string Name;
};
struct Allocation {
  size_t Bytes;
  int Device;
  bool Managed = false; ///< cuMemAllocManaged: every context may use it
};
/// A cuMemPrefetchAsync call, for the tests (mockcuda_prefetch).
struct Prefetch {
  uintptr_t Ptr;
  size_t Bytes;
  int Device;
  bool ReadMostly; ///< the range was advised read-mostly (cuMemAdvise) when prefetched
};

using KernelHook = void (*)(const char *Entry, unsigned Grid, unsigned Block, void **Params);

struct State {
  std::mutex M;
  bool Initialized = false;
  int Devices = 0;
  Context Ctxs[MaxDevices];
  std::map<uintptr_t, Allocation> Allocs; ///< device memory by start address
  std::vector<Prefetch> Prefetches;
  /// Ranges advised read-mostly (cuMemAdvise), by start address: their ends.
  std::map<uintptr_t, uintptr_t> ReadMostly;
  std::set<void *> HostAllocs;
  std::set<Stream *> Streams;
  std::set<Event *> Events;
  std::set<Module *> Modules;
  std::set<Function *> Functions;
  std::map<std::string, CUresult> Inject;
  int Launches = 0, ModuleLoads = 0, PeerCopies = 0, Copies2D = 0, HostAllocCount = 0,
      DeviceAllocs = 0, EventQueries = 0, ManagedAllocs = 0;
  unsigned LastGrid = 0, LastBlock = 0;
  int LastCooperative = 0;
  KernelHook Hook = nullptr;
  bool HoldEvents = false;
};

State &state() {
  static State *S = new State; // never destroyed: callers may run during static destruction
  return *S;
}

thread_local Context *Current = nullptr;

uint64_t nowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

void sleepUntil(uint64_t Ns) {
  uint64_t Now = nowNs();
  if (Ns > Now)
    std::this_thread::sleep_for(std::chrono::nanoseconds(Ns - Now));
}

bool envFlag(const char *Name) {
  const char *V = std::getenv(Name);
  return V && std::strcmp(V, "1") == 0;
}

unsigned long long envNumber(const char *Name, unsigned long long Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  return std::strtoull(V, nullptr, 10);
}

/// Common prologue, with S.M held: fault injection, then initialisation.
CUresult enter(State &S, const char *Call) {
  auto It = S.Inject.find(Call);
  if (It != S.Inject.end()) {
    CUresult R = It->second;
    S.Inject.erase(It);
    return R;
  }
  return S.Initialized ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUresult needContext() {
  return Current && Current->Refs > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/// The start of the allocation containing P (which deviceOf() found).
uintptr_t allocationStart(State &S, uintptr_t P) {
  return std::prev(S.Allocs.upper_bound(P))->first;
}

/// The device owning [P, P + Bytes) of device memory, or -1.
int deviceOf(State &S, uintptr_t P, size_t Bytes) {
  auto It = S.Allocs.upper_bound(P);
  if (It == S.Allocs.begin())
    return -1;
  --It;
  if (P + Bytes > It->first + It->second.Bytes)
    return -1;
  return It->second.Device;
}

/// Device memory the current context may use: its own GPU's, or a peer's it enabled access to.
CUresult checkDevicePtr(State &S, uintptr_t P, size_t Bytes) {
  int D = deviceOf(S, P, Bytes);
  if (D < 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (D != Current->Device && !Current->Peer[D] && !S.Allocs.find(allocationStart(S, P))->second.Managed)
    return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
  return CUDA_SUCCESS;
}

/// A stream usable from the current context (null: the legacy default stream).
CUresult checkStream(State &S, Stream *St) {
  if (!St)
    return CUDA_SUCCESS;
  if (!S.Streams.count(St))
    return CUDA_ERROR_INVALID_HANDLE;
  return St->Ctx == Current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

#define MOCK_TRY(Expr)                                                                             \
  do {                                                                                             \
    if (CUresult R_ = (Expr))                                                                      \
      return R_;                                                                                   \
  } while (0)

#define MOCK_ENTER(Name)                                                                           \
  State &S = state();                                                                              \
  std::unique_lock<std::mutex> Lock(S.M);                                                          \
  MOCK_TRY(enter(S, Name))

struct ErrorText {
  CUresult Code;
  const char *Name, *Text;
};
const ErrorText Errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
     "peer access is not supported between these two devices"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
     "peer access is already enabled"},
    {CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED",
     "peer access has not been enabled"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "too many blocks in cooperative launch"},
};

const ErrorText *findError(CUresult R) {
  for (const ErrorText &E : Errors)
    if (E.Code == R)
      return &E;
  return nullptr;
}

CUresult launch(const char *Call, Function *F, unsigned Grid, unsigned GridY, unsigned GridZ,
                unsigned Block, unsigned BlockY, unsigned BlockZ, Stream *St, void **Params,
                bool Cooperative) {
  KernelHook Hook = nullptr;
  std::string Name;
  {
    MOCK_ENTER(Call);
    MOCK_TRY(needContext());
    if (!S.Functions.count(F))
      return CUDA_ERROR_INVALID_HANDLE;
    if (F->Mod->Ctx != Current)
      return CUDA_ERROR_INVALID_CONTEXT;
    MOCK_TRY(checkStream(S, St));
    if (!Grid || !GridY || !GridZ || !Block || !BlockY || !BlockZ ||
        uint64_t(Block) * BlockY * BlockZ > 1024)
      return CUDA_ERROR_INVALID_VALUE;
    if (Cooperative && uint64_t(Grid) * GridY * GridZ > uint64_t(SmCount) * (2048 / Block))
      return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    ++S.Launches;
    S.LastGrid = Grid;
    S.LastBlock = Block;
    S.LastCooperative = Cooperative;
    Hook = S.Hook;
    Name = F->Name;
  }
  // The "kernel" runs at once, outside the lock, so that it may call back into the mock.
  if (Hook)
    Hook(Name.c_str(), Grid, Block, Params);
  return CUDA_SUCCESS;
}

} // namespace

MOCK_API CUresult cuInit(unsigned Flags) {
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.M);
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  int N = int(std::min<unsigned long long>(envNumber("MOCKCUDA_DEVICES", 2), MaxDevices));
  if (N == 0)
    return CUDA_ERROR_NO_DEVICE;
  S.Devices = N;
  for (int I = 0; I < MaxDevices; ++I)
    S.Ctxs[I].Device = I;
  S.Initialized = true;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDriverGetVersion(int *Version) {
  if (!Version)
    return CUDA_ERROR_INVALID_VALUE;
  *Version = 13000;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGetCount(int *Count) {
  MOCK_ENTER("cuDeviceGetCount");
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  *Count = S.Devices;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGet(CUdevice *Device, int Ordinal) {
  MOCK_ENTER("cuDeviceGet");
  if (!Device)
    return CUDA_ERROR_INVALID_VALUE;
  if (Ordinal < 0 || Ordinal >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = Ordinal;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGetName(char *Name, int Len, CUdevice Device) {
  MOCK_ENTER("cuDeviceGetName");
  if (!Name || Len <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device < 0 || Device >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(Name, size_t(Len), "Mock GPU %d", Device);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceGetAttribute(int *Value, int Attribute, CUdevice Device) {
  MOCK_ENTER("cuDeviceGetAttribute");
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device < 0 || Device >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  switch (Attribute) {
  case 16: // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    *Value = SmCount;
    return CUDA_SUCCESS;
  case 75: // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
    *Value = 8;
    return CUDA_SUCCESS;
  case 76: // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
    *Value = 0;
    return CUDA_SUCCESS;
  case 95: // CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH
    *Value = envFlag("MOCKCUDA_NO_COOP") ? 0 : 1;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

MOCK_API CUresult cuDeviceTotalMem_v2(size_t *Bytes, CUdevice Device) {
  MOCK_ENTER("cuDeviceTotalMem_v2");
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device < 0 || Device >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  *Bytes = size_t(envNumber("MOCKCUDA_MEM_LIMIT", 16ull << 30));
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDevicePrimaryCtxRetain(Context **Ctx, CUdevice Device) {
  MOCK_ENTER("cuDevicePrimaryCtxRetain");
  if (!Ctx)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device < 0 || Device >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  ++S.Ctxs[Device].Refs;
  *Ctx = &S.Ctxs[Device];
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice Device) {
  MOCK_ENTER("cuDevicePrimaryCtxRelease_v2");
  if (Device < 0 || Device >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  Context &C = S.Ctxs[Device];
  if (C.Refs == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  // The last release destroys the context: its peer mappings go. Its objects and memory are left
  // alive on purpose, so that the tests see what a device forgot to free.
  if (--C.Refs == 0)
    std::fill(std::begin(C.Peer), std::end(C.Peer), false);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuCtxSetCurrent(Context *Ctx) {
  MOCK_ENTER("cuCtxSetCurrent");
  if (Ctx && (Ctx < S.Ctxs || Ctx >= S.Ctxs + MaxDevices || Ctx->Refs == 0))
    return CUDA_ERROR_INVALID_CONTEXT;
  Current = Ctx;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Bytes) {
  MOCK_ENTER("cuMemAlloc_v2");
  MOCK_TRY(needContext());
  if (!Ptr || Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Current->LiveBytes + Bytes > envNumber("MOCKCUDA_MEM_LIMIT", 16ull << 30))
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *P = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
  if (!P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  S.Allocs[reinterpret_cast<uintptr_t>(P)] = {Bytes, Current->Device};
  Current->LiveBytes += Bytes;
  ++S.DeviceAllocs;
  *Ptr = reinterpret_cast<uintptr_t>(P);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemAllocManaged(CUdeviceptr *Ptr, size_t Bytes, unsigned Flags) {
  MOCK_ENTER("cuMemAllocManaged");
  MOCK_TRY(needContext());
  constexpr unsigned AttachGlobal = 1, AttachHost = 2;
  if (!Ptr || Bytes == 0 || (Flags != AttachGlobal && Flags != AttachHost))
    return CUDA_ERROR_INVALID_VALUE;
  void *P = std::aligned_alloc(256, (Bytes + 255) / 256 * 256);
  if (!P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  S.Allocs[reinterpret_cast<uintptr_t>(P)] = {Bytes, Current->Device, true};
  Current->LiveBytes += Bytes;
  ++S.ManagedAllocs;
  *Ptr = reinterpret_cast<uintptr_t>(P);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemAdvise(CUdeviceptr Ptr, size_t Bytes, int Advice, CUdevice Device) {
  MOCK_ENTER("cuMemAdvise");
  constexpr int SetReadMostly = 1, UnsetReadMostly = 2;
  int D = deviceOf(S, uintptr_t(Ptr), Bytes);
  if (D < 0 || !S.Allocs.find(allocationStart(S, uintptr_t(Ptr)))->second.Managed ||
      Device < 0 || Device >= S.Devices)
    return CUDA_ERROR_INVALID_VALUE;
  if (Advice == SetReadMostly)
    S.ReadMostly[uintptr_t(Ptr)] = uintptr_t(Ptr) + Bytes;
  else if (Advice == UnsetReadMostly)
    S.ReadMostly.erase(uintptr_t(Ptr));
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemPrefetchAsync(CUdeviceptr Ptr, size_t Bytes, CUdevice Device,
                                     Stream *St) {
  MOCK_ENTER("cuMemPrefetchAsync");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  int D = deviceOf(S, uintptr_t(Ptr), Bytes);
  if (D < 0 || !S.Allocs.find(allocationStart(S, uintptr_t(Ptr)))->second.Managed ||
      Device >= S.Devices)
    return CUDA_ERROR_INVALID_VALUE;
  auto RM = S.ReadMostly.upper_bound(uintptr_t(Ptr));
  bool ReadMostly = RM != S.ReadMostly.begin() && std::prev(RM)->second >= uintptr_t(Ptr) + Bytes;
  S.Prefetches.push_back({uintptr_t(Ptr), Bytes, Device, ReadMostly});
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemFree_v2(CUdeviceptr Ptr) {
  MOCK_ENTER("cuMemFree_v2");
  MOCK_TRY(needContext());
  auto It = S.Allocs.find(uintptr_t(Ptr));
  if (It == S.Allocs.end())
    return CUDA_ERROR_INVALID_VALUE;
  S.Ctxs[It->second.Device].LiveBytes -= It->second.Bytes;
  std::free(reinterpret_cast<void *>(It->first));
  for (auto RM = S.ReadMostly.begin(); RM != S.ReadMostly.end();)
    RM = RM->first >= It->first && RM->first < It->first + It->second.Bytes
             ? S.ReadMostly.erase(RM)
             : std::next(RM);
  S.Allocs.erase(It);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemHostAlloc(void **Ptr, size_t Bytes, unsigned Flags) {
  MOCK_ENTER("cuMemHostAlloc");
  MOCK_TRY(needContext());
  if (!Ptr || Bytes == 0 || Flags > 0xf)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = std::malloc(Bytes);
  if (!P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  S.HostAllocs.insert(P);
  ++S.HostAllocCount;
  *Ptr = P;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemFreeHost(void *Ptr) {
  MOCK_ENTER("cuMemFreeHost");
  MOCK_TRY(needContext());
  if (!S.HostAllocs.erase(Ptr))
    return CUDA_ERROR_INVALID_VALUE;
  std::free(Ptr);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr Dst, const void *Src, size_t Bytes, Stream *St) {
  MOCK_ENTER("cuMemcpyHtoDAsync_v2");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  if (!Src)
    return CUDA_ERROR_INVALID_VALUE;
  MOCK_TRY(checkDevicePtr(S, uintptr_t(Dst), Bytes));
  std::memcpy(reinterpret_cast<void *>(uintptr_t(Dst)), Src, Bytes);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyDtoHAsync_v2(void *Dst, CUdeviceptr Src, size_t Bytes, Stream *St) {
  MOCK_ENTER("cuMemcpyDtoHAsync_v2");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  if (!Dst)
    return CUDA_ERROR_INVALID_VALUE;
  MOCK_TRY(checkDevicePtr(S, uintptr_t(Src), Bytes));
  std::memcpy(Dst, reinterpret_cast<const void *>(uintptr_t(Src)), Bytes);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes, Stream *St) {
  MOCK_ENTER("cuMemcpyDtoDAsync_v2");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  MOCK_TRY(checkDevicePtr(S, uintptr_t(Dst), Bytes));
  MOCK_TRY(checkDevicePtr(S, uintptr_t(Src), Bytes));
  std::memmove(reinterpret_cast<void *>(uintptr_t(Dst)),
               reinterpret_cast<const void *>(uintptr_t(Src)), Bytes);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyPeerAsync(CUdeviceptr Dst, Context *DstCtx, CUdeviceptr Src,
                                    Context *SrcCtx, size_t Bytes, Stream *St) {
  MOCK_ENTER("cuMemcpyPeerAsync");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  if (!DstCtx || !SrcCtx || deviceOf(S, uintptr_t(Dst), Bytes) != DstCtx->Device ||
      deviceOf(S, uintptr_t(Src), Bytes) != SrcCtx->Device)
    return CUDA_ERROR_INVALID_VALUE;
  ++S.PeerCopies;
  std::memcpy(reinterpret_cast<void *>(uintptr_t(Dst)),
              reinterpret_cast<const void *>(uintptr_t(Src)), Bytes);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpy2DAsync_v2(const Memcpy2D *C, Stream *St) {
  MOCK_ENTER("cuMemcpy2DAsync_v2");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  if (!C || C->srcXInBytes || C->srcY || C->dstXInBytes || C->dstY || C->srcArray || C->dstArray ||
      (C->Height > 1 && (C->srcPitch < C->WidthInBytes || C->dstPitch < C->WidthInBytes)))
    return CUDA_ERROR_INVALID_VALUE;
  if (C->WidthInBytes == 0 || C->Height == 0)
    return CUDA_SUCCESS;
  auto Span = [&](size_t Pitch) { return (C->Height - 1) * Pitch + C->WidthInBytes; };
  const char *Src = nullptr;
  char *Dst = nullptr;
  if (C->srcMemoryType == MemHost) {
    Src = static_cast<const char *>(C->srcHost);
  } else if (C->srcMemoryType == MemDevice || C->srcMemoryType == MemUnified) {
    MOCK_TRY(checkDevicePtr(S, uintptr_t(C->srcDevice), Span(C->srcPitch)));
    Src = reinterpret_cast<const char *>(uintptr_t(C->srcDevice));
  }
  if (C->dstMemoryType == MemHost) {
    Dst = static_cast<char *>(C->dstHost);
  } else if (C->dstMemoryType == MemDevice || C->dstMemoryType == MemUnified) {
    MOCK_TRY(checkDevicePtr(S, uintptr_t(C->dstDevice), Span(C->dstPitch)));
    Dst = reinterpret_cast<char *>(uintptr_t(C->dstDevice));
  }
  if (!Src || !Dst)
    return CUDA_ERROR_INVALID_VALUE;
  ++S.Copies2D;
  for (size_t R = 0; R < C->Height; ++R)
    std::memcpy(Dst + R * C->dstPitch, Src + R * C->srcPitch, C->WidthInBytes);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuDeviceCanAccessPeer(int *Can, CUdevice Device, CUdevice Peer) {
  MOCK_ENTER("cuDeviceCanAccessPeer");
  if (!Can)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device < 0 || Device >= S.Devices || Peer < 0 || Peer >= S.Devices)
    return CUDA_ERROR_INVALID_DEVICE;
  *Can = Device != Peer && !envFlag("MOCKCUDA_NO_PEER");
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuCtxEnablePeerAccess(Context *Peer, unsigned Flags) {
  MOCK_ENTER("cuCtxEnablePeerAccess");
  MOCK_TRY(needContext());
  if (Flags != 0 || !Peer || Peer < S.Ctxs || Peer >= S.Ctxs + MaxDevices || Peer->Refs == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Peer == Current)
    return CUDA_ERROR_INVALID_DEVICE;
  if (envFlag("MOCKCUDA_NO_PEER"))
    return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
  if (Current->Peer[Peer->Device])
    return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  Current->Peer[Peer->Device] = true;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuStreamCreate(Stream **St, unsigned Flags) {
  MOCK_ENTER("cuStreamCreate");
  MOCK_TRY(needContext());
  if (!St || Flags > 1)
    return CUDA_ERROR_INVALID_VALUE;
  *St = new Stream{Current};
  S.Streams.insert(*St);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuStreamSynchronize(Stream *St) {
  uint64_t Ready = 0;
  {
    MOCK_ENTER("cuStreamSynchronize");
    MOCK_TRY(needContext());
    MOCK_TRY(checkStream(S, St));
    Ready = St ? St->ReadyNs : 0;
  }
  sleepUntil(Ready);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuStreamDestroy_v2(Stream *St) {
  MOCK_ENTER("cuStreamDestroy_v2");
  MOCK_TRY(needContext());
  if (!St || !S.Streams.erase(St))
    return CUDA_ERROR_INVALID_HANDLE;
  delete St;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuEventCreate(Event **Ev, unsigned Flags) {
  MOCK_ENTER("cuEventCreate");
  MOCK_TRY(needContext());
  if (!Ev || Flags > 0xf)
    return CUDA_ERROR_INVALID_VALUE;
  *Ev = new Event{Current};
  S.Events.insert(*Ev);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuEventRecord(Event *Ev, Stream *St) {
  MOCK_ENTER("cuEventRecord");
  MOCK_TRY(needContext());
  MOCK_TRY(checkStream(S, St));
  if (!S.Events.count(Ev))
    return CUDA_ERROR_INVALID_HANDLE;
  if (Ev->Ctx != Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  // Work on a stream completes in order: never before what was recorded earlier.
  uint64_t Ready = nowNs() + envNumber("MOCKCUDA_EVENT_DELAY_US", 0) * 1000;
  if (St)
    Ready = St->ReadyNs = std::max(Ready, St->ReadyNs);
  Ev->Recorded = true;
  Ev->ReadyNs = Ready;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuEventQuery(Event *Ev) {
  MOCK_ENTER("cuEventQuery");
  MOCK_TRY(needContext());
  if (!S.Events.count(Ev))
    return CUDA_ERROR_INVALID_HANDLE;
  if (Ev->Ctx != Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  ++S.EventQueries;
  if (S.HoldEvents)
    return CUDA_ERROR_NOT_READY;
  return !Ev->Recorded || nowNs() >= Ev->ReadyNs ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

MOCK_API CUresult cuEventSynchronize(Event *Ev) {
  uint64_t Ready = 0;
  {
    MOCK_ENTER("cuEventSynchronize");
    MOCK_TRY(needContext());
    if (!S.Events.count(Ev))
      return CUDA_ERROR_INVALID_HANDLE;
    Ready = Ev->Recorded ? Ev->ReadyNs : 0;
  }
  sleepUntil(Ready);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuEventDestroy_v2(Event *Ev) {
  MOCK_ENTER("cuEventDestroy_v2");
  MOCK_TRY(needContext());
  if (!Ev || !S.Events.erase(Ev))
    return CUDA_ERROR_INVALID_HANDLE;
  delete Ev;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleLoadData(Module **Mod, const void *Image) {
  MOCK_ENTER("cuModuleLoadData");
  MOCK_TRY(needContext());
  if (!Mod || !Image)
    return CUDA_ERROR_INVALID_VALUE;
  // Any non-empty image loads. PTX is NUL-terminated text; a CUBIN is an ELF64 file whose size
  // the header gives (its section header table ends it), as the real driver finds it.
  const char *Text = static_cast<const char *>(Image);
  if (!*Text)
    return CUDA_ERROR_INVALID_IMAGE;
  std::string Bytes = Text;
  if (std::memcmp(Text,
                  "\x7f"
                  "ELF",
                  4) == 0) {
    uint64_t ShOff, PhOff;
    uint16_t ShEntSize, ShNum, PhEntSize, PhNum;
    std::memcpy(&PhOff, Text + 0x20, 8);
    std::memcpy(&ShOff, Text + 0x28, 8);
    std::memcpy(&PhEntSize, Text + 0x36, 2);
    std::memcpy(&PhNum, Text + 0x38, 2);
    std::memcpy(&ShEntSize, Text + 0x3a, 2);
    std::memcpy(&ShNum, Text + 0x3c, 2);
    uint64_t End = std::max<uint64_t>(ShOff + uint64_t(ShEntSize) * ShNum,
                                      PhOff + uint64_t(PhEntSize) * PhNum);
    if (End < 64 || End > (1ull << 30))
      return CUDA_ERROR_INVALID_IMAGE;
    Bytes.assign(Text, End);
  }
  *Mod = new Module{Current, Bytes};
  S.Modules.insert(*Mod);
  ++S.ModuleLoads;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleGetFunction(Function **F, Module *Mod, const char *Name) {
  MOCK_ENTER("cuModuleGetFunction");
  MOCK_TRY(needContext());
  if (!F || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  if (!S.Modules.count(Mod))
    return CUDA_ERROR_INVALID_HANDLE;
  // A function exists if the image names it (as PTX's ".entry name" does).
  if (Mod->Image.find(Name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  *F = new Function{Mod, Name};
  S.Functions.insert(*F);
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuModuleUnload(Module *Mod) {
  MOCK_ENTER("cuModuleUnload");
  MOCK_TRY(needContext());
  if (!S.Modules.erase(Mod))
    return CUDA_ERROR_INVALID_HANDLE;
  for (auto It = S.Functions.begin(); It != S.Functions.end();) {
    if ((*It)->Mod == Mod) {
      delete *It;
      It = S.Functions.erase(It);
    } else {
      ++It;
    }
  }
  delete Mod;
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuLaunchKernel(Function *F, unsigned GridX, unsigned GridY, unsigned GridZ,
                                 unsigned BlockX, unsigned BlockY, unsigned BlockZ,
                                 unsigned /*SharedBytes*/, Stream *St, void **Params,
                                 void ** /*Extra*/) {
  return launch("cuLaunchKernel", F, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, St, Params,
                false);
}

MOCK_API CUresult cuLaunchCooperativeKernel(Function *F, unsigned GridX, unsigned GridY,
                                            unsigned GridZ, unsigned BlockX, unsigned BlockY,
                                            unsigned BlockZ, unsigned /*SharedBytes*/, Stream *St,
                                            void **Params) {
  return launch("cuLaunchCooperativeKernel", F, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, St,
                Params, true);
}

MOCK_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks, Function *F,
                                                              int BlockSize, size_t) {
  MOCK_ENTER("cuOccupancyMaxActiveBlocksPerMultiprocessor");
  MOCK_TRY(needContext());
  if (!Blocks || BlockSize <= 0 || BlockSize > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  if (!S.Functions.count(F))
    return CUDA_ERROR_INVALID_HANDLE;
  *Blocks = 2048 / BlockSize; // 2048 threads per SM, as on compute capability 8.0
  return CUDA_SUCCESS;
}

MOCK_API CUresult cuGetErrorName(CUresult Error, const char **Name) {
  const ErrorText *E = findError(Error);
  if (!Name)
    return CUDA_ERROR_INVALID_VALUE;
  *Name = E ? E->Name : nullptr;
  return E ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

MOCK_API CUresult cuGetErrorString(CUresult Error, const char **Text) {
  const ErrorText *E = findError(Error);
  if (!Text)
    return CUDA_ERROR_INVALID_VALUE;
  *Text = E ? E->Text : nullptr;
  return E ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// Introspection for the tests (found with dlsym on the loaded mock).

MOCK_API int mockcuda_launch_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().Launches;
}

MOCK_API void mockcuda_last_launch(unsigned *Grid, unsigned *Block, int *Cooperative) {
  std::lock_guard<std::mutex> Lock(state().M);
  *Grid = state().LastGrid;
  *Block = state().LastBlock;
  *Cooperative = state().LastCooperative;
}

MOCK_API int mockcuda_module_load_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().ModuleLoads;
}

MOCK_API int mockcuda_loaded_module_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return int(state().Modules.size());
}

MOCK_API int mockcuda_peer_copy_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().PeerCopies;
}

MOCK_API int mockcuda_copy2d_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().Copies2D;
}

/// cuMemAlloc calls that succeeded, every GPU.
MOCK_API int mockcuda_managed_alloc_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().ManagedAllocs;
}

/// Prefetches so far; the I-th one's range, target device and read-mostly advice (I < count).
MOCK_API int mockcuda_prefetch_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return int(state().Prefetches.size());
}
MOCK_API void mockcuda_prefetch(int I, unsigned long long *Ptr, size_t *Bytes, int *Device,
                                int *ReadMostly) {
  std::lock_guard<std::mutex> Lock(state().M);
  const Prefetch &P = state().Prefetches.at(size_t(I));
  *Ptr = P.Ptr;
  *Bytes = P.Bytes;
  *Device = P.Device;
  *ReadMostly = P.ReadMostly;
}

MOCK_API int mockcuda_device_alloc_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().DeviceAllocs;
}

MOCK_API int mockcuda_host_alloc_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().HostAllocCount;
}

MOCK_API int mockcuda_event_query_count() {
  std::lock_guard<std::mutex> Lock(state().M);
  return state().EventQueries;
}

/// Bytes of device memory allocated on a fake GPU and not freed.
MOCK_API long long mockcuda_live_bytes(int Device) {
  std::lock_guard<std::mutex> Lock(state().M);
  return Device >= 0 && Device < MaxDevices ? (long long)state().Ctxs[Device].LiveBytes : -1;
}

/// Streams, events, modules and pinned buffers alive (all of them, every context).
MOCK_API int mockcuda_live_objects() {
  std::lock_guard<std::mutex> Lock(state().M);
  State &S = state();
  return int(S.Streams.size() + S.Events.size() + S.Modules.size() + S.HostAllocs.size());
}

/// References held on a fake GPU's primary context.
MOCK_API int mockcuda_context_refs(int Device) {
  std::lock_guard<std::mutex> Lock(state().M);
  return Device >= 0 && Device < MaxDevices ? state().Ctxs[Device].Refs : -1;
}

/// The next call of the driver function named Call (its exported name) returns Result.
MOCK_API void mockcuda_fail_next(const char *Call, int Result) {
  std::lock_guard<std::mutex> Lock(state().M);
  state().Inject[Call] = Result;
}

/// Called by every successful launch, at once, on the launching thread.
MOCK_API void mockcuda_set_kernel_hook(KernelHook Hook) {
  std::lock_guard<std::mutex> Lock(state().M);
  state().Hook = Hook;
}

/// While Hold is set, cuEventQuery reports every event as not ready (launches stay pending).
MOCK_API void mockcuda_hold_events(int Hold) {
  std::lock_guard<std::mutex> Lock(state().M);
  state().HoldEvents = Hold != 0;
}
