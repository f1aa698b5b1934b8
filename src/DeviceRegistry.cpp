// The table of backends by name (host, cuda), each creating a device from its spec and the device
// configuration.
#include "src/DeviceRegistry.h"

#include "src/cuda/CudaDevice.h"
#include "src/host/HostDevice.h"

#include <llvm/ADT/StringRef.h>

namespace jacc {

namespace {

/// A backend: its name in JACC_DEVICES and how it creates one device.
struct Backend {
  llvm::StringRef Name;
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
    {"host",
     [](const DeviceSpec &S, unsigned Index, const DeviceConfig &C) {
       HostCopies Memory = C.GuardPages  ? HostCopies::Guarded
                           : C.HugePages ? HostCopies::HugePages
                                         : HostCopies::Plain;
       return upcast(HostDevice::create(Index, S.Threads, C.SpinTime, Memory, ForkChoice::Limits(),
                                        S.Slowdown, S.AloneThreads));
     }},
    {"cuda",
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

} // namespace jacc
