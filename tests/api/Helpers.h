// Small helpers shared by the end-to-end suites (header only; included after Fixture.h).
#ifndef JACC_TESTS_API_HELPERS_H
#define JACC_TESTS_API_HELPERS_H

#include "tests/api/Fixture.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>

namespace jacc_test {

/// The counters now.
inline jacc_stats stats() {
  jacc_stats S{};
  EXPECT_EQ(jacc_get_stats(&S), JACC_SUCCESS) << jacc_last_error();
  return S;
}

/// This thread's last error message as a string.
inline std::string lastError() { return jacc_last_error(); }

/// |Got - Want| <= Rel * max(1, |Want|): for results the JIT may compute with a contracted
/// a*b+c (FMA) or in a different summation order.
inline ::testing::AssertionResult relClose(double Got, double Want, double Rel) {
  double Tol = Rel * std::fmax(1.0, std::fabs(Want));
  if (std::fabs(Got - Want) <= Tol)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got " << Got << ", want " << Want << " (difference " << std::fabs(Got - Want)
         << " > tolerance " << Tol << ")";
}

/// The number of devices a JACC_DEVICES value ("host:3") asks for.
inline int configuredDevices(const std::string &Param) {
  size_t Colon = Param.find(':');
  return Colon == std::string::npos ? 1 : std::stoi(Param.substr(Colon + 1));
}

/// A kernel text made unique to the current test configuration, for counters that must start
/// from a cold kernel cache (the cache lives for the whole process, across configurations).
inline std::string uniqueKernel(const std::string &Tag, const std::string &Body) {
  static std::atomic<unsigned> Calls{0}; // unique under --gtest_repeat too
  const ::testing::TestInfo *T = ::testing::UnitTest::GetInstance()->current_test_info();
  return "/* " + Tag + " " + std::string(T->test_suite_name()) + "." + T->name() + " #" +
         std::to_string(Calls.fetch_add(1)) + " */\n" + Body;
}

/// Gecko's Figure 4 as a JACC_CONFIG file (docs/locations.md): host:0 and host:1 are the
/// sockets (LocN, not under the root LocA), the others the GPUs (LocGs, all) under LocG under
/// LocB under LocA.
inline const char *const Figure4Config =
    "# Gecko's Figure 4 with host devices\n"
    "location LocA memory\nlocation LocB virtual\nlocation LocN virtual\n"
    "location LocN1 host\nlocation LocN2 host\nlocation LocG virtual\n"
    "location LocGs host all\n"
    "hierarchy LocA + LocB\nhierarchy LocN + LocN1, LocN2\n"
    "hierarchy LocG + LocGs\nhierarchy LocB + LocG\n";

/// y = a * x + y over n elements, x and y present: the suites' smallest kernel.
inline constexpr const char *SaxpyKernel = "#pragma acc parallel loop present(x, y)\n"
                                           "for (int i = 0; i < n; i++)\n"
                                           "  y[i] = a * x[i] + y[i];\n";

} // namespace jacc_test

#define EXPECT_REL(got, want, rel) EXPECT_TRUE(::jacc_test::relClose((got), (want), (rel)))
#define ASSERT_REL(got, want, rel) ASSERT_TRUE(::jacc_test::relClose((got), (want), (rel)))

#endif
