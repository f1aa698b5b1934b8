// Tests of the variant trial: blocks of variant, generic, generic, variant, the median verdict
// with its margin, that a single outlier or a steady change of the work does not decide, and that
// only launches that ran alike compare.
#include "jit/specialize/VariantTrial.h"

#include <gtest/gtest.h>

#include <functional>

using jacc::jit::VariantTrial;
using Verdict = VariantTrial::Verdict;

namespace {

/// Runs the trial to its verdict, launch I (from 0) taking Time(I, RunsVariant).
VariantTrial run(const std::function<double(unsigned, bool)> &Time) {
  VariantTrial T;
  unsigned I = 0;
  for (; T.verdict() == Verdict::Trying; ++I) {
    bool RunsVariant = T.nextRunsVariant();
    T.record(RunsVariant, Time(I, RunsVariant));
  }
  EXPECT_EQ(I, 2 * VariantTrial::Rounds);
  return T;
}

/// The trial where every variant launch takes V and every generic one G.
VariantTrial constant(double V, double G) {
  return run([&](unsigned, bool RunsVariant) { return RunsVariant ? V : G; });
}

TEST(VariantTrialTest, BlocksRunTheVariantFirstAndLast) {
  VariantTrial T;
  std::vector<bool> Order;
  for (unsigned I = 0; I < 8; ++I) {
    Order.push_back(T.nextRunsVariant());
    T.record(Order.back(), 1.0);
  }
  EXPECT_EQ(Order, (std::vector<bool>{true, false, false, true, true, false, false, true}));
}

TEST(VariantTrialTest, KeepsAFasterVariant) {
  VariantTrial T = constant(0.8, 1.0);
  EXPECT_EQ(T.verdict(), Verdict::Keep);
  EXPECT_EQ(T.describe(), "800 ms against the generic 1.00 s");
}

TEST(VariantTrialTest, DropsAVariantNoFasterThanTheMargin) {
  EXPECT_EQ(constant(0.99, 1.0).verdict(), Verdict::Drop);
  EXPECT_EQ(constant(1.2, 1.0).verdict(), Verdict::Drop);
}

TEST(VariantTrialTest, OneOutlierDoesNotDecide) {
  // A slow generic launch (the machine was busy) does not make a slower variant look faster,
  // nor a slow variant launch hide a faster one.
  EXPECT_EQ(run([](unsigned I, bool V) { return V        ? 1.1
                                                : I == 1 ? 9.0
                                                         : 1.0; }).verdict(),
            Verdict::Drop);
  EXPECT_EQ(run([](unsigned I, bool V) { return V ? (I == 3 ? 9.0 : 0.5) : 1.0; }).verdict(),
            Verdict::Keep);
}

// NPB LU's hyperplanes: each push has more work than the last (then less). Alternating one
// launch of each would give the variant the smaller ones (a slower variant looked faster) or the
// larger (a faster one was dropped); the mirrored blocks cancel the trend.
TEST(VariantTrialTest, ASteadyChangeOfTheWorkDoesNotDecide) {
  for (double Step : {0.5, -0.5}) {
    SCOPED_TRACE(Step);
    auto Work = [&](unsigned I) { return 10.0 + Step * I; };
    EXPECT_EQ(run([&](unsigned I, bool) { return Work(I); }).verdict(), Verdict::Drop);
    EXPECT_EQ(run([&](unsigned I, bool V) { return Work(I) * (V ? 0.95 : 1.0); }).verdict(),
              Verdict::Keep);
  }
}

TEST(VariantTrialTest, ExtraLaunchesAfterTheVerdictAreIgnored) {
  VariantTrial T = constant(0.5, 1.0);
  T.record(true, 100.0);
  T.record(true, 100.0);
  EXPECT_EQ(T.verdict(), Verdict::Keep);
}

// A variant whose first launches ran split (exchanges included) against generic ones on one
// device is judged on the launches after the kernel settled on one way of running.
TEST(VariantTrialTest, OnlyLaunchesThatRanAlikeCompare) {
  VariantTrial T;
  T.record(true, 50.0, /*Mode=*/1);
  T.record(false, 4.0, 0);
  while (T.verdict() == Verdict::Trying) {
    bool RunsVariant = T.nextRunsVariant();
    T.record(RunsVariant, RunsVariant ? 3.0 : 4.0, 0);
  }
  EXPECT_EQ(T.verdict(), Verdict::Keep) << T.describe();
  EXPECT_EQ(T.describe(), "3.00 s against the generic 4.00 s");
  // A kernel whose mode never settles is judged after MaxRestarts restarts, on mixed launches.
  VariantTrial Mixed;
  for (unsigned I = 0; Mixed.verdict() == Verdict::Trying && I < 100; ++I)
    Mixed.record(Mixed.nextRunsVariant(), 1.0, I % 2);
  EXPECT_EQ(Mixed.verdict(), Verdict::Drop);
}

} // namespace
