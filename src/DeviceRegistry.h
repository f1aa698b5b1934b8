// Every device backend, by the name JACC_DEVICES gives it: the one place that knows them all.
#ifndef JACC_SRC_DEVICEREGISTRY_H
#define JACC_SRC_DEVICEREGISTRY_H

#include "src/Device.h"
#include "src/DeviceConfig.h"
#include "src/profile/Events.h"

#include <memory>
#include <vector>

namespace jacc {

/// Create the device S describes as runtime device Index, with Config's settings.
llvm::Expected<std::unique_ptr<Device>> createDevice(const DeviceSpec &S, unsigned Index,
                                                     const DeviceConfig &Config);

/// The backends' names ("host", ...), as JACC_DEVICES and location files name device kinds.
std::vector<llvm::StringRef> deviceKindNames();

/// Kind, a backend's name, as observers see it (OpenACC's device type and API).
prof::DeviceKind deviceKind(llvm::StringRef Kind);

} // namespace jacc

#endif
