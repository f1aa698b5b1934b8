// The runtime's settings (src/Settings.cpp): every JACC_* variable with a bad value fails
// jacc_init naming the variable, the value and what it accepts, whichever module reads it, and
// leaves jacc uninitialised; good values of each are accepted.
#include "tests/ScopedEnv.h"
#include "tests/api/Helpers.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using jacc::ScopedEnv;

struct Setting {
  const char *Var, *Bad, *Good;
  const char *Accepted; ///< a piece of the message saying what the variable accepts
};

const Setting Settings[] = {
    {"JACC_DEVICES", "tpu", "host:2", "host, host:N, cuda:K and cuda:all"},
    {"JACC_HOST_THREADS", "0", "2", "between 1 and 1024"},
    {"JACC_SPIN_US", "soon", "10", "number of microseconds"},
    {"JACC_SPLIT", "sometimes", "never", "auto, always, never or one"},
    {"JACC_NARROW", "maybe", "off", "on or off"},
    {"JACC_TWINS", "sometimes", "off", "on or off"},
    {"JACC_SPECIALIZE", "often", "off", "off, auto or always"},
    {"JACC_SPECIALIZE_ARGS", "n,2x", "n,-m", "argument name"},
    {"JACC_SPECIALIZE_AFTER", "-1", "5", "a number of pushes between 1 and"},
    {"JACC_SPECIALIZE_MAX", "many", "2", "a number of variants per kernel between 0 and"},
    {"JACC_SPECIALIZE_WAIT", "later", "0", "1 (a push that creates a variant"},
    {"JACC_CUDA_BLOCK_SIZE", "100", "128", "a multiple of 32"},
    {"JACC_CUDA_VERIFY", "ampere", "80", "architectures such as 75,80,90, or source"},
    {"JACC_CACHE", "maybe", "off", "on, off, readonly, 1, 0"},
    {"JACC_CACHE_MAX_SIZE", "lots", "64M", "K, M, G or T"},
    {"JACC_ACC_ERRORS", "sometimes", "return", "abort or return"},
    {"JACC_DEBUG", "launch,jit", "launch", "analysis, cache, codegen"},
    {"JACC_KERNEL_WARN", "-1", "30", "a number of seconds"},
    {"JACC_KERNELS_IN_MEMORY", "lots", "64", "a number of kernels"},
    {"JACC_PERF", "yes please", "0", "1 or 0"},
    {"JACC_HUGE_PAGES", "huge", "0", "1 (host devices' copies of 2 MiB or more"},
    {"JACC_MEMORY_POOL", "big", "0", "1 (devices keep released blocks of 1 MiB or more"},
};

class SettingsTest : public ::testing::TestWithParam<Setting> {
protected:
  void SetUp() override { ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error(); }
  void TearDown() override {
    ASSERT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
    EXPECT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
  }
};

TEST_P(SettingsTest, ABadValueFailsInitNamingTheVariable) {
  const Setting &S = GetParam();
  ScopedEnv Devices("JACC_DEVICES", "host:1");
  ScopedEnv Bad(S.Var, S.Bad);
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = jacc_test::lastError();
  EXPECT_NE(Message.find(std::string(S.Var) + "='" + S.Bad + "'"), std::string::npos) << Message;
  EXPECT_NE(Message.find(S.Accepted), std::string::npos) << Message;
  // Nothing was initialised: every call keeps failing until the value is mended.
  int N = 0;
  EXPECT_EQ(jacc_get_num_devices(), 0);
  EXPECT_EQ(jacc_copyin(&N, sizeof N), JACC_ERROR_INVALID_ARGUMENT);
  Bad.set(S.Good);
  EXPECT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
}

TEST_P(SettingsTest, AnEmptyValueIsTheDefault) {
  const Setting &S = GetParam();
  ScopedEnv Empty(S.Var, "  ");
  EXPECT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
}

INSTANTIATE_TEST_SUITE_P(Variables, SettingsTest, ::testing::ValuesIn(Settings),
                         [](const ::testing::TestParamInfo<Setting> &I) {
                           return std::string(I.param.Var);
                         });

} // namespace
