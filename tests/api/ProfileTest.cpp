// JACC_PROFILE end to end: a known program's summary (JSON into a file) agrees with
// jacc_get_stats exactly (launches by mode, bytes by direction), groups the copies of a construct
// begun with jacc_construct_begin under its location, and text goes to stderr; on host:1..3.
#include "tests/api/ProfiledProgram.h"

#include <gtest/gtest.h>

#include <unistd.h>

namespace {

using jacc::test::profiledProgram;

class ProfileTest : public ::testing::TestWithParam<const char *> {};

TEST_P(ProfileTest, TheSummaryAgreesWithTheStatistics) {
  // Listeners start once per process: each configuration in a child of its own.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string File = testing::TempDir() + "jacc-profile-" + std::to_string(::getpid()) + "-" +
                     std::string(GetParam()).substr(5) + ".json";
  EXPECT_EXIT(profiledProgram(GetParam(), File), ::testing::ExitedWithCode(0), "");
  std::remove(File.c_str());
}

INSTANTIATE_TEST_SUITE_P(Devices, ProfileTest,
                         ::testing::Values("host:1", "host:2", "host:3"));

/// A program of one split kernel, its summary written to Profile (JACC_PROFILE).
[[noreturn]] void textProgram(const char *Profile) {
  setenv("JACC_DEVICES", "host:2", 1);
  setenv("JACC_PROFILE", Profile, 1);
  jacc_finalize();
  int N = 1000;
  std::vector<double> Xv(N, 1.0);
  double *X = Xv.data();
  jacc_copyin(X, N * sizeof(double));
  jacc_arg Args[] = {{"int n", &N}, {"double *x", &X}};
  jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                   "for (int i = 0; i < n; i++)\n"
                   "  x[i] += 1;\n"
                   "// jacc-site: text_test.c:7\n",
                   2, Args, JACC_FORCE_SPLIT);
  jacc_copyout(X, N * sizeof(double));
  jacc_finalize();
  std::exit(Xv[0] == 2.0 ? 0 : 3);
}

TEST(ProfileTextTest, TheSummaryIsPrintedOnStderrAtFinalize) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(textProgram("1"), ::testing::ExitedWithCode(0),
              "jacc profile: .*, 2 devices \\(host:0, host:1\\)(.|\n)*"
              "Compute regions(.|\n)*text_test.c:7 +1 +1 +0 +0 +2 (.|\n)*"
              "jacc_copyin +1 +15.6. KiB(.|\n)*"
              "launches: 1 \\(1 split, 0 duplicate, 0 on owner\\)");
}

TEST(ProfileTextTest, ASummaryThatCannotBeWrittenIsNamedAndTheProgramSucceeds) {
  // A full disk loses the summary, with a warning; the program's own exit status stands.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(textProgram("/dev/full"), ::testing::ExitedWithCode(0),
              "^jacc: JACC_PROFILE: cannot write '/dev/full': No space left on device \\(set "
              "JACC_PROFILE to a writable file, or to 1 for stderr\\)\n$");
}

} // namespace
