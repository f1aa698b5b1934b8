// Every device backend, by the name JACC_DEVICES gives it: the one place that knows them all.
#ifndef JACC_SRC_DEVICEREGISTRY_H
#define JACC_SRC_DEVICEREGISTRY_H

#include "src/Device.h"
#include "src/DeviceConfig.h"

#include <memory>

namespace jacc {

/// Create the device S describes as runtime device Index, with Config's settings.
llvm::Expected<std::unique_ptr<Device>> createDevice(const DeviceSpec &S, unsigned Index,
                                                     const DeviceConfig &Config);

} // namespace jacc

#endif
