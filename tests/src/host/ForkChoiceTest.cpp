// Forking the team or running its members in turn: the choice per kernel from measured runs.
#include "src/host/ForkChoice.h"

#include <gtest/gtest.h>

namespace jacc {
namespace {

using std::chrono::nanoseconds;

const ForkChoice::Limits L{nanoseconds(2000), nanoseconds(4000)};
// Two entry points, as far apart as code is.
alignas(64) char KernelA[64], KernelB[64];

/// Runs Code once with the time Took when the run is timed; returns how it ran.
ForkChoice::Choice run(ForkChoice &F, const void *Code, nanoseconds Took) {
  ForkChoice::Choice C = F.choose(Code);
  if (C.Timed)
    F.record(Code, C.InTurn, Took);
  return C;
}

TEST(ForkChoiceTest, ANewKernelRunsOnTheTeamAndIsTimed) {
  ForkChoice F(L);
  ForkChoice::Choice C = F.choose(KernelA);
  EXPECT_FALSE(C.InTurn);
  EXPECT_TRUE(C.Timed);
}

TEST(ForkChoiceTest, AShortTeamRunSendsTheKernelInTurnAndALongOneBack) {
  ForkChoice F(L);
  EXPECT_FALSE(run(F, KernelA, nanoseconds(1000)).InTurn);
  EXPECT_TRUE(run(F, KernelA, nanoseconds(500)).InTurn);
  EXPECT_TRUE(run(F, KernelA, nanoseconds(4500)).InTurn); // this run was long: back
  EXPECT_FALSE(F.choose(KernelA).InTurn);
}

TEST(ForkChoiceTest, BetweenTheLimitsAKernelKeepsItsMode) {
  ForkChoice F(L);
  for (int I = 0; I < 100; ++I)
    EXPECT_FALSE(run(F, KernelA, nanoseconds(3000)).InTurn); // team, not short
  run(F, KernelB, nanoseconds(100));
  for (int I = 0; I < 100; ++I)
    EXPECT_TRUE(run(F, KernelB, nanoseconds(3000)).InTurn); // in turn, not long
}

TEST(ForkChoiceTest, KernelsAreTimedAfterEachChangeThenSampled) {
  ForkChoice F(L);
  std::vector<int> Timed;
  for (int I = 0; I < 100; ++I)
    if (run(F, KernelA, nanoseconds(3000)).Timed)
      Timed.push_back(I);
  std::vector<int> Expected = {0, 1, 2, 3, 32, 64, 96};
  EXPECT_EQ(Timed, Expected);
  // A change restarts the count: the next runs are timed again.
  run(F, KernelA, nanoseconds(0)); // run 100, not timed: no change
  for (int I = 101; I < 128; ++I)
    run(F, KernelA, nanoseconds(0));
  ASSERT_TRUE(F.choose(KernelA).Timed); // run 128 is sampled ...
  F.record(KernelA, false, nanoseconds(100)); // ... and short
  for (uint32_t I = 0; I < ForkChoice::TimedAfterChange; ++I)
    EXPECT_TRUE(F.choose(KernelA).Timed);
  EXPECT_FALSE(F.choose(KernelA).Timed);
}

TEST(ForkChoiceTest, AResultForTheOtherModeIsIgnored) {
  ForkChoice F(L);
  F.choose(KernelA);
  F.record(KernelA, /*InTurn=*/true, nanoseconds(100000)); // not how it ran
  EXPECT_FALSE(F.choose(KernelA).InTurn);
  F.record(KernelA, false, nanoseconds(10));
  EXPECT_TRUE(F.choose(KernelA).InTurn);
}

TEST(ForkChoiceTest, KernelsAreLearntSeparately) {
  ForkChoice F(L);
  run(F, KernelA, nanoseconds(100));
  run(F, KernelB, nanoseconds(100000));
  EXPECT_TRUE(F.choose(KernelA).InTurn);
  EXPECT_FALSE(F.choose(KernelB).InTurn);
}

} // namespace
} // namespace jacc
