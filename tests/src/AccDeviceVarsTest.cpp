// Tests of ACC_DEVICE_TYPE and ACC_DEVICE_NUM: the devices they choose when JACC_DEVICES is unset
// (with 0, 1 or 4 GPUs, or no driver), the current device they name in a JACC_DEVICES list, and
// the wording of every error.
#include "src/AccDeviceVars.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc;

namespace {

/// accDevicesSpec's value, or "error: <message>", with a driver finding Gpus GPUs (-1: none).
std::string specOf(llvm::StringRef Type, llvm::StringRef Num, int Gpus) {
  auto S = accDevicesSpec({Type, Num}, [&]() -> llvm::Expected<int> {
    if (Gpus < 0)
      return makeError(ErrorCode::Device, "cannot load the CUDA driver libcuda.so.1");
    return Gpus;
  });
  if (S)
    return *S;
  std::string Msg;
  takeError(S.takeError(), Msg);
  return "error: " + Msg;
}

/// accCurrentDevice's index, or "error: <message>", for devices of these kinds.
std::string currentOf(llvm::StringRef Type, llvm::StringRef Num,
                      std::initializer_list<const char *> Kinds) {
  std::vector<DeviceSpec> Devices;
  for (const char *K : Kinds)
    Devices.push_back({K, 1, K == std::string("cuda") ? int(Devices.size()) : -1});
  auto I = accCurrentDevice({Type, Num}, Devices);
  if (I)
    return std::to_string(*I);
  std::string Msg;
  takeError(I.takeError(), Msg);
  return "error: " + Msg;
}

TEST(AccDeviceVarsTest, UnsetLeavesJaccsDefault) {
  EXPECT_EQ(specOf("", "", 4), "");
  EXPECT_EQ(specOf("", "", -1), "");
  EXPECT_EQ(currentOf("", "", {"cuda", "host"}), "0");
}

TEST(AccDeviceVarsTest, TypeChoosesTheKindInAnyCase) {
  EXPECT_EQ(specOf("host", "", 4), "host");
  EXPECT_EQ(specOf("MULTICORE", "", 4), "host");
  EXPECT_EQ(specOf("nvidia", "", 4), "cuda:all");
  EXPECT_EQ(specOf("NVIDIA", "2", 4), "cuda:2");
  EXPECT_EQ(specOf("host", "0", -1), "host");
}

TEST(AccDeviceVarsTest, NumAloneTakesTheDefaultsKind) {
  EXPECT_EQ(specOf("", "3", 4), "cuda:3");
  EXPECT_EQ(specOf("", "0", 0), "host");
  EXPECT_EQ(specOf("", "0", -1), "host");
}

TEST(AccDeviceVarsTest, ErrorsNameTheVariable) {
  EXPECT_EQ(specOf("bogus", "", 4),
            "error: ACC_DEVICE_TYPE='bogus' is not a device type: use host or multicore (the "
            "CPU) or nvidia (NVIDIA GPUs), or unset it");
  EXPECT_EQ(specOf("nvidia", "", 0),
            "error: ACC_DEVICE_TYPE=nvidia asks for NVIDIA GPUs, but the CUDA driver found none; "
            "use ACC_DEVICE_TYPE=host to run on the CPU");
  EXPECT_EQ(specOf("nvidia", "", -1),
            "error: ACC_DEVICE_TYPE=nvidia asks for NVIDIA GPUs, but cannot load the CUDA driver "
            "libcuda.so.1; use ACC_DEVICE_TYPE=host to run on the CPU");
  EXPECT_EQ(specOf("nvidia", "4", 4),
            "error: ACC_DEVICE_NUM=4 is out of range: the CUDA driver has 4 nvidia device(s), "
            "numbered 0 to 3");
  EXPECT_EQ(specOf("", "5", -1),
            "error: ACC_DEVICE_NUM=5 is out of range: the CPU (JACC_DEVICES unset) has 1 host "
            "device(s), numbered 0 to 0");
  EXPECT_EQ(specOf("host", "x", 4),
            "error: ACC_DEVICE_NUM='x' is not a device number: use 0, 1, ... (jacc-info lists "
            "the devices)");
}

TEST(AccDeviceVarsTest, InAJaccDevicesListTheyNameTheCurrentDevice) {
  EXPECT_EQ(currentOf("host", "", {"cuda", "cuda", "host"}), "2");
  EXPECT_EQ(currentOf("nvidia", "1", {"cuda", "host", "cuda"}), "2");
  EXPECT_EQ(currentOf("", "1", {"host", "host", "host"}), "1");
  EXPECT_EQ(currentOf("", "1", {"cuda", "host"}),
            "error: ACC_DEVICE_NUM=1 is out of range: JACC_DEVICES has 1 nvidia device(s), "
            "numbered 0 to 0");
  EXPECT_EQ(currentOf("nvidia", "", {"host", "host"}),
            "error: ACC_DEVICE_TYPE=nvidia names no device of JACC_DEVICES: it has no nvidia "
            "device; change one of the two");
}

} // namespace
