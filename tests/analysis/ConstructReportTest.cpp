// Tests of what jaccc -Minfo=accel says of a construct: shared loops, sequential loops and
// statements and why, reductions, whether it splits, each at the user's file and line.
#include "analysis/ConstructReport.h"
#include "analysis/Pipeline.h"

#include <gtest/gtest.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

/// The report of a kernel jaccc wrote for the construct at heat.c:40 (leading declarations
/// first, the site line last).
std::vector<std::string> report(const std::string &Construct,
                                const std::vector<std::string> &Decls) {
  auto K = runAnalysis("typedef double real;\n" + Construct + "// jacc-site: heat.c:40\n", Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return describeConstruct(*K);
}

TEST(ConstructReportTest, SplitLoopNamesItsLineAndTheArraysEachDeviceWrites) {
  EXPECT_EQ(report("#pragma acc parallel loop\n"
                   "for (int i = 0; i < n; i++)\n"
                   "  y[i] = 2 * x[i];\n",
                   {"int n", "real *y", "const real *x"}),
            (std::vector<std::string>{
                "heat.c:41: loop i: iterations shared among each device's threads",
                "heat.c:40: split across devices along loop i: each device runs its share of the "
                "iterations and writes its part of y; the first launches measure whether "
                "splitting pays (JACC_SPLIT overrides)"}));
}

TEST(ConstructReportTest, CollapsedLoopsAndInnerLoopsAndReductions) {
  std::vector<std::string> R = report("#pragma acc parallel loop collapse(2) reduction(max:m)\n"
                                      "for (int i = 0; i < n; i++)\n"
                                      "  for (int j = 0; j < n; j++) {\n"
                                      "    #pragma acc loop seq\n"
                                      "    for (int k = 0; k < n; k++)\n"
                                      "      m = m > a[i * n + k] ? m : a[i * n + k];\n"
                                      "  }\n",
                                      {"int n", "const double *a", "double m"});
  ASSERT_EQ(R.size(), 4u);
  EXPECT_EQ(R[0], "heat.c:41: loops i, j (collapsed): iterations shared among each device's "
                  "threads");
  EXPECT_EQ(R[1], "heat.c:43: loop: runs sequentially within each iteration of loops i, j "
                  "(collapsed) at heat.c:41 (jacc shares the iterations of the outermost nest)");
  EXPECT_EQ(R[2], "heat.c:40: reduction(max:m): each thread's partial result combined, then the "
                  "devices'");
  EXPECT_EQ(R[3].rfind("heat.c:40: split across devices along loops i, j (collapsed)", 0), 0u)
      << R[3];
}

// A GPU shares independent inner loops with the nest: asserted by their directive (which then
// gets no "runs sequentially" line), or proven for arrays that do not overlap.
TEST(ConstructReportTest, InnerLoopsAGpuSharesWithTheNest) {
  std::vector<std::string> R = report("#pragma acc parallel loop gang\n"
                                      "for (int i = 1; i < n - 1; i++)\n"
                                      "  #pragma acc loop vector\n"
                                      "  for (int j = 0; j < n; j++)\n"
                                      "    for (int k = 0; k < n; k++)\n"
                                      "      b[(i * n + j) * n + k] = a[(i * n + j) * n + k];\n",
                                      {"int n", "const double *a", "double *b"});
  ASSERT_GE(R.size(), 3u);
  EXPECT_EQ(R[0], "heat.c:41: loop i: iterations shared among each device's threads");
  EXPECT_EQ(R[1], "heat.c:43: loop j: on a GPU, iterations shared among the threads with loop i "
                  "(independent iterations); a CPU thread runs it within each of its own "
                  "iterations");
  EXPECT_EQ(R[2], "heat.c:44: loop k: on a GPU, iterations shared among the threads with loop i "
                  "(independent once its arrays are known not to overlap, from a push whose "
                  "arrays are each in a mapping of their own); a CPU thread runs it within each "
                  "of its own iterations");
}

// A CPU thread runs an independent loop inside the recurrence it holds (ParallelNest::
// Interchanges) and says so at the loop's line.
TEST(ConstructReportTest, AnInterchangedLoopNamesTheLoopItRunsInside) {
  std::vector<std::string> R = report("#pragma acc parallel loop gang\n"
                                      "for (int k = 0; k < n; k++)\n"
                                      "  #pragma acc loop vector\n"
                                      "  for (j = 0; j < n; j++)\n"
                                      "    for (i = 1; i < n; i++)\n"
                                      "      u[k][i][j] = u[k][i][j] - u[k][i - 1][j];\n",
                                      {"int n", "int i", "int j", "double (*u)[n][n]"});
  EXPECT_NE(std::find(R.begin(), R.end(),
                      "heat.c:43: loop j: a CPU thread runs it inside loop i at heat.c:44 "
                      "(interchanged: its accesses are contiguous along j, and each j still runs "
                      "the iterations of i in order)"),
            R.end())
      << llvm::join(R, "\n");
}

TEST(ConstructReportTest, LoopWithoutDirectiveRunsOnOneThreadAndNothingSplits) {
  EXPECT_EQ(report("#pragma acc kernels\n"
                   "{\n"
                   "  for (int i = 1; i < n; i++)\n"
                   "    y[i] = y[i - 1] + 1;\n"
                   "}\n",
                   {"int n", "double *y"}),
            (std::vector<std::string>{
                "heat.c:42: loop runs sequentially on one thread of each device: it has no "
                "'#pragma acc loop' (or one with seq or auto); give it '#pragma acc loop "
                "independent' if its iterations are independent",
                "heat.c:40: not split across devices: it has no parallel loop; with several "
                "devices each runs the whole kernel"}));
}

TEST(ConstructReportTest, UnsplittableKernelSaysWhyAtTheUsersLine) {
  // A recurrence along each row: rows cross the devices' element ranges.
  std::vector<std::string> R = report("#pragma acc parallel loop\n"
                                      "for (int x = 0; x < 10; x++)\n"
                                      "  for (int y = 1; y < n; y++)\n"
                                      "    c[x * n + y] = c[x * n + y - 1] + a[x * n + y];\n",
                                      {"int n", "const double *a", "double *c"});
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[1], "heat.c:40: not split across devices: 'c[x * n + y - 1]' at line 43 reads an "
                  "element a previous iteration wrote as 'c[x * n + y]', which another device "
                  "may own; with several devices each runs the whole kernel");
}

TEST(ConstructReportTest, SerialConstructRunsOnOneThread) {
  EXPECT_EQ(report("#pragma acc serial\n"
                   "y[0] = 1;\n",
                   {"double *y"}),
            (std::vector<std::string>{
                "heat.c:40: runs sequentially on one thread of each device (a serial construct)",
                "heat.c:40: not split across devices: with several devices each runs it whole"}));
}

TEST(ConstructReportTest, KernelWithoutSiteUsesItsOwnLines) {
  auto K = runAnalysis("#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  y[i] = 0;\n",
                       {"int n", "double *y"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(describeConstruct(*K).front(),
            "kernel:2: loop i: iterations shared among each device's threads");
}

} // namespace
