// The background compile budget (jit/specialize/CompileBudget.h): spent once the compiles charged
// reach the limit, never with no limit, at once with a limit of 0; reset starts over.
#include "jit/specialize/CompileBudget.h"

#include <gtest/gtest.h>

using namespace jacc::jit;

namespace {

TEST(CompileBudgetTest, SpentWhenTheChargesReachTheLimit) {
  CompileBudget B;
  B.reset(0.5);
  EXPECT_FALSE(B.spent());
  B.charge(0.3);
  EXPECT_FALSE(B.spent());
  B.charge(0.3);
  EXPECT_TRUE(B.spent());
  EXPECT_EQ(B.compiles(), 2u);
  EXPECT_NEAR(B.spentSeconds(), 0.6, 1e-6);
  EXPECT_NEAR(B.limitSeconds(), 0.5, 1e-6);
  EXPECT_TRUE(B.refuse()) << "the first refusal is the one logged";
  EXPECT_FALSE(B.refuse());
  EXPECT_EQ(B.refused(), 2u);
  B.reset(0.5);
  EXPECT_FALSE(B.spent()) << "a new runtime starts over";
  EXPECT_EQ(B.compiles(), 0u);
  EXPECT_EQ(B.refused(), 0u);
}

TEST(CompileBudgetTest, ZeroAndNoLimit) {
  CompileBudget B;
  B.reset(0);
  EXPECT_TRUE(B.spent()) << "0: no compile at all";
  B.reset(-1);
  B.charge(1e6);
  EXPECT_FALSE(B.spent()) << "no limit";
}

} // namespace
