// Tests of the CUDA driver shim: loading failures and their wording, symbol resolution against the
// mock driver (tests/src/cuda/mockcuda), the per-path cache of cudaDriver() and error formatting.
#include "src/cuda/DynamicCuda.h"

#include "support/Error.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

using namespace jacc;

namespace {

constexpr const char *MockPath = JACC_MOCKCUDA_PATH;
constexpr const char *Missing = "/nonexistent/libcuda.so.1";

std::string messageOf(llvm::Error E, ErrorCode Expected) {
  EXPECT_TRUE(static_cast<bool>(E));
  std::string Message;
  EXPECT_EQ(takeError(std::move(E), Message), Expected) << Message;
  return Message;
}

TEST(DynamicCudaTest, LoadFailureNamesTheLibraryAndTheFix) {
  auto D = loadCudaDriver(Missing);
  ASSERT_FALSE(static_cast<bool>(D));
  std::string Msg = messageOf(D.takeError(), ErrorCode::Device);
  EXPECT_EQ(Msg.rfind(std::string("cannot load the CUDA driver ") + Missing + ": ", 0), 0u) << Msg;
  // dlerror()'s text, then the fix.
  EXPECT_NE(Msg.find("No such file or directory"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("install the NVIDIA driver"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("JACC_DEVICES=host"), std::string::npos) << Msg;
}

TEST(DynamicCudaTest, LibraryWithoutTheDriverApiIsRejected) {
  // libm loads fine but is not a CUDA driver: the first missing entry point is named.
  auto D = loadCudaDriver("libm.so.6");
  ASSERT_FALSE(static_cast<bool>(D));
  std::string Msg = messageOf(D.takeError(), ErrorCode::Device);
  EXPECT_EQ(Msg, "the CUDA driver libm.so.6 has no cuInit: it is too old for jacc; update the "
                 "NVIDIA driver (or run on the CPU with JACC_DEVICES=host)");
}

TEST(DynamicCudaTest, LoadsTheMockDriver) {
  auto D = loadCudaDriver(MockPath);
  ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
  const CudaDriver &Drv = **D;
  EXPECT_EQ(Drv.Library, MockPath);
  EXPECT_EQ(Drv.Version, 13000);
  int Count = 0;
  ASSERT_EQ(Drv.cuDeviceGetCount(&Count), CUDA_SUCCESS);
  EXPECT_EQ(Count, 2);
  CUdevice Dev = -1;
  ASSERT_EQ(Drv.cuDeviceGet(&Dev, 1), CUDA_SUCCESS);
  int Major = 0, Minor = -1;
  ASSERT_EQ(Drv.cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev),
            CUDA_SUCCESS);
  ASSERT_EQ(Drv.cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev),
            CUDA_SUCCESS);
  EXPECT_EQ(10 * Major + Minor, 80);
}

TEST(DynamicCudaTest, CuInitFailureIsReported) {
  ScopedEnv NoGpu("MOCKCUDA_DEVICES", "0");
  auto D = loadCudaDriver(MockPath);
  ASSERT_FALSE(static_cast<bool>(D));
  std::string Msg = messageOf(D.takeError(), ErrorCode::Device);
  EXPECT_NE(Msg.find("failed to initialise: cuInit returned CUDA_ERROR_NO_DEVICE (no "
                     "CUDA-capable device is detected)"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("JACC_DEVICES=host"), std::string::npos) << Msg;
}

TEST(DynamicCudaTest, ProcessDriverFollowsJaccLibcuda) {
  {
    ScopedEnv Env("JACC_LIBCUDA", Missing);
    EXPECT_EQ(cudaDriverPath(), Missing);
    // A failure is cached and reported again, with the same text.
    auto A = cudaDriver();
    ASSERT_FALSE(static_cast<bool>(A));
    std::string First = messageOf(A.takeError(), ErrorCode::Device);
    auto B = cudaDriver();
    ASSERT_FALSE(static_cast<bool>(B));
    EXPECT_EQ(messageOf(B.takeError(), ErrorCode::Device), First);
    auto N = cudaDeviceCount();
    ASSERT_FALSE(static_cast<bool>(N));
    EXPECT_NE(messageOf(N.takeError(), ErrorCode::Device).find(Missing), std::string::npos);
  }
  {
    ScopedEnv Env("JACC_LIBCUDA", MockPath);
    auto A = cudaDriver();
    ASSERT_TRUE(static_cast<bool>(A)) << llvm::toString(A.takeError());
    auto B = cudaDriver();
    ASSERT_TRUE(static_cast<bool>(B)) << llvm::toString(B.takeError());
    EXPECT_EQ(&*A, &*B); // loaded once
    auto N = cudaDeviceCount();
    ASSERT_TRUE(static_cast<bool>(N)) << llvm::toString(N.takeError());
    EXPECT_EQ(*N, 2);
  }
  {
    ScopedEnv Unset("JACC_LIBCUDA", nullptr);
    EXPECT_EQ(cudaDriverPath(), "libcuda.so.1");
    ScopedEnv Empty("JACC_LIBCUDA", "");
    EXPECT_EQ(cudaDriverPath(), "libcuda.so.1");
  }
}

TEST(DynamicCudaTest, ErrorsNameTheCallTheCodeAndTheDevice) {
  auto D = loadCudaDriver(MockPath);
  ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
  EXPECT_EQ((*D)->describe(CUDA_ERROR_NOT_READY), "CUDA_ERROR_NOT_READY (device not ready)");
  EXPECT_EQ((*D)->describe(123456), "CUDA error 123456");
  EXPECT_EQ(messageOf(cudaError(**D, CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc", "cuda:1"),
                      ErrorCode::OutOfMemory),
            "cuda:1: cuMemAlloc failed with CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
  EXPECT_EQ(messageOf(cudaError(**D, CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel", "cuda:0"),
                      ErrorCode::Device),
            "cuda:0: cuLaunchKernel failed with CUDA_ERROR_INVALID_VALUE (invalid argument)");
}

TEST(DynamicCudaTest, Memcpy2DHasTheDriverLayout) {
  // Offsets of cuda.h's CUDA_MEMCPY2D_v2 on LP64 (checked against CUDA 13's header).
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, srcMemoryType), 16u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, srcHost), 24u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, srcPitch), 48u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, dstXInBytes), 56u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, dstMemoryType), 72u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, dstPitch), 104u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, WidthInBytes), 112u);
  EXPECT_EQ(offsetof(CUDA_MEMCPY2D, Height), 120u);
}

} // namespace
