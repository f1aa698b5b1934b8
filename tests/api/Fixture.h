// Fixture for end-to-end tests: each test runs once per device configuration (JACC_DEVICES).
#ifndef JACC_TESTS_API_FIXTURE_H
#define JACC_TESTS_API_FIXTURE_H

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <string>

/// Re-initialises jacc with JACC_DEVICES=GetParam() before each test, and checks afterwards that
/// the test left nothing mapped behind by finalising.
class DeviceTest : public ::testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
    setenv("JACC_DEVICES", GetParam(), 1);
    ASSERT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
    jacc_reset_stats();
  }
  void TearDown() override { EXPECT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error(); }
  int devices() const { return jacc_get_num_devices(); }
};

/// A test name for a JACC_DEVICES value: "cuda:all,host:1" -> "cuda_all_host_1".
inline std::string deviceConfigName(const ::testing::TestParamInfo<const char *> &I) {
  std::string N;
  for (const char *C = I.param; *C; ++C)
    N += std::isalnum(static_cast<unsigned char>(*C)) ? *C : '_';
  return N;
}

/// Instantiate a DeviceTest-derived suite over host:1, host:2 and host:3.
#define JACC_DEVICE_CONFIGS(Suite)                                                                 \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite, ::testing::Values("host:1", "host:2", "host:3"),        \
                           [](const ::testing::TestParamInfo<const char *> &I) {                   \
                             std::string N = I.param;                                              \
                             return N.replace(N.find(':'), 1, "");                                 \
                           })

#define ASSERT_JACC(call) ASSERT_EQ((call), JACC_SUCCESS) << #call << ": " << jacc_last_error()
#define EXPECT_JACC(call) EXPECT_EQ((call), JACC_SUCCESS) << #call << ": " << jacc_last_error()

#endif
