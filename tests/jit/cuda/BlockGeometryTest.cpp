// Tests of the block-size rule (jit/cuda/BlockGeometry.h): each row of its table, from traits built
// by hand, so a change of the rule shows here before it shows in generated code.
#include "jit/cuda/BlockGeometry.h"

#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

using namespace jacc::analysis;
using namespace jacc::jit;

namespace {

AccessTraits traits(Coalescing C, Level Intensity, Level Sharing) {
  AccessTraits T;
  T.Known = true;
  T.Coalesce = C;
  T.Intensity = Intensity;
  T.Sharing = Sharing;
  return T;
}

TEST(BlockGeometryTest, HighIntensityGetsSmallBlocks) {
  for (Coalescing C : {Coalescing::Full, Coalescing::Partial, Coalescing::Scatter})
    for (Level S : {Level::Low, Level::High})
      EXPECT_EQ(chooseBlockGeometry(traits(C, Level::High, S)).BlockSize, 128u);
}

TEST(BlockGeometryTest, CoalescedStreamingAndSharingGetLargeBlocks) {
  EXPECT_EQ(chooseBlockGeometry(traits(Coalescing::Full, Level::Low, Level::Low)).BlockSize,
            512u);
  EXPECT_EQ(chooseBlockGeometry(traits(Coalescing::Full, Level::Medium, Level::High)).BlockSize,
            512u);
  BlockGeometry G = chooseBlockGeometry(traits(Coalescing::Full, Level::Low, Level::High));
  EXPECT_EQ(G.BlockSize, 512u);
  EXPECT_EQ(G.Why, "coalesced streaming: bandwidth-bound, few registers");
}

TEST(BlockGeometryTest, EverythingElseGetsTheDefault) {
  EXPECT_EQ(chooseBlockGeometry(traits(Coalescing::Full, Level::Medium, Level::Low)).BlockSize,
            CudaDefaultBlockSize);
  EXPECT_EQ(chooseBlockGeometry(traits(Coalescing::Full, Level::Medium, Level::Medium))
                .BlockSize,
            CudaDefaultBlockSize);
  for (Coalescing C : {Coalescing::Partial, Coalescing::Scatter})
    for (Level I : {Level::Low, Level::Medium})
      for (Level S : {Level::Low, Level::Medium, Level::High})
        EXPECT_EQ(chooseBlockGeometry(traits(C, I, S)).BlockSize, CudaDefaultBlockSize);
  AccessTraits Serial; // Known false
  Serial.Intensity = Level::High;
  EXPECT_EQ(chooseBlockGeometry(Serial).BlockSize, CudaDefaultBlockSize);
}

TEST(BlockGeometryTest, OverrideFromTheEnvironment) {
  {
    jacc::ScopedEnv Unset("JACC_CUDA_BLOCK_SIZE", nullptr);
    EXPECT_EQ(blockSizeOverrideFromEnv().get(), 0u);
  }
  for (const char *Auto : {"auto", " AUTO ", ""}) {
    jacc::ScopedEnv E("JACC_CUDA_BLOCK_SIZE", Auto);
    EXPECT_EQ(blockSizeOverrideFromEnv().get(), 0u) << Auto;
  }
  for (auto [Text, Want] : {std::pair{"32", 32u}, {"384", 384u}, {"1024", 1024u}}) {
    jacc::ScopedEnv E("JACC_CUDA_BLOCK_SIZE", Text);
    EXPECT_EQ(blockSizeOverrideFromEnv().get(), Want) << Text;
  }
  for (const char *Bad : {"100", "0", "2048", "16", "big", "256k"}) {
    jacc::ScopedEnv E("JACC_CUDA_BLOCK_SIZE", Bad);
    auto N = blockSizeOverrideFromEnv();
    ASSERT_FALSE(bool(N)) << Bad;
    EXPECT_EQ(llvm::toString(N.takeError()),
              "JACC_CUDA_BLOCK_SIZE='" + std::string(Bad) +
                  "' is not valid: use auto (the block size follows the kernel's access "
                  "traits) or a multiple of 32 from 32 to 1024");
  }
}

} // namespace
