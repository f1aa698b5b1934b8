// Tests of the thread team behind a host device: each member runs each launch once, barriers
// hold, back-to-back runs reuse the threads.
#include "src/host/ThreadTeam.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <time.h>

using namespace jacc;
using namespace std::chrono_literals;

namespace {

/// Threads of this process, from /proc (the team must not create any for size 1).
int processThreads() {
  std::ifstream Status("/proc/self/status");
  std::string Line;
  while (std::getline(Status, Line))
    if (Line.rfind("Threads:", 0) == 0)
      return std::stoi(Line.substr(8));
  return -1;
}

double processCpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

TEST(ThreadTeamTest, EveryTidOncePerRun) {
  for (unsigned Size = 1; Size <= 4; ++Size) {
    ThreadTeam Team(Size, 100us);
    EXPECT_EQ(Team.size(), Size);
    std::vector<std::atomic<unsigned>> Calls(Size);
    std::atomic<unsigned> OutOfRange{0};
    Team.run([&](unsigned Tid) {
      if (Tid >= Size)
        OutOfRange.fetch_add(1);
      else
        Calls[Tid].fetch_add(1);
    });
    EXPECT_EQ(OutOfRange.load(), 0u);
    for (unsigned Tid = 0; Tid < Size; ++Tid)
      EXPECT_EQ(Calls[Tid].load(), 1u) << "size " << Size << " tid " << Tid;
  }
}

TEST(ThreadTeamTest, CallerIsMemberZero) {
  for (unsigned Size = 1; Size <= 4; ++Size) {
    ThreadTeam Team(Size, 100us);
    std::thread::id Caller = std::this_thread::get_id();
    std::vector<std::thread::id> Ids(Size);
    Team.run([&](unsigned Tid) { Ids[Tid] = std::this_thread::get_id(); });
    EXPECT_EQ(Ids[0], Caller);
    for (unsigned Tid = 1; Tid < Size; ++Tid) {
      EXPECT_NE(Ids[Tid], Caller);
      for (unsigned Other = 1; Other < Tid; ++Other)
        EXPECT_NE(Ids[Tid], Ids[Other]);
    }
  }
}

TEST(ThreadTeamTest, SizeOneCreatesNoThread) {
  int Before = processThreads();
  ASSERT_GT(Before, 0);
  {
    ThreadTeam One(1, 100us);
    EXPECT_EQ(processThreads(), Before);
    bool Ran = false;
    One.run([&](unsigned Tid) { Ran = Tid == 0; });
    EXPECT_TRUE(Ran);
    EXPECT_EQ(processThreads(), Before);
  }
  {
    ThreadTeam Three(3, 100us);
    EXPECT_EQ(processThreads(), Before + 2);
  }
  EXPECT_EQ(processThreads(), Before);
}

TEST(ThreadTeamTest, ManyBackToBackRuns) {
  constexpr unsigned Runs = 20000;
  for (unsigned Size = 1; Size <= 4; ++Size) {
    ThreadTeam Team(Size, 200us);
    // Plain counters: each is only touched by its own member; run() must order the runs.
    std::vector<unsigned> Calls(Size, 0);
    unsigned SumCheck = 0;
    for (unsigned R = 0; R < Runs; ++R) {
      Team.run([&](unsigned Tid) { ++Calls[Tid]; });
      // After run() returns, all members' writes must be visible to the caller.
      SumCheck = 0;
      for (unsigned C : Calls)
        SumCheck += C;
      ASSERT_EQ(SumCheck, (R + 1) * Size) << "size " << Size;
    }
  }
}

/// Every member writes its slot for phase P, passes a barrier, checks every slot shows phase P,
/// passes another barrier (so nobody overwrites a slot still being checked).
void checkBarrierPhases(unsigned Size, std::chrono::microseconds SpinTime, unsigned Phases,
                        unsigned Runs) {
  ThreadTeam Team(Size, SpinTime);
  std::vector<unsigned> Slot(Size, ~0u);
  std::atomic<unsigned> Arrived{0};
  std::atomic<unsigned> Errors{0};
  for (unsigned R = 0; R < Runs; ++R) {
    Arrived.store(0);
    Team.run([&](unsigned Tid) {
      for (unsigned P = 0; P < Phases; ++P) {
        Slot[Tid] = P;
        Arrived.fetch_add(1, std::memory_order_relaxed);
        Team.barrier();
        if (Arrived.load(std::memory_order_relaxed) != (P + 1) * Size)
          Errors.fetch_add(1);
        for (unsigned Other = 0; Other < Size; ++Other)
          if (Slot[Other] != P)
            Errors.fetch_add(1);
        Team.barrier();
      }
    });
    ASSERT_EQ(Errors.load(), 0u) << "size " << Size << " run " << R;
  }
}

TEST(ThreadTeamTest, BarrierPhases) {
  for (unsigned Size = 1; Size <= 4; ++Size)
    checkBarrierPhases(Size, 200us, 500, 3);
}

TEST(ThreadTeamTest, BarrierOversubscribedWithoutSpin) {
  // More threads than this machine probably has cores, and helpers block between runs: the barrier
  // must yield rather than livelock, and blocked helpers must be woken by each run.
  auto Start = std::chrono::steady_clock::now();
  checkBarrierPhases(4, 0us, 200, 50);
  checkBarrierPhases(std::max(4u, 2 * std::thread::hardware_concurrency()), 0us, 50, 10);
  EXPECT_LT(std::chrono::steady_clock::now() - Start, 20s);
}

TEST(ThreadTeamTest, BlockedHelpersAreWoken) {
  for (unsigned Size = 2; Size <= 4; ++Size) {
    ThreadTeam Team(Size, 0us);
    std::atomic<unsigned> Calls{0};
    for (unsigned R = 0; R < 2000; ++R)
      Team.run([&](unsigned) { Calls.fetch_add(1); });
    EXPECT_EQ(Calls.load(), 2000 * Size);
  }
}

TEST(ThreadTeamTest, ConcurrentCallersAreSerialised) {
  constexpr unsigned Size = 3, Iters = 500;
  ThreadTeam Team(Size, 100us);
  std::atomic<unsigned> Active{0}, Overlaps{0};
  // Plain counters: a data race here (visible to TSan) means runs overlapped.
  std::vector<unsigned> PerTid(Size, 0);
  auto Caller = [&] {
    for (unsigned I = 0; I < Iters; ++I)
      Team.run([&](unsigned Tid) {
        if (Active.fetch_add(1) + 1 > Size)
          Overlaps.fetch_add(1);
        ++PerTid[Tid];
        Team.barrier();
        Active.fetch_sub(1);
      });
  };
  std::thread A(Caller), B(Caller);
  A.join();
  B.join();
  EXPECT_EQ(Overlaps.load(), 0u);
  for (unsigned Tid = 0; Tid < Size; ++Tid)
    EXPECT_EQ(PerTid[Tid], 2 * Iters);
}

TEST(ThreadTeamTest, RunAfterIdleLongerThanSpinTime) {
  ThreadTeam Team(3, 1000us);
  std::atomic<unsigned> Calls{0};
  Team.run([&](unsigned) { Calls.fetch_add(1); });
  std::this_thread::sleep_for(20ms);
  Team.run([&](unsigned) { Calls.fetch_add(1); });
  std::this_thread::sleep_for(20ms);
  Team.run([&](unsigned) { Calls.fetch_add(1); });
  EXPECT_EQ(Calls.load(), 9u);
}

TEST(ThreadTeamTest, IdleTeamUsesNoCpu) {
  ThreadTeam Team(4, 1000us);
  Team.run([](unsigned) {});
  // Past the spin time the helpers must be blocked, not spinning.
  std::this_thread::sleep_for(50ms);
  double Before = processCpuSeconds();
  std::this_thread::sleep_for(200ms);
  double Used = processCpuSeconds() - Before;
  EXPECT_LT(Used, 0.05) << "idle helpers still burn CPU";
}

TEST(ThreadTeamTest, DestroyWithBlockedOrSpinningHelpers) {
  {
    ThreadTeam Unused(4, 100us); // never ran
  }
  {
    ThreadTeam Spinning(4, 10s); // helpers are spinning when destroyed
    Spinning.run([](unsigned) {});
  }
  {
    ThreadTeam Blocked(4, 0us);
    Blocked.run([](unsigned) {});
    std::this_thread::sleep_for(10ms); // helpers are blocked when destroyed
  }
  SUCCEED();
}

} // namespace
