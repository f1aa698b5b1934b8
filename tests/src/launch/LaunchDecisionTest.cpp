// Tests of a push's launch decision: in the program regime's spread windows a kernel splits
// whenever it can, whatever its own launches cost; JACC_SPLIT=never still duplicates; a kernel
// that cannot split runs on one device where the devices share their cores; the regime prices a
// kernel per shape of its launches, up to a limit.
#include "src/launch/LaunchDecision.h"

#include <gtest/gtest.h>

using namespace jacc;

namespace {

/// A push of one kernel (told apart by its tag's address) described by Info on two devices.
LaunchRequest request(const analysis::KernelInfo &Info, bool SharedCores = false) {
  static int KernelTag;
  LaunchRequest R;
  R.Kernel = &KernelTag;
  R.Info = &Info;
  R.NDevices = 2;
  R.SharedCores = SharedCores;
  return R;
}

/// Decisions for Pushes pushes of one kernel on two devices, each learnt as taking a millisecond
/// when split and a microsecond otherwise (splitting never pays, as the kernel's own launches
/// see it).
std::vector<LaunchDecision> pushes(LaunchChooser &C, bool CanSplit, bool SharedCores,
                                   unsigned Pushes) {
  analysis::KernelInfo Info;
  Info.Split.Enabled = CanSplit;
  LaunchRequest R = request(Info, SharedCores);
  std::vector<LaunchDecision> Out;
  for (unsigned I = 0; I < Pushes; ++I) {
    auto D = C.decide(R, [](const Distribution *) { return std::vector<SplitShare>{}; });
    EXPECT_TRUE(static_cast<bool>(D));
    if (!D)
      break;
    LaunchOutcome O;
    O.Seconds = D->split() ? 1e-3 : 1e-6;
    if (D->timed())
      C.learn(R, *D, O);
    Out.push_back(std::move(*D));
  }
  return Out;
}

TEST(LaunchDecisionTest, InTheSpreadRegimeAKernelSplitsWheneverItCan) {
  // Devices of their own start the program spread; the regime's first window is far longer
  // than these pushes.
  LaunchChooser C;
  for (const LaunchDecision &D : pushes(C, /*CanSplit=*/true, /*SharedCores=*/false, 20)) {
    EXPECT_TRUE(D.Placed);
    EXPECT_EQ(D.Regime, ProgramSpread::Regime::Spread);
    EXPECT_EQ(D.Mode, LaunchMode::Split);
    EXPECT_FALSE(D.MeasureMode) << "the kernel's own price is not asked";
    EXPECT_TRUE(D.MeasureProgram);
  }
}

TEST(LaunchDecisionTest, JaccSplitNeverStillDuplicates) {
  LaunchChooser C;
  C.setPolicy(SplitChoice::Policy::Never);
  for (const LaunchDecision &D : pushes(C, /*CanSplit=*/true, /*SharedCores=*/false, 5))
    EXPECT_EQ(D.Mode, LaunchMode::Duplicate);
}

TEST(LaunchDecisionTest, AKernelThatCannotSplitRunsOnOneDeviceOfSharedCores) {
  // Long enough for the regime to time both of its windows.
  constexpr unsigned Pushes = 4 * ProgramSpread::MinWindow;
  LaunchChooser C;
  bool SawSpread = false;
  for (const LaunchDecision &D : pushes(C, /*CanSplit=*/false, /*SharedCores=*/true, Pushes)) {
    SawSpread |= D.Regime == ProgramSpread::Regime::Spread;
    EXPECT_EQ(D.Mode, LaunchMode::OnOwner);
  }
  EXPECT_TRUE(SawSpread);
  LaunchChooser G; // devices of their own duplicate it in the spread windows
  for (const LaunchDecision &D : pushes(G, /*CanSplit=*/false, /*SharedCores=*/false, Pushes))
    EXPECT_EQ(D.Mode, D.Regime == ProgramSpread::Regime::Spread ? LaunchMode::Duplicate
                                                                : LaunchMode::OnOwner);
}

TEST(LaunchDecisionTest, TheRegimePricesAKernelPerShapeUpToALimit) {
  // A V-cycle's kernel at each grid level (its integer scalars) is priced apart, so that windows
  // covering different levels compare like with like; a kernel whose scalars hold a counter
  // (more shapes than MaxShapes) is priced as one.
  analysis::KernelInfo Info;
  Info.Split.Enabled = true;
  LaunchRequest R = request(Info);
  LaunchChooser C;
  auto KeyAt = [&](uint64_t Shape) {
    R.Shape = Shape;
    auto D = C.decide(R, [](const Distribution *) { return std::vector<SplitShare>{}; });
    EXPECT_TRUE(static_cast<bool>(D));
    return D ? D->ProgramKey : nullptr;
  };
  const void *Fine = KeyAt(64), *Coarse = KeyAt(8);
  EXPECT_NE(Fine, Coarse);
  EXPECT_EQ(KeyAt(64), Fine);
  for (uint64_t Shape = 0; Shape + 2 < LaunchChooser::MaxShapes; ++Shape)
    EXPECT_NE(KeyAt(1000 + Shape), R.Kernel);
  EXPECT_EQ(KeyAt(5000), R.Kernel) << "one shape too many";
  EXPECT_EQ(KeyAt(64), R.Kernel) << "priced as one from then on";
}

} // namespace
