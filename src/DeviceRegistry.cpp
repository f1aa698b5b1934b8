// The table of backends by name (host, cuda), each creating a device from its spec and the device
// configuration.
#include "src/DeviceRegistry.h"

#include "src/cuda/CudaDevice.h"
#include "src/host/HostDevice.h"

#include "jacc/acc_prof.h"

#include <llvm/ADT/StringRef.h>

namespace jacc {

namespace {

/// A backend: its name in JACC_DEVICES, OpenACC's names for its devices (acc_device_t and, for the
/// profiling interface, acc_device_api) and how it creates one device.
struct Backend {
  llvm::StringRef Name;
  acc_device_t AccType;
  acc_device_api AccApi;
  llvm::Expected<std::unique_ptr<Device>> (*Create)(const DeviceSpec &, unsigned Index,
                                                   const DeviceConfig &);
};

template <typename T>
llvm::Expected<std::unique_ptr<Device>> upcast(llvm::Expected<std::unique_ptr<T>> D) {
  if (!D)
    return D.takeError();
  return std::unique_ptr<Device>(std::move(*D));
}

const Backend Backends[] = {
    {"host", acc_device_host, acc_device_api_none,
     [](const DeviceSpec &S, unsigned Index, const DeviceConfig &C) {
       HostCopies Memory = C.GuardPages  ? HostCopies::Guarded
                           : C.HugePages ? HostCopies::HugePages
                                         : HostCopies::Plain;
       return upcast(HostDevice::create(Index, S.Threads, C.SpinTime, Memory, ForkChoice::Limits(),
                                        S.Slowdown, S.AloneThreads));
     }},
    {"cuda", acc_device_nvidia, acc_device_api_cuda,
     [](const DeviceSpec &S, unsigned Index, const DeviceConfig &C) {
       return upcast(CudaDevice::create(Index, S.Ordinal, handOffSpin(C.SpinTime)));
     }},
};

} // namespace

llvm::Expected<std::unique_ptr<Device>> createDevice(const DeviceSpec &S, unsigned Index,
                                                     const DeviceConfig &Config) {
  for (const Backend &B : Backends)
    if (B.Name == S.Kind) {
      auto D = B.Create(S, Index, Config);
      if (D)
        (*D)->keepReleasedMemory(Config.MemoryPool);
      return D;
    }
  return makeError(ErrorCode::Internal, "no device backend is named '" + S.Kind + "'");
}

prof::DeviceKind deviceKind(llvm::StringRef Kind) {
  for (const Backend &B : Backends)
    if (B.Name == Kind)
      return {B.Name.data(), B.AccType, B.AccApi};
  return {"?", acc_device_none, acc_device_api_other};
}

std::vector<llvm::StringRef> deviceKindNames() {
  std::vector<llvm::StringRef> Names;
  for (const Backend &B : Backends)
    Names.push_back(B.Name);
  return Names;
}

} // namespace jacc
