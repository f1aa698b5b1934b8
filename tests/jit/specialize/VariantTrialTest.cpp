// Tests of the variant trial: alternation of the timed launches, the median verdict with its
// margin, and that a single outlier does not decide.
#include "jit/specialize/VariantTrial.h"

#include <gtest/gtest.h>

using jacc::jit::VariantTrial;
using Verdict = VariantTrial::Verdict;

namespace {

/// Feeds Rounds launches of each code, alternating as the trial asks.
VariantTrial run(std::vector<double> VariantTimes, std::vector<double> GenericTimes) {
  VariantTrial T;
  size_t V = 0, G = 0;
  while (T.verdict() == Verdict::Trying) {
    bool RunsVariant = T.nextRunsVariant();
    T.record(RunsVariant, RunsVariant ? VariantTimes.at(V++) : GenericTimes.at(G++));
  }
  EXPECT_EQ(V, VariantTrial::Rounds);
  EXPECT_EQ(G, VariantTrial::Rounds);
  return T;
}

TEST(VariantTrialTest, AlternatesVariantFirst) {
  VariantTrial T;
  std::vector<bool> Order;
  for (unsigned I = 0; I < 2 * VariantTrial::Rounds; ++I) {
    Order.push_back(T.nextRunsVariant());
    T.record(Order.back(), 1.0);
  }
  EXPECT_EQ(Order, (std::vector<bool>{true, false, true, false, true, false, true, false}));
}

TEST(VariantTrialTest, KeepsAFasterVariant) {
  VariantTrial T = run({0.80, 0.81, 0.79, 0.80}, {1.00, 1.01, 0.99, 1.00});
  EXPECT_EQ(T.verdict(), Verdict::Keep);
  EXPECT_EQ(T.describe(), "800 ms against the generic 1.00 s");
}

TEST(VariantTrialTest, DropsAVariantNoFasterThanTheMargin) {
  EXPECT_EQ(run({0.99, 0.99, 0.99, 0.99}, {1.00, 1.00, 1.00, 1.00}).verdict(), Verdict::Drop);
  EXPECT_EQ(run({1.20, 1.10, 1.30, 1.20}, {1.00, 1.00, 1.00, 1.00}).verdict(), Verdict::Drop);
}

TEST(VariantTrialTest, OneOutlierDoesNotDecide) {
  // A slow generic launch (the machine was busy) does not make a slower variant look faster,
  // nor a slow variant launch hide a faster one.
  EXPECT_EQ(run({1.10, 1.10, 1.10, 1.10}, {9.00, 1.00, 1.00, 1.00}).verdict(), Verdict::Drop);
  EXPECT_EQ(run({0.50, 9.00, 0.50, 0.50}, {1.00, 1.00, 1.00, 1.00}).verdict(), Verdict::Keep);
}

TEST(VariantTrialTest, ExtraLaunchesAfterTheRoundsAreIgnored) {
  VariantTrial T = run({0.5, 0.5, 0.5, 0.5}, {1, 1, 1, 1});
  T.record(true, 100.0);
  T.record(true, 100.0);
  EXPECT_EQ(T.verdict(), Verdict::Keep);
}

} // namespace
