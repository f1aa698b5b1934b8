// Tests of jacc-info: the built binary (JACC_INFO_TOOL) run as a child process on host devices,
// on the mock CUDA driver's GPUs (JACC_MOCKCUDA_PATH) and with a JACC_DEVICES it cannot
// satisfy; text and --json.
#include "tests/ScopedEnv.h"
#include "tests/tools/RunTool.h"

#include <gtest/gtest.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>

#include <string>

#ifndef JACC_INFO_TOOL
#error "JACC_INFO_TOOL must name the jacc-info binary (tests/meson.build)"
#endif

namespace {

using jacc::ScopedEnv;
using jacc_test::Outcome;
namespace json = llvm::json;

class JaccInfoTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-info-test", D));
    Scratch = D.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Scratch); }
  Outcome info(std::vector<std::string> Args = {}) {
    return jacc_test::runTool(JACC_INFO_TOOL, std::move(Args), Scratch);
  }
  /// jacc-info --json, parsed.
  json::Object infoJson() {
    Outcome R = info({"--json"});
    EXPECT_EQ(R.Status, 0) << R.Err;
    auto V = json::parse(R.Out);
    if (!V || !V->getAsObject()) {
      ADD_FAILURE() << "not a JSON object: " << R.Out;
      return {};
    }
    return std::move(*V->getAsObject());
  }
  std::string Scratch;
};

TEST_F(JaccInfoTest, ListsThreeHostDevicesAndEverySetting) {
  ScopedEnv Devices("JACC_DEVICES", "host:3"), Threads("JACC_HOST_THREADS", "2");
  Outcome R = info();
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("Devices (JACC_DEVICES=host:3): 3"), std::string::npos) << R.Out;
  for (const char *Line : {"  0   host  host:0, 2 thread(s)", "  2   host  host:2, 2 thread(s)"})
    EXPECT_NE(R.Out.find(Line), std::string::npos) << Line << "\n" << R.Out;
  EXPECT_NE(R.Out.find("JACC_HOST_THREADS          environment  2"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("JACC_EXCHANGE              default      demand"), std::string::npos);
  EXPECT_NE(R.Out.find("LLVM 16"), std::string::npos);

  json::Object J = infoJson();
  const json::Array *Devs = J.getArray("devices");
  ASSERT_NE(Devs, nullptr);
  ASSERT_EQ(Devs->size(), 3u);
  for (size_t I = 0; I < 3; ++I) {
    const json::Object *D = (*Devs)[I].getAsObject();
    EXPECT_EQ(D->getInteger("index"), int64_t(I));
    EXPECT_EQ(D->getString("kind"), "host");
    EXPECT_EQ(D->getInteger("threads"), 2);
    EXPECT_GT(*D->getInteger("memory_bytes"), 0);
  }
  const json::Array *Settings = J.getArray("settings");
  ASSERT_NE(Settings, nullptr);
  bool SawPerf = false;
  for (const json::Value &S : *Settings)
    if (S.getAsObject()->getString("name") == "JACC_PERF")
      SawPerf = S.getAsObject()->getString("from") == "default";
  EXPECT_TRUE(SawPerf);
  ASSERT_NE(J.getObject("cache"), nullptr);
  EXPECT_TRUE(J.getObject("cache")->getInteger("max_bytes").has_value());
}

TEST_F(JaccInfoTest, DescribesTheMockDriversGpus) {
  ScopedEnv Lib("JACC_LIBCUDA", JACC_MOCKCUDA_PATH), Count("MOCKCUDA_DEVICES", "2"),
      Devices("JACC_DEVICES", "cuda:all"), Cache("JACC_CACHE", "off");
  Outcome R = info();
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("CUDA driver: version "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("Devices (JACC_DEVICES=cuda:all): 2"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("  1   cuda  Mock GPU 1, compute capability 8.0, 4 SMs"),
            std::string::npos)
      << R.Out;
  json::Object J = infoJson();
  const json::Array *Devs = J.getArray("devices");
  ASSERT_NE(Devs, nullptr);
  ASSERT_EQ(Devs->size(), 2u);
  EXPECT_EQ((*Devs)[0].getAsObject()->getString("compute_capability"), "8.0");
  EXPECT_EQ((*Devs)[0].getAsObject()->getInteger("sms"), 4);
}

TEST_F(JaccInfoTest, AConfigurationItCannotSatisfyExitsOneWithTheReason) {
  {
    ScopedEnv Devices("JACC_DEVICES", "tpu");
    Outcome R = info();
    EXPECT_EQ(R.Status, 1);
    EXPECT_NE(R.Err.find("jacc-info: JACC_DEVICES='tpu' is not valid"), std::string::npos)
        << R.Err;
    EXPECT_NE(R.Out.find("none: JACC_DEVICES='tpu'"), std::string::npos) << R.Out;
  }
  {
    // GPUs asked for where there is no driver.
    ScopedEnv Lib("JACC_LIBCUDA", "/nonexistent/libcuda.so.1"), Devices("JACC_DEVICES", "cuda:0");
    Outcome R = info({"--json"});
    EXPECT_EQ(R.Status, 1);
    auto V = json::parse(R.Out);
    ASSERT_TRUE(bool(V)) << R.Out;
    EXPECT_NE(V->getAsObject()->getString("error")->find("CUDA driver"), llvm::StringRef::npos);
    EXPECT_TRUE(V->getAsObject()->getObject("cuda")->getObject("driver")->get("missing"));
  }
  Outcome Bad = info({"--frobnicate"});
  EXPECT_EQ(Bad.Status, 2);
  EXPECT_NE(Bad.Err.find("unknown option '--frobnicate'"), std::string::npos);
}

} // namespace
