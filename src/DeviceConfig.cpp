#include "DeviceConfig.h"

#include "Error.h"

#include <cstdlib>
#include <thread>

namespace jacc {

static llvm::Expected<unsigned> parseCount(llvm::StringRef Var, llvm::StringRef Text,
                                           unsigned Max) {
  unsigned N = 0;
  if (Text.trim().getAsInteger(10, N) || N == 0 || N > Max)
    return makeError(ErrorCode::InvalidArgument,
                     Var + "='" + Text + "' is not a count between 1 and " + llvm::Twine(Max));
  return N;
}

llvm::Expected<DeviceConfig> parseDeviceConfig(llvm::StringRef Devices, llvm::StringRef HostThreads,
                                               llvm::StringRef SpinUs, unsigned Cores) {
  DeviceConfig C;
  Cores = Cores ? Cores : 1;
  unsigned HostDevices = 0;
  llvm::StringRef Spec = Devices.trim();
  if (Spec.empty() || Spec == "host") {
    HostDevices = 1;
  } else if (Spec.consume_front("host:")) {
    auto N = parseCount("JACC_DEVICES", Spec, 64);
    if (!N)
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_DEVICES='" + Devices + "' is not valid: use 'host' or 'host:N' with "
                       "N between 1 and 64");
    HostDevices = *N;
  } else {
    return makeError(ErrorCode::InvalidArgument,
                     "JACC_DEVICES='" + Devices + "' is not valid: use 'host' or 'host:N' (this "
                     "build has no other device kind enabled)");
  }
  unsigned Threads = std::max(1u, Cores / HostDevices);
  if (!HostThreads.trim().empty()) {
    auto N = parseCount("JACC_HOST_THREADS", HostThreads, 1024);
    if (!N)
      return N.takeError();
    Threads = *N;
  }
  for (unsigned I = 0; I < HostDevices; ++I)
    C.Devices.push_back({"host", Threads});
  if (!SpinUs.trim().empty()) {
    unsigned Us = 0;
    if (SpinUs.trim().getAsInteger(10, Us))
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_SPIN_US='" + SpinUs + "' is not a number of microseconds");
    C.SpinTime = std::chrono::microseconds(Us);
  }
  return C;
}

llvm::Expected<DeviceConfig> deviceConfigFromEnv() {
  auto Get = [](const char *Name) {
    const char *V = std::getenv(Name);
    return llvm::StringRef(V ? V : "");
  };
  return parseDeviceConfig(Get("JACC_DEVICES"), Get("JACC_HOST_THREADS"), Get("JACC_SPIN_US"),
                           std::thread::hardware_concurrency());
}

} // namespace jacc
