// The background compiler's thread: jobs run in order off the caller's thread, at idle priority;
// drain waits for them, stop drops the jobs not started and waits for the running one.
#include "jit/specialize/BackgroundCompiler.h"

#include "support/IdlePriority.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace jacc;
using namespace jacc::jit;

namespace {

TEST(BackgroundCompilerTest, JobsRunInOrderOffTheCallersThread) {
  BackgroundCompiler BG;
  std::mutex M;
  std::vector<int> Order;
  std::thread::id Caller = std::this_thread::get_id();
  std::atomic<bool> Elsewhere{true};
  for (int I = 0; I < 5; ++I)
    BG.enqueue([&, I] {
      Elsewhere = Elsewhere && std::this_thread::get_id() != Caller;
      std::lock_guard<std::mutex> L(M);
      Order.push_back(I);
    });
  BG.drain();
  EXPECT_EQ(Order, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(Elsewhere);
  BG.drain(); // nothing queued: returns at once
}

// Its compiles must only take CPU time the program leaves: the thread runs under SCHED_IDLE (as
// the kernel reports it for that thread), and so do the threads it starts (clang's large stack).
TEST(BackgroundCompilerTest, TheThreadRunsAtIdlePriority) {
  BackgroundCompiler BG;
  EXPECT_EQ(BG.threadId(), 0) << "no thread before the first job";
  ThreadPriority InJob = ThreadPriority::Normal, InChild = ThreadPriority::Normal;
  pid_t JobTid = 0;
  BG.enqueue([&] {
    InJob = thisThreadPriority();
    JobTid = thisThreadId();
    std::thread Child([&] { InChild = thisThreadPriority(); });
    Child.join();
  });
  BG.drain();
  ASSERT_NE(BG.threadId(), 0);
  EXPECT_EQ(BG.threadId(), JobTid);
  EXPECT_NE(JobTid, thisThreadId()) << "not the caller's thread";
  EXPECT_EQ(InJob, ThreadPriority::Idle);
  EXPECT_EQ(threadPriority(BG.threadId()), ThreadPriority::Idle) << "read back by thread id";
  EXPECT_EQ(InChild, ThreadPriority::Idle) << "inherited by the threads it starts";
  EXPECT_EQ(thisThreadPriority(), ThreadPriority::Normal) << "the caller is left as it was";
}

TEST(BackgroundCompilerTest, StopDropsQueuedJobsAndWaitsForTheRunningOne) {
  BackgroundCompiler BG;
  std::atomic<bool> Started{false}, Finished{false};
  std::atomic<int> Later{0};
  BG.enqueue([&] {
    Started = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    Finished = true;
  });
  for (int I = 0; I < 3; ++I)
    BG.enqueue([&] { ++Later; });
  while (!Started)
    std::this_thread::yield();
  BG.stop();
  EXPECT_TRUE(Finished) << "the running job completes";
  EXPECT_EQ(Later, 0) << "the queued ones are dropped";
  BG.enqueue([&] { ++Later; }); // stopped: nothing runs any more
  BG.drain();
  EXPECT_EQ(Later, 0);
}

} // namespace

namespace {

// cancel() and stop() (exit) make the running job end early through the canceller, and drop
// the queued ones; with nothing running the canceller is not called.
TEST(BackgroundCompilerTest, CancelEndsTheRunningJobEarly) {
  for (bool ByStop : {false, true}) {
    BackgroundCompiler BG;
    std::atomic<bool> Started{false}, Cancelled{false};
    std::atomic<int> Cancels{0}, Later{0};
    BG.setCanceller([&] {
      ++Cancels;
      Cancelled = true;
    });
    BG.cancel();
    EXPECT_EQ(Cancels, 0) << "nothing running";
    BG.enqueue([&] {
      Started = true;
      while (!Cancelled) // a compile that ends only when cancelled
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    BG.enqueue([&] { ++Later; });
    while (!Started)
      std::this_thread::yield();
    if (ByStop)
      BG.stop();
    else
      BG.cancel();
    BG.drain();
    EXPECT_EQ(Cancels, 1);
    EXPECT_EQ(Later, 0) << "the queued job is dropped";
  }
}

} // namespace
