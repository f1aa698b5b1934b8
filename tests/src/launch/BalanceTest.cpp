// The automatic balance: weights from measured speeds, on synthetic run times.
#include "src/launch/Balance.h"

#include <gtest/gtest.h>

#include <cmath>

namespace jacc {
namespace {

int KernelA, KernelB;

/// One launch of Kernel on devices of the given speeds (work per nanosecond): each part's
/// time is its share of the work over its speed. Returns whether the launch was timed.
bool launch(Balancer &B, const void *Kernel, const std::vector<double> &Speeds,
            double Work = 1e6) {
  Balancer::Next N = B.next(Kernel, Speeds.size());
  if (!N.Timed)
    return false;
  std::vector<int64_t> Nanos;
  for (size_t D = 0; D < Speeds.size(); ++D) {
    double Share = double(N.Shares[D].End - N.Shares[D].Begin) / N.Shares[D].Scale;
    Nanos.push_back(std::max<int64_t>(1, std::llround(Work * Share / Speeds[D])));
  }
  B.record(Kernel, Nanos);
  return true;
}

TEST(BalanceTest, AKernelStartsWithEqualShares) {
  Balancer B;
  Balancer::Next N = B.next(&KernelA, 4);
  ASSERT_EQ(N.Shares.size(), 4u);
  for (unsigned D = 0; D < 4; ++D)
    EXPECT_NEAR(double(N.Shares[D].End - N.Shares[D].Begin) / N.Shares[D].Scale, 0.25, 1e-6);
  EXPECT_TRUE(N.Timed);
}

TEST(BalanceTest, SharesConvergeToTheSpeeds) {
  Balancer B;
  for (int I = 0; I < 20; ++I)
    launch(B, &KernelA, {3, 1});
  std::vector<double> W = B.weights(&KernelA);
  ASSERT_EQ(W.size(), 2u);
  EXPECT_NEAR(W[0], 0.75, 0.01);
  EXPECT_NEAR(W[1], 0.25, 0.01);
  EXPECT_TRUE(B.balanced(&KernelA));
  for (int I = 0; I < 20; ++I)
    launch(B, &KernelB, {1, 2, 1});
  W = B.weights(&KernelB);
  EXPECT_NEAR(W[1], 0.5, 0.01);
}

TEST(BalanceTest, BalancedKernelsAreRecheckedNowAndThen) {
  Balancer B;
  while (!B.balanced(&KernelA))
    launch(B, &KernelA, {1, 1, 1});
  int Timed = 0;
  for (unsigned I = 0; I < 4 * Balancer::RecheckEvery; ++I)
    Timed += launch(B, &KernelA, {1, 1, 1});
  EXPECT_EQ(Timed, 4);
  // A device slowing down is noticed at a re-check, and the shares move again.
  for (unsigned I = 0; I < 10 * Balancer::RecheckEvery; ++I)
    launch(B, &KernelA, {1, 1, 0.25});
  EXPECT_NEAR(B.weights(&KernelA)[2], 1.0 / 9, 0.02);
}

TEST(BalanceTest, OneInterruptedRunMovesNothing) {
  // Device 0 three times faster, then one run in which its thread lost the core for ten times
  // its work: the weights stay where the other runs put them.
  Balancer B;
  for (int I = 0; I < 20; ++I)
    launch(B, &KernelA, {3, 1});
  B.next(&KernelA, 2);
  B.record(&KernelA, {int64_t(10 * 250000), 250000});
  EXPECT_NEAR(B.weights(&KernelA)[0], 0.75, 0.01);
  // Two such runs in a row are a change of speed: the weights follow.
  B.next(&KernelA, 2);
  B.record(&KernelA, {int64_t(10 * 250000), 250000});
  EXPECT_LT(B.weights(&KernelA)[0], 0.6);
}

TEST(BalanceTest, ASlowDeviceKeepsAMeasurableShare) {
  Balancer B;
  for (int I = 0; I < 50; ++I)
    launch(B, &KernelA, {1000, 1});
  EXPECT_GE(B.weights(&KernelA)[1], Balancer::MinWeight * 0.99);
}

TEST(BalanceTest, ClearForgetsEveryKernel) {
  Balancer B;
  for (int I = 0; I < 10; ++I)
    launch(B, &KernelA, {3, 1});
  B.clear();
  EXPECT_TRUE(B.weights(&KernelA).empty());
  EXPECT_FALSE(B.balanced(&KernelA));
}

TEST(BalanceTest, UntimedPartsTeachNothing) {
  Balancer B;
  B.next(&KernelA, 2);
  B.record(&KernelA, {1000, -1});
  B.record(&KernelA, {1000});        // not one per device
  B.record(&KernelB, {1000, 3000}); // never launched
  EXPECT_EQ(B.weights(&KernelA), (std::vector<double>{0.5, 0.5}));
  EXPECT_TRUE(B.weights(&KernelB).empty());
}

TEST(BalanceTest, AKernelBalancesOverItsMembersOnly) {
  // Devices 1 and 3 of four, device 3 three times slower: the others get nothing, device 1
  // about three quarters; a change of members starts again from equal weights.
  Balancer B;
  unsigned Members[] = {1, 3};
  for (int I = 0; I < 20; ++I) {
    Balancer::Next N = B.next(&KernelA, Members, 4);
    ASSERT_EQ(N.Shares.size(), 4u);
    EXPECT_EQ(N.Shares[0].End - N.Shares[0].Begin, 0);
    EXPECT_EQ(N.Shares[2].End - N.Shares[2].Begin, 0);
    if (!N.Timed)
      continue;
    auto Time = [&](unsigned D, double Speed) {
      double Share = double(N.Shares[D].End - N.Shares[D].Begin) / N.Shares[D].Scale;
      return std::max<int64_t>(1, std::llround(1e6 * Share / Speed));
    };
    B.record(&KernelA, {-1, Time(1, 3.0), -1, Time(3, 1.0)}); // the others untimed: ignored
  }
  std::vector<double> W = B.weights(&KernelA);
  ASSERT_EQ(W.size(), 2u);
  EXPECT_NEAR(W[0], 0.75, 0.02);
  unsigned Others[] = {0, 1, 3};
  B.next(&KernelA, Others, 4);
  EXPECT_EQ(B.weights(&KernelA), (std::vector<double>{1.0 / 3, 1.0 / 3, 1.0 / 3}));
}

} // namespace
} // namespace jacc
