// Without a CUDA driver: asking for a GPU fails cleanly with JACC_ERROR_DEVICE and a message that
// names what was not found and the fix; the default configuration falls back to the host. Run
// twice by meson: with JACC_LIBCUDA naming a library that does not exist, and with the real
// lookup of libcuda.so.1 (skipped on machines that have a driver).
#include "tests/api/Fixture.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

namespace {

class NoDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    const char *Lib = std::getenv("JACC_LIBCUDA");
    if (void *H = dlopen(Lib ? Lib : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
      dlclose(H);
      GTEST_SKIP() << "a CUDA driver is installed on this machine";
    }
    ASSERT_JACC(jacc_finalize());
  }
  void TearDown() override {
    unsetenv("JACC_DEVICES");
    EXPECT_JACC(jacc_finalize());
  }
};

TEST_F(NoDriverTest, AskingForAGpuIsADeviceErrorNamingTheDriver) {
  for (const char *Spec : {"cuda:0", "cuda:all", "cuda:all,host:1", "host:1,cuda:0"}) {
    setenv("JACC_DEVICES", Spec, 1);
    EXPECT_EQ(jacc_init(), JACC_ERROR_DEVICE) << Spec;
    std::string Msg = jacc_last_error();
    EXPECT_NE(Msg.find("libcuda"), std::string::npos) << Spec << ": " << Msg;
    EXPECT_NE(Msg.find("JACC_DEVICES"), std::string::npos) << Spec << ": " << Msg;
    // Nothing was created: the next calls fail the same way, not with a half-made runtime.
    EXPECT_EQ(jacc_get_num_devices(), 0) << Spec;
  }
}

TEST_F(NoDriverTest, OperationsWithoutDevicesFailWithTheSameError) {
  setenv("JACC_DEVICES", "cuda:0", 1);
  double X[4] = {0, 1, 2, 3};
  EXPECT_EQ(jacc_copyin(X, sizeof X), JACC_ERROR_DEVICE);
  EXPECT_NE(std::string(jacc_last_error()).find("libcuda"), std::string::npos)
      << jacc_last_error();
  EXPECT_EQ(jacc_is_present(X, sizeof X), 0);
}

TEST_F(NoDriverTest, TheDefaultFallsBackToTheHost) {
  unsetenv("JACC_DEVICES");
  ASSERT_JACC(jacc_init());
  EXPECT_EQ(jacc_get_num_devices(), 1);
  int N = 8;
  double X[8] = {0};
  ASSERT_JACC(jacc_copyin(X, sizeof X));
  double *Xp = X;
  jacc_arg Args[] = {{"double *x", &Xp}, {"int n", &N}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) x[i] = 2 * i;\n",
                               2, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(X, sizeof X));
  EXPECT_EQ(X[7], 14);
}

} // namespace
