// Loading profiling tools: ACC_PROFLIB's libraries registered, the program's own
// acc_register_library called, and the errors that name a library that cannot serve.
#include "src/profile/ToolLibraries.h"

#include "src/profile/AccProf.h"
#include "support/Error.h"
#include "tests/api/AccProfTool.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <string>

namespace {

using namespace jacc;

/// This test program's own acc_register_library: counts its calls, registers nothing.
int OwnCalls = 0;

} // namespace

extern "C" void acc_register_library(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func) {
  ++OwnCalls;
}

namespace {

/// The test tool's report, once loaded.
const prof_tool_report *toolReport() {
  void *Tool = dlopen(JACC_PROF_TOOL_PATH, RTLD_NOW | RTLD_NOLOAD);
  if (!Tool)
    return nullptr;
  auto Get = reinterpret_cast<prof_tool_report_fn>(dlsym(Tool, "prof_tool_report_get"));
  dlclose(Tool); // the loader's own reference stays
  return Get ? Get() : nullptr;
}

/// The error loadToolLibraries(Paths) returns, as code and message.
std::string loadError(const std::string &Paths, ErrorCode &Code) {
  std::string Message;
  Code = takeError(prof::loadToolLibraries(Paths), Message);
  return Message;
}

class ToolLibrariesTest : public ::testing::Test {
protected:
  void TearDown() override { prof::accprof::resetForTesting(); }
};

TEST_F(ToolLibrariesTest, EachLibraryAndTheProgramRegisterOnce) {
  int Before = OwnCalls;
  std::string Paths = std::string(":") + JACC_PROF_TOOL_PATH + ":";
  ASSERT_FALSE(bool(prof::loadToolLibraries(Paths)));
  const prof_tool_report *R = toolReport();
  ASSERT_NE(R, nullptr);
  EXPECT_GE(R->registrations, 1);
  EXPECT_EQ(R->errors, 0) << R->first_error;
  EXPECT_EQ(OwnCalls, Before + 1);
  for (acc_event_t E : {acc_ev_device_init_start, acc_ev_create, acc_ev_wait_end})
    EXPECT_TRUE(prof::accprof::wanted(E)) << E;
}

TEST_F(ToolLibrariesTest, NoLibrariesStillCallsTheProgramsOwn) {
  int Before = OwnCalls;
  ASSERT_FALSE(bool(prof::loadToolLibraries("")));
  EXPECT_EQ(OwnCalls, Before + 1);
  EXPECT_FALSE(prof::accprof::wanted(acc_ev_create));
}

TEST_F(ToolLibrariesTest, AMissingLibraryIsNamedWithTheLoadersReason) {
  ErrorCode Code;
  std::string M = loadError("/nonexistent/tool.so", Code);
  EXPECT_EQ(Code, ErrorCode::InvalidArgument);
  EXPECT_NE(M.find("ACC_PROFLIB"), std::string::npos) << M;
  EXPECT_NE(M.find("'/nonexistent/tool.so'"), std::string::npos) << M;
  EXPECT_NE(M.find("No such file"), std::string::npos) << M;
  EXPECT_NE(M.find("or unset it"), std::string::npos) << M;
}

TEST_F(ToolLibrariesTest, ALibraryWithoutTheRoutineIsNamed) {
  ErrorCode Code;
  std::string M = loadError("libm.so.6", Code);
  EXPECT_EQ(Code, ErrorCode::InvalidArgument);
  EXPECT_NE(M.find("'libm.so.6': it defines no acc_register_library"), std::string::npos) << M;
}

} // namespace
