// Tests of the CUDA target behind jit/CodeTarget.h: it is one of the build's targets, its
// artifact names (pinned: entries written by other processes use them), its launch metadata
// read back, what it adds to a kernel's summary and key, the source-only architecture, and the
// environment it refuses.
#include "jit/cuda/CudaCodeTarget.h"

#include "support/Error.h"
#include "tests/ScopedEnv.h"
#include "tests/jit/cuda/CudaCheck.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc;
using namespace jacc::jit;

namespace {

const char *Saxpy = "#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n";
const std::vector<std::string> SaxpyDecls = {"int n", "float a", "const float *x", "float *y"};

TEST(CudaCodeTargetTest, IsOneOfTheBuildsTargets) {
  const CodeTarget &T = cudaCodeTarget();
  EXPECT_EQ(T.name(), "cuda");
  EXPECT_TRUE(llvm::is_contained(codeTargets(), &T));
  EXPECT_EQ(T.archName(80), "sm_80");
  EXPECT_STREQ(T.part(false), "cuda");
  EXPECT_STREQ(T.part(true), "cuda split");
  EXPECT_EQ(T.verifyVariable(), "JACC_CUDA_VERIFY");
}

TEST(CudaCodeTargetTest, ArtifactNames) {
  EXPECT_EQ(cudaCodeTarget().stem(80, /*Split=*/false), "sm_80");
  EXPECT_EQ(cudaImageStem(80, /*Split=*/false), "sm_80");
  EXPECT_EQ(cudaImageStem(120, /*Split=*/true), "sm_120-split");
  EXPECT_EQ(cudaImageArtifact("sm_80", /*IsPtx=*/false), "sm_80.cubin");
  EXPECT_EQ(cudaImageArtifact("sm_80-split", /*IsPtx=*/true), "sm_80-split.ptx");
  EXPECT_EQ(cudaLaunchArtifact("sm_80"), "sm_80.json");
}

TEST(CudaCodeTargetTest, LaunchMetadataRoundTrip) {
  CudaKernelSource S;
  S.Entry = "jacc_entry";
  S.Params = {{"n", 4, 4}, {"x", 8, 8}, {"team", 8, 8}};
  S.GridSync = true;
  S.BlockSize = 128;
  S.NumGangs = 7;
  auto Back = cudaLaunchFromJson(llvm::json::Value(cudaLaunchToJson(S)));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Entry, S.Entry);
  ASSERT_EQ(Back->Params.size(), 3u);
  EXPECT_EQ(Back->Params[1].What, "x");
  EXPECT_EQ(Back->Params[1].Size, 8u);
  EXPECT_TRUE(Back->GridSync);
  EXPECT_EQ(Back->BlockSize, 128u);
  EXPECT_EQ(Back->NumGangs, 7u);
  // Metadata another build wrote badly is refused, naming the field (the image is recompiled).
  llvm::json::Object Bad = cudaLaunchToJson(S);
  Bad.erase("entry");
  auto Refused = cudaLaunchFromJson(llvm::json::Value(std::move(Bad)));
  ASSERT_FALSE(bool(Refused));
  EXPECT_NE(llvm::toString(Refused.takeError()).find("'entry'"), std::string::npos);
  llvm::json::Object Huge = cudaLaunchToJson(S);
  Huge["block_size"] = 4096;
  for (llvm::json::Value V : {llvm::json::Value(std::move(Huge)), llvm::json::Value("text")}) {
    auto R = cudaLaunchFromJson(V);
    EXPECT_FALSE(bool(R));
    llvm::consumeError(R.takeError());
  }
}

TEST(CudaCodeTargetTest, SummaryAndKeyParts) {
  analysis::KernelInfo K = analyzeOrFail(Saxpy, SaxpyDecls);
  llvm::json::Object Summary;
  cudaCodeTarget().describe(K, Summary);
  const llvm::json::Object *Gpu = Summary.getObject("gpu");
  ASSERT_TRUE(Gpu);
  EXPECT_GT(Gpu->getInteger("block_size").value_or(0), 0);
  auto Compilers = cudaCodeTarget().compilers();
  ASSERT_EQ(Compilers.size(), 1u);
  EXPECT_EQ(Compilers[0].first, "nvrtc");
  EXPECT_EQ(Compilers[0].second, nvrtcVersionString());
  std::string Part = cudaCodeTarget().cacheKeyPart();
  ScopedEnv Block("JACC_CUDA_BLOCK_SIZE", "64");
  EXPECT_NE(cudaCodeTarget().cacheKeyPart(), Part) << "the block size changes the code";
}

TEST(CudaCodeTargetTest, ArchitectureZeroGeneratesTheSourceOnly) {
  analysis::KernelInfo K = analyzeOrFail(Saxpy, SaxpyDecls);
  for (bool Split : {false, true}) {
    auto C = cudaCodeTarget().build(K, CudaSourceOnly, Split);
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    const auto &Code = static_cast<const CudaCode &>(**C);
    EXPECT_NE(Code.Kernel.Source.find("__global__"), std::string::npos);
    EXPECT_TRUE(Code.Image.Image.empty()) << "nothing compiled";
  }
}

TEST(CudaCodeTargetTest, RefusesABadEnvironment) {
  {
    ScopedEnv Verify("JACC_CUDA_VERIFY", "80,sm_x");
    llvm::Error E = cudaCodeTarget().checkEnvironment();
    ASSERT_TRUE(bool(E));
    EXPECT_NE(llvm::toString(std::move(E)).find("JACC_CUDA_VERIFY"), std::string::npos);
  }
  {
    ScopedEnv Block("JACC_CUDA_BLOCK_SIZE", "100");
    llvm::Error E = cudaCodeTarget().checkEnvironment();
    ASSERT_TRUE(bool(E));
    EXPECT_NE(llvm::toString(std::move(E)).find("JACC_CUDA_BLOCK_SIZE"), std::string::npos);
  }
  ScopedEnv Verify("JACC_CUDA_VERIFY", "source");
  EXPECT_FALSE(bool(cudaCodeTarget().checkEnvironment()));
  auto Archs = cudaCodeTarget().verifyArchs();
  ASSERT_TRUE(bool(Archs));
  EXPECT_EQ(*Archs, std::vector<unsigned>{CudaSourceOnly});
}

} // namespace
