// Tests of the program-level choice between spreading the kernels over the devices and running
// them on one: windows timed under each (either first), kernels weighted by how often they run,
// the first launch after a switch and launches still gathering data on one device not counted,
// windows far costlier than the other regime ended early, re-checks backing off within their
// budget and pricing the switches, fixed regimes.
#include "src/launch/ProgramSpread.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using jacc::ProgramSpread;
using Regime = ProgramSpread::Regime;

namespace {

/// The tests' unit of time: launches of microseconds, whose windows end by their count.
constexpr double Us = 1e-6;

/// A program cycling over Kernels (each entry one launch of a time step), each launch taking
/// Cost(kernel, regime) units of Unit seconds; Launches of it, returning each launch's regime.
std::vector<Regime> run(ProgramSpread &P, const std::vector<const void *> &Kernels,
                        uint64_t Launches, const std::function<double(const void *, Regime)> &Cost,
                        Regime First = Regime::Spread, double Unit = Us) {
  std::vector<Regime> Out;
  for (uint64_t I = 0; I < Launches; ++I) {
    const void *K = Kernels[I % Kernels.size()];
    ProgramSpread::Step S = P.next(K, First);
    EXPECT_TRUE(S.Measure);
    P.record(K, S.How, Cost(K, S.How) * Unit);
    Out.push_back(S.How);
  }
  return Out;
}

constexpr uint64_t W = ProgramSpread::MinWindow; // a window of a program with few kernels

/// Launches [B, E) of Rs all ran under R.
bool allIn(const std::vector<Regime> &Rs, uint64_t B, uint64_t E, Regime R) {
  for (uint64_t I = B; I < E; ++I)
    if (Rs[I] != R)
      return false;
  return true;
}

int A, B, C; // kernels, told apart by address

/// What one launch of a program driven by hand reports.
struct Recorded {
  double Micros = 0;
  bool OneOff = false;
  uint64_t FetchedBytes = 0;
};

/// A program alternating kernels B and A for Launches launches, each recorded as Report (the
/// launch's number, its regime) says.
void alternate(ProgramSpread &P, uint64_t Launches,
               const std::function<Recorded(uint64_t, Regime)> &Report) {
  for (uint64_t Launch = 0; Launch < Launches; ++Launch) {
    const void *K = Launch % 2 ? &A : &B;
    ProgramSpread::Step S = P.next(K);
    Recorded R = Report(Launch, S.How);
    P.record(K, S.How, R.Micros * Us, R.OneOff, R.FetchedBytes);
  }
}

TEST(ProgramSpreadTest, TimesSpreadThenOneDeviceThenRunsTheCheaper) {
  ProgramSpread P;
  // Spreading costs twice what one device does (the kernels fetch what the others split).
  auto Rs = run(P, {&A, &B}, 5 * W,
                [](const void *, Regime R) { return R == Regime::Spread ? 2.0 : 1.0; });
  EXPECT_TRUE(allIn(Rs, 0, W, Regime::Spread)) << "spread timed first";
  EXPECT_TRUE(allIn(Rs, W, 5 * W, Regime::OneDevice)) << "then one device, then chosen";
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

// Devices that share their cores start on one device (what the program does alone), then time
// spreading.
TEST(ProgramSpreadTest, OneDeviceMayBeTimedFirst) {
  ProgramSpread P;
  auto Rs = run(
      P, {&A, &B}, 5 * W, [](const void *, Regime R) { return R == Regime::Spread ? 0.5 : 1.0; },
      Regime::OneDevice);
  EXPECT_TRUE(allIn(Rs, 0, W, Regime::OneDevice)) << "one device timed first";
  EXPECT_TRUE(allIn(Rs, W, 5 * W, Regime::Spread)) << "then spread, and chosen";
  EXPECT_EQ(P.chosen(), Regime::Spread);
}

TEST(ProgramSpreadTest, AWindowFarMoreCostlyThanTheOtherRegimeEndsEarly) {
  // Spread, the kernels run ten times slower: the first spread window ends after AbortAfter
  // launches, and so does each re-check.
  ProgramSpread P;
  auto Rs = run(
      P, {&A, &B}, 600 * W, [](const void *, Regime R) { return R == Regime::Spread ? 10.0 : 1.0; },
      Regime::OneDevice);
  EXPECT_TRUE(allIn(Rs, 0, W, Regime::OneDevice));
  // The first launch of each kernel after the switch is not timed; then AbortAfter are.
  uint64_t Spread = 2 + ProgramSpread::AbortAfter;
  EXPECT_TRUE(allIn(Rs, W, W + Spread, Regime::Spread));
  EXPECT_EQ(Rs[W + Spread], Regime::OneDevice) << "chosen";
  uint64_t SpreadLaunches = std::count(Rs.begin(), Rs.end(), Regime::Spread);
  uint64_t Rechecks = 0;
  for (uint64_t I = W + Spread; I < Rs.size(); ++I)
    Rechecks += Rs[I] == Regime::Spread && Rs[I - 1] == Regime::OneDevice;
  EXPECT_GE(Rechecks, 1u);
  EXPECT_EQ(SpreadLaunches, (1 + Rechecks) * Spread) << "each window ended as early";
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, KeepsSpreadingWhenItPays) {
  ProgramSpread P;
  auto Rs = run(P, {&A, &B}, 5 * W,
                [](const void *, Regime R) { return R == Regime::Spread ? 0.5 : 1.0; });
  EXPECT_TRUE(allIn(Rs, W, 2 * W, Regime::OneDevice)) << "one device is timed once";
  EXPECT_TRUE(allIn(Rs, 2 * W, 5 * W, Regime::Spread));
  EXPECT_EQ(P.chosen(), Regime::Spread);
}

TEST(ProgramSpreadTest, SpreadingWithinTheMarginIsNotWorthIt) {
  ProgramSpread P;
  double Close = 1 - ProgramSpread::SpreadMargin / 2;
  run(P, {&A}, 3 * W, [&](const void *, Regime R) { return R == Regime::Spread ? Close : 1.0; });
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, WeighsEachKernelByHowOftenItRuns) {
  // A runs three times per step and gains 1 s spread; C runs once and loses 2 s: spreading
  // saves 1 s per step.
  auto Cost = [](const void *K, Regime R) {
    if (K == &A)
      return R == Regime::Spread ? 1.0 : 2.0;
    return R == Regime::Spread ? 3.0 : 1.0;
  };
  ProgramSpread P;
  run(P, {&A, &A, &A, &C}, 3 * W, Cost);
  EXPECT_EQ(P.chosen(), Regime::Spread);
  // Once per step instead, C's loss outweighs: one device.
  ProgramSpread Q;
  run(Q, {&A, &C}, 3 * W, Cost);
  EXPECT_EQ(Q.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, WindowsWithoutAKernelInCommonDecideNothing) {
  // A set-up of its own kernels fills the first window; the time steps (A and B) start in the
  // second: both regimes are timed again before choosing.
  ProgramSpread P;
  std::vector<int> Setup(8);
  std::vector<const void *> SetupKernels;
  for (int &K : Setup)
    SetupKernels.push_back(&K);
  auto Cost = [](const void *, Regime R) { return R == Regime::Spread ? 2.0 : 1.0; };
  run(P, SetupKernels, W, Cost);
  auto Rs = run(P, {&A, &B}, 3 * W + 1, Cost);
  EXPECT_TRUE(allIn(Rs, 0, W, Regime::OneDevice));
  EXPECT_TRUE(allIn(Rs, W, 2 * W, Regime::Spread)) << "spread timed again";
  EXPECT_TRUE(allIn(Rs, 2 * W, 3 * W + 1, Regime::OneDevice)) << "one device timed, chosen";
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, TheFirstLaunchAfterASwitchPaysForItAndIsNotCounted) {
  // Gathering the data on one device makes each kernel's first launch there slow; after that
  // one device is cheaper.
  ProgramSpread P;
  std::vector<const void *> Seen;
  run(P, {&A, &B}, 3 * W, [&](const void *K, Regime R) {
    if (R == Regime::Spread)
      return 2.0;
    bool First = std::find(Seen.begin(), Seen.end(), K) == Seen.end();
    Seen.push_back(K);
    return First ? 1000.0 : 1.0;
  });
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, LaunchesOnOneDeviceThatFetchAreNotCounted) {
  // A V-cycle reaches each grid level in a later launch of the same kernel: after the switch to
  // one device, every launch that gathers a level there is slow, the first or not; once all is
  // gathered nothing moves and one device is cheaper.
  ProgramSpread P;
  alternate(P, 5 * W, [](uint64_t Launch, Regime R) {
    if (R == Regime::Spread)
      return Recorded{2.0};
    bool Gathers = Launch % 8 < 4;
    return Recorded{Gathers ? 50.0 : 1.0, false, Gathers ? 4096u : 0u};
  });
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, PushesThatPaidAOneOffCostAreNotCounted) {
  // A sweep's first pass works out each plane's exchange once: those spread launches are slow,
  // the later ones cheaper than one device.
  ProgramSpread P;
  alternate(P, 5 * W, [](uint64_t Launch, Regime R) {
    if (R == Regime::OneDevice)
      return Recorded{2.0};
    bool OneOff = Launch % 4 < 2;
    return Recorded{OneOff ? 50.0 : 1.0, OneOff};
  });
  EXPECT_EQ(P.chosen(), Regime::Spread);
}

TEST(ProgramSpreadTest, RechecksTheOtherRegimeAndSwitchesWhenCostsChange) {
  ProgramSpread P;
  bool Cheap = false; // spreading becomes cheap later (the program's phase changes)
  auto Cost = [&](const void *, Regime R) {
    return R == Regime::Spread ? (Cheap ? 0.25 : 2.0) : 1.0;
  };
  run(P, {&A, &B}, 2 * W + 1, Cost);
  ASSERT_EQ(P.chosen(), Regime::OneDevice);
  Cheap = true;
  // Spreading cost 1 s more per second: re-timed after 1 / RecheckBudget windows at one device.
  uint64_t Period = std::max<uint64_t>(ProgramSpread::RecheckWindows,
                                       uint64_t(std::ceil(1.0 / ProgramSpread::RecheckBudget)));
  run(P, {&A, &B}, Period * W - 1, Cost);
  EXPECT_EQ(P.chosen(), Regime::OneDevice) << "not re-timed yet";
  auto Rs = run(P, {&A, &B}, W + 1, Cost);
  EXPECT_TRUE(allIn(Rs, 1, W + 1, Regime::Spread)) << "the re-check";
  EXPECT_EQ(P.chosen(), Regime::Spread);
}

TEST(ProgramSpreadTest, ConfirmedRechecksBackOffWithinTheirBudget) {
  ProgramSpread P;
  // Spreading costs 3x: a re-check window costs two windows more than one device, so at most
  // one window in RecheckBudget / 2 re-checks.
  auto Rs = run(P, {&A, &B}, 300 * W,
                [](const void *, Regime R) { return R == Regime::Spread ? 3.0 : 1.0; });
  uint64_t Rechecks = 0; // windows spread after one device was chosen
  for (uint64_t I = 2 * W; I < Rs.size(); ++I)
    Rechecks += Rs[I] == Regime::Spread && Rs[I - 1] == Regime::OneDevice;
  EXPECT_GE(Rechecks, 1u) << "the other regime is timed again";
  // Re-checks at least (3 - 1) / RecheckBudget windows apart.
  uint64_t Apart = uint64_t(std::ceil(2 / ProgramSpread::RecheckBudget));
  EXPECT_LE(Rechecks, 1 + 300u / Apart);
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
}

TEST(ProgramSpreadTest, RechecksThatMoveDataAreRarer) {
  // The regimes cost about the same, but the first launch of each kernel after a switch gathers
  // or spreads its data (50 launches' worth): re-checking every RecheckWindows windows would cost
  // the program far more than its budget.
  ProgramSpread P;
  std::vector<Regime> Before(2, Regime::Spread); // each kernel's last regime
  auto Rs = run(P, {&A, &B}, 400 * W, [&](const void *K, Regime R) {
    Regime &Last = Before[K == &A ? 0 : 1];
    double Switch = R != Last ? 50.0 : 0.0;
    Last = R;
    return (R == Regime::Spread ? 1.1 : 1.0) + Switch;
  });
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
  uint64_t Rechecks = 0;
  for (uint64_t I = 3 * W; I < Rs.size(); I += W)
    Rechecks += Rs[I] == Regime::Spread;
  // Each re-check costs about 2 * 2 * 50 / W + 0.1 per launch of its window: at least that over
  // RecheckBudget windows apart.
  uint64_t Apart = uint64_t((4 * 50.0 / double(W) + 0.1) / ProgramSpread::RecheckBudget);
  EXPECT_GE(Rechecks, 1u) << "the other regime is still timed again";
  EXPECT_LE(Rechecks, 1 + 400u / Apart)
      << "without the switches' cost: every " << ProgramSpread::RecheckWindows << " windows";
}

TEST(ProgramSpreadTest, LongerWindowsForProgramsOfManyKernels) {
  ProgramSpread P;
  std::vector<int> Many(40);
  std::vector<const void *> Kernels;
  for (int &K : Many)
    Kernels.push_back(&K);
  // 40 kernels: a window is WindowPerKernel launches of each, once all are known.
  uint64_t Window = ProgramSpread::WindowPerKernel * Many.size();
  ASSERT_GT(Window, W) << "more than the minimum";
  auto Rs = run(P, Kernels, W + Window + 1,
                [](const void *, Regime R) { return R == Regime::Spread ? 2.0 : 1.0; });
  // The first window is the minimum (kernels were still arriving), then longer ones.
  EXPECT_TRUE(allIn(Rs, 0, W, Regime::Spread));
  EXPECT_TRUE(allIn(Rs, W, W + Window, Regime::OneDevice));
  EXPECT_EQ(Rs[W + Window], Regime::OneDevice) << "chosen";
}

TEST(ProgramSpreadTest, ProgramsOfFewLongLaunchesEndTheirWindowsByTime) {
  // A 3-D FFT's shape: a set-up of 8 kernels run once, then time steps of 5 kernels of 50 ms
  // each, 56 launches in all, fewer than a window's minimum. Spreading halves each launch.
  std::vector<int> Setup(8);
  std::vector<const void *> SetupKernels;
  for (int &K : Setup)
    SetupKernels.push_back(&K);
  int Step[5];
  std::vector<const void *> StepKernels;
  for (int &K : Step)
    StepKernels.push_back(&K);
  auto Cost = [](const void *, Regime R) { return R == Regime::Spread ? 25.0 : 50.0; };
  constexpr double Ms = 1e-3;
  ProgramSpread P;
  auto Rs = run(P, SetupKernels, Setup.size(), Cost, Regime::OneDevice, Ms);
  auto Steps = run(P, StepKernels, 48, Cost, Regime::OneDevice, Ms);
  Rs.insert(Rs.end(), Steps.begin(), Steps.end());
  // The first window ends once it held two launches of each kernel it ran (26: 13 kernels), the
  // spread one after two steps (10), and spreading is chosen.
  uint64_t First = ProgramSpread::WindowPerKernel * (Setup.size() + 5);
  EXPECT_TRUE(allIn(Rs, 0, First, Regime::OneDevice));
  EXPECT_TRUE(allIn(Rs, First, Rs.size(), Regime::Spread));
  EXPECT_EQ(P.chosen(), Regime::Spread);
  EXPECT_GT(Rs.size() - First, Rs.size() / 2) << "most of the program runs spread";
}

TEST(ProgramSpreadTest, WindowsOfShortLaunchesKeepTheirMinimum) {
  // The same program with launches of 50 us: nothing is timed spread within its 56 launches.
  ProgramSpread P;
  auto Rs = run(
      P, {&A, &B, &C}, W - 1,
      [](const void *, Regime R) { return R == Regime::Spread ? 25.0 : 50.0; }, Regime::OneDevice);
  EXPECT_TRUE(allIn(Rs, 0, W - 1, Regime::OneDevice));
}

TEST(ProgramSpreadTest, ARecalledRegimeRunsFromTheFirstLaunch) {
  // A past run chose spreading: no window on one device first (though the devices share their
  // cores); one device is timed again after the windows recalled, and the choice then made is
  // told to the push (to be kept for the next run), confirmed.
  ProgramSpread P;
  P.recall({Regime::Spread, 2, /*Confirmed=*/true});
  std::vector<Regime> Rs;
  std::vector<uint64_t> Decided;
  for (uint64_t I = 0; I < 4 * W; ++I) {
    const void *K = I % 2 ? &A : &B;
    ProgramSpread::Step S = P.next(K, Regime::OneDevice);
    P.record(K, S.How, (S.How == Regime::Spread ? 1.0 : 1.5) * Us);
    Rs.push_back(S.How);
    if (S.Decided)
      Decided.push_back(I);
  }
  EXPECT_TRUE(allIn(Rs, 0, 2 * W, Regime::Spread)) << "two windows as recalled";
  EXPECT_TRUE(allIn(Rs, 2 * W, 3 * W, Regime::OneDevice)) << "the re-check";
  EXPECT_TRUE(allIn(Rs, 3 * W, 4 * W, Regime::Spread)) << "confirmed";
  EXPECT_EQ(Decided, std::vector<uint64_t>{3 * W});
  ProgramSpread::Kept K = P.kept();
  EXPECT_EQ(K.Choice, Regime::Spread);
  EXPECT_TRUE(K.Confirmed);
  EXPECT_GT(K.Windows, 2u) << "a confirmed choice re-checks later";
  // Recalled once the program runs: its own timings decide.
  ProgramSpread Q;
  Q.next(&A, Regime::OneDevice);
  Q.recall({Regime::Spread, 2, true});
  EXPECT_EQ(Q.next(&A, Regime::OneDevice).How, Regime::OneDevice);
}

TEST(ProgramSpreadTest, AnUnconfirmedRecalledChoiceIsReCheckedEarly) {
  // A past run chose one device (its timings disturbed) with a long interval, never confirmed:
  // this run re-times spreading after RecheckWindows windows, and finds it cheaper. Confirmed,
  // the same record waits its whole interval.
  auto Cost = [](const void *, Regime R) { return R == Regime::Spread ? 0.5 : 1.0; };
  uint64_t Early = ProgramSpread::RecheckWindows * W;
  ProgramSpread Unconfirmed;
  Unconfirmed.recall({Regime::OneDevice, ProgramSpread::MaxRecheckWindows, false});
  auto Rs = run(Unconfirmed, {&A, &B}, Early + 2 * W, Cost, Regime::OneDevice);
  EXPECT_TRUE(allIn(Rs, 0, Early, Regime::OneDevice));
  EXPECT_TRUE(allIn(Rs, Early, Early + 2 * W, Regime::Spread));
  EXPECT_EQ(Unconfirmed.kept().Choice, Regime::Spread);
  EXPECT_FALSE(Unconfirmed.kept().Confirmed) << "a new choice";
  ProgramSpread Confirmed;
  Confirmed.recall({Regime::OneDevice, 2 * ProgramSpread::RecheckWindows, true});
  Rs = run(Confirmed, {&A, &B}, 2 * Early, Cost, Regime::OneDevice);
  EXPECT_TRUE(allIn(Rs, 0, 2 * Early, Regime::OneDevice));
}

TEST(ProgramSpreadTest, AFixedRegimeIsNeitherTimedNorChanged) {
  ProgramSpread P;
  P.fix(true, Regime::OneDevice);
  for (int I = 0; I < 10; ++I) {
    ProgramSpread::Step S = P.next(&A);
    EXPECT_EQ(S.How, Regime::OneDevice);
    EXPECT_FALSE(S.Measure);
  }
  EXPECT_EQ(P.chosen(), Regime::OneDevice);
  P.fix(true, Regime::Spread);
  EXPECT_EQ(P.next(&A).How, Regime::Spread);
}

TEST(ProgramSpreadTest, ALaunchRecordedAfterItsWindowIsDropped) {
  ProgramSpread P;
  // Every launch of the one-device window is recorded as spread (a push counted in the window
  // before, finishing late): one device was never timed, so spreading stays.
  for (uint64_t I = 0; I < 3 * W; ++I) {
    P.next(&A);
    P.record(&A, Regime::Spread, 1.0 * Us);
  }
  EXPECT_EQ(P.chosen(), Regime::Spread);
}

} // namespace
