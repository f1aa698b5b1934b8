// Tests of the program's record kept between runs: a choice remembered is recalled by the same
// program, not by another; bad, foreign or cleared records recall nothing; a read-only cache
// keeps nothing; the identity tells programs, arguments, settings and devices apart but not the
// observers.
#include "src/launch/ProgramMemory.h"

#include "jit/cache/DiskCache.h"

#include "../../ScopedEnv.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>

using jacc::programIdentity;
using jacc::ProgramMemory;
using jacc::jit::DiskCache;
using Regime = jacc::ProgramSpread::Regime;

namespace {

class ProgramMemoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> P;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-program-memory", P));
    Dir = std::string(P);
    Cache = open(false);
    ASSERT_TRUE(Cache);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::shared_ptr<DiskCache> open(bool ReadOnly) {
    auto C = DiskCache::open(Dir, 1ull << 30, ReadOnly);
    if (!C) {
      ADD_FAILURE() << llvm::toString(C.takeError());
      return nullptr;
    }
    return std::make_shared<DiskCache>(std::move(*C));
  }
  std::string Dir;
  std::shared_ptr<DiskCache> Cache;
};

TEST_F(ProgramMemoryTest, TheSameProgramRecallsTheChoiceOfItsLastRun) {
  ProgramMemory Run1(Cache, "program a");
  EXPECT_FALSE(Run1.recall()) << "never run";
  Run1.remember({Regime::Spread, 8, false});
  Run1.remember({Regime::OneDevice, 32, true}); // a re-check changed it, another confirmed it
  ProgramMemory Run2(Cache, "program a");
  auto C = Run2.recall();
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Choice, Regime::OneDevice);
  EXPECT_EQ(C->Windows, 32u);
  EXPECT_TRUE(C->Confirmed);
  EXPECT_FALSE(ProgramMemory(Cache, "program b").recall()) << "another program";
}

TEST_F(ProgramMemoryTest, BadOrForeignRecordsRecallNothing) {
  ProgramMemory M(Cache, "program a");
  for (
      const char *Text :
      {"", "garbage", "[1]", R"({"format":1,"regime":"spread","recheck_windows":8})",
       R"({"format":2,"regime":"spread","recheck_windows":8,"confirmed":true,"identity":"program a"})",
       R"({"format":1,"regime":"spread","recheck_windows":8,"confirmed":true,"identity":"program b"})",
       R"({"format":1,"regime":"sideways","recheck_windows":8,"confirmed":true,"identity":"program a"})",
       R"({"format":1,"regime":"spread","recheck_windows":0,"confirmed":true,"identity":"program a"})",
       R"({"format":1,"regime":"spread","recheck_windows":8,"identity":"program a"})"}) {
    ASSERT_FALSE(llvm::errorToBool(Cache->writeRecord(M.name(), Text)));
    EXPECT_FALSE(M.recall()) << Text;
  }
  ASSERT_FALSE(llvm::errorToBool(Cache->writeRecord(
      M.name(),
      R"({"format":1,"regime":"spread","recheck_windows":8,"confirmed":false,"identity":"program a"})")));
  EXPECT_TRUE(M.recall()) << "the same record, whole";
  ASSERT_FALSE(llvm::errorToBool(Cache->clear()));
  EXPECT_FALSE(M.recall()) << "jacc-cache clear forgets programs too";
}

TEST_F(ProgramMemoryTest, AReadOnlyCacheKeepsNothing) {
  ProgramMemory M(open(true), "program a");
  M.remember({Regime::Spread, 8, false});
  EXPECT_FALSE(M.recall());
  EXPECT_FALSE(ProgramMemory(nullptr, "program a").recall()) << "no cache";
}

TEST_F(ProgramMemoryTest, TheIdentityTellsRunsApartButNotTheirObservers) {
  jacc::ScopedEnv Split("JACC_SPLIT", nullptr), Debug("JACC_DEBUG", nullptr);
  std::string Plain = programIdentity("host:0x1 host:1x1");
  EXPECT_NE(Plain.find("exe=/"), std::string::npos) << Plain;
  EXPECT_NE(Plain.find(";jacc=/"), std::string::npos) << "the library that chose: " << Plain;
  EXPECT_NE(Plain, programIdentity("host:0x2 host:1x2")) << "other devices";
  Debug.set("launch");
  EXPECT_EQ(Plain, programIdentity("host:0x1 host:1x1")) << "an observer";
  Split.set("always");
  EXPECT_NE(Plain, programIdentity("host:0x1 host:1x1")) << "a setting of the launches";
}

} // namespace
