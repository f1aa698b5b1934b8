// Tests of the compiled kernel's CUDA images: compiled on first use per architecture and entry,
// kept (failures too), ABI-checked; and the JACC_CUDA_VERIFY knob that makes every compile also
// compile for CUDA.
#include "jit/CompiledKernel.h"
#include "jit/cuda/CudaCodeTarget.h"

#include "support/Error.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc;
using namespace jacc::jit;

namespace {

const char *const Scale = "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) x[i] = 2 * x[i];\n";

std::shared_ptr<const CompiledKernel> compile(const char *Src,
                                              std::vector<std::string> Decls) {
  auto K = compileKernel(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return nullptr;
  }
  return *K;
}

TEST(CompiledKernelTest, CudaImagesAreCompiledOncePerArchitectureAndEntry) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  ScopedEnv NoVerify("JACC_CUDA_VERIFY", nullptr);
  auto K = compile(Scale, {"double *x", "int n"});
  ASSERT_TRUE(K);
  ASSERT_TRUE(K->Info.Split.Enabled);
  auto A = cudaCodeOf(*K, 80, false);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ((*A)->Image.SmVersion, 80u);
  EXPECT_EQ((*A)->Kernel.Entry, "__jacc_entry");
  auto Again = cudaCodeOf(*K, 80, false);
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(*Again, *A); // kept, not recompiled
  auto Split = cudaCodeOf(*K, 80, true);
  ASSERT_TRUE(bool(Split)) << llvm::toString(Split.takeError());
  EXPECT_NE(*Split, *A);
  EXPECT_EQ((*Split)->Kernel.Entry, "__jacc_entry_split");
  auto Other = cudaCodeOf(*K, 90, false);
  ASSERT_TRUE(bool(Other));
  EXPECT_NE(*Other, *A);
  EXPECT_EQ((*Other)->Image.SmVersion, 90u);
}

TEST(CompiledKernelTest, CudaFailuresAreKeptWithTheirCode) {
  ScopedEnv NoVerify("JACC_CUDA_VERIFY", nullptr);
  auto K = compile("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = v;\n",
                   {"double *x", "int n", "long double v"});
  ASSERT_TRUE(K);
  for (int Round = 0; Round < 2; ++Round) {
    auto C = cudaCodeOf(*K, 80, false);
    ASSERT_FALSE(bool(C));
    std::string Msg;
    EXPECT_EQ(takeError(C.takeError(), Msg), ErrorCode::Unsupported);
    EXPECT_NE(Msg.find("long double"), std::string::npos) << Msg;
  }
}

TEST(CompiledKernelTest, VerifyModeFailsACompileThatCudaRejects) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  ScopedEnv Verify("JACC_CUDA_VERIFY", "80");
  // rand() is a host library function: clang compiles it for the host, NVRTC has none.
  auto K = compileKernel("#include <stdlib.h>\n"
                         "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) x[i] = rand();\n",
                         {"double *x", "int n"});
  ASSERT_FALSE(bool(K));
  std::string Msg;
  EXPECT_EQ(takeError(K.takeError(), Msg), ErrorCode::Compile);
  EXPECT_NE(Msg.find("JACC_CUDA_VERIFY: the plain entry for sm_80"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("kernel:3:"), std::string::npos) << Msg;
  // The same kernel compiles for the host alone.
  ScopedEnv NoVerify("JACC_CUDA_VERIFY", nullptr);
  auto Host = compileKernel("#include <stdlib.h>\n"
                            "#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) x[i] = rand();\n",
                            {"double *x", "int n"});
  EXPECT_TRUE(bool(Host)) << llvm::toString(Host.takeError());
}

TEST(CompiledKernelTest, VerifySourceModeGeneratesTheCudaEntriesWithoutNvrtc) {
  ScopedEnv Verify("JACC_CUDA_VERIFY", "source");
  // NVRTC rejects rand() (above); generated and not compiled, the kernel passes.
  auto K = compileKernel("#include <stdlib.h>\n"
                         "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) x[i] = rand();\n",
                         {"double *x", "int n"});
  EXPECT_TRUE(bool(K)) << llvm::toString(K.takeError());
}

TEST(CompiledKernelTest, VerifyModeAcceptsAKernelCudaRefusesByDesign) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  ScopedEnv Verify("JACC_CUDA_VERIFY", "80");
  // A long double reduction is host-only: the push compiles it for the host; a CUDA device
  // would report why not.
  auto K = compileKernel("#pragma acc parallel loop reduction(+:s)\n"
                         "for (int i = 0; i < n; i++) s += i;\n",
                         {"long double s", "int n"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  auto C = cudaCodeOf(**K, 80, false);
  ASSERT_FALSE(bool(C));
  std::string Msg;
  EXPECT_EQ(takeError(C.takeError(), Msg), ErrorCode::Unsupported);
  EXPECT_NE(Msg.find("reduction(+:s): CUDA devices cannot reduce long double: reduce into a "
                     "double"),
            std::string::npos)
      << Msg;
}

TEST(CompiledKernelTest, VerifyModeChecksEveryListedArchitectureAndEntry) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  ScopedEnv Verify("JACC_CUDA_VERIFY", "sm_75, 90");
  auto K = compile(Scale, {"double *x", "int n"});
  ASSERT_TRUE(K);
  // Already compiled by the verification: these are the kept images.
  for (unsigned Sm : {75u, 90u})
    for (bool Split : {false, true}) {
      auto C = cudaCodeOf(*K, Sm, Split);
      ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
      EXPECT_EQ((*C)->Image.SmVersion, Sm);
    }
}

TEST(CompiledKernelTest, VerifyModeRejectsAMalformedArchitectureList) {
  ScopedEnv Verify("JACC_CUDA_VERIFY", "ampere");
  auto K = compileKernel(Scale, {"double *x", "int n"});
  ASSERT_FALSE(bool(K));
  std::string Msg;
  EXPECT_EQ(takeError(K.takeError(), Msg), ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("JACC_CUDA_VERIFY='ampere'"), std::string::npos) << Msg;
}

} // namespace
