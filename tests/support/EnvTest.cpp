// Tests of the environment's one rule (support/Env.h): unset or empty means the default, a bad
// value is an error naming the variable, the value and what it accepts.
#include "support/Env.h"

#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace jacc {
namespace {

using env::Var;

std::string messageOf(llvm::Error E) {
  std::string Message;
  EXPECT_EQ(takeError(std::move(E), Message), ErrorCode::InvalidArgument);
  return Message;
}

TEST(EnvTest, NamesAreTheDocumentedOnes) {
  EXPECT_STREQ(env::name(Var::Devices), "JACC_DEVICES");
  EXPECT_STREQ(env::name(Var::SpecializeWait), "JACC_SPECIALIZE_WAIT");
  EXPECT_STREQ(env::name(Var::SpecializeBudget), "JACC_SPECIALIZE_BUDGET");
  EXPECT_STREQ(env::name(Var::CacheMaxSize), "JACC_CACHE_MAX_SIZE");
  EXPECT_STREQ(env::name(Var::Debug), "JACC_DEBUG");
  EXPECT_STREQ(env::name(Var::OmpiLocalRank), "OMPI_COMM_WORLD_LOCAL_RANK");
  EXPECT_STREQ(env::name(Var::SlurmTasksPerNode), "SLURM_NTASKS_PER_NODE");
}

TEST(EnvTest, EveryVariableIsListedOnceWithItsDefault) {
  std::set<std::string> Names;
  for (Var V : env::allVars()) {
    std::string Name = env::name(V);
    // OpenACC's own (ACC_PROFLIB, ACC_DEVICE_TYPE, ACC_DEVICE_NUM) and the MPI launchers'
    // variables have prefixes of their own.
    EXPECT_TRUE(llvm::StringRef(Name).starts_with("JACC_") ||
                llvm::StringRef(Name).starts_with("ACC_") || V >= Var::OmpiLocalRank)
        << Name;
    EXPECT_TRUE(Names.insert(Name).second) << Name << " listed twice";
    EXPECT_STRNE(env::defaultText(V), "") << Name;
  }
  // The enumeration's last variable is listed, and so all before it.
  EXPECT_EQ(env::allVars().size(), unsigned(Var::SlurmTasksPerNode) + 1);
  EXPECT_EQ(env::allVars().back(), Var::SlurmTasksPerNode);
}

TEST(EnvTest, TextIsTrimmedAndEmptyWhenUnset) {
  ScopedEnv E("JACC_SPLIT", nullptr);
  EXPECT_EQ(env::get(Var::Split), nullptr);
  EXPECT_EQ(env::text(Var::Split), "");
  E.set("  always \t");
  EXPECT_STREQ(env::get(Var::Split), "  always \t");
  EXPECT_EQ(env::text(Var::Split), "always");
}

TEST(EnvTest, KeywordsAreCaseInsensitiveAndEmptyIsTheDefault) {
  const std::pair<llvm::StringRef, unsigned> Words[] = {{"auto", 1}, {"always", 2}};
  ScopedEnv E("JACC_SPLIT", nullptr);
  EXPECT_EQ(llvm::cantFail(env::keyword(Var::Split, Words, 7, "auto or always")), 7u);
  E.set(" ");
  EXPECT_EQ(llvm::cantFail(env::keyword(Var::Split, Words, 7, "auto or always")), 7u);
  E.set("ALWAYS");
  EXPECT_EQ(llvm::cantFail(env::keyword(Var::Split, Words, 7, "auto or always")), 2u);
  E.set(" sometimes ");
  auto K = env::keyword(Var::Split, Words, 7, "auto or always");
  ASSERT_FALSE(static_cast<bool>(K));
  EXPECT_EQ(messageOf(K.takeError()), "JACC_SPLIT='sometimes' is not valid: use auto or always");
}

TEST(EnvTest, SwitchesTakeTheSameWordsEverywhere) {
  ScopedEnv E("JACC_NARROW", nullptr);
  EXPECT_TRUE(llvm::cantFail(env::onOff(Var::Narrow, true, "on or off")));
  EXPECT_FALSE(llvm::cantFail(env::onOff(Var::Narrow, false, "on or off")));
  for (const char *On : {"on", "1", "true", "yes", "ON", " Yes "}) {
    E.set(On);
    EXPECT_TRUE(llvm::cantFail(env::onOff(Var::Narrow, false, "on or off"))) << On;
  }
  for (const char *Off : {"off", "0", "false", "no", "OFF", " No "}) {
    E.set(Off);
    EXPECT_FALSE(llvm::cantFail(env::onOff(Var::Narrow, true, "on or off"))) << Off;
  }
  E.set("2");
  auto B = env::onOff(Var::Narrow, true, "on or off");
  ASSERT_FALSE(static_cast<bool>(B));
  EXPECT_EQ(messageOf(B.takeError()), "JACC_NARROW='2' is not valid: use on or off");
  EXPECT_EQ(env::parseOnOff("Yes"), std::optional<bool>(true));
  EXPECT_EQ(env::parseOnOff("maybe"), std::nullopt);
}

TEST(EnvTest, SecondsAreNonNegativeNumbersUpToTheLimit) {
  ScopedEnv E("JACC_KERNEL_WARN", nullptr);
  EXPECT_EQ(llvm::cantFail(env::seconds(Var::KernelWarn, 7, 100, "30")), 7);
  for (auto [Text, Value] : {std::pair<const char *, double>{"0", 0}, {" 0.5 ", 0.5}, {"100", 100},
                             {"1e2", 100}}) {
    E.set(Text);
    EXPECT_EQ(llvm::cantFail(env::seconds(Var::KernelWarn, 7, 100, "30")), Value) << Text;
  }
  for (const char *Bad : {"-1", "100.5", "nan", "ten", "5s"}) {
    E.set(Bad);
    auto S = env::seconds(Var::KernelWarn, 7, 100, "30 or 0.5; 0 turns the warning off");
    ASSERT_FALSE(static_cast<bool>(S)) << Bad;
    EXPECT_EQ(messageOf(S.takeError()), std::string("JACC_KERNEL_WARN='") + Bad +
                                            "' is not valid: use a number of seconds (e.g. 30 "
                                            "or 0.5; 0 turns the warning off)");
  }
}

} // namespace
} // namespace jacc
