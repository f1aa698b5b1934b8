// Tests of the device configuration: JACC_DEVICES, JACC_HOST_THREADS and JACC_SPIN_US parsing, the
// division of the cores among host devices, CUDA GPUs (with the driver's GPU count given, or the
// mock driver through JACC_LIBCUDA) and the wording of every error.
#include "src/DeviceConfig.h"

#include "support/Error.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace jacc;
using namespace std::chrono_literals;

namespace {

/// What the loader says on a machine without the NVIDIA driver.
const std::string NoDriver =
    "cannot load the CUDA driver libcuda.so.1: libcuda.so.1: cannot open shared object file: No "
    "such file or directory; install the NVIDIA driver (or point JACC_LIBCUDA at its "
    "libcuda.so.1), or run on the CPU with JACC_DEVICES=host";

/// Parse with a driver that found Gpus GPUs (-1: no driver). Asked, if given, counts the queries.
llvm::Expected<DeviceConfig> parseWith(llvm::StringRef Devices, llvm::StringRef HostThreads,
                                       llvm::StringRef SpinUs, unsigned Cores, int Gpus,
                                       int *Asked = nullptr) {
  return parseDeviceConfig(
      Devices, HostThreads, SpinUs, Cores,
      [&]() -> llvm::Expected<int> {
        if (Asked)
          ++*Asked;
        if (Gpus < 0)
          return makeError(ErrorCode::Device, NoDriver);
        return Gpus;
      },
      // No launcher: a configuration without local-rank never asks.
      [] { return localRankFrom([](env::Var) -> const char * { return nullptr; }); });
}

DeviceConfig parse(llvm::StringRef Devices, llvm::StringRef HostThreads = "",
                   llvm::StringRef SpinUs = "", unsigned Cores = 8, int Gpus = -1) {
  auto C = parseWith(Devices, HostThreads, SpinUs, Cores, Gpus);
  if (!C) {
    std::string Msg;
    takeError(C.takeError(), Msg);
    ADD_FAILURE() << "JACC_DEVICES='" << Devices.str() << "' failed: " << Msg;
    return {};
  }
  return std::move(*C);
}

/// The error message of an invalid configuration (its code must be Code).
std::string errorOf(llvm::StringRef Devices, llvm::StringRef HostThreads = "",
                    llvm::StringRef SpinUs = "", unsigned Cores = 8, int Gpus = -1,
                    ErrorCode Code = ErrorCode::InvalidArgument) {
  auto C = parseWith(Devices, HostThreads, SpinUs, Cores, Gpus);
  if (C) {
    ADD_FAILURE() << "JACC_DEVICES='" << Devices.str() << "' JACC_HOST_THREADS='"
                  << HostThreads.str() << "' JACC_SPIN_US='" << SpinUs.str()
                  << "' parsed but should not";
    return "";
  }
  std::string Msg;
  EXPECT_EQ(takeError(C.takeError(), Msg), Code) << Msg;
  return Msg;
}

/// The error of a JACC_DEVICES value with Gpus GPUs.
std::string gpuErrorOf(llvm::StringRef Devices, int Gpus,
                       ErrorCode Code = ErrorCode::InvalidArgument) {
  return errorOf(Devices, "", "", 8, Gpus, Code);
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
  expectHostDevices(parse("host:63", "", "", 126), 63, 2);
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

// A launch alone on the cores (the other host devices idle) may use the cores the runtime divided
// among them; threads the user sized stay each device's own.
TEST(DeviceConfigTest, DividedCoresAreLentToALaunchAlone) {
  auto AloneThreads = [](const DeviceConfig &C) {
    std::vector<unsigned> T;
    for (const DeviceSpec &S : C.Devices)
      T.push_back(S.AloneThreads);
    return T;
  };
  EXPECT_EQ(AloneThreads(parse("host:3", "", "", 8)), (std::vector<unsigned>{8, 8, 8}));
  EXPECT_EQ(AloneThreads(parse("host:4", "", "", 2)), (std::vector<unsigned>{2, 2, 2, 2}));
  EXPECT_EQ(AloneThreads(parse("host", "", "", 8)), (std::vector<unsigned>{8}));
  EXPECT_EQ(AloneThreads(parse("host:2x1", "", "", 8)), (std::vector<unsigned>{1, 1}));
  EXPECT_EQ(AloneThreads(parse("host:1x2,host:1x3", "", "", 8)), (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(AloneThreads(parse("host:2", "3", "", 8)), (std::vector<unsigned>{3, 3}));
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
      "' is not a device; use a comma-separated list of host, host:N, cuda:K and cuda:all";
  for (const char *Bad : {"gpu", "HOST", "hosts", "cuda", "CUDA:0", "cuda0", "host:2,gpu:1"}) {
    std::string Entry = llvm::StringRef(Bad).rsplit(',').second.str();
    if (Entry.empty())
      Entry = Bad;
    EXPECT_EQ(errorOf(Bad),
              "JACC_DEVICES='" + std::string(Bad) + "' is not valid: '" + Entry + Tail)
        << Bad;
  }
  for (const char *Bad : {"host,", ",host", "host,,cuda:0", " , "})
    EXPECT_EQ(errorOf(Bad, "", "", 8, 2),
              "JACC_DEVICES='" + std::string(Bad) +
                  "' is not valid: an entry is empty; use a comma-separated list of host, host:N, "
                  "cuda:K and cuda:all")
        << Bad;
}

TEST(DeviceConfigTest, InvalidHostCount) {
  const std::string Tail = "' is not valid: use 'host', 'host:N' with N between 1 and 63, or "
                           "'host:NxT' (N devices of T threads, T between 1 and 1024)";
  for (const char *Bad :
       {"host:", "host:0", "host:64", "host:65", "host:1000", "host:-1", "host:two", "host:2x",
        "host:1.5", "host:99999999999999999999", "host:2:4", "cuda:0,host:0", "host:1x0",
        "host:0x2", "host:1x1025", "host:x2", "host:1x2x3", "host:1xtwo"})
    EXPECT_EQ(errorOf(Bad, "", "", 8, 2), "JACC_DEVICES='" + std::string(Bad) + Tail) << Bad;
}

TEST(DeviceConfigTest, AtMostSixtyThreeDevicesInAll) {
  // Device 63's bit would be the host's in every range's holder set (src/data/ValidityMap.h).
  expectHostDevices(parse("host:63", "", "", 2), 63, 1);
  EXPECT_EQ(errorOf("host:32x1,host:32x1", "", "", 8, 2),
            "JACC_DEVICES='host:32x1,host:32x1' names 64 devices; jacc runs at most 63: list "
            "fewer");
}

TEST(DeviceConfigTest, HostDevicesListedTwice) {
  for (const char *Bad : {"host,host", "host:2,host", "host,cuda:0,host:3", "host:1x2,host:2",
                          "host:2,host:1x2"})
    EXPECT_EQ(errorOf(Bad, "", "", 8, 2),
              "JACC_DEVICES='" + std::string(Bad) +
                  "' lists host devices twice; use one 'host:N' entry, or 'host:NxT' entries "
                  "only (N devices of T threads)")
        << Bad;
}

TEST(DeviceConfigTest, HostDevicesOfUnequalStrength) {
  // T threads each, whatever JACC_HOST_THREADS or the cores say; in the order listed.
  DeviceConfig C = parse("host:1x1,cuda:0,host:2x3", "5", "", 8, 2);
  ASSERT_EQ(C.Devices.size(), 4u);
  EXPECT_EQ(C.Devices[0].Kind, "host");
  EXPECT_EQ(C.Devices[0].Threads, 1u);
  EXPECT_EQ(C.Devices[1].Kind, "cuda");
  for (unsigned D : {2u, 3u}) {
    EXPECT_EQ(C.Devices[D].Kind, "host");
    EXPECT_EQ(C.Devices[D].Threads, 3u);
  }
  expectHostDevices(parse("host:3x2", "", "", 2), 3, 2);
}

TEST(DeviceConfigTest, TestSlowdownMakesHostDevicesSlower) {
  DeviceConfig C = parse("host:3", "", "", 8);
  ASSERT_FALSE(static_cast<bool>(applySlowdown(C, "1:3, 2:1.5")));
  EXPECT_EQ(C.Devices[0].Slowdown, 1);
  EXPECT_EQ(C.Devices[1].Slowdown, 3);
  EXPECT_EQ(C.Devices[2].Slowdown, 1.5);
  ASSERT_FALSE(static_cast<bool>(applySlowdown(C, "")));
  for (const char *Bad : {"3:2", "1:0.5", "1", "x:2", "1:fast"}) {
    llvm::Error E = applySlowdown(C, Bad);
    ASSERT_TRUE(static_cast<bool>(E)) << Bad;
    std::string Message;
    takeError(std::move(E), Message);
    EXPECT_NE(Message.find("JACC_TEST_SLOWDOWN"), std::string::npos) << Message;
  }
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
  ScopedEnv Devices("JACC_DEVICES", "host:3"), Threads("JACC_HOST_THREADS", "2"),
      Spin("JACC_SPIN_US", "77");
  // The default depends on the driver: make sure there is none.
  ScopedEnv Driver("JACC_LIBCUDA", "/nonexistent/libcuda.so.1");
  auto C = deviceConfigFromEnv();
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  expectHostDevices(*C, 3, 2);
  EXPECT_EQ(C->SpinTime, 77us);

  Devices.set(nullptr);
  Threads.set(nullptr);
  Spin.set(nullptr);
  auto D = deviceConfigFromEnv();
  ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
  unsigned Cores = std::thread::hardware_concurrency();
  expectHostDevices(*D, 1, Cores ? Cores : 1);
  EXPECT_EQ(D->SpinTime, 1000us);

  Devices.set("tpu");
  auto E = deviceConfigFromEnv();
  ASSERT_FALSE(static_cast<bool>(E));
  std::string Msg;
  EXPECT_EQ(takeError(E.takeError(), Msg), ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("JACC_DEVICES='tpu'"), std::string::npos) << Msg;
}

void expectGpus(const DeviceConfig &C, std::vector<int> Ordinals) {
  ASSERT_EQ(C.Devices.size(), Ordinals.size());
  for (size_t I = 0; I < Ordinals.size(); ++I) {
    EXPECT_EQ(C.Devices[I].Kind, "cuda") << I;
    EXPECT_EQ(C.Devices[I].Ordinal, Ordinals[I]) << I;
  }
}

TEST(DeviceConfigTest, DefaultIsEveryGpu) {
  expectGpus(parse("", "", "", 8, 1), {0});
  expectGpus(parse(" ", "", "", 8, 4), {0, 1, 2, 3});
  // No GPU, or no driver: one host device with every core.
  expectHostDevices(parse("", "", "", 8, 0), 1, 8);
  expectHostDevices(parse("", "", "", 8, -1), 1, 8);
  expectHostDevices(parse("", "3", "", 8, -1), 1, 3);
}

TEST(DeviceConfigTest, DriverIsAskedOnlyWhenNeeded) {
  int Asked = 0;
  for (const char *Host : {"host", "host:4"}) {
    auto C = parseWith(Host, "", "", 8, -1, &Asked);
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  }
  EXPECT_EQ(Asked, 0);
  auto C = parseWith("cuda:0,cuda:1,host,cuda:2", "", "", 8, 3, &Asked);
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(Asked, 1); // once per parse
  auto D = parseWith("", "", "", 8, 0, &Asked);
  ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(Asked, 2);
}

TEST(DeviceConfigTest, CudaLists) {
  expectGpus(parse("cuda:0", "", "", 8, 2), {0});
  expectGpus(parse("cuda:0,cuda:1", "", "", 8, 2), {0, 1});
  expectGpus(parse("cuda:1,cuda:0", "", "", 8, 2), {1, 0}); // devices in the order listed
  expectGpus(parse(" cuda:1 , cuda: 2 ", "", "", 8, 3), {1, 2});
  expectGpus(parse("cuda:all", "", "", 8, 3), {0, 1, 2});
  expectGpus(parse("cuda:all", "", "", 8, 1), {0});
}

TEST(DeviceConfigTest, MixedDevices) {
  // The host devices share the cores; GPUs do not count.
  DeviceConfig C = parse("cuda:all,host:1", "", "", 8, 2);
  ASSERT_EQ(C.Devices.size(), 3u);
  EXPECT_EQ(C.Devices[0].Kind, "cuda");
  EXPECT_EQ(C.Devices[0].Ordinal, 0);
  EXPECT_EQ(C.Devices[1].Ordinal, 1);
  EXPECT_EQ(C.Devices[2].Kind, "host");
  EXPECT_EQ(C.Devices[2].Threads, 8u);

  DeviceConfig D = parse("host:2,cuda:1", "", "", 8, 2);
  ASSERT_EQ(D.Devices.size(), 3u);
  EXPECT_EQ(D.Devices[0].Kind, "host");
  EXPECT_EQ(D.Devices[0].Threads, 4u);
  EXPECT_EQ(D.Devices[1].Kind, "host");
  EXPECT_EQ(D.Devices[2].Kind, "cuda");
  EXPECT_EQ(D.Devices[2].Ordinal, 1);

  DeviceConfig E = parse("cuda:0,host,cuda:1", "6", "", 8, 2);
  ASSERT_EQ(E.Devices.size(), 3u);
  EXPECT_EQ(E.Devices[1].Kind, "host");
  EXPECT_EQ(E.Devices[1].Threads, 6u);
  EXPECT_EQ(E.Devices[2].Ordinal, 1);
}

TEST(DeviceConfigTest, CudaWithoutDriver) {
  for (const char *Spec : {"cuda:0", "cuda:all", "host,cuda:1"})
    EXPECT_EQ(gpuErrorOf(Spec, -1, ErrorCode::Device),
              "JACC_DEVICES='" + std::string(Spec) + "' asks for CUDA GPUs, but " + NoDriver)
        << Spec;
  EXPECT_EQ(gpuErrorOf("cuda:all", 0, ErrorCode::Device),
            "JACC_DEVICES='cuda:all' asks for every CUDA GPU, but the CUDA driver found none; "
            "check nvidia-smi, or use JACC_DEVICES=host");
}

TEST(DeviceConfigTest, InvalidCudaEntries) {
  EXPECT_EQ(gpuErrorOf("cuda:2", 2), "JACC_DEVICES='cuda:2' names cuda:2, but the CUDA driver "
                                     "found 2 GPU(s) (cuda:0 to cuda:1)");
  EXPECT_EQ(gpuErrorOf("cuda:0,cuda:9", 1), "JACC_DEVICES='cuda:0,cuda:9' names cuda:9, but the "
                                            "CUDA driver found 1 GPU(s) (cuda:0 to cuda:0)");
  EXPECT_EQ(gpuErrorOf("cuda:0", 0),
            "JACC_DEVICES='cuda:0' names cuda:0, but the CUDA driver found 0 GPU(s)");
  for (const char *Bad : {"cuda:", "cuda:x", "cuda:-1", "cuda:1.5", "cuda:ALL", "cuda:0:1"})
    EXPECT_EQ(gpuErrorOf(Bad, 2), "JACC_DEVICES='" + std::string(Bad) + "' is not valid: '" + Bad +
                                      "' needs a GPU number or 'all' after 'cuda:'")
        << Bad;
  for (const char *Twice : {"cuda:0,cuda:0", "cuda:all,cuda:1", "cuda:1,cuda:all"}) {
    std::string Msg = gpuErrorOf(Twice, 2);
    EXPECT_EQ(Msg.rfind("JACC_DEVICES='" + std::string(Twice) + "' lists cuda:", 0), 0u) << Msg;
    EXPECT_NE(Msg.find(" twice; name each GPU once"), std::string::npos) << Msg;
  }
}

TEST(DeviceConfigTest, CudaFromEnvironment) {
  ScopedEnv Threads("JACC_HOST_THREADS", nullptr), Spin("JACC_SPIN_US", nullptr);
  {
    // No driver: asking for a GPU fails, naming the library; the default is the CPU.
    ScopedEnv Driver("JACC_LIBCUDA", "/nonexistent/libcuda.so.1");
    ScopedEnv Devices("JACC_DEVICES", "cuda:0");
    auto C = deviceConfigFromEnv();
    ASSERT_FALSE(static_cast<bool>(C));
    std::string Msg;
    EXPECT_EQ(takeError(C.takeError(), Msg), ErrorCode::Device);
    EXPECT_EQ(Msg.rfind("JACC_DEVICES='cuda:0' asks for CUDA GPUs, but cannot load the CUDA "
                        "driver /nonexistent/libcuda.so.1: ",
                        0),
              0u)
        << Msg;
    EXPECT_NE(Msg.find("JACC_DEVICES=host"), std::string::npos) << Msg;
    Devices.set(nullptr);
    auto D = deviceConfigFromEnv();
    ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
    ASSERT_EQ(D->Devices.size(), 1u);
    EXPECT_EQ(D->Devices[0].Kind, "host");
  }
  {
    // The mock driver's two GPUs.
    ScopedEnv Driver("JACC_LIBCUDA", JACC_MOCKCUDA_PATH);
    ScopedEnv Devices("JACC_DEVICES", nullptr);
    auto D = deviceConfigFromEnv();
    ASSERT_TRUE(static_cast<bool>(D)) << llvm::toString(D.takeError());
    expectGpus(*D, {0, 1});
    Devices.set("cuda:all,host:1");
    auto M = deviceConfigFromEnv();
    ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
    ASSERT_EQ(M->Devices.size(), 3u);
    EXPECT_EQ(M->Devices[2].Kind, "host");
    Devices.set("cuda:2");
    auto E = deviceConfigFromEnv();
    ASSERT_FALSE(static_cast<bool>(E));
    std::string Msg;
    EXPECT_EQ(takeError(E.takeError(), Msg), ErrorCode::InvalidArgument);
    EXPECT_NE(Msg.find("found 2 GPU(s)"), std::string::npos) << Msg;
  }
}

} // namespace
