// Tests of EntryValues: which scalar arguments a kernel reads as pushed, on analysed kernels.
#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

/// The scalar arguments of the analysed kernel whose pushed value it never reads.
std::set<std::string> unread(const std::string &Src, const std::vector<std::string> &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  std::set<std::string> R;
  for (const ArgInfo &A : K->Args)
    if (!A.ValueRead)
      R.insert(A.Name);
  return R;
}

TEST(EntryValuesTest, VariablesAssignedBeforeEveryReadAreNotRead) {
  // i: the nest's loop variable declared by the program; t and k: assigned first in the body;
  // s: read before it is assigned on the path where c[i] <= 0.
  EXPECT_EQ(
      unread("#pragma acc parallel loop\n"
             "for (i = 0; i < n; i++) {\n"
             "  t = a[i] * 2;\n"
             "  for (k = 0; k < 3; k++) t += k;\n"
             "  if (a[i] > 0) s = t;\n"
             "  b[i] = t + s;\n"
             "}\n",
             {"int n", "int i", "int k", "double t", "double s", "const double *a", "double *b"}),
      (std::set<std::string>{"i", "k", "t"}));
}

TEST(EntryValuesTest, AnyMentionOutsideTheNestsIsARead) {
  // t is assigned first inside the loop, but the statement after it (thread 0) reads it; m is
  // assigned in the body but also bounds the loop; a serial region is never analysed.
  EXPECT_EQ(unread("#pragma acc parallel\n{\n"
                   "  #pragma acc loop\n"
                   "  for (int i = 0; i < m; i++) { t = a[i]; m = 3; b[i] = t * m; }\n"
                   "  b[0] = t;\n"
                   "}\n",
                   {"int m", "double t", "const double *a", "double *b"}),
            (std::set<std::string>{}));
  EXPECT_EQ(unread("#pragma acc serial\n"
                   "for (int i = 0; i < n; i++) { t = a[i]; b[i] = t; }\n",
                   {"int n", "double t", "const double *a", "double *b"}),
            (std::set<std::string>{}));
  EXPECT_EQ(unread("#pragma acc parallel loop firstprivate(t)\n"
                   "for (int i = 0; i < n; i++) { t = a[i]; b[i] = t; }\n",
                   {"int n", "double t", "const double *a", "double *b"}),
            (std::set<std::string>{}));
}

} // namespace
