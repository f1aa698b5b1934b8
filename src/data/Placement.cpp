// Memory at a location (Gecko, docs/locations.md): a mapping created while a data location is
// chosen has copies on the devices under that location only, and keeps them. Entering present
// data at a location asks for copies on that location's devices, which the mapping must have;
// an operation that needs a copy a device lacks is an error naming where the data lives.
#include "src/data/DataEnvironment.h"

#include "support/Error.h"

namespace jacc {

std::string DataEnvironment::describeDevices(HolderSet S) {
  std::string Out;
  unsigned Count = 0;
  for (unsigned D = 0; D < ValidityMap::MaxDevices; ++D)
    if (S >> D & 1)
      Out += (Count++ ? ", " : " ") + std::to_string(D);
  return Count == 0 ? "no device" : (Count == 1 ? "device" : "devices") + Out;
}

std::string DataEnvironment::describeHome(const Mapping &M) {
  if (M.Location.empty())
    return "every device";
  return "location '" + M.Location + "' (" + describeDevices(M.Home) + ")";
}

llvm::Error DataEnvironment::checkPresentAt(const Mapping &M, const DataPlacement *At,
                                            const char *Api, const void *P, size_t Bytes) {
  if (!At || !(At->Devices & ~M.Home))
    return llvm::Error::success();
  return makeError(ErrorCode::InvalidArgument,
                   llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                       " is present at " + describeHome(M) + ", which has no copy on " +
                       describeDevices(At->Devices & ~M.Home) + " of location '" +
                       At->Location + "' (" + describeDevices(At->Devices) +
                       ") where it is to be mapped: a mapping keeps the devices it was created "
                       "on; exit it first, or create it at a location covering both");
}

llvm::Error DataEnvironment::noCopyError(const Mapping &M, unsigned Device,
                                         const llvm::Twine &What) {
  return makeError(ErrorCode::InvalidArgument,
                   What + ": " + PresentTable::describe(M) + " lives at " + describeHome(M) +
                       " and has no copy on device " + llvm::Twine(Device) +
                       "; use a device under its location, or map it at a location covering "
                       "that device (jacc_set_data_location)");
}

bool DataEnvironment::isPresentOn(const void *P, size_t Bytes, unsigned Device) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  return F.State == PresentTable::Presence::Contained && F.M->hasCopy(Device);
}

} // namespace jacc
