// Bounded spinning: the adaptive budget, the spin slots, and no lost wake-up between a spinning or
// sleeping waiter and its notifier.
#include "support/SpinWait.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace jacc {
namespace {

using std::chrono::microseconds;

const SpinPolicy::Clock::time_point T0{std::chrono::seconds(1000)};

TEST(SpinPolicyTest, SpinsTheWholeLimitWhileWaitsAreShort) {
  SpinPolicy P(microseconds(50));
  EXPECT_EQ(P.budget(T0), microseconds(50));
  for (int I = 0; I < 100; ++I)
    P.record(microseconds(5));
  EXPECT_EQ(P.budget(T0), microseconds(50));
}

TEST(SpinPolicyTest, LongWaitsShortenTheSpinAndShortOnesRestoreIt) {
  SpinPolicy P(microseconds(80));
  // One long gap among short ones keeps the spin.
  P.record(std::chrono::seconds(1));
  EXPECT_EQ(P.budget(T0), microseconds(80));
  for (int I = 0; I < 20; ++I)
    P.record(std::chrono::seconds(1));
  EXPECT_EQ(P.budget(T0), microseconds(80 / SpinPolicy::ShortSpinDivisor));
  for (int I = 0; I < 20; ++I)
    P.record(microseconds(1));
  EXPECT_EQ(P.budget(T0), microseconds(80));
}

TEST(SpinPolicyTest, APreemptedSpinnerSleepsForLongerEachTimeItHappensSoonAgain) {
  using std::chrono::milliseconds;
  SpinPolicy P(microseconds(50));
  const auto First = SpinPolicy::FirstPenalty;
  P.preempted(T0);
  EXPECT_EQ(P.budget(T0).count(), 0);
  EXPECT_EQ(P.budget(T0 + First - microseconds(1)).count(), 0);
  EXPECT_EQ(P.budget(T0 + First), microseconds(50));
  // Soon again: twice as long.
  auto T1 = T0 + 2 * First;
  P.preempted(T1);
  EXPECT_EQ(P.budget(T1 + 2 * First - microseconds(1)).count(), 0);
  EXPECT_EQ(P.budget(T1 + 2 * First), microseconds(50));
  // Again and again: up to the max.
  auto T = T1;
  for (int I = 0; I < 30; ++I)
    P.preempted(T += milliseconds(1));
  EXPECT_EQ(P.budget(T + SpinPolicy::MaxPenalty - microseconds(1)).count(), 0);
  EXPECT_EQ(P.budget(T + SpinPolicy::MaxPenalty), microseconds(50));
  // Long after the last one: the first penalty again.
  T += 10 * SpinPolicy::MaxPenalty;
  P.preempted(T);
  EXPECT_EQ(P.budget(T + First), microseconds(50));
}

TEST(SpinPolicyTest, ZeroLimitNeverSpins) {
  SpinPolicy P(microseconds(0));
  EXPECT_EQ(P.budget(T0).count(), 0);
  P.record(std::chrono::seconds(1));
  EXPECT_EQ(P.budget(T0).count(), 0);
}

TEST(SpinSlotsTest, SpinningWhileTheBusyThreadsAndTheApplicationFit) {
  SpinSlots Two(2);
  // The application's thread spins only for a busy jacc thread.
  EXPECT_FALSE(Two.fitWithWorker());
  {
    BusyMark A(Two);
    A.enter();
    A.enter(); // once only
    EXPECT_TRUE(Two.fit());
    EXPECT_TRUE(Two.fitWithWorker());
    BusyMark B(Two);
    B.enter();
    EXPECT_FALSE(Two.fit());
    EXPECT_FALSE(Two.fitWithWorker());
    B.leave();
    EXPECT_TRUE(Two.fit());
  } // A leaves as it goes
  EXPECT_TRUE(Two.fit());
  EXPECT_FALSE(Two.fitWithWorker());
  SpinSlots One(1);
  BusyMark C(One);
  C.enter();
  EXPECT_FALSE(One.fit());
  EXPECT_FALSE(One.fitWithWorker());
}

/// The machine's runnable threads the next readings of the watch test find.
std::vector<unsigned> Readings;
unsigned nextReading() {
  unsigned R = Readings.front();
  Readings.erase(Readings.begin());
  return R;
}

TEST(SpinSlotsTest, OnlyAnOverloadInTwoReadingsInARowStopsTheSpinning) {
  SpinSlots Two(2, /*WatchMachine=*/true, nextReading);
  // A reading stands a few milliseconds: each step waits for the next one.
  auto Next = [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(8));
    return Two.fit();
  };
  Readings = {2, 3, 2, 3, 3, 4, 2, 3, 2};
  EXPECT_TRUE(Next()) << "2 runnable on 2 cores";
  EXPECT_TRUE(Next()) << "one reading of 3: a passing thread";
  EXPECT_TRUE(Next());
  EXPECT_TRUE(Next());
  EXPECT_FALSE(Next()) << "3 twice in a row: overloaded";
  EXPECT_FALSE(Next()) << "still";
  EXPECT_TRUE(Next()) << "back to 2";
  EXPECT_TRUE(Next());
  EXPECT_TRUE(Next());
  EXPECT_TRUE(Readings.empty());
}

TEST(SpinThenBlockTest, ReadyAtOnceNeitherSpinsNorBlocks) {
  SpinPolicy P(microseconds(50));
  bool Blocked = false;
  spinThenBlock(P, [] { return true; }, [&] { Blocked = true; });
  EXPECT_FALSE(Blocked);
}

TEST(SpinThenBlockTest, WithoutRoomOnTheCoresItBlocks) {
  SpinPolicy P(std::chrono::seconds(10));
  SpinSlots One(1);
  BusyMark Mark(One);
  std::atomic<bool> Ready{false};
  bool Blocked = false;
  // The busy thread and the application's do not fit on one core: Block runs at once (rather
  // than after the 10 s), not busy, and makes Ready() true.
  spinThenBlock(
      P, [&] { return Ready.load(); },
      [&] {
        Blocked = true;
        EXPECT_TRUE(One.fit());
        Ready = true;
      },
      &Mark);
  EXPECT_TRUE(Blocked);
  // Awake again: busy.
  EXPECT_FALSE(One.fit());
}

TEST(SpinThenBlockTest, ASpinThatCatchesTheWaitStaysBusy) {
  SpinPolicy P(std::chrono::seconds(10));
  SpinSlots Two(2);
  BusyMark Mark(Two);
  int Polls = 0;
  spinThenBlock(P, [&] { return ++Polls >= 3; }, [] { FAIL() << "blocked"; }, &Mark);
  EXPECT_GE(Polls, 3);
  EXPECT_TRUE(Two.fitWithWorker());
}

/// Two threads hand a token back and forth, each waiting with spinThenBlock and a condition
/// variable behind it, as a device's stream thread and the launching thread do. A lost wake-up
/// hangs (meson's timeout fails the test); the count checks that every hand-off happened once.
void pingPong(microseconds Limit, SpinSlots &Slots) {
  constexpr int Rounds = 20000;
  SpinPolicy PingSpin(Limit), PongSpin(Limit);
  std::mutex M;
  std::condition_variable CV;
  std::atomic<int> Turn{0}; // even: ping's turn, odd: pong's
  auto WaitFor = [&](SpinPolicy &P, BusyMark &Mark, int Parity) {
    auto Mine = [&] { return Turn.load(std::memory_order_seq_cst) % 2 == Parity; };
    spinThenBlock(
        P, Mine,
        [&] {
          std::unique_lock<std::mutex> L(M);
          CV.wait(L, Mine);
        },
        &Mark);
  };
  auto Pass = [&] {
    { std::lock_guard<std::mutex> L(M); Turn.fetch_add(1, std::memory_order_seq_cst); }
    CV.notify_all();
  };
  int PongRounds = 0;
  std::thread Pong([&] {
    BusyMark Mark(Slots);
    for (int I = 0; I < Rounds; ++I) {
      WaitFor(PongSpin, Mark, 1);
      ++PongRounds;
      Pass();
    }
  });
  BusyMark Mark(Slots);
  for (int I = 0; I < Rounds; ++I) {
    WaitFor(PingSpin, Mark, 0);
    Pass();
  }
  Pong.join();
  EXPECT_EQ(PongRounds, Rounds);
  EXPECT_EQ(Turn.load(), 2 * Rounds);
}

TEST(SpinThenBlockTest, PingPongSpinning) {
  SpinSlots Three(3);
  pingPong(microseconds(50), Three);
}

TEST(SpinThenBlockTest, PingPongOneSpinner) {
  // One of the two may spin at a time: the other sleeps and is woken.
  SpinSlots Two(2);
  pingPong(microseconds(50), Two);
}

TEST(SpinThenBlockTest, PingPongSleeping) {
  SpinSlots One(1);
  pingPong(microseconds(50), One);
}

TEST(SpinThenBlockTest, PingPongShortSpins) {
  // Spins shorter than a hand-off: most waits spin, give up and sleep.
  pingPong(microseconds(1), SpinSlots::process());
}


TEST(WaitForWorkTest, AConsumerGetsEveryItemSpinningOrSleeping) {
  // A producer queues items one by one, pausing now and then so that the consumer's spin runs
  // out and it sleeps; every item arrives once, and the consumer is awake while it works.
  constexpr int Items = 20000;
  for (unsigned Cores : {1u, 3u}) {
    SpinSlots Slots(Cores);
    SpinPolicy Policy(microseconds(20));
    std::mutex M;
    std::condition_variable CV;
    int Queue = 0; // items queued and not taken, under M
    std::atomic<int> Queued{0};
    std::atomic<bool> Awake{true};
    std::thread Producer([&] {
      for (int I = 0; I < Items; ++I) {
        {
          std::lock_guard<std::mutex> L(M);
          Queued.store(++Queue);
        }
        CV.notify_one();
        if (I % 1000 == 0)
          std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
    BusyMark Busy(Slots);
    std::unique_lock<std::mutex> Lock(M, std::defer_lock);
    int Taken = 0;
    while (Taken < Items) {
      waitForWork(Policy, Busy, Awake, Lock, CV, [&] { return Queued.load() != 0; },
                  [&] { return Queue != 0; });
      ASSERT_TRUE(Lock.owns_lock());
      EXPECT_TRUE(Awake.load());
      Taken += Queue;
      Queue = 0;
      Queued.store(0);
      Lock.unlock();
    }
    Producer.join();
    EXPECT_EQ(Taken, Items);
  }
}

TEST(LockSpinningTest, TakesAFreeMutex) {
  std::mutex M;
  std::unique_lock<std::mutex> Lock(M, std::defer_lock);
  lockSpinning(Lock);
  EXPECT_TRUE(Lock.owns_lock());
  EXPECT_FALSE(M.try_lock());
}

// Held past its spin, the mutex is waited for: the lock is taken only after the holder's
// release, and then owned.
TEST(LockSpinningTest, WaitsForAHolderThatOutlastsTheSpin) {
  std::mutex M;
  std::atomic<bool> Held{false}, Released{false};
  std::thread Holder([&] {
    std::lock_guard<std::mutex> L(M);
    Held = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Released = true;
  });
  while (!Held)
    cpuRelax();
  std::unique_lock<std::mutex> Lock(M, std::defer_lock);
  lockSpinning(Lock);
  EXPECT_TRUE(Released.load());
  EXPECT_TRUE(Lock.owns_lock());
  Lock.unlock();
  Holder.join();
}

} // namespace
} // namespace jacc
