// ACC_DEVICE_TYPE and ACC_DEVICE_NUM (OpenACC 3.3 sections 4.1 and 4.2): the device a program
// runs on by default, in terms of jacc's device list.
#ifndef JACC_SRC_ACCDEVICEVARS_H
#define JACC_SRC_ACCDEVICEVARS_H

#include "src/DeviceConfig.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace jacc {

/// The two variables' values, trimmed; empty when unset.
struct AccDeviceVars {
  llvm::StringRef Type; ///< ACC_DEVICE_TYPE: host, multicore (the CPU) or nvidia, any case
  llvm::StringRef Num;  ///< ACC_DEVICE_NUM: a device number of that type, from 0
};

/// The JACC_DEVICES value the variables stand for when JACC_DEVICES is unset: "" (jacc's
/// default) when both are unset, "host" for the CPU, "cuda:all", or "cuda:K" for ACC_DEVICE_NUM=K;
/// an error naming the variable when a value is not valid or names no device there is.
llvm::Expected<std::string> accDevicesSpec(AccDeviceVars V, CudaCountFn CudaCount);

/// The OpenACC current device when the program starts, as an index into Devices (a list
/// JACC_DEVICES chose): device ACC_DEVICE_NUM (0 when unset) among those of ACC_DEVICE_TYPE's
/// kind (the first device's when unset); an error naming the variable when there is none.
llvm::Expected<unsigned> accCurrentDevice(AccDeviceVars V, llvm::ArrayRef<DeviceSpec> Devices);

} // namespace jacc

#endif
