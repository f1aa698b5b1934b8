// Execution policies: the accepted forms, the errors, and each device's share.
#include "src/launch/Distribution.h"

#include "support/Error.h"

#include <gtest/gtest.h>

namespace jacc {
namespace {

/// The message of a failed parse (empty if it parsed).
std::string parseError(llvm::StringRef Text) {
  auto D = parseDistribution(Text);
  if (D)
    return "";
  std::string Message;
  takeError(D.takeError(), Message);
  return Message;
}

/// Shares as "b/s-e/s" text, one per device.
std::vector<std::string> sharesText(llvm::StringRef Text, unsigned Devices, unsigned Idle = 0) {
  auto D = parseDistribution(Text);
  EXPECT_TRUE(static_cast<bool>(D));
  if (!D) {
    llvm::consumeError(D.takeError());
    return {};
  }
  std::vector<std::string> Out;
  for (const SplitShare &S : sharesOf(*D, Devices, Idle))
    Out.push_back(std::to_string(S.Begin) + "/" + std::to_string(S.Scale) + "-" +
                  std::to_string(S.End) + "/" + std::to_string(S.Scale));
  return Out;
}

using V = std::vector<std::string>;

TEST(DistributionTest, StaticAndFlattenAreEvenShares) {
  EXPECT_EQ(sharesText("static", 3), (V{"0/3-1/3", "1/3-2/3", "2/3-3/3"}));
  EXPECT_EQ(sharesText(" Flatten ", 2), (V{"0/2-1/2", "1/2-2/2"}));
  EXPECT_TRUE(parseDistribution("static")->even());
  EXPECT_FALSE(parseDistribution("weights:[1,1]")->even());
}

TEST(DistributionTest, WholeValuesAreTheScale) {
  EXPECT_EQ(sharesText("percentage:[25,75]", 2), (V{"0/100-25/100", "25/100-100/100"}));
  EXPECT_EQ(sharesText("weights:[1,0,3]", 3), (V{"0/4-1/4", "1/4-1/4", "1/4-4/4"}));
  EXPECT_EQ(sharesText("range:[100, 300]", 2), (V{"0/400-100/400", "100/400-400/400"}));
}

TEST(DistributionTest, FractionsAreFixedPoint) {
  EXPECT_EQ(sharesText("weights:[0.5,1.5]", 2),
            (V{"0/1048576-262144/1048576", "262144/1048576-1048576/1048576"}));
  EXPECT_EQ(sharesText("percentage:[33.5,66.5]", 2).size(), 2u);
}

TEST(DistributionTest, AnyGivesEverythingToTheIdleDevice) {
  EXPECT_EQ(sharesText("any", 3, 1), (V{"0/1-0/1", "0/1-1/1", "0/1-0/1"}));
}

TEST(DistributionTest, BadPoliciesSayWhatIsWrong) {
  EXPECT_NE(parseError("fastest").find("unknown policy 'fastest'"), std::string::npos);
  EXPECT_NE(parseError("percentage:[50,40]").find("add up to 90"), std::string::npos);
  EXPECT_NE(parseError("weights:[1,x]").find("'x' is not a number"), std::string::npos);
  EXPECT_NE(parseError("weights:1,2").find("bracketed list"), std::string::npos);
  EXPECT_NE(parseError("weights:[0,0]").find("add up to zero"), std::string::npos);
  EXPECT_NE(parseError("range:[1.5,2]").find("whole numbers"), std::string::npos);
  EXPECT_NE(parseError("static:[1]").find("takes no values"), std::string::npos);
  EXPECT_NE(parseError("percentage").find("needs one value per device"), std::string::npos);
  EXPECT_NE(parseError("weights:[1,-1]").find("negative"), std::string::npos);
  EXPECT_NE(parseError("bogus").find("accepted: static, flatten, any"), std::string::npos);
}

} // namespace
} // namespace jacc
