// Tests of the device configuration: JACC_DEVICES, JACC_HOST_THREADS and JACC_SPIN_US parsing, the
// division of the cores among host devices and the wording of every error.
#include "DeviceConfig.h"

#include "Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>

using namespace jacc;
using namespace std::chrono_literals;

namespace {

DeviceConfig parse(llvm::StringRef Devices, llvm::StringRef HostThreads = "",
                   llvm::StringRef SpinUs = "", unsigned Cores = 8) {
  auto C = parseDeviceConfig(Devices, HostThreads, SpinUs, Cores);
  if (!C) {
    std::string Msg;
    takeError(C.takeError(), Msg);
    ADD_FAILURE() << "JACC_DEVICES='" << Devices.str() << "' failed: " << Msg;
    return {};
  }
  return std::move(*C);
}

/// The error message of an invalid configuration (its code must be InvalidArgument).
std::string errorOf(llvm::StringRef Devices, llvm::StringRef HostThreads = "",
                    llvm::StringRef SpinUs = "", unsigned Cores = 8) {
  auto C = parseDeviceConfig(Devices, HostThreads, SpinUs, Cores);
  if (C) {
    ADD_FAILURE() << "JACC_DEVICES='" << Devices.str() << "' JACC_HOST_THREADS='"
                  << HostThreads.str() << "' JACC_SPIN_US='" << SpinUs.str()
                  << "' parsed but should not";
    return "";
  }
  std::string Msg;
  EXPECT_EQ(takeError(C.takeError(), Msg), ErrorCode::InvalidArgument) << Msg;
  return Msg;
}

void expectHostDevices(const DeviceConfig &C, unsigned Count, unsigned Threads) {
  ASSERT_EQ(C.Devices.size(), Count);
  for (const DeviceSpec &D : C.Devices) {
    EXPECT_EQ(D.Kind, "host");
    EXPECT_EQ(D.Threads, Threads);
  }
}

TEST(DeviceConfigTest, DefaultIsOneHostDeviceWithEveryCore) {
  DeviceConfig C = parse("", "", "", 8);
  expectHostDevices(C, 1, 8);
  EXPECT_EQ(C.SpinTime, 1000us);
  // Blank counts as empty.
  expectHostDevices(parse("   ", " ", " ", 6), 1, 6);
}

TEST(DeviceConfigTest, Host) {
  expectHostDevices(parse("host", "", "", 12), 1, 12);
  expectHostDevices(parse("  host\n", "", "", 3), 1, 3);
}

TEST(DeviceConfigTest, HostN) {
  expectHostDevices(parse("host:1", "", "", 8), 1, 8);
  expectHostDevices(parse("host:2", "", "", 8), 2, 4);
  expectHostDevices(parse("host:4", "", "", 8), 4, 2);
  expectHostDevices(parse("host:64", "", "", 128), 64, 2);
  // Blanks around the count are accepted.
  expectHostDevices(parse("host: 2 ", "", "", 8), 2, 4);
}

TEST(DeviceConfigTest, ThreadsSplitTheCores) {
  // Rounded down ...
  expectHostDevices(parse("host:3", "", "", 8), 3, 2);
  expectHostDevices(parse("host:3", "", "", 10), 3, 3);
  // ... and at least one thread per device.
  expectHostDevices(parse("host:4", "", "", 2), 4, 1);
  expectHostDevices(parse("host:16", "", "", 1), 16, 1);
  // An unknown core count (0) counts as one core.
  expectHostDevices(parse("host", "", "", 0), 1, 1);
  expectHostDevices(parse("host:2", "", "", 0), 2, 1);
}

TEST(DeviceConfigTest, HostThreadsOverridesTheSplit) {
  expectHostDevices(parse("host", "3", "", 8), 1, 3);
  expectHostDevices(parse("host:2", "16", "", 8), 2, 16);
  expectHostDevices(parse("", "1", "", 64), 1, 1);
  expectHostDevices(parse("host:4", " 5 ", "", 2), 4, 5);
  expectHostDevices(parse("host", "1024", "", 8), 1, 1024);
}

TEST(DeviceConfigTest, SpinTime) {
  EXPECT_EQ(parse("host", "", "0").SpinTime, 0us);
  EXPECT_EQ(parse("host", "", "250").SpinTime, 250us);
  EXPECT_EQ(parse("host", "", " 5000 ").SpinTime, 5000us);
  EXPECT_EQ(parse("host:2", "2", "42").SpinTime, 42us);
}

TEST(DeviceConfigTest, InvalidDeviceKind) {
  const std::string Tail =
      "' is not valid: use 'host' or 'host:N' (this build has no other device kind enabled)";
  EXPECT_EQ(errorOf("gpu"), "JACC_DEVICES='gpu" + Tail);
  EXPECT_EQ(errorOf("cuda:1"), "JACC_DEVICES='cuda:1" + Tail);
  EXPECT_EQ(errorOf("HOST"), "JACC_DEVICES='HOST" + Tail);
  EXPECT_EQ(errorOf("hosts"), "JACC_DEVICES='hosts" + Tail);
  EXPECT_EQ(errorOf("host,host"), "JACC_DEVICES='host,host" + Tail);
}

TEST(DeviceConfigTest, InvalidHostCount) {
  const std::string Tail = "' is not valid: use 'host' or 'host:N' with N between 1 and 64";
  for (const char *Bad :
       {"host:", "host:0", "host:65", "host:1000", "host:-1", "host:two", "host:2x", "host:1.5",
        "host:99999999999999999999", "host:2,gpu:1", "host:2:4"})
    EXPECT_EQ(errorOf(Bad), "JACC_DEVICES='" + std::string(Bad) + Tail) << Bad;
}

TEST(DeviceConfigTest, InvalidHostThreads) {
  const std::string Tail = "' is not a count between 1 and 1024";
  for (const char *Bad : {"0", "1025", "-4", "many", "4 threads", "2.5"})
    EXPECT_EQ(errorOf("host", Bad), "JACC_HOST_THREADS='" + std::string(Bad) + Tail) << Bad;
  // Checked whatever the device count.
  EXPECT_EQ(errorOf("host:2", "0"), "JACC_HOST_THREADS='0" + Tail);
}

TEST(DeviceConfigTest, InvalidSpinTime) {
  const std::string Tail = "' is not a number of microseconds";
  for (const char *Bad : {"-1", "fast", "10us", "1e3", "99999999999999999999"})
    EXPECT_EQ(errorOf("host", "", Bad), "JACC_SPIN_US='" + std::string(Bad) + Tail) << Bad;
}

TEST(DeviceConfigTest, FromEnvironment) {
  auto Save = [](const char *Name) {
    const char *V = std::getenv(Name);
    return std::make_pair(V != nullptr, std::string(V ? V : ""));
  };
  auto Restore = [](const char *Name, const std::pair<bool, std::string> &V) {
    if (V.first)
      setenv(Name, V.second.c_str(), 1);
    else
      unsetenv(Name);
  };
  auto Devices = Save("JACC_DEVICES"), Threads = Save("JACC_HOST_THREADS"),
       Spin = Save("JACC_SPIN_US");

  setenv("JACC_DEVICES", "host:3", 1);
  setenv("JACC_HOST_THREADS", "2", 1);
  setenv("JACC_SPIN_US", "77", 1);
  auto C = deviceConfigFromEnv();
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  expectHostDevices(*C, 3, 2);
  EXPECT_EQ(C->SpinTime, 77us);

  unsetenv("JACC_DEVICES");
  unsetenv("JACC_HOST_THREADS");
  unsetenv("JACC_SPIN_US");
  auto D = deviceConfigFromEnv();
  ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
  unsigned Cores = std::thread::hardware_concurrency();
  expectHostDevices(*D, 1, Cores ? Cores : 1);
  EXPECT_EQ(D->SpinTime, 1000us);

  setenv("JACC_DEVICES", "tpu", 1);
  auto E = deviceConfigFromEnv();
  ASSERT_FALSE(static_cast<bool>(E));
  std::string Msg;
  EXPECT_EQ(takeError(E.takeError(), Msg), ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("JACC_DEVICES='tpu'"), std::string::npos) << Msg;

  Restore("JACC_DEVICES", Devices);
  Restore("JACC_HOST_THREADS", Threads);
  Restore("JACC_SPIN_US", Spin);
}

} // namespace
