// Tests of host devices: memory (huge pages, copies, limits), launches on the caller or the team,
// async queues in ticket order, and thread teams the system refuses.
#include "src/host/HostDevice.h"

#include "src/host/HostLaunch.h"
#include "support/Stats.h"

#include <gtest/gtest.h>

#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <algorithm>
#include <vector>

using namespace jacc;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<HostDevice> makeDevice(unsigned Index, unsigned Threads,
                                       std::chrono::microseconds SpinTime = 100us) {
  auto D = HostDevice::create(Index, Threads, SpinTime);
  if (!D) {
    std::string Message;
    takeError(D.takeError(), Message);
    ADD_FAILURE() << Message;
    return nullptr;
  }
  return std::move(*D);
}

/// Error code and message of E, which must be a failure.
ErrorCode codeOf(llvm::Error E, std::string &Message) {
  EXPECT_TRUE(static_cast<bool>(E));
  return takeError(std::move(E), Message);
}

/// A launch built from lambdas, which also checks the DeviceLaunch contract: every member runs
/// once, and finished() is called once, after all of them, on the thread that ran member 0.
class TestLaunch : public DeviceLaunch, public HostLaunch {
public:
  using MemberFn =
      std::function<void(unsigned Tid, unsigned NThreads, void *Team, void (*Barrier)(void *))>;
  explicit TestLaunch(MemberFn Member, std::function<void()> Finished = nullptr)
      : Member(std::move(Member)), Finished(std::move(Finished)) {}

  void runMember(unsigned Tid, unsigned NThreads, void *Team, void (*Barrier)(void *)) override {
    if (Tid == 0)
      MemberZeroThread = std::this_thread::get_id();
    if (Member)
      Member(Tid, NThreads, Team, Barrier);
    MembersDone.fetch_add(1);
    Threads.store(NThreads);
  }
  const void *codeRunnableInTurn() const override { return InTurnCode; }
  void finished() override {
    if (MembersDone.load() != Threads.load())
      FinishedEarly.store(true);
    if (std::this_thread::get_id() != MemberZeroThread)
      FinishedOnOtherThread.store(true);
    if (Finished)
      Finished();
    FinishedCalls.fetch_add(1);
  }

  MemberFn Member;
  std::function<void()> Finished;
  std::atomic<unsigned> MembersDone{0}, Threads{0}, FinishedCalls{0};
  std::atomic<bool> FinishedEarly{false}, FinishedOnOtherThread{false};
  std::thread::id MemberZeroThread;
  const void *InTurnCode = nullptr; ///< members may run in turn, as this code
};

std::shared_ptr<TestLaunch> makeLaunch(TestLaunch::MemberFn Member = nullptr,
                                       std::function<void()> Finished = nullptr) {
  return std::make_shared<TestLaunch>(std::move(Member), std::move(Finished));
}

void expectContract(const TestLaunch &L, unsigned Threads) {
  EXPECT_EQ(L.MembersDone.load(), Threads);
  EXPECT_EQ(L.FinishedCalls.load(), 1u);
  EXPECT_FALSE(L.FinishedEarly.load());
  EXPECT_FALSE(L.FinishedOnOtherThread.load());
}

/// The VmFlags of the mapping of this process that holds P ("rd wr mr mw me ac hg", ...); empty
/// when /proc/self/smaps has no such mapping.
std::string vmFlagsOf(const void *P) {
  FILE *F = std::fopen("/proc/self/smaps", "r");
  if (!F)
    return "";
  auto At = reinterpret_cast<uintptr_t>(P);
  bool In = false;
  std::string Flags;
  char Line[512];
  while (std::fgets(Line, sizeof Line, F)) {
    unsigned long Lo, Hi;
    if (std::sscanf(Line, "%lx-%lx ", &Lo, &Hi) == 2) {
      In = At >= Lo && At < Hi;
      continue;
    }
    if (In && std::strncmp(Line, "VmFlags:", 8) == 0) {
      Flags = Line + 8;
      break;
    }
  }
  std::fclose(F);
  return Flags;
}

// Copies of 2 MiB or more go on transparent huge pages (2 MiB aligned, advised MADV_HUGEPAGE:
// "hg" in the mapping's flags), unmapped when released; smaller ones, and every one of a Plain
// device, are 64-byte aligned without the advice.
TEST(HostDeviceTest, LargeCopiesAreOnHugePagesWhenAsked) {
  for (HostCopies Memory : {HostCopies::HugePages, HostCopies::Plain}) {
    auto D = HostDevice::create(0, 1, 100us, Memory);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    bool Huge = Memory == HostCopies::HugePages;
    for (size_t Bytes : {size_t(4096), HugePageBytes - 64, HugePageBytes, 3 * HugePageBytes + 8}) {
      auto P = (*D)->allocate(Bytes);
      ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
      auto At = reinterpret_cast<uintptr_t>(*P);
      bool Large = Huge && Bytes >= HugePageBytes;
      EXPECT_EQ(At % 64, 0u) << Bytes;
      if (Large) {
        EXPECT_EQ(At % HugePageBytes, 0u) << Bytes;
      }
      std::string Flags = vmFlagsOf(*P);
      EXPECT_FALSE(Flags.empty()) << "no mapping for " << *P;
      EXPECT_EQ(Flags.find(" hg") != std::string::npos, Large) << Bytes << ": " << Flags;
      std::memset(*P, 1, Bytes); // every byte usable
      ASSERT_FALSE(bool((*D)->release(*P)));
      // A huge-page copy is unmapped with its advice: memory malloc reuses never carries it.
      // (The device's pool keeps it for the next copy of its size until then.)
      ASSERT_FALSE(bool((*D)->releaseKeptMemory()));
      if (Large) {
        EXPECT_EQ(vmFlagsOf(*P).find(" hg"), std::string::npos) << Bytes;
      }
    }
  }
}

TEST(HostDeviceTest, CreateAndDescribe) {
  auto D = makeDevice(3, 2);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->properties().Type, acc_device_host);
  EXPECT_EQ(D->index(), 3u);
  EXPECT_EQ(D->name(), "host:3");
  EXPECT_EQ(D->computeUnits(), 2u);
  EXPECT_EQ(D->lastTicket(), 0u);

  auto Bad = HostDevice::create(0, 0, 100us);
  ASSERT_FALSE(Bad);
  std::string Message;
  EXPECT_EQ(takeError(Bad.takeError(), Message), ErrorCode::InvalidArgument);
}

TEST(HostDeviceTest, ThreadsTheSystemRefusesAreAnErrorNotAnAbort) {
  // In a child whose address space has room for four thread stacks and half of a fifth: the
  // team's threads cannot all start, and creating the device must say so instead of aborting the
  // program. The stacks are large, so that the one refused leaves room for everything else the
  // error path allocates (a sanitizer's allocator aborts when its own mapping is refused).
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    const size_t Stack = size_t(64) << 20;
    pthread_attr_t Attr;
    if (::pthread_attr_init(&Attr) != 0 || ::pthread_attr_setstacksize(&Attr, Stack) != 0 ||
        ::pthread_setattr_default_np(&Attr) != 0)
      ::_exit(4);
    long Pages = 0;
    if (FILE *F = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(F, "%ld", &Pages) != 1)
        Pages = 0;
      std::fclose(F);
    }
    rlimit Limit{};
    ::getrlimit(RLIMIT_AS, &Limit);
    Limit.rlim_cur = rlim_t(Pages) * rlim_t(::sysconf(_SC_PAGESIZE)) + 4 * Stack + Stack / 2;
    if (Pages == 0 || ::setrlimit(RLIMIT_AS, &Limit) != 0)
      ::_exit(4);
    auto D = HostDevice::create(0, 1000, 100us);
    if (D)
      ::_exit(2);
    std::string Message;
    bool Named = takeError(D.takeError(), Message) == ErrorCode::Device &&
                 Message.rfind("host:0 could not start its 1000 threads (", 0) == 0 &&
                 Message.find("ulimit -u") != std::string::npos;
    ::_exit(Named ? 0 : 3);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  ASSERT_TRUE(WIFEXITED(Status)) << "the child died of signal " << WTERMSIG(Status);
  EXPECT_EQ(WEXITSTATUS(Status), 0) << "2: created anyway, 3: another error, 4: no limit set";
}

TEST(HostDeviceTest, AllocateCopyRoundTrip) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::vector<int> Host(1000), Back(1000, -1);
  for (int I = 0; I < 1000; ++I)
    Host[I] = I * 7;
  auto Ptr = D->allocate(Host.size() * sizeof(int));
  ASSERT_TRUE(static_cast<bool>(Ptr));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*Ptr) % 64, 0u);
  EXPECT_NE(*Ptr, static_cast<void *>(Host.data()));
  ASSERT_FALSE(D->copyToDevice(*Ptr, Host.data(), Host.size() * sizeof(int)));
  ASSERT_FALSE(D->copyToHost(Back.data(), *Ptr, Back.size() * sizeof(int)));
  EXPECT_EQ(Host, Back);
  EXPECT_FALSE(D->release(*Ptr));
  EXPECT_FALSE(D->release(nullptr));
}

TEST(HostDeviceTest, ZeroByteAllocationsAreUniqueAndNonNull) {
  auto D = makeDevice(0, 1);
  ASSERT_TRUE(D);
  auto A = D->allocate(0), B = D->allocate(0);
  ASSERT_TRUE(static_cast<bool>(A));
  ASSERT_TRUE(static_cast<bool>(B));
  EXPECT_NE(*A, nullptr);
  EXPECT_NE(*A, *B);
  EXPECT_FALSE(D->release(*A));
  EXPECT_FALSE(D->release(*B));
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
// Sanitizer allocators abort on absurd sizes instead of failing.
TEST(HostDeviceTest, OutOfMemoryNamesDeviceAndSize) {
  auto D = makeDevice(5, 1);
  ASSERT_TRUE(D);
  size_t Huge = SIZE_MAX / 2;
  auto Ptr = D->allocate(Huge);
  ASSERT_FALSE(Ptr);
  std::string Message;
  EXPECT_EQ(takeError(Ptr.takeError(), Message), ErrorCode::OutOfMemory);
  EXPECT_NE(Message.find("host:5"), std::string::npos) << Message;
  EXPECT_NE(Message.find(std::to_string(Huge)), std::string::npos) << Message;
}
#endif

TEST(HostDeviceTest, StatsCountCopiedBytes) {
  auto A = makeDevice(0, 1), B = makeDevice(1, 1);
  ASSERT_TRUE(A && B);
  std::vector<char> Host(4096, 'x');
  auto PA = A->allocate(4096), PB = B->allocate(4096);
  ASSERT_TRUE(PA && PB);

  uint64_t H2D = stats().BytesHostToDevice, D2H = stats().BytesDeviceToHost,
           D2D = stats().BytesDeviceToDevice;
  ASSERT_FALSE(A->copyToDevice(*PA, Host.data(), 4096));
  ASSERT_FALSE(A->copyToDevice(*PA, Host.data(), 100));
  ASSERT_FALSE(A->copyToPeer(*B, *PB, *PA, 1000));
  ASSERT_FALSE(B->copyToHost(Host.data(), *PB, 10));
  EXPECT_EQ(stats().BytesHostToDevice - H2D, 4196u);
  EXPECT_EQ(stats().BytesDeviceToDevice - D2D, 1000u);
  EXPECT_EQ(stats().BytesDeviceToHost - D2H, 10u);

  // Zero bytes: no-op even with null pointers, and not counted.
  EXPECT_FALSE(A->copyToDevice(nullptr, nullptr, 0));
  EXPECT_FALSE(A->copyToHost(nullptr, nullptr, 0));
  EXPECT_FALSE(A->copyToPeer(*B, nullptr, nullptr, 0));
  EXPECT_EQ(stats().BytesHostToDevice - H2D, 4196u);
  EXPECT_EQ(stats().BytesDeviceToHost - D2H, 10u);
  EXPECT_EQ(stats().BytesDeviceToDevice - D2D, 1000u);

  EXPECT_FALSE(A->release(*PA));
  EXPECT_FALSE(B->release(*PB));
}

TEST(HostDeviceTest, NullCopiesAreInvalidAndNameTheDevice) {
  auto D = makeDevice(7, 1), Peer = makeDevice(8, 1);
  ASSERT_TRUE(D && Peer);
  char Buf[16] = {};
  uint64_t H2D = stats().BytesHostToDevice;
  std::string Message;
  EXPECT_EQ(codeOf(D->copyToDevice(nullptr, Buf, 16), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("host:7"), std::string::npos) << Message;
  EXPECT_EQ(codeOf(D->copyToDevice(Buf, nullptr, 16), Message), ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf(D->copyToHost(nullptr, Buf, 16), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("host:7"), std::string::npos) << Message;
  EXPECT_EQ(codeOf(D->copyToPeer(*Peer, Buf, nullptr, 16), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("host:8"), std::string::npos) << Message;
  EXPECT_EQ(stats().BytesHostToDevice, H2D);
}

TEST(HostDeviceTest, DeviceMemoryIsSeparateFromHost) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  constexpr unsigned N = 256;
  std::vector<int> Host(N, 1);
  auto Ptr = D->allocate(N * sizeof(int));
  ASSERT_TRUE(static_cast<bool>(Ptr));
  int *Dev = static_cast<int *>(*Ptr);
  ASSERT_FALSE(D->copyToDevice(Dev, Host.data(), N * sizeof(int)));

  // A kernel doubles the device copy; the host copy must not change until copied back.
  auto L = makeLaunch([&](unsigned Tid, unsigned NThreads, void *, void (*)(void *)) {
    for (unsigned I = Tid; I < N; I += NThreads)
      Dev[I] *= 2;
  });
  auto T = D->launch(L, /*Async=*/false);
  ASSERT_TRUE(static_cast<bool>(T));
  for (int V : Host)
    ASSERT_EQ(V, 1);
  Host[0] = 100; // and host writes do not reach the device
  ASSERT_FALSE(D->copyToHost(Host.data(), Dev, N * sizeof(int)));
  for (int V : Host)
    ASSERT_EQ(V, 2);
  expectContract(*L, 2);
  EXPECT_FALSE(D->release(Dev));
}

TEST(HostDeviceTest, SyncLaunchRunsOnCallerAndCallsFinishedOnce) {
  for (unsigned Threads = 1; Threads <= 4; ++Threads) {
    auto D = makeDevice(0, Threads);
    ASSERT_TRUE(D);
    std::vector<std::atomic<unsigned>> Calls(Threads);
    auto L = makeLaunch([&](unsigned Tid, unsigned NThreads, void *, void (*)(void *)) {
      EXPECT_EQ(NThreads, Threads);
      Calls[Tid].fetch_add(1);
    });
    auto T = D->launch(L, false);
    ASSERT_TRUE(static_cast<bool>(T));
    EXPECT_EQ(*T, 1u);
    EXPECT_EQ(D->lastTicket(), 1u);
    EXPECT_EQ(L->MemberZeroThread, std::this_thread::get_id());
    for (auto &C : Calls)
      EXPECT_EQ(C.load(), 1u);
    expectContract(*L, Threads);
  }
}

/// The threads that ran each member of one launch of Code (null: members must run together) on
/// D, synchronously or through its stream.
std::vector<std::thread::id> memberThreads(HostDevice &D, unsigned Threads, const void *Code,
                                           bool Async = false) {
  std::vector<std::thread::id> Ran(Threads);
  auto L = makeLaunch([&](unsigned Tid, unsigned NThreads, void *, void (*)(void *)) {
    EXPECT_EQ(NThreads, Threads);
    Ran[Tid] = std::this_thread::get_id();
  });
  L->InTurnCode = Code;
  auto T = D.launch(L, Async);
  EXPECT_TRUE(static_cast<bool>(T));
  if (T && Async) {
    EXPECT_FALSE(static_cast<bool>(D.waitFor(*T)));
  }
  expectContract(*L, Threads);
  return Ran;
}

/// Whether every member ran on one thread.
bool oneThread(const std::vector<std::thread::id> &Ran) {
  return std::all_of(Ran.begin(), Ran.end(), [&](std::thread::id T) { return T == Ran[0]; });
}

TEST(HostDeviceTest, ShortRunsRunTheMembersInTurnOnTheLaunchingThread) {
  ForkChoice::Limits AllShort{std::chrono::hours(1), std::chrono::hours(2)};
  for (bool Async : {false, true}) {
    auto D = HostDevice::create(0, 3, 100us, HostCopies::Plain, AllShort);
    ASSERT_TRUE(static_cast<bool>(D));
    int Kernel;
    EXPECT_FALSE(oneThread(memberThreads(**D, 3, &Kernel, Async))); // first on the team
    for (int I = 0; I < 5; ++I) {
      std::vector<std::thread::id> Ran = memberThreads(**D, 3, &Kernel, Async);
      EXPECT_TRUE(oneThread(Ran));
      if (!Async) {
        EXPECT_EQ(Ran[0], std::this_thread::get_id());
      }
    }
  }
}

TEST(HostDeviceTest, LongRunsInTurnGoBackToTheTeam) {
  ForkChoice::Limits Flip{std::chrono::hours(1), std::chrono::nanoseconds(0)};
  auto D = HostDevice::create(0, 2, 100us, HostCopies::Plain, Flip);
  ASSERT_TRUE(static_cast<bool>(D));
  int Kernel;
  for (int I = 0; I < 6; ++I) // team (short), in turn (long), team, ...
    EXPECT_EQ(oneThread(memberThreads(**D, 2, &Kernel)), I % 2 == 1) << "run " << I;
}

TEST(HostDeviceTest, MembersThatMustRunTogetherAlwaysFork) {
  ForkChoice::Limits AllShort{std::chrono::hours(1), std::chrono::hours(2)};
  auto D = HostDevice::create(0, 2, 100us, HostCopies::Plain, AllShort);
  ASSERT_TRUE(static_cast<bool>(D));
  for (int I = 0; I < 5; ++I)
    EXPECT_FALSE(oneThread(memberThreads(**D, 2, nullptr)));
}

TEST(HostDeviceTest, BarrierCallbackSynchronisesMembers) {
  for (unsigned Threads = 1; Threads <= 4; ++Threads) {
    auto D = makeDevice(0, Threads);
    ASSERT_TRUE(D);
    std::vector<unsigned> Slot(Threads, ~0u);
    std::atomic<unsigned> Errors{0};
    auto L = makeLaunch([&](unsigned Tid, unsigned NThreads, void *Team, void (*Barrier)(void *)) {
      for (unsigned P = 0; P < 100; ++P) {
        Slot[Tid] = P;
        Barrier(Team);
        for (unsigned Other = 0; Other < NThreads; ++Other)
          if (Slot[Other] != P)
            Errors.fetch_add(1);
        Barrier(Team);
      }
    });
    ASSERT_TRUE(static_cast<bool>(D->launch(L, false)));
    EXPECT_EQ(Errors.load(), 0u);
  }
}

// A device of one thread whose launches alone on the cores may have three: such a launch runs
// its three members on three threads, which meet at barriers; the device's own launches keep
// their one member, and its compute units stay one.
TEST(HostDeviceTest, LaunchesAloneOnTheCoresRunOnTheWideTeam) {
  auto D = HostDevice::create(0, 1, 100us, HostCopies::Plain, ForkChoice::Limits(), 1,
                              /*AloneThreads=*/3);
  ASSERT_TRUE(static_cast<bool>(D));
  for (bool Async : {false, true}) {
    std::vector<std::thread::id> Ran(3);
    std::vector<unsigned> Slot(3, ~0u);
    std::atomic<unsigned> Errors{0};
    auto L = makeLaunch([&](unsigned Tid, unsigned NThreads, void *Team, void (*Barrier)(void *)) {
      EXPECT_EQ(NThreads, 3u);
      Ran[Tid] = std::this_thread::get_id();
      for (unsigned P = 0; P < 50; ++P) {
        Slot[Tid] = P;
        Barrier(Team);
        for (unsigned Other = 0; Other < NThreads; ++Other)
          Errors.fetch_add(Slot[Other] != P);
        Barrier(Team);
      }
    });
    L->WideTeam = 3;
    auto T = (*D)->launch(L, Async);
    ASSERT_TRUE(static_cast<bool>(T));
    ASSERT_FALSE(static_cast<bool>((*D)->waitFor(*T)));
    expectContract(*L, 3);
    EXPECT_EQ(std::set<std::thread::id>(Ran.begin(), Ran.end()).size(), 3u);
    EXPECT_EQ(Errors.load(), 0u);
  }
  EXPECT_EQ(memberThreads(**D, 1, nullptr).size(), 1u);
  EXPECT_EQ((*D)->computeUnits(), 1u);
}

TEST(HostDeviceTest, AsyncLaunchesRunInOrder) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::mutex M;
  std::vector<unsigned> Sequence;
  std::vector<std::shared_ptr<TestLaunch>> Launches;
  std::atomic<unsigned> Running{0}, Overlaps{0};
  for (unsigned I = 0; I < 20; ++I) {
    // Early launches are slower, so reordering or overlap would show.
    auto L = makeLaunch(
        [&, I](unsigned Tid, unsigned, void *, void (*)(void *)) {
          if (Tid == 0) {
            if (Running.fetch_add(1) != 0)
              Overlaps.fetch_add(1);
            std::this_thread::sleep_for(std::chrono::microseconds(20 * (20 - I)));
            Running.fetch_sub(1);
          }
        },
        [&, I] {
          std::lock_guard<std::mutex> Lock(M);
          Sequence.push_back(I);
        });
    auto T = D->launch(L, /*Async=*/true);
    ASSERT_TRUE(static_cast<bool>(T));
    EXPECT_EQ(*T, I + 1);
    Launches.push_back(L);
  }
  EXPECT_EQ(D->lastTicket(), 20u);
  ASSERT_FALSE(D->synchronize());
  std::vector<unsigned> Expected(20);
  for (unsigned I = 0; I < 20; ++I)
    Expected[I] = I;
  {
    std::lock_guard<std::mutex> Lock(M);
    EXPECT_EQ(Sequence, Expected);
  }
  EXPECT_EQ(Overlaps.load(), 0u);
  for (auto &L : Launches) {
    expectContract(*L, 2);
    EXPECT_NE(L->MemberZeroThread, std::this_thread::get_id()) << "async ran on the caller";
  }
}

TEST(HostDeviceTest, WaitForTicketWaitsExactlyForThatPrefix) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::atomic<bool> Gate{false};
  auto First = makeLaunch([&](unsigned Tid, unsigned, void *, void (*)(void *)) {
    if (Tid == 0)
      while (!Gate.load())
        std::this_thread::sleep_for(1ms);
  });
  auto Second = makeLaunch();
  auto T1 = D->launch(First, true);
  auto T2 = D->launch(Second, true);
  ASSERT_TRUE(T1 && T2);
  EXPECT_EQ(*T1, 1u);
  EXPECT_EQ(*T2, 2u);

  std::atomic<bool> Returned{false};
  std::thread Waiter([&] {
    EXPECT_FALSE(D->waitFor(*T1));
    // Returning means the launch completed, finished() included.
    EXPECT_EQ(First->FinishedCalls.load(), 1u);
    Returned.store(true);
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(Returned.load()) << "waitFor returned before its launch completed";
  EXPECT_EQ(Second->FinishedCalls.load(), 0u) << "a later launch overtook a blocked one";
  Gate.store(true);
  Waiter.join();
  EXPECT_TRUE(Returned.load());

  ASSERT_FALSE(D->waitFor(*T2));
  expectContract(*First, 2);
  expectContract(*Second, 2);
  // Waiting again, or for an older ticket, returns at once.
  EXPECT_FALSE(D->waitFor(*T1));
  EXPECT_FALSE(D->waitFor(0));

  std::string Message;
  EXPECT_EQ(codeOf(D->waitFor(3), Message), ErrorCode::InvalidArgument)
      << "a ticket never issued would wait forever";
  EXPECT_NE(Message.find("host:0"), std::string::npos) << Message;
}

TEST(HostDeviceTest, SyncLaunchWaitsForQueuedAsyncWork) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::atomic<unsigned> AsyncDone{0};
  auto Slow = [](unsigned Tid, unsigned, void *, void (*)(void *)) {
    if (Tid == 0)
      std::this_thread::sleep_for(10ms);
  };
  for (unsigned I = 0; I < 5; ++I)
    ASSERT_TRUE(
        static_cast<bool>(D->launch(makeLaunch(Slow, [&] { AsyncDone.fetch_add(1); }), true)));
  unsigned SeenBySync = ~0u;
  auto Sync = makeLaunch([&](unsigned Tid, unsigned, void *, void (*)(void *)) {
    if (Tid == 0)
      SeenBySync = AsyncDone.load();
  });
  auto T = D->launch(Sync, false);
  ASSERT_TRUE(static_cast<bool>(T));
  EXPECT_EQ(*T, 6u);
  EXPECT_EQ(SeenBySync, 5u);
  expectContract(*Sync, 2);

  // And async work queued after a sync launch still runs after it.
  std::atomic<bool> Later{false};
  auto T7 = D->launch(makeLaunch(nullptr, [&] { Later.store(true); }), true);
  ASSERT_TRUE(static_cast<bool>(T7));
  EXPECT_EQ(*T7, 7u);
  EXPECT_FALSE(D->synchronize());
  EXPECT_TRUE(Later.load());
}

TEST(HostDeviceTest, AsyncQueuedDuringSyncLaunchRunsAfterIt) {
  // The stream thread must wait for a sync launch running on another thread, up to and including
  // its finished(), not just for the team to be free.
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::mutex M;
  std::vector<std::string> Order;
  std::atomic<bool> SyncStarted{false}, Gate{false};
  auto Sync = makeLaunch(
      [&](unsigned Tid, unsigned, void *, void (*)(void *)) {
        if (Tid != 0)
          return;
        SyncStarted.store(true);
        while (!Gate.load())
          std::this_thread::sleep_for(1ms);
      },
      [&] {
        std::this_thread::sleep_for(30ms);
        std::lock_guard<std::mutex> Lock(M);
        Order.push_back("sync");
      });
  std::thread Launcher([&] { EXPECT_TRUE(static_cast<bool>(D->launch(Sync, false))); });
  while (!SyncStarted.load())
    std::this_thread::sleep_for(1ms);
  auto T = D->launch(makeLaunch(nullptr,
                                [&] {
                                  std::lock_guard<std::mutex> Lock(M);
                                  Order.push_back("async");
                                }),
                     true);
  ASSERT_TRUE(static_cast<bool>(T));
  EXPECT_EQ(*T, 2u);
  Gate.store(true);
  Launcher.join();
  EXPECT_FALSE(D->synchronize());
  std::lock_guard<std::mutex> Lock(M);
  EXPECT_EQ(Order, (std::vector<std::string>{"sync", "async"}));
}

TEST(HostDeviceTest, AReservedLaunchRunsOnTheThreadThatRunsItInTicketOrder) {
  // Reserved between two async launches: the stream thread runs the first, the reserving thread
  // the reserved one after it, and the stream thread the last only once that is done.
  auto D = makeDevice(0, 1);
  ASSERT_TRUE(D);
  std::mutex M;
  std::vector<std::string> Order;
  auto Note = [&](const char *What) {
    return [&, What] {
      std::lock_guard<std::mutex> Lock(M);
      Order.push_back(What);
    };
  };
  auto Slow = [](unsigned, unsigned, void *, void (*)(void *)) {
    std::this_thread::sleep_for(20ms);
  };
  auto T1 = D->launch(makeLaunch(Slow, Note("first")), true);
  auto Reserved = makeLaunch(nullptr, Note("reserved"));
  auto T2 = D->reserveLaunch(Reserved);
  auto T3 = D->launch(makeLaunch(nullptr, Note("last")), true);
  ASSERT_TRUE(T1 && T2 && T3);
  EXPECT_EQ(*T2, 2u);
  EXPECT_EQ(D->lastTicket(), 3u);
  std::this_thread::sleep_for(40ms); // the first is done; the last must still wait
  {
    std::lock_guard<std::mutex> Lock(M);
    EXPECT_EQ(Order, (std::vector<std::string>{"first"}));
  }
  EXPECT_FALSE(D->runReserved(*T2));
  EXPECT_EQ(Reserved->MemberZeroThread, std::this_thread::get_id());
  expectContract(*Reserved, 1);
  EXPECT_FALSE(D->synchronize());
  std::lock_guard<std::mutex> Lock(M);
  EXPECT_EQ(Order, (std::vector<std::string>{"first", "reserved", "last"}));
}

TEST(HostDeviceTest, RunningATicketNobodyReservedIsAnError) {
  auto D = makeDevice(0, 1);
  ASSERT_TRUE(D);
  auto T = D->reserveLaunch(makeLaunch());
  ASSERT_TRUE(static_cast<bool>(T));
  std::string Message;
  EXPECT_EQ(codeOf(D->runReserved(*T + 1), Message), ErrorCode::Internal);
  EXPECT_NE(Message.find("no reserved launch with ticket 2"), std::string::npos) << Message;
  EXPECT_FALSE(D->runReserved(*T));
}

TEST(HostDeviceTest, ManySyncLaunchesBackToBack) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::vector<unsigned> PerTid(2, 0);
  auto L = makeLaunch([&](unsigned Tid, unsigned, void *, void (*)(void *)) { ++PerTid[Tid]; });
  for (unsigned I = 0; I < 5000; ++I)
    ASSERT_TRUE(static_cast<bool>(D->launch(L, false)));
  EXPECT_EQ(PerTid[0], 5000u);
  EXPECT_EQ(PerTid[1], 5000u);
  EXPECT_EQ(D->lastTicket(), 5000u);
}

TEST(HostDeviceTest, ConcurrentLaunchersGetDistinctTicketsAndAllRun) {
  auto D = makeDevice(0, 2);
  ASSERT_TRUE(D);
  std::atomic<unsigned> Runs{0};
  std::mutex M;
  std::set<uint64_t> Tickets;
  auto Launcher = [&](bool Async) {
    for (unsigned I = 0; I < 200; ++I) {
      auto T = D->launch(makeLaunch(nullptr, [&] { Runs.fetch_add(1); }), Async ? I % 2 : false);
      ASSERT_TRUE(static_cast<bool>(T));
      std::lock_guard<std::mutex> Lock(M);
      EXPECT_TRUE(Tickets.insert(*T).second);
    }
  };
  std::thread A(Launcher, true), B(Launcher, false);
  A.join();
  B.join();
  EXPECT_FALSE(D->synchronize());
  EXPECT_EQ(Runs.load(), 400u);
  EXPECT_EQ(Tickets.size(), 400u);
  EXPECT_EQ(*Tickets.rbegin(), 400u);
}

TEST(HostDeviceTest, DestructorDrainsQueuedWork) {
  std::atomic<unsigned> Finished{0};
  {
    auto D = makeDevice(0, 2, 0us);
    ASSERT_TRUE(D);
    auto Slow = [](unsigned Tid, unsigned, void *, void (*)(void *)) {
      if (Tid == 0)
        std::this_thread::sleep_for(1ms);
    };
    for (unsigned I = 0; I < 20; ++I)
      ASSERT_TRUE(
          static_cast<bool>(D->launch(makeLaunch(Slow, [&] { Finished.fetch_add(1); }), true)));
  }
  EXPECT_EQ(Finished.load(), 20u);
}

TEST(HostDeviceTest, IdleDeviceDestroys) {
  auto D = makeDevice(0, 4, 0us);
  ASSERT_TRUE(D);
  ASSERT_TRUE(static_cast<bool>(D->launch(makeLaunch(), true)));
  EXPECT_FALSE(D->synchronize());
  std::this_thread::sleep_for(10ms); // stream thread and helpers are blocked now
  D.reset();
  SUCCEED();
}

TEST(HostDeviceTest, NullLaunchIsInvalid) {
  auto D = makeDevice(2, 1);
  ASSERT_TRUE(D);
  auto T = D->launch(nullptr, false);
  ASSERT_FALSE(T);
  std::string Message;
  EXPECT_EQ(takeError(T.takeError(), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("host:2"), std::string::npos) << Message;
  EXPECT_EQ(D->lastTicket(), 0u);
}

TEST(HostDeviceTest, TracesWithJaccDebug) {
  // Run in a fresh process: the JACC_DEBUG setting is read once per process.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("JACC_DEBUG", "jit,device", 1);
        auto D = HostDevice::create(1, 1, 0us);
        if (!D)
          std::_Exit(2);
        std::vector<char> Buf(4096);
        auto Ptr = (*D)->allocate(4096);
        if (!Ptr || (*D)->copyToDevice(*Ptr, Buf.data(), 4096))
          std::_Exit(3);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "\\[jacc(:device)?\\] host:1 copyToDevice 4096 bytes");
}

} // namespace
