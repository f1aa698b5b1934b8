// Tests of which loaded objects count as CUDA libraries that may write a GPU's memory.
#include "src/cuda/CudaLibraries.h"

#include <gtest/gtest.h>

using jacc::isCudaLibrary;

namespace {

TEST(CudaLibrariesTest, TheVendorLibrariesCountWithAnyVersionOrPath) {
  EXPECT_TRUE(isCudaLibrary("/usr/lib/x86_64-linux-gnu/libcublas.so.12"));
  EXPECT_TRUE(isCudaLibrary("/opt/nvidia/hpc_sdk/math_libs/lib64/libcufft.so"));
  EXPECT_TRUE(isCudaLibrary("libcudart.so.12.4.127"));
  EXPECT_TRUE(isCudaLibrary("libcublasLt.so.12")) << "cuBLAS's own back end";
  EXPECT_TRUE(isCudaLibrary("libnccl.so.2"));
  EXPECT_TRUE(isCudaLibrary("/build/tests/libcublas-jacc-test.so"));
}

TEST(CudaLibrariesTest, TheDriverAndLookalikesDoNot) {
  EXPECT_FALSE(isCudaLibrary("/usr/lib/x86_64-linux-gnu/libcuda.so.1")) << "jacc's own driver";
  EXPECT_FALSE(isCudaLibrary("libnvrtc.so.12")) << "a compiler";
  EXPECT_FALSE(isCudaLibrary("libcublasx.so")) << "another name";
  EXPECT_FALSE(isCudaLibrary("/usr/lib/libcublas/libm.so.6")) << "only the file's name counts";
  EXPECT_FALSE(isCudaLibrary(""));
}

TEST(CudaLibrariesTest, NoneIsLoadedInATestOfTheCore) {
  EXPECT_FALSE(jacc::cudaLibraryLoaded());
}

} // namespace
