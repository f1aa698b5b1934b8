// JACC_DEVICES and friends: which devices to create and how many threads each host device gets.
#ifndef JACC_SRC_DEVICECONFIG_H
#define JACC_SRC_DEVICECONFIG_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <chrono>
#include <string>
#include <vector>

namespace jacc {

struct DeviceSpec {
  std::string Kind; ///< "host"
  unsigned Threads = 1;
};

struct DeviceConfig {
  std::vector<DeviceSpec> Devices;
  std::chrono::microseconds SpinTime{1000};
};

/// Parse a JACC_DEVICES value ("host", "host:N"; empty means the default: one host device) with
/// the machine's core count and an optional JACC_HOST_THREADS value (threads per host device;
/// default: the cores divided evenly, at least one each).
llvm::Expected<DeviceConfig> parseDeviceConfig(llvm::StringRef Devices, llvm::StringRef HostThreads,
                                               llvm::StringRef SpinUs, unsigned Cores);

/// The configuration from the environment.
llvm::Expected<DeviceConfig> deviceConfigFromEnv();

} // namespace jacc

#endif
