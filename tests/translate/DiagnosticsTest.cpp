// Tests of a file's diagnostics (translate/Diagnostics.h): each at its file, line and column,
// errors once, and errors a step takes back to report another way.
#include "translate/Diagnostics.h"

#include <gtest/gtest.h>

using namespace jacc::translate;

namespace {

TEST(DiagnosticsTest, EachAtItsFileLineAndColumn) {
  Diagnostics D("heat.c");
  D.error(12, 9, "no such array 'b'");
  D.warning(3, 21, "'present_or_copy' is an OpenACC 1.0 name");
  D.info(40, "implicit copy(c[0:n])");
  D.infoLine("heat.c:41: loop i: split over the devices");
  EXPECT_TRUE(D.failed());
  EXPECT_EQ(D.takeErrors(), std::vector<std::string>{"heat.c:12:9: error: no such array 'b'"});
  EXPECT_EQ(
      D.takeWarnings(),
      std::vector<std::string>{"heat.c:3:21: warning: 'present_or_copy' is an OpenACC 1.0 name"});
  EXPECT_EQ(D.takeInfos(), (std::vector<std::string>{"heat.c:40: implicit copy(c[0:n])",
                                                     "heat.c:41: loop i: split over the devices"}));
}

TEST(DiagnosticsTest, AnErrorFoundTwiceIsReportedOnce) {
  // A template's instantiations lower the same construct and find the same problem.
  Diagnostics D("t.cpp");
  D.error(5, 1, "x");
  D.error(5, 1, "x");
  D.error(5, 2, "x");
  EXPECT_EQ(D.errorCount(), 2u);
}

TEST(DiagnosticsTest, AStepTakesBackTheErrorsItReportsAnotherWay) {
  Diagnostics D("r.c");
  D.error(1, 1, "first");
  size_t Before = D.errorCount();
  D.error(7, 3, "reads a global");
  D.error(8, 3, "calls printf");
  EXPECT_EQ(D.takeErrorsAfter(Before), (std::vector<std::string>{"r.c:7:3: error: reads a global",
                                                                 "r.c:8:3: error: calls printf"}));
  EXPECT_EQ(D.errorCount(), 1u);
  EXPECT_TRUE(D.takeErrorsAfter(5).empty());
  EXPECT_FALSE(Diagnostics("e.c").failed());
}

} // namespace
