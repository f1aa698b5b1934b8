// Tests of the nesting limit: machine-generated expressions too deep for the recursive passes
// are located errors, not stack overflows; deep but acceptable ones still analyse.
#include "analysis/NestingDepth.h"
#include "analysis/Pipeline.h"

#include "FrontendCheck.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

/// A parallel loop assigning x[i] = 0 followed by Terms repetitions of Piece and then Tail.
std::string chainKernel(unsigned Terms, const std::string &Piece, const std::string &Tail = "") {
  std::string S = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  x[i] = 0";
  for (unsigned I = 0; I < Terms; ++I)
    S += Piece;
  return S + Tail + ";\n";
}

const Strings Decls = {"float *x", "int n"};

} // namespace

TEST(NestingDepthTest, PrefixRunsAreCountedOnTheTextOnly) {
  EXPECT_FALSE(findLongPrefixRun("x = - - - !~(float)(int)-y;", 12)); // 12 tokens
  EXPECT_TRUE(findLongPrefixRun("x = - - - !~(float)(int)-y;", 11));
  // Operands and binary operators alternate: no run.
  EXPECT_FALSE(findLongPrefixRun("x = a-b-c-d-e-f-g-h-i-j-k;", 3));
  // Comments and strings are not operators.
  EXPECT_FALSE(findLongPrefixRun("x = 1; /* - - - - - - */ s = \"------\";", 3));
  auto At = findLongPrefixRun("x = 1;\ny = - - - - -z;", 3);
  ASSERT_TRUE(At);
  EXPECT_EQ(*At, 17u); // the fourth '-' ends the allowed run of three
}

TEST(NestingDepthTest, LongBinaryChainIsALocatedError) {
  jacc::ErrorCode Code;
  std::string Msg = errorOf(chainKernel(MaxNestingDepth + 500, "+x[i]"), Decls, &Code);
  EXPECT_EQ(Code, jacc::ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("kernel:3:"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("more than 10000 levels"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("temporary variables"), std::string::npos) << Msg;
}

TEST(NestingDepthTest, HugeUnaryChainIsALocatedErrorNotAStackOverflow) {
  // 400,000 prefix operators: clang's parser alone would recurse past any thread's stack.
  jacc::ErrorCode Code;
  std::string Msg = errorOf(chainKernel(200000, "+-", "x[i]"), Decls, &Code);
  EXPECT_EQ(Code, jacc::ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("kernel:3:"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("unary operators, parentheses and casts in a row"), std::string::npos)
      << Msg;
}

TEST(NestingDepthTest, DeepChainUnderTheLimitAnalysesOnTheLargeStack) {
  // 8,000 levels: more than the recursive passes fit in a small thread stack, so this also
  // checks that the passes run on the large one.
  auto K = runAnalysis(chainKernel(8000, "+x[i]"), Decls);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Nests.size(), 1u);
}
