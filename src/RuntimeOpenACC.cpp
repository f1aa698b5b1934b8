// The runtime's entry points for the OpenACC routines (OpenACC.cpp is the C layer over them):
// each checks its arguments and the device number, holds the runtime, and lets the data
// environment or the devices answer.
#include "src/Runtime.h"

namespace jacc {

llvm::Error Runtime::checkDevice(unsigned Device, const char *Api) const {
  if (Device < Devices.size())
    return llvm::Error::success();
  return makeError(ErrorCode::InvalidArgument,
                   llvm::Twine(Api) + ": device " + llvm::Twine(Device) +
                       " does not exist: jacc has " + llvm::Twine(Devices.size()) +
                       " device(s) (JACC_DEVICES); select one with acc_set_device_num");
}

llvm::Expected<std::shared_lock<FairSharedMutex>> Runtime::acquireDevice(unsigned Device,
                                                                         const char *Api) {
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(Device, Api))
    return E;
  return L;
}

llvm::Expected<std::vector<acc_device_t>> Runtime::deviceTypes() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::vector<acc_device_t> Types;
  for (auto &D : Devices)
    Types.push_back(D->properties().Type);
  return Types;
}

llvm::Expected<unsigned> Runtime::startDevice() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  return StartDevice;
}

llvm::Expected<DeviceProperties> Runtime::deviceProperties(unsigned Device, const char *Api) {
  auto L = acquireDevice(Device, Api);
  if (!L)
    return L.takeError();
  return Devices[Device]->properties();
}

llvm::Error Runtime::exitDataOpenACC(void *P, size_t Bytes, bool CopyBack, bool Finalize,
                                     const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  // Observed once the runtime (and so its listeners) started.
  prof::ImplicitConstruct Construct(prof::Construct::ExitData, Api);
  prof::DataScope Observed(prof::DataOp::Exit, P, Bytes);
  return Data.exit(P, Bytes, CopyBack, Finalize, DataEnvironment::ExitRules::OpenACC, Api);
}

llvm::Error Runtime::attachPointer(void **PtrAddr, AttachOp Op, const char *Api) {
  if (!PtrAddr)
    return llvm::Error::success(); // nothing to attach
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Data.attachPointer(PtrAddr, Op, Api);
}

llvm::Expected<void *> Runtime::devicePtr(const void *P, unsigned Device, const char *Api,
                                          bool Sole) {
  if (!P)
    return nullptr;
  auto L = acquireDevice(Device, Api);
  if (!L)
    return L.takeError();
  return Data.devicePtr(P, Device, Sole);
}

llvm::Expected<void *> Runtime::hostPtr(const void *DevicePtr, unsigned Device, const char *Api) {
  if (!DevicePtr)
    return nullptr;
  auto L = acquireDevice(Device, Api);
  if (!L)
    return L.takeError();
  return Data.hostPtr(DevicePtr, Device);
}

llvm::Expected<void *> Runtime::allocateUser(unsigned Device, size_t Bytes, const char *Api) {
  if (!Bytes)
    return nullptr;
  auto L = acquireDevice(Device, Api);
  if (!L)
    return L.takeError();
  auto At = dataPlacement(Api);
  if (!At)
    return At.takeError();
  return Data.allocateUser(Device, Bytes, Api, *At ? &**At : nullptr);
}

llvm::Error Runtime::releaseUser(void *DevicePtr, const char *Api) {
  if (!DevicePtr)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Data.releaseUser(DevicePtr, Api);
}

llvm::Error Runtime::mapUserData(void *P, void *DevicePtr, size_t Bytes, unsigned Device,
                                 const char *Api) {
  if (!P || !DevicePtr)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the " + (P ? "device" : "host") + " address is NULL");
  if (!Bytes)
    return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": bytes is 0");
  auto L = acquireDevice(Device, Api);
  if (!L)
    return L.takeError();
  auto At = dataPlacement(Api);
  if (!At)
    return At.takeError();
  return Data.mapUserData(P, DevicePtr, Bytes, Device, Api, *At ? &**At : nullptr);
}

llvm::Error Runtime::unmapUserData(void *P, const char *Api) {
  if (!P)
    return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": the host address is NULL");
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Data.unmapUserData(P, Api);
}

/// An error for a copy with a null source or destination, naming which.
static llvm::Error nullCopyError(const char *Api, const void *Dst) {
  return makeError(ErrorCode::InvalidArgument, llvm::Twine(Api) + ": the " +
                                                   (Dst ? "source" : "destination") + " is NULL");
}

llvm::Error Runtime::memcpyDevice(MemcpyKind Kind, void *Dst, const void *Src, size_t Bytes,
                                  unsigned Device, const char *Api) {
  if (!Bytes)
    return llvm::Error::success();
  if (!Dst || !Src)
    return nullCopyError(Api, Dst);
  auto L = acquireDevice(Device, Api);
  if (!L)
    return L.takeError();
  return Data.copyDeviceMemory(Kind, Dst, Src, Bytes, Device, Api);
}

llvm::Error Runtime::memcpyBetweenDevices(void *DstP, const void *SrcP, size_t Bytes,
                                          unsigned DstDevice, unsigned SrcDevice,
                                          const char *Api) {
  if (!Bytes)
    return llvm::Error::success();
  if (!DstP || !SrcP)
    return nullCopyError(Api, DstP);
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (auto E = checkDevice(DstDevice, Api))
    return E;
  if (auto E = checkDevice(SrcDevice, Api))
    return E;
  return Data.copyBetweenDevices(DstP, SrcP, Bytes, DstDevice, SrcDevice, Api);
}

llvm::Expected<bool> Runtime::idle() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  for (auto &D : Devices)
    if (!D->idle())
      return false;
  return true;
}

} // namespace jacc
