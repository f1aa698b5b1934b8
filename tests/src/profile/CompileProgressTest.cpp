// The compile progress line from known compiles and times: nothing before a second of compiles,
// then redrawn in place, erased when the compiles end, and one closing line at exit.
#include "src/profile/CompileProgress.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace jacc::prof;

class CompileProgressTest : public ::testing::Test {
protected:
  std::vector<std::string> Written;
  CompileProgress P{[this](llvm::StringRef T) { Written.push_back(T.str()); }};
};

TEST_F(CompileProgressTest, SilentWhileCompilesTakeLessThanASecond) {
  P.begins("heat.c:42", 10.0);
  P.tick(10.5);
  P.ends(10.6);
  P.begins("heat.c:50", 20.0);
  P.ends(20.3);
  P.finish();
  EXPECT_TRUE(Written.empty()) << Written.front();
}

TEST_F(CompileProgressTest, ShownAfterASecondOfCompilesThenErasedAndSummedUpAtExit) {
  P.begins("heat.c:42", 10.0);
  P.ends(10.8);
  P.begins("heat.c:50", 20.0); // 0.8 s so far
  P.tick(20.1);
  EXPECT_TRUE(Written.empty());
  P.tick(20.5); // 1.3 s of compiles
  ASSERT_EQ(Written.size(), 1u);
  EXPECT_EQ(Written[0], "\rjacc: compiling kernels: 1 done, now heat.c:50 (1.3 s)\033[K");
  P.ends(21.0);
  ASSERT_EQ(Written.size(), 2u);
  EXPECT_EQ(Written[1], "\r\033[K") << "the program's output would follow the line";
  P.tick(22.0); // nothing compiles: nothing drawn
  P.begins("", 30.0);
  EXPECT_EQ(Written.back(), "\rjacc: compiling kernels: 2 done, now a kernel (1.8 s)\033[K");
  P.ends(30.2);
  P.finish();
  EXPECT_EQ(Written.back(), "jacc: compiled 3 kernels in 2.0 s; the disk cache keeps them, so "
                            "the next run starts at once\n");
}

TEST_F(CompileProgressTest, OverlappingCompilesCountTheirTimeOnce) {
  P.begins("a.c:1", 0.0);
  P.begins("a.c:2", 0.5);
  P.ends(1.2); // one still runs: redrawn, not erased
  EXPECT_EQ(Written.back(), "\rjacc: compiling kernels: 1 done, now a.c:2 (1.2 s)\033[K");
  P.ends(1.5);
  EXPECT_EQ(Written.back(), "\r\033[K");
  P.finish();
  EXPECT_EQ(Written.back().rfind("jacc: compiled 2 kernels in 1.5 s", 0), 0u) << Written.back();
}

TEST_F(CompileProgressTest, ExitWhileCompilingErasesTheLineFirst) {
  P.begins("a.c:1", 0.0);
  P.tick(2.0);
  P.finish();
  EXPECT_EQ(Written.back().rfind("\r\033[Kjacc: compiled 0 kernels", 0), 0u) << Written.back();
}

TEST(CompileProgressLogTest, OutsideATerminalEachCompileIsALineAndNothingIsErased) {
  std::vector<std::string> Written;
  CompileProgress P([&](llvm::StringRef T) { Written.push_back(T.str()); }, 0, /*InPlace=*/false);
  P.begins("a.c:1", 0.0);
  P.tick(0.5);
  P.ends(0.6);
  P.begins("a.c:9", 1.0);
  P.ends(1.2);
  P.finish();
  EXPECT_EQ(Written, (std::vector<std::string>{
                         "jacc: compiling kernels: 0 done, now a.c:1 (0.0 s)\n",
                         "jacc: compiling kernels: 1 done, now a.c:9 (0.6 s)\n",
                         "jacc: compiled 2 kernels in 0.8 s; the disk cache keeps them, so the "
                         "next run starts at once\n"}));
}

} // namespace
