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

/// What a translated `copyin(a[0:n][0:m])` of `double **a` does, through the API: the N rows of
/// M doubles copied in, then the pointer array Ptrs, then each row attached into the devices'
/// copies of it. unmapRows undoes it: detached, the pointer array deleted, the rows copied out.
inline ::testing::AssertionResult mapRows(double **Ptrs, int N, int M) {
  for (int I = 0; I < N; ++I)
    if (jacc_copyin(Ptrs[I], M * sizeof(double)) != JACC_SUCCESS)
      return ::testing::AssertionFailure() << "row " << I << ": " << jacc_last_error();
  if (jacc_copyin(Ptrs, N * sizeof(double *)) != JACC_SUCCESS)
    return ::testing::AssertionFailure() << "pointer array: " << jacc_last_error();
  for (int I = 0; I < N; ++I)
    if (jacc_attach(reinterpret_cast<void **>(&Ptrs[I])) != JACC_SUCCESS)
      return ::testing::AssertionFailure() << "attach " << I << ": " << jacc_last_error();
  return ::testing::AssertionSuccess();
}
inline ::testing::AssertionResult unmapRows(double **Ptrs, int N, int M) {
  for (int I = 0; I < N; ++I)
    if (jacc_detach(reinterpret_cast<void **>(&Ptrs[I]), 0) != JACC_SUCCESS)
      return ::testing::AssertionFailure() << "detach " << I << ": " << jacc_last_error();
  if (jacc_delete(Ptrs, N * sizeof(double *)) != JACC_SUCCESS)
    return ::testing::AssertionFailure() << "pointer array: " << jacc_last_error();
  for (int I = 0; I < N; ++I)
    if (jacc_copyout(Ptrs[I], M * sizeof(double)) != JACC_SUCCESS)
      return ::testing::AssertionFailure() << "row " << I << ": " << jacc_last_error();
  return ::testing::AssertionSuccess();
}

#define ASSERT_JACC(call) ASSERT_EQ((call), JACC_SUCCESS) << #call << ": " << jacc_last_error()
#define EXPECT_JACC(call) EXPECT_EQ((call), JACC_SUCCESS) << #call << ": " << jacc_last_error()

#endif
