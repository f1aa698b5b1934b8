// Tests of the CUDA device against the mock driver (tests/src/cuda/mockcuda): creation and description,
// memory and copies (peer access, staging through pinned memory, host devices, 2-D), the module
// cache, launches completed in order by the event poller, and the error paths.
#include "src/cuda/CudaDevice.h"
#include "src/cuda/CudaLaunch.h"
#include "src/host/HostLaunch.h"

#include "src/cuda/DynamicCuda.h"
#include "src/host/HostDevice.h"
#include "support/Stats.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

using namespace jacc;
using namespace std::chrono_literals;

namespace {

constexpr const char *MockPath = JACC_MOCKCUDA_PATH;

/// The mock's introspection and fault injection entry points.
struct Mock {
  int (*launchCount)();
  void (*lastLaunch)(unsigned *Grid, unsigned *Block, int *Cooperative);
  int (*moduleLoadCount)();
  int (*peerCopyCount)();
  int (*copy2DCount)();
  int (*hostAllocCount)();
  int (*eventQueryCount)();
  long long (*liveBytes)(int Device);
  int (*liveObjects)();
  int (*contextRefs)(int Device);
  void (*failNext)(const char *Call, int Result);
  void (*setKernelHook)(void (*)(const char *, unsigned, unsigned, void **));
  void (*holdEvents)(int Hold);
};

template <typename FnT> void bind(void *Handle, const char *Name, FnT &Fn) {
  Fn = reinterpret_cast<FnT>(dlsym(Handle, Name));
  ASSERT_NE(Fn, nullptr) << Name;
}

class CudaDeviceTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto D = loadCudaDriver(MockPath);
    ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
    Driver = D->release();                // kept for the process, as the driver shim keeps its own
    void *H = dlopen(MockPath, RTLD_NOW); // the same library, already loaded
    ASSERT_NE(H, nullptr) << dlerror();
    bind(H, "mockcuda_launch_count", M.launchCount);
    bind(H, "mockcuda_last_launch", M.lastLaunch);
    bind(H, "mockcuda_module_load_count", M.moduleLoadCount);
    bind(H, "mockcuda_peer_copy_count", M.peerCopyCount);
    bind(H, "mockcuda_copy2d_count", M.copy2DCount);
    bind(H, "mockcuda_host_alloc_count", M.hostAllocCount);
    bind(H, "mockcuda_event_query_count", M.eventQueryCount);
    bind(H, "mockcuda_live_bytes", M.liveBytes);
    bind(H, "mockcuda_live_objects", M.liveObjects);
    bind(H, "mockcuda_context_refs", M.contextRefs);
    bind(H, "mockcuda_fail_next", M.failNext);
    bind(H, "mockcuda_set_kernel_hook", M.setKernelHook);
    bind(H, "mockcuda_hold_events", M.holdEvents);
  }

  void SetUp() override {
    ASSERT_NE(Driver, nullptr);
    ObjectsBefore = M.liveObjects();
  }
  void TearDown() override {
    M.setKernelHook(nullptr);
    M.holdEvents(0);
    // Every device of the test is gone: it freed its streams, events, modules and buffers, and
    // released its context.
    EXPECT_EQ(M.liveObjects(), ObjectsBefore);
    EXPECT_EQ(M.contextRefs(0), 0);
    EXPECT_EQ(M.contextRefs(1), 0);
  }

  static std::unique_ptr<CudaDevice> make(unsigned Index, int Ordinal) {
    auto D = CudaDevice::create(Index, Ordinal, *Driver);
    if (!D) {
      ADD_FAILURE() << llvm::toString(D.takeError());
      return nullptr;
    }
    return std::move(*D);
  }

  static void *allocate(Device &D, size_t Bytes) {
    auto P = D.allocate(Bytes);
    if (!P) {
      ADD_FAILURE() << llvm::toString(P.takeError());
      return nullptr;
    }
    return *P;
  }

  static const CudaDriver *Driver;
  static Mock M;
  int ObjectsBefore = 0;
};

const CudaDriver *CudaDeviceTest::Driver = nullptr;
Mock CudaDeviceTest::M;

/// Error code and message of E, which must be a failure.
ErrorCode codeOf(llvm::Error E, std::string &Message) {
  EXPECT_TRUE(static_cast<bool>(E));
  return takeError(std::move(E), Message);
}

std::vector<uint8_t> pattern(size_t Bytes, uint8_t Seed) {
  std::vector<uint8_t> V(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    V[I] = uint8_t(Seed + I * 7 + (I >> 11));
  return V;
}

/// A launch built from a lambda that enqueues its work; records when and where it finished.
/// (Being CUDA work only, no device can run it as host work.)
class TestLaunch : public DeviceLaunch, public CudaLaunch {
public:
  using EnqueueFn = std::function<llvm::Error(CudaDevice &)>;
  explicit TestLaunch(EnqueueFn Enqueue, std::function<void()> Finished = nullptr)
      : Enqueue(std::move(Enqueue)), OnFinished(std::move(Finished)) {}
  llvm::Error enqueue(CudaDevice &D) override {
    return Enqueue ? Enqueue(D) : llvm::Error::success();
  }
  void finished() override {
    FinishedThread = std::this_thread::get_id();
    if (OnFinished)
      OnFinished();
    FinishedCalls.fetch_add(1);
  }

  EnqueueFn Enqueue;
  std::function<void()> OnFinished;
  std::atomic<unsigned> FinishedCalls{0};
  std::thread::id FinishedThread;
};

/// PTX-like text naming two entries, which is all the mock checks of an image.
const char *const Image = ".visible .entry __jacc_kernel() {}\n.visible .entry __jacc_split() {}\n";

TEST_F(CudaDeviceTest, CreateDescribesTheGpu) {
  auto D = make(3, 1);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->properties().Type, acc_device_nvidia);
  EXPECT_EQ(D->index(), 3u);
  EXPECT_EQ(D->name(), "cuda:1");
  EXPECT_EQ(D->ordinal(), 1);
  EXPECT_EQ(D->smVersion(), 80u);
  EXPECT_EQ(D->computeUnits(), 4u);
  EXPECT_TRUE(D->cooperativeLaunch());
  EXPECT_EQ(D->model(), "Mock GPU 1");
  EXPECT_EQ(D->totalMemory(), size_t(16) << 30);
  EXPECT_EQ(D->lastTicket(), 0u);
  // The primary context is retained while the device lives (TearDown checks the release).
  EXPECT_EQ(M.contextRefs(1), 1);
  EXPECT_EQ(M.contextRefs(0), 0);
}

TEST_F(CudaDeviceTest, CreateRejectsGpusThatDoNotExist) {
  for (int Ordinal : {2, 7, -1}) {
    auto D = CudaDevice::create(0, Ordinal, *Driver);
    ASSERT_FALSE(static_cast<bool>(D));
    std::string Msg;
    EXPECT_EQ(takeError(D.takeError(), Msg), ErrorCode::InvalidArgument);
    EXPECT_EQ(Msg, "cuda:" + std::to_string(Ordinal) +
                       " does not exist: the CUDA driver found 2 GPU(s) (cuda:0 to cuda:1)");
  }
}

TEST_F(CudaDeviceTest, CreateThroughTheProcessDriver) {
  ScopedEnv Env("JACC_LIBCUDA", MockPath);
  auto D = CudaDevice::create(0, 0);
  ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
  EXPECT_EQ((*D)->name(), "cuda:0");
}

TEST_F(CudaDeviceTest, CreateWithoutDriverFails) {
  ScopedEnv Env("JACC_LIBCUDA", "/nonexistent/libcuda.so.1");
  auto D = CudaDevice::create(0, 0);
  ASSERT_FALSE(static_cast<bool>(D));
  std::string Msg;
  EXPECT_EQ(takeError(D.takeError(), Msg), ErrorCode::Device);
  EXPECT_NE(Msg.find("/nonexistent/libcuda.so.1"), std::string::npos) << Msg;
}

TEST_F(CudaDeviceTest, AllocateAndCopyRoundTrip) {
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  const size_t Bytes = 60000; // under MemoryPool::MinBytes: its release frees it at once
  void *P = allocate(*D, Bytes);
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(M.liveBytes(0), static_cast<long long>(Bytes));
  std::vector<uint8_t> In = pattern(Bytes, 3), Out(Bytes, 0);
  uint64_t H2D = stats().BytesHostToDevice.load(), D2H = stats().BytesDeviceToHost.load();
  ASSERT_FALSE(static_cast<bool>(D->copyToDevice(P, In.data(), Bytes)));
  ASSERT_FALSE(static_cast<bool>(D->copyToHost(Out.data(), P, Bytes)));
  EXPECT_EQ(In, Out);
  EXPECT_EQ(stats().BytesHostToDevice.load() - H2D, Bytes);
  EXPECT_EQ(stats().BytesDeviceToHost.load() - D2H, Bytes);
  // Zero bytes still allocate (a unique address); release frees both.
  void *Q = allocate(*D, 0);
  ASSERT_NE(Q, nullptr);
  EXPECT_NE(Q, P);
  ASSERT_FALSE(static_cast<bool>(D->release(P)));
  ASSERT_FALSE(static_cast<bool>(D->release(Q)));
  EXPECT_EQ(M.liveBytes(0), 0);
}

TEST_F(CudaDeviceTest, OutOfMemoryNamesTheDeviceAndTheSize) {
  ScopedEnv Limit("MOCKCUDA_MEM_LIMIT", "1048576");
  auto D = make(0, 1);
  ASSERT_TRUE(D);
  auto P = D->allocate(2 << 20);
  ASSERT_FALSE(static_cast<bool>(P));
  std::string Msg;
  EXPECT_EQ(takeError(P.takeError(), Msg), ErrorCode::OutOfMemory);
  EXPECT_EQ(Msg, "cuda:1: out of memory allocating 2097152 bytes (the GPU has 1048576 bytes in "
                 "all); map less data at a time or use more devices");
  // Other failures of cuMemAlloc are device errors naming the call.
  M.failNext("cuMemAlloc_v2", 1);
  auto Q = D->allocate(64);
  ASSERT_FALSE(static_cast<bool>(Q));
  EXPECT_EQ(takeError(Q.takeError(), Msg), ErrorCode::Device);
  EXPECT_EQ(Msg, "cuda:1: cuMemAlloc of 64 bytes failed with CUDA_ERROR_INVALID_VALUE (invalid "
                 "argument)");
}

TEST_F(CudaDeviceTest, PeerCopyWithPeerAccess) {
  auto A = make(0, 0), B = make(1, 1);
  ASSERT_TRUE(A && B);
  const size_t Bytes = 50000;
  void *PA = allocate(*A, Bytes), *PB = allocate(*B, Bytes);
  std::vector<uint8_t> In = pattern(Bytes, 11), Out(Bytes, 0);
  ASSERT_FALSE(static_cast<bool>(A->copyToDevice(PA, In.data(), Bytes)));
  int Peer = M.peerCopyCount(), Pinned = M.hostAllocCount();
  uint64_t D2D = stats().BytesDeviceToDevice.load();
  ASSERT_FALSE(static_cast<bool>(A->copyToPeer(*B, PB, PA, Bytes)));
  ASSERT_FALSE(static_cast<bool>(A->copyToPeer(*B, PB, PA, Bytes))); // access enabled once
  EXPECT_EQ(M.peerCopyCount() - Peer, 2);
  EXPECT_EQ(M.hostAllocCount(), Pinned);
  EXPECT_EQ(stats().BytesDeviceToDevice.load() - D2D, 2 * Bytes);
  ASSERT_FALSE(static_cast<bool>(B->copyToHost(Out.data(), PB, Bytes)));
  EXPECT_EQ(In, Out);
  // And back the other way.
  std::vector<uint8_t> In2 = pattern(Bytes, 99);
  ASSERT_FALSE(static_cast<bool>(B->copyToDevice(PB, In2.data(), Bytes)));
  ASSERT_FALSE(static_cast<bool>(B->copyToPeer(*A, PA, PB, Bytes)));
  ASSERT_FALSE(static_cast<bool>(A->copyToHost(Out.data(), PA, Bytes)));
  EXPECT_EQ(In2, Out);
  ASSERT_FALSE(static_cast<bool>(A->release(PA)));
  ASSERT_FALSE(static_cast<bool>(B->release(PB)));
}

/// Copy rows [1, Height - 1) of a Height x Pitch matrix from Src to Dst with copyToPeer2D, and
/// check that exactly those Width-byte rows arrived.
void checkPeer2D(Device &Src, Device &Dst, void *PS, void *PD, size_t Width, size_t Height,
                 size_t Pitch) {
  size_t Bytes = Height * Pitch;
  std::vector<uint8_t> In = pattern(Bytes, 5), Before = pattern(Bytes, 200), Out(Bytes, 0);
  ASSERT_FALSE(static_cast<bool>(Src.copyToDevice(PS, In.data(), Bytes)));
  ASSERT_FALSE(static_cast<bool>(Dst.copyToDevice(PD, Before.data(), Bytes)));
  uint64_t D2D = stats().BytesDeviceToDevice.load();
  ASSERT_FALSE(static_cast<bool>(Src.copyToPeer2D(Dst, static_cast<char *>(PD) + Pitch,
                                                  static_cast<char *>(PS) + Pitch, Width,
                                                  Height - 2, Pitch)));
  EXPECT_EQ(stats().BytesDeviceToDevice.load() - D2D, Width * (Height - 2));
  ASSERT_FALSE(static_cast<bool>(Dst.copyToHost(Out.data(), PD, Bytes)));
  for (size_t R = 0; R < Height; ++R)
    for (size_t C = 0; C < Pitch; ++C) {
      bool Copied = R > 0 && R + 1 < Height && C < Width;
      size_t I = R * Pitch + C;
      ASSERT_EQ(Out[I], Copied ? In[I] : Before[I]) << "row " << R << " byte " << C;
    }
}

TEST_F(CudaDeviceTest, PeerCopy2DWithPeerAccessIsOneCopy) {
  auto A = make(0, 0), B = make(1, 1);
  ASSERT_TRUE(A && B);
  const size_t Width = 96, Height = 40, Pitch = 256;
  void *PA = allocate(*A, Height * Pitch), *PB = allocate(*B, Height * Pitch);
  int Copies = M.copy2DCount();
  checkPeer2D(*A, *B, PA, PB, Width, Height, Pitch);
  EXPECT_EQ(M.copy2DCount() - Copies, 1);
  ASSERT_FALSE(static_cast<bool>(A->release(PA)));
  ASSERT_FALSE(static_cast<bool>(B->release(PB)));
}

TEST_F(CudaDeviceTest, PeerCopyWithoutPeerAccessIsStaged) {
  ScopedEnv NoPeer("MOCKCUDA_NO_PEER", "1");
  auto A = make(0, 0), B = make(1, 1);
  ASSERT_TRUE(A && B);
  // Larger than two staging chunks, and not a multiple of one: the double buffering wraps.
  const size_t Bytes = (size_t(10) << 20) + 12345;
  // Room for the 2-D copies below too.
  void *PA = allocate(*A, size_t(20) << 20), *PB = allocate(*B, size_t(20) << 20);
  std::vector<uint8_t> In = pattern(Bytes, 17), Out(Bytes, 0);
  ASSERT_FALSE(static_cast<bool>(A->copyToDevice(PA, In.data(), Bytes)));
  int Peer = M.peerCopyCount(), Pinned = M.hostAllocCount();
  ASSERT_FALSE(static_cast<bool>(A->copyToPeer(*B, PB, PA, Bytes)));
  EXPECT_EQ(M.peerCopyCount(), Peer);
  EXPECT_EQ(M.hostAllocCount() - Pinned, 2); // the two staging buffers, kept for the next copy
  ASSERT_FALSE(static_cast<bool>(B->copyToHost(Out.data(), PB, Bytes)));
  EXPECT_EQ(In, Out);
  ASSERT_FALSE(static_cast<bool>(A->copyToPeer(*B, PB, PA, 1000)));
  EXPECT_EQ(M.hostAllocCount() - Pinned, 2);

  // Strided, rows packed into the staging buffers ...
  checkPeer2D(*A, *B, PA, PB, 1000, 5000, 2048);
  // ... and rows longer than a staging buffer, cut into pieces.
  checkPeer2D(*A, *B, PA, PB, (size_t(9) << 19) + 3, 4, size_t(5) << 20);
  EXPECT_EQ(M.peerCopyCount(), Peer);
  ASSERT_FALSE(static_cast<bool>(A->release(PA)));
  ASSERT_FALSE(static_cast<bool>(B->release(PB)));
}

TEST_F(CudaDeviceTest, CopyToItself) {
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  const size_t Width = 64, Height = 10, Pitch = 100;
  void *P = allocate(*D, Height * Pitch), *Q = allocate(*D, Height * Pitch);
  checkPeer2D(*D, *D, P, Q, Width, Height, Pitch);
  std::vector<uint8_t> In = pattern(Height * Pitch, 1), Out(Height * Pitch, 0);
  ASSERT_FALSE(static_cast<bool>(D->copyToDevice(P, In.data(), In.size())));
  ASSERT_FALSE(static_cast<bool>(D->copyToPeer(*D, Q, P, In.size())));
  ASSERT_FALSE(static_cast<bool>(D->copyToHost(Out.data(), Q, Out.size())));
  EXPECT_EQ(In, Out);
  ASSERT_FALSE(static_cast<bool>(D->release(P)));
  ASSERT_FALSE(static_cast<bool>(D->release(Q)));
}

TEST_F(CudaDeviceTest, CopiesWithHostDevices) {
  auto G = make(0, 1);
  auto H = HostDevice::create(1, 1, 0us);
  ASSERT_TRUE(G);
  ASSERT_TRUE(static_cast<bool>(H)) << llvm::toString(H.takeError());
  Device &Host = **H;
  const size_t Bytes = 30000;
  void *PG = allocate(*G, Bytes), *PH = allocate(Host, Bytes);
  std::vector<uint8_t> In = pattern(Bytes, 42), Out(Bytes, 0);

  // GPU -> host device: straight into the host device's memory, counted once, as a peer copy.
  ASSERT_FALSE(static_cast<bool>(G->copyToDevice(PG, In.data(), Bytes)));
  uint64_t H2D = stats().BytesHostToDevice.load(), D2H = stats().BytesDeviceToHost.load(),
           D2D = stats().BytesDeviceToDevice.load();
  ASSERT_FALSE(static_cast<bool>(G->copyToPeer(Host, PH, PG, Bytes)));
  EXPECT_EQ(std::memcmp(PH, In.data(), Bytes), 0);
  // Host device -> GPU.
  std::vector<uint8_t> In2 = pattern(Bytes, 77);
  std::memcpy(PH, In2.data(), Bytes);
  ASSERT_FALSE(static_cast<bool>(Host.copyToPeer(*G, PG, PH, Bytes)));
  EXPECT_EQ(stats().BytesDeviceToDevice.load() - D2D, 2 * Bytes);
  EXPECT_EQ(stats().BytesHostToDevice.load(), H2D);
  EXPECT_EQ(stats().BytesDeviceToHost.load(), D2H);
  ASSERT_FALSE(static_cast<bool>(G->copyToHost(Out.data(), PG, Bytes)));
  EXPECT_EQ(In2, Out);

  // Strided, both ways, one 2-D copy each.
  int Copies = M.copy2DCount();
  checkPeer2D(*G, Host, PG, PH, 100, 30, 1000);
  checkPeer2D(Host, *G, PH, PG, 100, 30, 1000);
  EXPECT_EQ(M.copy2DCount() - Copies, 2);
  ASSERT_FALSE(static_cast<bool>(G->release(PG)));
  ASSERT_FALSE(static_cast<bool>(Host.release(PH)));
}

TEST_F(CudaDeviceTest, CopiesFromAnyThread) {
  // The mock refuses device memory used without its GPU's context current, so this checks that
  // every entry point makes its context current on the calling thread.
  auto A = make(0, 0), B = make(1, 1);
  ASSERT_TRUE(A && B);
  const size_t Bytes = 4096;
  std::vector<std::thread> Threads;
  std::atomic<int> Failures{0};
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] {
      CudaDevice &D = T % 2 ? *B : *A, &Other = T % 2 ? *A : *B;
      for (int I = 0; I < 20; ++I) {
        auto P = D.allocate(Bytes);
        auto Q = Other.allocate(Bytes);
        if (!P || !Q) {
          llvm::consumeError(P.takeError());
          llvm::consumeError(Q.takeError());
          ++Failures;
          return;
        }
        std::vector<uint8_t> In = pattern(Bytes, uint8_t(T * 31 + I)), Out(Bytes);
        if (D.copyToDevice(*P, In.data(), Bytes) || D.copyToPeer(Other, *Q, *P, Bytes) ||
            Other.copyToHost(Out.data(), *Q, Bytes) || In != Out || D.release(*P) ||
            Other.release(*Q))
          ++Failures;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failures.load(), 0);
}

TEST_F(CudaDeviceTest, LoadFunctionOncePerKey) {
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  int Loads = M.moduleLoadCount();
  auto F1 = D->loadFunction("kernel-a", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F1)) << llvm::toString(F1.takeError());
  auto F2 = D->loadFunction("kernel-a", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F2)) << llvm::toString(F2.takeError());
  EXPECT_EQ(*F1, *F2);
  EXPECT_EQ(M.moduleLoadCount() - Loads, 1);
  // Another entry of the same image shares the module.
  auto S = D->loadFunction("kernel-a", Image, "__jacc_split");
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_NE(*S, *F1);
  EXPECT_EQ(M.moduleLoadCount() - Loads, 1);
  // Another key is another module, even with the same text.
  auto F3 = D->loadFunction("kernel-b", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F3)) << llvm::toString(F3.takeError());
  EXPECT_NE(*F3, *F1);
  EXPECT_EQ(M.moduleLoadCount() - Loads, 2);
  // The image need not be NUL-terminated.
  std::string Padded = std::string(Image) + "trailing";
  auto F4 = D->loadFunction("kernel-c", llvm::StringRef(Padded.data(), std::strlen(Image)),
                            "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F4)) << llvm::toString(F4.takeError());

  // Many threads, one new key: one load.
  Loads = M.moduleLoadCount();
  std::vector<std::thread> Threads;
  std::vector<void *> Got(8, nullptr);
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] {
      auto F = D->loadFunction("kernel-d", Image, "__jacc_kernel");
      if (F)
        Got[T] = *F;
      else
        llvm::consumeError(F.takeError());
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(M.moduleLoadCount() - Loads, 1);
  for (void *F : Got)
    EXPECT_EQ(F, Got[0]);
  EXPECT_NE(Got[0], nullptr);

  auto Occupancy = D->maxActiveBlocksPerSM(*F1, 256);
  ASSERT_TRUE(static_cast<bool>(Occupancy)) << llvm::toString(Occupancy.takeError());
  EXPECT_EQ(*Occupancy, 8u);
}

TEST_F(CudaDeviceTest, LoadFunctionErrors) {
  auto D = make(0, 1);
  ASSERT_TRUE(D);
  std::string Msg;
  auto Missing = D->loadFunction("kernel-e", Image, "__jacc_other");
  ASSERT_FALSE(static_cast<bool>(Missing));
  EXPECT_EQ(takeError(Missing.takeError(), Msg), ErrorCode::Device);
  EXPECT_EQ(Msg, "cuda:1: cuModuleGetFunction (__jacc_other) failed with CUDA_ERROR_NOT_FOUND "
                 "(named symbol not found)");
  auto Empty = D->loadFunction("kernel-f", "", "__jacc_kernel");
  ASSERT_FALSE(static_cast<bool>(Empty));
  EXPECT_EQ(takeError(Empty.takeError(), Msg), ErrorCode::InvalidArgument);
  // A failed load is not cached.
  int Loads = M.moduleLoadCount();
  M.failNext("cuModuleLoadData", 200);
  auto Bad = D->loadFunction("kernel-g", Image, "__jacc_kernel");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(takeError(Bad.takeError(), Msg), ErrorCode::Device);
  EXPECT_EQ(Msg, "cuda:1: cuModuleLoadData (the image of __jacc_kernel) failed with "
                 "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid)");
  auto Good = D->loadFunction("kernel-g", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(Good)) << llvm::toString(Good.takeError());
  EXPECT_EQ(M.moduleLoadCount() - Loads, 1);
}

/// The mock's "kernel": fills the float array its first parameter points to with its index.
void iotaKernel(const char *Entry, unsigned Grid, unsigned Block, void **Params) {
  if (std::strcmp(Entry, "__jacc_kernel") != 0)
    return;
  float *Out = *static_cast<float **>(Params[0]);
  unsigned N = *static_cast<unsigned *>(Params[1]);
  for (unsigned I = 0; I < N && I < Grid * Block; ++I)
    Out[I] = float(I);
}

TEST_F(CudaDeviceTest, SyncLaunchRunsKernelAndReadBackInOrder) {
  M.setKernelHook(iotaKernel);
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  auto F = D->loadFunction("iota", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  unsigned N = 1000;
  void *Buf = allocate(*D, N * sizeof(float));
  std::vector<float> Host(N, -1.0f);
  int Launches = M.launchCount();
  auto L = std::make_shared<TestLaunch>([&](CudaDevice &Dev) -> llvm::Error {
    void *Params[] = {&Buf, &N};
    if (auto E = Dev.launchKernel(*F, 4, 256, Params, /*Cooperative=*/false))
      return E;
    return Dev.copyToHostAsync(Host.data(), Buf, N * sizeof(float));
  });
  auto T = D->launch(L, /*Async=*/false);
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(*T, 1u);
  // Sync: finished() ran (on the poller) before launch() returned.
  EXPECT_EQ(L->FinishedCalls.load(), 1u);
  EXPECT_NE(L->FinishedThread, std::this_thread::get_id());
  EXPECT_EQ(M.launchCount() - Launches, 1);
  unsigned Grid = 0, Block = 0;
  int Coop = -1;
  M.lastLaunch(&Grid, &Block, &Coop);
  EXPECT_EQ(Grid, 4u);
  EXPECT_EQ(Block, 256u);
  EXPECT_EQ(Coop, 0);
  std::vector<float> Want(N);
  std::iota(Want.begin(), Want.end(), 0.0f);
  EXPECT_EQ(Host, Want);
  ASSERT_FALSE(static_cast<bool>(D->release(Buf)));
}

TEST_F(CudaDeviceTest, AsyncLaunchesCompleteInOrderThroughThePoller) {
  auto D = make(0, 1);
  ASSERT_TRUE(D);
  auto F = D->loadFunction("order", Image, "__jacc_split");
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  std::mutex OrderM;
  std::vector<int> Order;
  // The GPU "runs" until released: every launch stays pending, and the poller keeps asking.
  M.holdEvents(1);
  int Queries = M.eventQueryCount();
  std::vector<std::shared_ptr<TestLaunch>> Launches;
  for (int I = 0; I < 6; ++I) {
    auto L = std::make_shared<TestLaunch>(
        [&](CudaDevice &Dev) -> llvm::Error {
          return Dev.launchKernel(*F, 2, 32, nullptr, /*Cooperative=*/false);
        },
        [&, I] {
          std::lock_guard<std::mutex> Lock(OrderM);
          Order.push_back(I);
        });
    Launches.push_back(L);
    auto T = D->launch(L, /*Async=*/true);
    ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
    EXPECT_EQ(*T, uint64_t(I + 1));
  }
  EXPECT_EQ(D->lastTicket(), 6u);
  for (int Wait = 0; Wait < 5000 && M.eventQueryCount() - Queries < 3; ++Wait)
    std::this_thread::sleep_for(1ms);
  EXPECT_GE(M.eventQueryCount() - Queries, 3);
  for (auto &L : Launches)
    EXPECT_EQ(L->FinishedCalls.load(), 0u);

  // Released, with each event completing 2 ms after it was recorded.
  ScopedEnv Delay("MOCKCUDA_EVENT_DELAY_US", "2000");
  M.holdEvents(0);
  ASSERT_FALSE(static_cast<bool>(D->waitFor(3)));
  {
    std::lock_guard<std::mutex> Lock(OrderM);
    ASSERT_GE(Order.size(), 3u);
    for (size_t I = 0; I < Order.size(); ++I)
      EXPECT_EQ(Order[I], int(I));
  }
  ASSERT_FALSE(static_cast<bool>(D->synchronize()));
  EXPECT_EQ(Order, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  for (auto &L : Launches) {
    EXPECT_EQ(L->FinishedCalls.load(), 1u);
    EXPECT_NE(L->FinishedThread, std::this_thread::get_id());
  }
  // A sync launch after async ones completes after them, its event delayed too.
  auto Last = std::make_shared<TestLaunch>(nullptr, [&] {
    std::lock_guard<std::mutex> Lock(OrderM);
    Order.push_back(6);
  });
  auto Start = std::chrono::steady_clock::now();
  auto T = D->launch(Last, /*Async=*/false);
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  EXPECT_GE(std::chrono::steady_clock::now() - Start, 2ms);
  EXPECT_EQ(*T, 7u);
  EXPECT_EQ(Order.size(), 7u);
}

TEST_F(CudaDeviceTest, LaunchesFromManyThreads) {
  ScopedEnv Delay("MOCKCUDA_EVENT_DELAY_US", "50");
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  std::atomic<unsigned> Finished{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 25; ++I) {
        auto L = std::make_shared<TestLaunch>(nullptr, [&] { Finished.fetch_add(1); });
        auto Ticket = D->launch(L, /*Async=*/(I + T) % 3 != 0);
        if (!Ticket)
          ADD_FAILURE() << llvm::toString(Ticket.takeError());
      }
    });
  for (std::thread &T : Threads)
    T.join();
  ASSERT_FALSE(static_cast<bool>(D->synchronize()));
  EXPECT_EQ(Finished.load(), 100u);
  EXPECT_EQ(D->lastTicket(), 100u);
}

TEST_F(CudaDeviceTest, AsyncErrorIsReportedOnceByTheNextWait) {
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  auto Ok = D->launch(std::make_shared<TestLaunch>(nullptr), /*Async=*/true);
  ASSERT_TRUE(static_cast<bool>(Ok));
  ASSERT_FALSE(static_cast<bool>(D->synchronize()));
  // The kernel "fails" on the GPU: the event query reports it.
  M.failNext("cuEventQuery", 719);
  auto Bad = std::make_shared<TestLaunch>(nullptr);
  auto T = D->launch(Bad, /*Async=*/true);
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  auto After = std::make_shared<TestLaunch>(nullptr);
  ASSERT_TRUE(static_cast<bool>(D->launch(After, /*Async=*/true)));
  std::string Msg;
  EXPECT_EQ(codeOf(D->synchronize(), Msg), ErrorCode::Device);
  EXPECT_EQ(Msg, "cuda:0: kernel launch (ticket 2): cuEventQuery failed with "
                 "CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)");
  // Every launch still got its finished(), and the error is reported once.
  EXPECT_EQ(Bad->FinishedCalls.load(), 1u);
  EXPECT_EQ(After->FinishedCalls.load(), 1u);
  EXPECT_FALSE(static_cast<bool>(D->waitFor(*T)));
  EXPECT_FALSE(static_cast<bool>(D->synchronize()));
}

TEST_F(CudaDeviceTest, FailedEnqueueFailsItsLaunch) {
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  auto F = D->loadFunction("fail", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  auto Enqueue = [&](CudaDevice &Dev) -> llvm::Error {
    return Dev.launchKernel(*F, 1, 64, nullptr, /*Cooperative=*/false);
  };
  // Sync: launch() returns the error, and nothing is kept for later.
  M.failNext("cuLaunchKernel", 1);
  auto Sync = std::make_shared<TestLaunch>(Enqueue);
  auto T = D->launch(Sync, /*Async=*/false);
  ASSERT_FALSE(static_cast<bool>(T));
  std::string Msg;
  EXPECT_EQ(takeError(T.takeError(), Msg), ErrorCode::Device);
  EXPECT_EQ(Msg, "cuda:0: cuLaunchKernel (grid 1, block 64) failed with CUDA_ERROR_INVALID_VALUE "
                 "(invalid argument)");
  EXPECT_EQ(Sync->FinishedCalls.load(), 1u);
  EXPECT_EQ(D->lastTicket(), 1u);
  EXPECT_FALSE(static_cast<bool>(D->synchronize()));
  // Async: the next wait reports it.
  M.failNext("cuLaunchKernel", 1);
  auto Async = std::make_shared<TestLaunch>(Enqueue);
  auto U = D->launch(Async, /*Async=*/true);
  ASSERT_TRUE(static_cast<bool>(U)) << llvm::toString(U.takeError());
  EXPECT_EQ(codeOf(D->waitFor(*U), Msg), ErrorCode::Device);
  EXPECT_NE(Msg.find("cuLaunchKernel"), std::string::npos) << Msg;
  EXPECT_FALSE(static_cast<bool>(D->synchronize()));
  // An invalid launch configuration is the driver's error too.
  auto Zero = std::make_shared<TestLaunch>(
      [&](CudaDevice &Dev) -> llvm::Error { return Dev.launchKernel(*F, 0, 64, nullptr, false); });
  auto Z = D->launch(Zero, /*Async=*/false);
  ASSERT_FALSE(static_cast<bool>(Z));
  EXPECT_EQ(takeError(Z.takeError(), Msg), ErrorCode::Device);
  // A launch without CUDA code (host work only).
  struct HostOnly : DeviceLaunch, HostLaunch {
    void runMember(unsigned, unsigned, void *, void (*)(void *)) override {}
  };
  auto H = D->launch(std::make_shared<HostOnly>(), /*Async=*/false);
  ASSERT_FALSE(static_cast<bool>(H));
  EXPECT_EQ(takeError(H.takeError(), Msg), ErrorCode::Unsupported);
}

TEST_F(CudaDeviceTest, CooperativeLaunch) {
  auto D = make(0, 0);
  ASSERT_TRUE(D);
  auto F = D->loadFunction("coop", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
  auto L = std::make_shared<TestLaunch>([&](CudaDevice &Dev) -> llvm::Error {
    return Dev.launchKernel(*F, 8, 128, nullptr, /*Cooperative=*/true);
  });
  ASSERT_TRUE(static_cast<bool>(D->launch(L, false)));
  unsigned Grid = 0, Block = 0;
  int Coop = 0;
  M.lastLaunch(&Grid, &Block, &Coop);
  EXPECT_EQ(Coop, 1);
  EXPECT_EQ(Grid, 8u);

  ScopedEnv NoCoop("MOCKCUDA_NO_COOP", "1");
  auto E = make(1, 1);
  ASSERT_TRUE(E);
  EXPECT_FALSE(E->cooperativeLaunch());
  auto G = E->loadFunction("coop", Image, "__jacc_kernel");
  ASSERT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
  std::string Msg;
  EXPECT_EQ(codeOf(E->launchKernel(*G, 8, 128, nullptr, true), Msg), ErrorCode::Unsupported);
  EXPECT_EQ(Msg, "cuda:1 (Mock GPU 1) cannot launch cooperative kernels, which grid-wide "
                 "barriers need; run this kernel on other devices (JACC_DEVICES)");
}

TEST_F(CudaDeviceTest, DestructorWaitsForPendingLaunches) {
  ScopedEnv Delay("MOCKCUDA_EVENT_DELAY_US", "20000");
  auto L = std::make_shared<TestLaunch>(nullptr);
  {
    auto D = make(0, 0);
    ASSERT_TRUE(D);
    ASSERT_TRUE(static_cast<bool>(D->launch(L, /*Async=*/true)));
  }
  EXPECT_EQ(L->FinishedCalls.load(), 1u);
}

} // namespace
