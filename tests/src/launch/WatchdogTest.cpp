// Tests of the launch watchdog: off by default (nothing watched), one warning per launch left
// unfinished past the threshold, none for launches that finish in time.
#include "src/launch/Watchdog.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using jacc::Watchdog;

namespace {

/// Wait up to 5 s for the watchdog's warning count to reach N.
bool warningsReach(unsigned N) {
  for (int I = 0; I < 500 && Watchdog::instance().warnings() < N; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return Watchdog::instance().warnings() >= N;
}

TEST(WatchdogTest, OffByDefaultWatchesNothing) {
  Watchdog &W = Watchdog::instance();
  W.setThreshold(0);
  EXPECT_FALSE(W.enabled());
  EXPECT_EQ(W.watch("kernel 'k'", "host:0"), 0u);
  W.done(0); // harmless
}

TEST(WatchdogTest, NamesAnUnfinishedLaunchOnceAndNotAFinishedOne) {
  Watchdog &W = Watchdog::instance();
  W.setThreshold(0.05);
  ASSERT_TRUE(W.enabled());
  unsigned Before = W.warnings();
  testing::internal::CaptureStderr();
  uint64_t Quick = W.watch("kernel 'quick'", "host:0");
  ASSERT_NE(Quick, 0u);
  W.done(Quick);
  uint64_t Slow = W.watch("kernel 'for (;;) ;'", "host:1");
  ASSERT_TRUE(warningsReach(Before + 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200)); // several periods: still one
  W.done(Slow);
  std::string Err = testing::internal::GetCapturedStderr();
  W.setThreshold(0);
  EXPECT_EQ(W.warnings(), Before + 1) << Err;
  EXPECT_NE(Err.find("jacc: warning: kernel 'for (;;) ;' on host:1 has not finished"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("(JACC_KERNEL_WARN=0.05)"), std::string::npos) << Err;
  EXPECT_EQ(Err.find("quick"), std::string::npos) << Err;
}

} // namespace
