// Tests of the adaptive split-or-duplicate choice: each mode measured once first, then the faster
// one, the slower re-measured every RecheckEvery launches, smoothed timings, one state per kernel.
#include "src/launch/Adaptive.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using jacc::AdaptiveChooser;

// The chooser tells kernels apart by address only: the tests' kernels are local ints.
namespace {

constexpr uint64_t Period = AdaptiveChooser::RecheckEvery;
static_assert(Period >= 3, "prefersSplit takes the majority of three consecutive launches");

/// The mode the chooser runs for Kernel outside its re-checks: the majority of three consecutive
/// choices (at most one of them is a re-check).
bool prefersSplit(AdaptiveChooser &C, const void *Kernel) {
  int Splits = 0;
  for (int I = 0; I < 3; ++I)
    Splits += C.chooseSplit(Kernel);
  return Splits >= 2;
}

/// Chooses for Kernel's first two launches, which measure split then duplicate, and records
/// those timings.
void measureBoth(AdaptiveChooser &C, const void *Kernel, double SplitSeconds,
                 double DuplicateSeconds) {
  ASSERT_TRUE(C.chooseSplit(Kernel)) << "split is measured first";
  C.record(Kernel, true, SplitSeconds);
  ASSERT_FALSE(C.chooseSplit(Kernel)) << "then duplicate";
  C.record(Kernel, false, DuplicateSeconds);
}

TEST(AdaptiveTest, MeasuresSplitThenDuplicateBeforeChoosing) {
  AdaptiveChooser C;
  int Kernel = 0;
  // Until a launch of a mode has been recorded (launches in flight have not reported yet), every
  // launch measures it, re-check or not.
  for (uint64_t Launch = 0; Launch < 2 * Period; ++Launch)
    ASSERT_TRUE(C.chooseSplit(&Kernel)) << "launch " << Launch << ": split is measured first";
  C.record(&Kernel, true, 1.0);
  for (uint64_t Launch = 0; Launch < 2 * Period; ++Launch)
    ASSERT_FALSE(C.chooseSplit(&Kernel)) << "launch " << Launch << ": then duplicate";
  C.record(&Kernel, false, 3.0);
  EXPECT_TRUE(prefersSplit(C, &Kernel)) << "split took 1 s, duplicate 3 s";
}

TEST(AdaptiveTest, RunsTheFasterMode) {
  for (bool SplitFaster : {true, false}) {
    SCOPED_TRACE(SplitFaster ? "split faster" : "duplicate faster");
    AdaptiveChooser C;
    int Kernel = 0;
    ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, SplitFaster ? 0.5 : 2.0, 1.0));
    EXPECT_EQ(prefersSplit(C, &Kernel), SplitFaster);
  }
}

TEST(AdaptiveTest, TieGoesToSplit) {
  AdaptiveChooser C;
  int Kernel = 0;
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, 1.0, 1.0));
  EXPECT_TRUE(prefersSplit(C, &Kernel));
}

TEST(AdaptiveTest, RemeasuresTheSlowerModeEveryRecheckEveryLaunches) {
  for (bool SplitFaster : {true, false}) {
    SCOPED_TRACE(SplitFaster ? "split faster" : "duplicate faster");
    AdaptiveChooser C;
    int Kernel = 0, Other = 0;
    ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, SplitFaster ? 1.0 : 2.0, 1.5));
    // Launches of another kernel in between count for that kernel only.
    std::vector<uint64_t> Rechecks;
    for (uint64_t Launch = 0; Launch < 5 * Period; ++Launch) {
      C.chooseSplit(&Other);
      if (C.chooseSplit(&Kernel) != SplitFaster)
        Rechecks.push_back(Launch);
    }
    ASSERT_EQ(Rechecks.size(), 5u) << "one re-check in each run of RecheckEvery launches";
    for (size_t I = 1; I < Rechecks.size(); ++I)
      EXPECT_EQ(Rechecks[I] - Rechecks[I - 1], Period) << "re-check " << I;
  }
}

TEST(AdaptiveTest, RechecksThatConfirmTheChoiceBackOff) {
  AdaptiveChooser C;
  int Kernel = 0;
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, 1.0, 3.0));
  // Every re-check of duplicate measures it still slower: the intervals double to the cap.
  std::vector<uint64_t> Rechecks;
  for (uint64_t Launch = 0; Launch < 8 * AdaptiveChooser::MaxRecheckEvery; ++Launch)
    if (!C.chooseSplit(&Kernel)) {
      Rechecks.push_back(Launch);
      C.record(&Kernel, false, 3.0);
    }
  ASSERT_GE(Rechecks.size(), 8u);
  uint64_t Want = Period;
  for (size_t I = 1; I < Rechecks.size(); ++I) {
    Want = std::min(2 * Want, AdaptiveChooser::MaxRecheckEvery);
    EXPECT_EQ(Rechecks[I] - Rechecks[I - 1], Want) << "re-check " << I;
  }
  // A re-check that changes the choice starts the intervals again.
  while (C.chooseSplit(&Kernel)) {
  }
  C.record(&Kernel, false, 0.01); // duplicate: (3 + 0.01) / 2 = 1.505, still above split's 1 s
  C.record(&Kernel, false, 0.01); // (1.505 + 0.01) / 2 = 0.76: duplicate is chosen
  ASSERT_FALSE(prefersSplit(C, &Kernel));
  uint64_t Gap = 0;
  while (!C.chooseSplit(&Kernel))
    ++Gap;
  EXPECT_LE(Gap, Period) << "split is re-checked within RecheckEvery launches";
}

TEST(AdaptiveTest, AReMeasurementCanChangeTheChoice) {
  AdaptiveChooser C;
  int Kernel = 0;
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, 2.0, 1.0));
  ASSERT_FALSE(prefersSplit(C, &Kernel));
  // Split got faster (say the data grew): its re-measurements pull its average below duplicate's.
  C.record(&Kernel, true, 0.2); // (2.0 + 0.2) / 2 = 1.1
  EXPECT_FALSE(prefersSplit(C, &Kernel));
  C.record(&Kernel, true, 0.2); // (1.1 + 0.2) / 2 = 0.65
  EXPECT_TRUE(prefersSplit(C, &Kernel));
}

TEST(AdaptiveTest, OneSlowLaunchIsAveragedNotTakenAlone) {
  AdaptiveChooser C;
  int Kernel = 0;
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, 1.0, 2.0));
  C.record(&Kernel, true, 2.8); // smoothed (1.0 + 2.8) / 2 = 1.9, still below 2.0
  EXPECT_TRUE(prefersSplit(C, &Kernel));
  C.record(&Kernel, true, 2.8); // (1.9 + 2.8) / 2 = 2.35
  EXPECT_FALSE(prefersSplit(C, &Kernel));
  C.record(&Kernel, false, 3.0); // duplicate (2.0 + 3.0) / 2 = 2.5
  EXPECT_TRUE(prefersSplit(C, &Kernel));
}

TEST(AdaptiveTest, EachKernelHasItsOwnState) {
  AdaptiveChooser C;
  int SplitKernel = 0, DuplicateKernel = 0, NewKernel = 0;
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &SplitKernel, 1.0, 2.0));
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &DuplicateKernel, 2.0, 1.0));
  EXPECT_TRUE(prefersSplit(C, &SplitKernel));
  EXPECT_FALSE(prefersSplit(C, &DuplicateKernel));
  EXPECT_TRUE(C.chooseSplit(&NewKernel)) << "a new kernel is measured from the start";
  C.record(&NewKernel, true, 5.0);
  EXPECT_FALSE(C.chooseSplit(&NewKernel));
  EXPECT_TRUE(prefersSplit(C, &SplitKernel)) << "the other kernels' timings are untouched";
  EXPECT_FALSE(prefersSplit(C, &DuplicateKernel));
}

} // namespace

TEST(AdaptiveTest, FetchedBytesArePricedAtTheMeasuredBandwidth) {
  AdaptiveChooser C;
  EXPECT_EQ(C.secondsPerByte(), AdaptiveChooser::DefaultSecondsPerByte);
  int Kernel = 0, Noisy = 0;
  // 1 GB fetched in 1 s of a 1.5 s split launch: 1 ns per byte, the computation 0.5 s.
  ASSERT_TRUE(C.chooseSplit(&Kernel));
  C.record(&Kernel, jacc::MeasuredLaunch{true, 1.5, 1000000000, 1.0});
  EXPECT_DOUBLE_EQ(C.secondsPerByte(), 1e-9);
  EXPECT_DOUBLE_EQ(C.price(&Kernel, true), 1.5);
  ASSERT_FALSE(C.chooseSplit(&Kernel));
  C.record(&Kernel, false, 1.2);
  EXPECT_FALSE(prefersSplit(C, &Kernel)) << "split 1.5 s, duplicate 1.2 s";

  // Another kernel's split launch whose small fetch was slow (0.4 s for 1 MB: a hiccup of the
  // machine, not the bandwidth) is priced by its bytes: 0.1 s + 1 MB at about 1.4 ns/B.
  ASSERT_TRUE(C.chooseSplit(&Noisy));
  C.record(&Noisy, jacc::MeasuredLaunch{true, 0.5, 1000000, 0.4});
  EXPECT_NEAR(C.price(&Noisy, true), 0.1 + 1e6 * C.secondsPerByte(), 1e-12);
  EXPECT_LT(C.price(&Noisy, true), 0.11);
  ASSERT_FALSE(C.chooseSplit(&Noisy));
  C.record(&Noisy, false, 0.3);
  EXPECT_TRUE(prefersSplit(C, &Noisy)) << "0.5 s of wall time, but 0.1 s of work and 1 MB";
}

TEST(AdaptiveTest, CostlyRechecksAreSpacedWithinTheBudget) {
  AdaptiveChooser C;
  int Kernel = 0;
  // Split costs 1 ms a launch; a re-check of duplicate costs 20 ms (it gathers every array on
  // every device first): 19 ms extra, which 5 % of 1 ms launches pays for in 380 launches.
  ASSERT_NO_FATAL_FAILURE(measureBoth(C, &Kernel, 0.001, 0.020));
  uint64_t Want = uint64_t(std::ceil(0.019 / (AdaptiveChooser::RecheckBudget * 0.001)));
  ASSERT_GT(Want, 2 * Period);
  std::vector<uint64_t> Rechecks;
  for (uint64_t Launch = 0; Launch < 4 * Want && Rechecks.size() < 3; ++Launch)
    if (!C.chooseSplit(&Kernel)) {
      Rechecks.push_back(Launch);
      C.record(&Kernel, false, 0.020);
    }
  ASSERT_EQ(Rechecks.size(), 3u);
  EXPECT_EQ(Rechecks[0] + 3, Period) << "the first re-check comes as usual (launch 32)";
  uint64_t Gap = Rechecks[1] - Rechecks[0];
  EXPECT_GE(Gap, Want - 1) << "the budget stretches the interval";
  EXPECT_LE(Gap, Want + 1);
  EXPECT_EQ(Rechecks[2] - Rechecks[1], 2 * Gap) << "and confirmations double it from there";
}
