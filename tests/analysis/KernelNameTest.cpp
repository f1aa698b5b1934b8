// Tests of a kernel's names: its site, its display name, and how messages and symbols spell them.
#include "analysis/KernelName.h"

#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc::analysis;

namespace {

KernelName namesOf(const std::string &Source) {
  auto K = runAnalysis(Source, {"int n", "double *y"});
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return K->Name;
}

const char *const RegionWithLoop = "#pragma acc parallel present(y)\n"
                                   "{\n"
                                   "  #pragma acc loop\n"
                                   "  for (int i = 0; i < n; i++) y[i] = 0;\n"
                                   "}\n";

TEST(KernelNameTest, AKernelFromJacccIsNamedByItsSite) {
  KernelName N = namesOf(std::string(RegionWithLoop) + "// jacc-site: heat.c:42\n");
  EXPECT_EQ(N.Site, "heat.c:42");
  EXPECT_EQ(N.Display, "for (int i = 0; i < n; i++) y[i] = 0;") << "the first loop's line";
  EXPECT_EQ(N.where(), "the kernel at heat.c:42");
  EXPECT_EQ(N.described("split entry"), "kernel 'for (int i = 0; i < n; i++) y[i] = 0;' (split "
                                        "entry)");
  EXPECT_EQ(N.symbol(false), "jacc:heat.c:42");
  EXPECT_EQ(N.symbol(true, "n=4"), "jacc:heat.c:42 split [n=4]");
}

TEST(KernelNameTest, AKernelPushedAsTextIsNamedByItsFirstLoopLine) {
  KernelName N = namesOf(RegionWithLoop);
  EXPECT_EQ(N.Site, "");
  EXPECT_EQ(N.where(), "kernel 'for (int i = 0; i < n; i++) y[i] = 0;'");
  EXPECT_EQ(N.where(), N.described());
  EXPECT_EQ(N.symbol(false), "jacc:for (int i = 0; i < n; i++) y[i] = 0;");
}

TEST(KernelNameTest, ALongLineIsShortenedInMessagesAndSymbols) {
  std::string Long = "#pragma acc parallel loop present(y)\nfor (int i = 0; i < n; i++) y[i] = 0";
  for (int I = 0; I < 30; ++I)
    Long += " + 1";
  Long += ";\n";
  KernelName N = namesOf(Long);
  ASSERT_GT(N.Display.size(), 100u);
  EXPECT_EQ(N.described().size(), std::string("kernel ''").size() + 80);
  EXPECT_EQ(N.described().substr(N.described().size() - 4), "...'");
  EXPECT_EQ(N.symbol(false).size(), std::string("jacc:").size() + 60);
}

} // namespace
