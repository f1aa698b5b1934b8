// The JACC_PROFILE summary from known events: launches timed from their parts whatever the order
// the parts and the push arrive in, copies grouped by the construct they happened in, and the
// same figures in text and JSON.
#include "src/profile/Summary.h"

#include "support/Stats.h"

#include <gtest/gtest.h>
#include <llvm/Support/JSON.h>

#include <string>

namespace {

using namespace jacc::prof;

constexpr Nanos Ms = 1000000;

/// Feeds a Summary the events of a small program.
class SummaryTest : public ::testing::Test {
protected:
  Summary S{/*Json=*/false, /*File=*/""};
  KernelName Heat{"heat.c:42", true};

  /// A push of Heat as Id with one part per device; Parts[D] = {start, end} in ms.
  void launch(uint64_t Id, Mode How, std::vector<std::pair<int, int>> Parts, bool PushFirst,
              CacheSource Source = CacheSource::Memory) {
    unsigned N = Parts.size();
    for (unsigned D = 0; D < N; ++D)
      S.launchBegin({Id, Heat, How, int(D), D, D + 1, N, 0, 0});
    PushEvent P{Id, Heat, How, N, Source, Source == CacheSource::Compiled ? 0.5 : 0.0,
                false, false, 0, 100 * Ms};
    if (PushFirst)
      S.push(P);
    for (unsigned D = 0; D < N; ++D)
      S.kernelRun({Id, Heat, How, int(D), D, D + 1, N, Parts[D].first * Ms,
                   Parts[D].second * Ms});
    if (!PushFirst)
      S.push(P);
  }

  /// A copy of Bytes in the construct S (null: none), of the given duration in ms.
  void copy(const Site *Si, Direction Dir, uint64_t Bytes, int DurationMs) {
    if (Si)
      beginConstruct(*Si);
    S.copyEnd({Dir, 0, -1, nullptr, nullptr, Bytes, 0, DurationMs * Ms});
    if (Si)
      endConstruct();
  }

  std::string text() {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    S.write(OS, /*Json=*/false);
    return Out;
  }
  llvm::json::Object json() {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    S.write(OS, /*Json=*/true);
    auto V = llvm::json::parse(Out);
    EXPECT_TRUE(bool(V)) << Out;
    return V ? *V->getAsObject() : llvm::json::Object();
  }
};

TEST_F(SummaryTest, ALaunchLastsFromItsFirstPartsStartToItsLastPartsEnd) {
  // Parts completing before and after the push returns (asynchronous and synchronous pushes).
  launch(1, Mode::Split, {{0, 4}, {1, 3}}, /*PushFirst=*/true, CacheSource::Compiled);
  launch(2, Mode::Split, {{10, 11}, {10, 12}}, /*PushFirst=*/false);
  launch(3, Mode::Duplicate, {{20, 21}, {20, 21}}, /*PushFirst=*/false);
  llvm::json::Object J = json();
  const llvm::json::Array *Compute = J.getArray("compute");
  ASSERT_TRUE(Compute && Compute->size() == 1);
  const llvm::json::Object &R = *(*Compute)[0].getAsObject();
  EXPECT_EQ(R.getString("region"), "heat.c:42");
  EXPECT_EQ(R.getInteger("launches"), 3);
  EXPECT_EQ(R.getInteger("split"), 2);
  EXPECT_EQ(R.getInteger("duplicate"), 1);
  EXPECT_EQ(R.getInteger("devices"), 2);
  EXPECT_EQ(R.getInteger("timed_launches"), 3);
  EXPECT_NEAR(*R.getNumber("total_seconds"), 0.004 + 0.002 + 0.001, 1e-9);
  EXPECT_NEAR(*R.getNumber("max_seconds"), 0.004, 1e-9);
  EXPECT_NEAR(*R.getNumber("compile_seconds"), 0.5, 1e-9);
  EXPECT_EQ(R.getObject("cache")->getInteger("compiled"), 1);
  EXPECT_EQ(R.getObject("cache")->getInteger("memory"), 2);
}

TEST_F(SummaryTest, ALaunchWithAPartStillRunningIsCountedButNotTimed) {
  S.launchBegin({7, Heat, Mode::Split, 0, 0, 1, 2, 0, 0});
  S.launchBegin({7, Heat, Mode::Split, 1, 1, 2, 2, 0, 0});
  S.push({7, Heat, Mode::Split, 2, CacheSource::Memory, 0, false, true, 0, Ms});
  S.kernelRun({7, Heat, Mode::Split, 0, 0, 1, 2, 0, 2 * Ms});
  llvm::json::Object J = json();
  const llvm::json::Object &R = *(*J.getArray("compute"))[0].getAsObject();
  EXPECT_EQ(R.getInteger("launches"), 1);
  EXPECT_EQ(R.getInteger("async"), 1);
  EXPECT_EQ(R.getInteger("timed_launches"), 0);
}

TEST_F(SummaryTest, CopiesBelongToTheConstructTheyHappenIn) {
  Site Data{Construct::Data, "heat.c", "main", 30, false, false};
  Site DataEnd{Construct::Data, "heat.c", "main", 30, true, false};
  Site Api{Construct::EnterData, nullptr, "acc_copyin", 0, false, true};
  S.constructBegin(Data, 0);
  copy(&Data, Direction::HostToDevice, 1000, 2);
  copy(&Data, Direction::HostToDevice, 24, 1);
  S.constructBegin(DataEnd, 0);
  copy(&DataEnd, Direction::DeviceToHost, 512, 1);
  S.constructBegin(Api, 0);
  copy(&Api, Direction::HostToDevice, 8, 1);
  copy(nullptr, Direction::DeviceToDevice, 64, 1);

  std::string T = text();
  EXPECT_NE(T.find("heat.c:30 data "), std::string::npos) << T;
  EXPECT_NE(T.find("heat.c:30 data end"), std::string::npos) << T;
  EXPECT_NE(T.find("acc_copyin"), std::string::npos) << T;
  llvm::json::Object J = json();
  auto Row = [&](llvm::StringRef Name) -> const llvm::json::Object * {
    for (const llvm::json::Value &V : *J.getArray("data"))
      if (V.getAsObject()->getString("construct") == Name)
        return V.getAsObject();
    ADD_FAILURE() << "no row " << Name.str();
    return nullptr;
  };
  const llvm::json::Object *D = Row("heat.c:30 data");
  ASSERT_TRUE(D);
  EXPECT_EQ(D->getInteger("count"), 1);
  EXPECT_EQ(D->getObject("host_to_device")->getInteger("bytes"), 1024);
  EXPECT_EQ(D->getObject("host_to_device")->getInteger("copies"), 2);
  EXPECT_NEAR(*D->getObject("host_to_device")->getNumber("seconds"), 0.003, 1e-9);
  ASSERT_TRUE(Row("heat.c:30 data end"));
  EXPECT_EQ(Row("heat.c:30 data end")->getObject("device_to_host")->getInteger("bytes"), 512);
  ASSERT_TRUE(Row("acc_copyin"));
  EXPECT_EQ(Row("acc_copyin")->getObject("host_to_device")->getInteger("bytes"), 8);
  const llvm::json::Object *Totals = J.getObject("totals");
  EXPECT_EQ(Totals->getObject("host_to_device")->getInteger("bytes"), 1032);
  EXPECT_EQ(Totals->getObject("device_to_host")->getInteger("bytes"), 512);
  EXPECT_EQ(Totals->getObject("device_to_device")->getInteger("bytes"), 64);
}

TEST_F(SummaryTest, TextColumnsAreAligned) {
  launch(1, Mode::Split, {{0, 4}, {1, 3}}, true);
  Heat = {"a_much_longer_file_name.c:1234", true};
  launch(2, Mode::Duplicate, {{0, 1}}, true);
  std::string T = text();
  // The two region rows end their "launches" column at the same offset as the header's.
  size_t Header = T.find("  region");
  ASSERT_NE(Header, std::string::npos) << T;
  size_t HeaderEnd = T.find("launches", Header) + 8 - Header;
  for (const char *Name : {"  heat.c:42", "  a_much_longer_file_name.c:1234"}) {
    size_t Row = T.find(Name);
    ASSERT_NE(Row, std::string::npos) << T;
    size_t Line = T.rfind('\n', Row) + 1;
    EXPECT_EQ(T.find_first_not_of(' ', T.find_first_of(' ', Row + 2)) - Line + 1, HeaderEnd)
        << T;
  }
}

TEST_F(SummaryTest, NothingNewNothingPrinted) {
  launch(1, Mode::Split, {{0, 4}, {1, 3}}, true);
  text(); // written once: nothing new since
  testing::internal::CaptureStderr();
  S.finish(/*AtExit=*/true);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

} // namespace

namespace {

// Variants compiled in the background or loaded are no compile of the program's path: a line and
// an object of their own, with the variants the spent budget stopped (the process's counter).
TEST_F(SummaryTest, BackgroundVariantsAreCountedApart) {
  jacc::stats().reset();
  EXPECT_EQ(text().find("variants:"), std::string::npos) << "no line without variants";
  S.compile({Heat, CacheSource::Compiled, /*Variant=*/true, 0, 40 * Ms});
  S.compile({Heat, CacheSource::Disk, /*Variant=*/true, 50 * Ms, 51 * Ms});
  S.compile({Heat, CacheSource::Compiled, /*Variant=*/false, 60 * Ms, 70 * Ms});
  jacc::stats().VariantsOverBudget = 3;
  std::string T = text();
  EXPECT_NE(T.find("  compiles: 1 compiled, 0 loaded from the disk cache, 10.0 ms\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("  variants: 1 compiled in the background, 1 loaded from the disk cache, "
                   "41.0 ms, 3 not compiled (JACC_SPECIALIZE_BUDGET spent)\n"),
            std::string::npos)
      << T;
  llvm::json::Object J = json();
  const llvm::json::Object *V = J.getObject("totals")->getObject("variants");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->getInteger("compiled"), 1);
  EXPECT_EQ(V->getInteger("loaded_from_disk"), 1);
  EXPECT_EQ(V->getInteger("over_budget"), 3);
  EXPECT_NEAR(*V->getNumber("seconds"), 0.041, 1e-9);
  jacc::stats().reset();
}

} // namespace
