// Tests of the generic device front (src/Device.h): which path a peer copy takes (host memory on
// either side, the backend's own peers, the staged path through host memory between backends),
// with fake backends that count the hooks they are called through.
#include "src/Device.h"
#include "src/DeviceLaunch.h"

#include "src/host/HostDevice.h"
#include "support/Stats.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

namespace jacc {
namespace {

/// A device of a fake backend whose memory is not host memory (it is, but the front must not
/// know): copies go through its hooks, which count their calls.
class FakeDevice : public Device {
public:
  explicit FakeDevice(unsigned Index) : Device(Index, "fake:" + std::to_string(Index), false) {}
  unsigned computeUnits() const override { return 1; }

  unsigned ToDevice = 0, ToHost = 0, ToDevice2D = 0, ToHost2D = 0, Peer2D = 0;

protected:
  DeviceProperties propertiesImpl() const override { return {}; }
  llvm::Expected<void *> allocateImpl(size_t Bytes) override { return std::malloc(Bytes); }
  llvm::Error releaseImpl(void *P) override {
    std::free(P);
    return llvm::Error::success();
  }
  llvm::Error copyToDeviceImpl(void *Dst, const void *Src, size_t Bytes) override {
    ++ToDevice;
    std::memcpy(Dst, Src, Bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToHostImpl(void *Dst, const void *Src, size_t Bytes) override {
    ++ToHost;
    std::memcpy(Dst, Src, Bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToDevice2DImpl(void *Dst, const void *Src, size_t W, size_t H,
                                 size_t Pitch) override {
    ++ToDevice2D;
    return Device::copyToDevice2DImpl(Dst, Src, W, H, Pitch);
  }
  llvm::Error copyToHost2DImpl(void *Dst, const void *Src, size_t W, size_t H,
                               size_t Pitch) override {
    ++ToHost2D;
    return Device::copyToHost2DImpl(Dst, Src, W, H, Pitch);
  }
  llvm::Error copyToPeer2DImpl(Device &To, void *Dst, const void *Src, size_t W, size_t H,
                               size_t Pitch) override {
    ++Peer2D;
    return Device::copyToPeer2DImpl(To, Dst, Src, W, H, Pitch);
  }
  llvm::Error prepareCodeImpl(const jit::CompiledKernel &, const LaunchCode &) override {
    return llvm::Error::success();
  }
  llvm::Expected<std::shared_ptr<KernelLaunch>>
  constructLaunchImpl(std::shared_ptr<const jit::CompiledKernel>, ArgCells, AggregateArgs,
                      const LaunchCode &) override {
    return makeError(ErrorCode::Unsupported, "fake devices run no kernels");
  }
  llvm::Expected<uint64_t> launchImpl(std::shared_ptr<DeviceLaunch>, bool) override {
    return makeError(ErrorCode::Unsupported, "fake devices run no launches");
  }
  llvm::Error waitForImpl(uint64_t) override { return llvm::Error::success(); }
  uint64_t lastTicketImpl() const override { return 0; }
  uint64_t completedTicketImpl() const override { return 0; }
};

/// Rows of Width bytes, Pitch apart, of a Height-row block filled with 1, 2, 3, ...
std::vector<char> pattern(size_t Bytes) {
  std::vector<char> V(Bytes);
  std::iota(V.begin(), V.end(), char(1));
  return V;
}

struct Buffers {
  Buffers(Device &From, Device &To, size_t Bytes) : From(From), To(To), Bytes(Bytes) {
    Src = llvm::cantFail(From.allocate(Bytes));
    Dst = llvm::cantFail(To.allocate(Bytes));
    std::memcpy(Src, pattern(Bytes).data(), Bytes);
    std::memset(Dst, 0, Bytes);
  }
  ~Buffers() {
    llvm::consumeError(From.release(Src));
    llvm::consumeError(To.release(Dst));
  }
  Device &From, &To;
  size_t Bytes;
  void *Src, *Dst;
};

TEST(DeviceTest, PeersOfTwoBackendsWithoutHostMemoryAreStagedThroughTheHost) {
  FakeDevice A(0), B(1);
  const size_t Width = 24, Pitch = 64, Height = 5;
  Buffers Mem(A, B, Pitch * Height);
  stats().reset();
  ASSERT_FALSE(static_cast<bool>(A.copyToPeer2D(B, Mem.Dst, Mem.Src, Width, Height, Pitch)));
  EXPECT_EQ(A.Peer2D, 1u);
  // Row by row: out of A into a host buffer, from it into B.
  EXPECT_EQ(A.ToHost, Height);
  EXPECT_EQ(B.ToDevice, Height);
  std::vector<char> Want = pattern(Pitch * Height);
  for (size_t R = 0; R < Height; ++R)
    for (size_t C = 0; C < Pitch; ++C)
      EXPECT_EQ(static_cast<char *>(Mem.Dst)[R * Pitch + C], C < Width ? Want[R * Pitch + C] : 0)
          << "row " << R << " byte " << C;
  EXPECT_EQ(stats().BytesDeviceToDevice.load(), Width * Height);
  EXPECT_EQ(stats().BytesDeviceToHost.load(), 0u);
  EXPECT_EQ(stats().BytesHostToDevice.load(), 0u);
}

TEST(DeviceTest, StagedCopiesLongerThanTheBufferGoInPieces) {
  FakeDevice A(0), B(1);
  const size_t Bytes = (size_t(4) << 20) * 2 + 100; // two 4 MiB pieces and a tail
  Buffers Mem(A, B, Bytes);
  ASSERT_FALSE(static_cast<bool>(A.copyToPeer(B, Mem.Dst, Mem.Src, Bytes)));
  EXPECT_EQ(A.ToHost, 3u);
  EXPECT_EQ(B.ToDevice, 3u);
  EXPECT_EQ(std::memcmp(Mem.Dst, Mem.Src, Bytes), 0);
}

TEST(DeviceTest, HostMemoryOnEitherSideIsReachedByTheOtherSidesHostCopies) {
  auto H = HostDevice::create(0, 1, std::chrono::microseconds(0));
  ASSERT_TRUE(static_cast<bool>(H));
  FakeDevice F(1);
  const size_t Width = 16, Pitch = 32, Height = 3;
  {
    Buffers Mem(F, **H, Pitch * Height); // into host memory: the fake device's host copy
    ASSERT_FALSE(static_cast<bool>(F.copyToPeer2D(**H, Mem.Dst, Mem.Src, Width, Height, Pitch)));
    EXPECT_EQ(F.ToHost2D, 1u);
    EXPECT_EQ(F.Peer2D, 0u);
    EXPECT_EQ(std::memcmp(Mem.Dst, Mem.Src, Width), 0);
  }
  {
    Buffers Mem(**H, F, Pitch * Height); // from host memory: the fake device's device copy
    ASSERT_FALSE(static_cast<bool>((*H)->copyToPeer2D(F, Mem.Dst, Mem.Src, Width, Height,
                                                       Pitch)));
    EXPECT_EQ(F.ToDevice2D, 1u);
    EXPECT_EQ(F.Peer2D, 0u);
    EXPECT_EQ(std::memcmp(static_cast<char *>(Mem.Dst) + 2 * Pitch,
                          static_cast<char *>(Mem.Src) + 2 * Pitch, Width),
              0);
  }
}

TEST(DeviceTest, ADeviceRunsOnlyTheLaunchesOfItsBackend) {
  auto H = HostDevice::create(0, 1, std::chrono::microseconds(0));
  ASSERT_TRUE(static_cast<bool>(H));
  struct Foreign : DeviceLaunch {};
  auto T = (*H)->launch(std::make_shared<Foreign>(), /*Async=*/false);
  ASSERT_FALSE(static_cast<bool>(T));
  std::string Message;
  EXPECT_EQ(takeError(T.takeError(), Message), ErrorCode::Unsupported);
  EXPECT_EQ(Message, "host:0 runs host launches only; this one was built for another device");
  EXPECT_EQ((*H)->lastTicket(), 0u); // nothing was queued
}

// ---- the memory pool (src/MemoryPool.h) ----------------------------------------------------

/// A fake device of 64 MiB (the pool keeps an eighth) counting the backend's allocations and
/// releases; it may refuse the next allocation, or ask that every release reach it.
class CountingDevice : public FakeDevice {
public:
  using FakeDevice::FakeDevice;
  unsigned Allocs = 0, Releases = 0;
  bool Reuses = true, FailNext = false;

protected:
  DeviceProperties propertiesImpl() const override {
    DeviceProperties P;
    P.TotalMemory = 64 << 20;
    P.FreeMemory = 32 << 20;
    return P;
  }
  llvm::Expected<void *> allocateImpl(size_t Bytes) override {
    if (std::exchange(FailNext, false))
      return makeError(ErrorCode::OutOfMemory, "out of memory");
    ++Allocs;
    return FakeDevice::allocateImpl(Bytes);
  }
  llvm::Error releaseImpl(void *P) override {
    ++Releases;
    return FakeDevice::releaseImpl(P);
  }
  bool reusesReleasedMemory() const override { return Reuses; }
};

constexpr size_t MiB = size_t(1) << 20;

// A solver's per-step work arrays of a few hundred KiB are kept too: glibc gives them back to the
// system on release (a trimmed heap top), and the next step faults their pages again.
TEST(DeviceTest, ABlockOf64KiBOrMoreReleasedIsReusedForTheSameSize) {
  CountingDevice D(0);
  void *Work = llvm::cantFail(D.allocate(373248)); // 36^3 doubles
  ASSERT_FALSE(bool(D.release(Work)));
  EXPECT_EQ(D.Releases, 0u); // kept
  EXPECT_EQ(llvm::cantFail(D.allocate(373248)), Work);
  EXPECT_EQ(D.Allocs, 1u);
  void *Below = llvm::cantFail(D.allocate(64 * 1024 - 8));
  ASSERT_FALSE(bool(D.release(Below)));
  EXPECT_EQ(D.Releases, 1u) << "under 64 KiB: back at once";
  ASSERT_FALSE(bool(D.release(Work)));
  ASSERT_FALSE(bool(D.releaseKeptMemory()));
  EXPECT_EQ(D.Releases, 2u);
}

TEST(DeviceTest, ABlockOfAMiBOrMoreReleasedIsReusedForTheSameSize) {
  CountingDevice D(0);
  void *A = llvm::cantFail(D.allocate(2 * MiB));
  ASSERT_FALSE(bool(D.release(A)));
  EXPECT_EQ(D.Releases, 0u); // kept
  EXPECT_EQ(llvm::cantFail(D.allocate(2 * MiB)), A);
  EXPECT_EQ(D.Allocs, 1u);
  void *B = llvm::cantFail(D.allocate(3 * MiB)); // no kept block of that size
  EXPECT_EQ(D.Allocs, 2u);
  void *Small = llvm::cantFail(D.allocate(4096));
  ASSERT_FALSE(bool(D.release(Small)));
  EXPECT_EQ(D.Releases, 1u); // small blocks go back at once
  ASSERT_FALSE(bool(D.release(A)));
  ASSERT_FALSE(bool(D.release(B)));
  EXPECT_EQ(D.Releases, 1u);
  ASSERT_FALSE(bool(D.releaseKeptMemory()));
  EXPECT_EQ(D.Releases, 3u);
  EXPECT_NE(llvm::cantFail(D.allocate(2 * MiB)), nullptr);
  EXPECT_EQ(D.Allocs, 4u); // nothing kept any more
}

TEST(DeviceTest, KeptBlocksAreFreeMemoryUpToAnEighthOfTheDevice) {
  CountingDevice D(0);
  std::vector<void *> Blocks;
  for (int I = 0; I < 3; ++I)
    Blocks.push_back(llvm::cantFail(D.allocate(3 * MiB)));
  for (void *P : Blocks)
    ASSERT_FALSE(bool(D.release(P)));
  EXPECT_EQ(D.Releases, 1u); // 6 of the 8 MiB kept; the third block would pass the bound
  EXPECT_EQ(D.properties().FreeMemory, 38 * MiB);
  ASSERT_FALSE(bool(D.releaseKeptMemory()));
  EXPECT_EQ(D.properties().FreeMemory, 32 * MiB);
}

TEST(DeviceTest, AnAllocationRefusedGivesTheKeptBlocksBackAndTriesAgain) {
  CountingDevice D(0);
  ASSERT_FALSE(bool(D.release(llvm::cantFail(D.allocate(2 * MiB)))));
  D.FailNext = true;
  auto P = D.allocate(5 * MiB);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(D.Releases, 1u);
  ASSERT_FALSE(bool(D.release(*P)));
  ASSERT_FALSE(bool(D.releaseKeptMemory()));
}

TEST(DeviceTest, ABackendThatMustSeeEveryReleaseOrThePoolTurnedOffKeepsNothing) {
  CountingDevice D(0);
  D.Reuses = false;
  ASSERT_FALSE(bool(D.release(llvm::cantFail(D.allocate(2 * MiB)))));
  EXPECT_EQ(D.Releases, 1u);
  CountingDevice Off(1);
  Off.keepReleasedMemory(false); // JACC_MEMORY_POOL=0
  ASSERT_FALSE(bool(Off.release(llvm::cantFail(Off.allocate(2 * MiB)))));
  EXPECT_EQ(Off.Releases, 1u);
}

} // namespace
} // namespace jacc
