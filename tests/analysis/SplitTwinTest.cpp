// Tests of a kernel's split twin: the parallel loop's header and its first inner parallel
// loop's swapped, and each kernel that has none (a collapse, a reduction, a dependent inner
// loop, a triangular nest, an inner loop that only disjoint pointers make independent).
#include "analysis/SplitTwin.h"

#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

const std::vector<std::string> Decls = {"int n", "int m", "double (*a)[m]", "double (*b)[m]"};

std::optional<std::string> twinOf(const std::string &Src,
                                  const std::vector<std::string> &D = Decls) {
  KernelInfo K = analyzed(Src, D);
  return splitTwinSource(K);
}

/// A stencil over the rows (the gang loop) with an independent loop over the columns inside.
const std::string Stencil = "#pragma acc parallel loop gang\n"
                            "for (int i = 1; i < n; i++) {\n"
                            "  #pragma acc loop worker\n"
                            "  for (int j = 0; j < m; j++)\n"
                            "    b[i][j] = a[i - 1][j] + a[i][j];\n"
                            "}\n";

TEST(SplitTwinTest, SwapsTheParallelLoopWithTheOneInside) {
  const std::string Src = Stencil;
  EXPECT_EQ(twinOf(Src), "#pragma acc parallel loop gang\n"
                         "for (int j = 0; j < m; j++) {\n"
                         "  #pragma acc loop worker\n"
                         "  for (int i = 1; i < n; i++)\n"
                         "    b[i][j] = a[i - 1][j] + a[i][j];\n"
                         "}\n");
  // The twin has a twin: the kernel again.
  EXPECT_EQ(twinOf(*twinOf(Src)), Src);
}

TEST(SplitTwinTest, ThreeLevelsSwapTheOuterTwo) {
  std::string Src = "#pragma acc parallel loop\n"
                    "for (int k = 0; k < n; k++)\n"
                    "  for (int i = 0; i < n; i++)\n"
                    "    for (int j = 0; j < m; j++)\n"
                    "      c[k][i][j] = 2 * c[k][i][j];\n";
  auto Twin = twinOf(Src, {"int n", "int m", "double (*c)[n][m]"});
  ASSERT_TRUE(Twin);
  EXPECT_NE(Twin->find("for (int i = 0; i < n; i++)\n  for (int k = 0; k < n; k++)\n    for "
                       "(int j = 0; j < m; j++)"),
            std::string::npos)
      << *Twin;
}

const std::vector<std::string> OneArray = {"int n", "int m", "double (*a)[m]"};

TEST(SplitTwinTest, AxesOfTheKernelAndOfItsTwin) {
  // Written b along the split loop's dimension; a read along it in a bounded range; the twin
  // cuts both along the other dimension, and the pipeline keeps the twin's axes.
  const std::string Src = Stencil;
  KernelInfo K = analyzed(Src, Decls);
  ASSERT_EQ(K.Args.size(), 4u);
  EXPECT_EQ(splitAxes(K), (std::vector<SplitAxis>{{3, 0, 2}, {2, 0, 2}}));
  EXPECT_EQ(K.Split.Twin, twinOf(Src));
  EXPECT_EQ(K.Split.TwinAxes, (std::vector<SplitAxis>{{3, 1, 2}, {2, 1, 2}}));
}

TEST(SplitTwinTest, NoneWhereTheLoopsMayNotSwap) {
  // The inner loop carries a dependence.
  EXPECT_FALSE(twinOf("#pragma acc parallel loop\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  for (int j = 1; j < m; j++)\n"
                      "    a[i][j] = a[i][j - 1] + 1;\n",
                      OneArray));
  // A triangular nest.
  EXPECT_FALSE(twinOf("#pragma acc parallel loop\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  for (int j = 0; j < i; j++)\n"
                      "    a[i][j] = 1;\n",
                      OneArray));
  // Collapsed: the split already cuts both.
  EXPECT_FALSE(twinOf("#pragma acc parallel loop collapse(2)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  for (int j = 0; j < m; j++)\n"
                      "    a[i][j] = 1;\n",
                      OneArray));
  // A reduction.
  EXPECT_FALSE(twinOf("#pragma acc parallel loop reduction(+:s)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  for (int j = 0; j < m; j++)\n"
                      "    s += a[i][j];\n",
                      {"int n", "int m", "double (*a)[m]", "double s"}));
  // Not perfectly nested.
  EXPECT_FALSE(twinOf("#pragma acc parallel loop\n"
                      "for (int i = 0; i < n; i++) {\n"
                      "  a[i][0] = 0;\n"
                      "  for (int j = 1; j < m; j++)\n"
                      "    a[i][j] = 1;\n"
                      "}\n",
                      OneArray));
}

TEST(SplitTwinTest, NoneWhenOnlyDisjointPointersMakeTheInnerLoopIndependent) {
  // b may overlap a: without a loop directive the inner loop is independent only if they do
  // not, which a twin chosen per kernel cannot know.
  std::string Src = "#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    b[i][j] = a[i][j] + 1;\n";
  KernelInfo K = analyzed(Src, Decls);
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].InnerNeedsDisjointFrom, 0u);
  EXPECT_FALSE(splitTwinSource(K));
  // A loop directive asserts what the pointers cannot show.
  std::string Asserted = "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  #pragma acc loop independent\n"
                         "  for (int j = 0; j < m; j++)\n"
                         "    b[i][j] = a[i][j] + 1;\n"
                         "}\n";
  EXPECT_TRUE(twinOf(Asserted));
}

} // namespace
