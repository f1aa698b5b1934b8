// JACC_MEMORY=unified on host devices (src/data/UnifiedMemory.cpp): every device works in the
// program's own memory, so nothing is copied, a split kernel still writes each element once, a
// kernel that cannot split runs once, and exits never free the program's memory. (The CUDA
// side, managed memory and its prefetches, is CudaMockTest's; the split suites run again under
// unified memory as the api-unified test.)
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/openacc.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using jacc_test::stats;

class UnifiedMemoryTest : public DeviceTest {
protected:
  void SetUp() override {
    Memory.emplace("JACC_MEMORY", "unified");
    DeviceTest::SetUp();
  }
  void TearDown() override {
    DeviceTest::TearDown();
    Memory.reset();
  }
  /// Pushes Src over Args, split when there are several devices (Flags added).
  static void push(const char *Src, std::vector<jacc_arg> Args, unsigned Flags = 0) {
    ASSERT_EQ(jacc_kernel_push(Src, int(Args.size()), Args.data(), Flags), JACC_SUCCESS)
        << jacc_last_error() << "\n" << Src;
  }
  unsigned splitFlag() const { return devices() > 1 ? JACC_FORCE_SPLIT : 0; }

  std::optional<jacc::ScopedEnv> Memory;
};

TEST_P(UnifiedMemoryTest, EveryDeviceWorksInTheProgramsMemory) {
  int n = 10007;
  float a = 3;
  std::vector<float> X(n), Y(n, 2);
  for (int I = 0; I < n; ++I)
    X[I] = float(I);
  float *x = X.data(), *y = Y.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(float)));
  ASSERT_JACC(jacc_copyin(y, n * sizeof(float)));
  for (int D = 0; D < devices(); ++D) {
    acc_set_device_num(D, acc_device_host);
    EXPECT_EQ(acc_deviceptr(x), x) << "device " << D;
  }
  acc_set_device_num(0, acc_device_host);
  push(jacc_test::SaxpyKernel,
       {{"int n", &n}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}}, splitFlag());
  ASSERT_JACC(jacc_wait());
  // No copy-out yet: the kernel wrote the program's memory, each element once.
  for (int I = 0; I < n; ++I)
    ASSERT_EQ(Y[I], 3.0f * I + 2) << I;
  ASSERT_JACC(jacc_copyout(y, n * sizeof(float)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(float)));
  jacc_stats S = stats();
  EXPECT_EQ(S.bytes_host_to_device, 0u);
  EXPECT_EQ(S.bytes_device_to_device, 0u);
  EXPECT_EQ(S.bytes_device_to_host, 0u);
  EXPECT_EQ(S.split_launches, devices() > 1 ? 1u : 0u);
}

// Kernels every device would compute whole with copies of their own: in one memory they run
// once (on one device), or each element would be doubled once per device.
TEST_P(UnifiedMemoryTest, AKernelThatComputesAnArrayWholeRunsOnce) {
  int n = 4099;
  std::vector<double> X(n), Want(n);
  std::vector<int> Idx(n);
  for (int I = 0; I < n; ++I) {
    X[I] = 0.5 * I - 7;
    Idx[I] = (I * 7) % n; // a permutation: the write's index is not the loop's
    Want[I] = X[I] * 2;
  }
  double *x = X.data();
  int *idx = Idx.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  ASSERT_JACC(jacc_copyin(idx, n * sizeof(int)));
  // Two pointers into one array, one read and one written: never split.
  push("#pragma acc parallel loop present(src, dst)\n"
       "for (int i = 0; i < n; i++)\n"
       "  dst[i] = src[i] * 2.0;\n",
       {{"int n", &n}, {"const double *src", &x}, {"double *dst", &x}}, splitFlag());
  // An indirect write: no split plan.
  push("#pragma acc parallel loop present(x, idx)\n"
       "for (int i = 0; i < n; i++)\n"
       "  x[idx[i]] += 1.0;\n",
       {{"int n", &n}, {"double *x", &x}, {"const int *idx", &idx}});
  ASSERT_JACC(jacc_copyout(x, n * sizeof(double)));
  ASSERT_JACC(jacc_delete(idx, n * sizeof(int)));
  for (int I = 0; I < n; ++I)
    ASSERT_EQ(X[I], Want[I] + 1) << I;
}

// A split stencil time loop, queued asynchronously: a device reads its neighbours' rows only
// after their writers finished (the validity map still orders the devices, with no copy).
TEST_P(UnifiedMemoryTest, SplitStencilStepsReadTheirNeighboursFinishedRows) {
  int n = 3001, Steps = 20;
  std::vector<double> A(n), B(n, 0.0);
  for (int I = 0; I < n; ++I)
    A[I] = (I * 37) % 101;
  std::vector<double> RA = A, RB = B;
  for (int S = 0; S < Steps; ++S) {
    for (int I = 1; I < n - 1; ++I)
      RB[I] = (RA[I - 1] + RA[I] + RA[I + 1]) / 3;
    std::swap(RA, RB);
  }
  double *a = A.data(), *b = B.data();
  ASSERT_JACC(jacc_copyin(a, n * sizeof(double)));
  ASSERT_JACC(jacc_copyin(b, n * sizeof(double)));
  const char *Src = "#pragma acc parallel loop present(in, out)\n"
                    "for (int i = 1; i < n - 1; i++)\n"
                    "  out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;\n";
  for (int S = 0; S < Steps; ++S) {
    push(Src, {{"int n", &n}, {"const double *in", &a}, {"double *out", &b}},
         splitFlag() | JACC_ASYNC);
    std::swap(a, b);
  }
  ASSERT_JACC(jacc_wait());
  ASSERT_JACC(jacc_copyout(A.data(), n * sizeof(double)));
  ASSERT_JACC(jacc_copyout(B.data(), n * sizeof(double)));
  EXPECT_EQ(A, RA);
  EXPECT_EQ(B, RB);
  EXPECT_EQ(stats().bytes_device_to_device, 0u);
}

// An exit frees nothing of the program's (jacc allocated nothing); data created and written by a
// kernel keeps its values after a delete, as it is the program's memory.
TEST_P(UnifiedMemoryTest, ExitsLeaveTheProgramsMemory) {
  int n = 513;
  std::vector<int> V(n, -1);
  int *v = V.data();
  ASSERT_JACC(jacc_create(v, n * sizeof(int)));
  push("#pragma acc parallel loop present(v)\n"
       "for (int i = 0; i < n; i++)\n"
       "  v[i] = 3 * i;\n",
       {{"int n", &n}, {"int *v", &v}}, splitFlag());
  ASSERT_JACC(jacc_delete(v, n * sizeof(int)));
  EXPECT_EQ(jacc_is_present(v, n * sizeof(int)), 0);
  for (int I = 0; I < n; ++I)
    ASSERT_EQ(V[I], 3 * I) << I;
}

// acc_map_data: the program's device memory (host memory on host devices) is every device's.
TEST_P(UnifiedMemoryTest, MappedDeviceMemoryIsEveryDevicesCopy) {
  int n = 1000;
  std::vector<float> H(n, 0);
  float *d = static_cast<float *>(acc_malloc(n * sizeof(float)));
  ASSERT_NE(d, nullptr);
  acc_map_data(H.data(), d, n * sizeof(float));
  for (int D = 0; D < devices(); ++D) {
    acc_set_device_num(D, acc_device_host);
    EXPECT_EQ(acc_deviceptr(H.data()), d) << "device " << D;
  }
  acc_set_device_num(0, acc_device_host);
  float *h = H.data();
  push("#pragma acc parallel loop present(h)\n"
       "for (int i = 0; i < n; i++)\n"
       "  h[i] = i + 0.5f;\n",
       {{"int n", &n}, {"float *h", &h}}, splitFlag());
  ASSERT_JACC(jacc_wait());
  for (int I = 0; I < n; ++I)
    ASSERT_EQ(d[I], I + 0.5f) << I;
  acc_unmap_data(H.data());
  acc_free(d);
  EXPECT_EQ(stats().bytes_device_to_device, 0u);
}

TEST(UnifiedMemorySettingTest, ABadValueFailsInitNamingTheVariable) {
  ASSERT_JACC(jacc_finalize());
  {
    jacc::ScopedEnv Memory("JACC_MEMORY", "shared");
    EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
    std::string Msg = jacc_last_error();
    EXPECT_NE(Msg.find("JACC_MEMORY"), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("separate or unified"), std::string::npos) << Msg;
  }
  ASSERT_JACC(jacc_init());
}

JACC_DEVICE_CONFIGS(UnifiedMemoryTest);

} // namespace
