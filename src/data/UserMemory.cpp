// The program's own device memory: acc_malloc blocks, acc_map_data mappings over them, the copies
// the acc_memcpy routines make within them, and which device an address belongs to.
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"
#include "support/Format.h"

namespace jacc {

DataEnvironment::UserAllocations::const_iterator
DataEnvironment::userBlockContaining(uintptr_t A) const {
  auto It = UserBlocks.upper_bound(A);
  if (It == UserBlocks.begin())
    return UserBlocks.end();
  --It;
  return A - It->first < It->second.Bytes ? It : UserBlocks.end();
}

DataEnvironment::UserAllocations::iterator DataEnvironment::userBlockContaining(uintptr_t A) {
  auto It = std::as_const(*this).userBlockContaining(A);
  return UserBlocks.erase(It, It); // the same position, mutable
}

llvm::Expected<void *> DataEnvironment::allocateUser(unsigned Device, size_t Bytes, const char *Api,
                                                     const DataPlacement *At) {
  auto Ptr = Devices[Device]->allocate(Bytes);
  if (!Ptr)
    return prefixError(Api, Ptr.takeError());
  std::lock_guard<std::mutex> TL(Table.mutex());
  uintptr_t Begin = reinterpret_cast<uintptr_t>(*Ptr);
  UserAllocation &A = UserBlocks[Begin];
  A.Device = Device;
  A.Bytes = Bytes;
  copyUserBlock(Begin, A, homeOf(At));
  debugLog("data", llvm::Twine(Api) + " " + llvm::Twine(Bytes) + " bytes on " +
                       Devices[Device]->name() + " -> " + hexAddress(*Ptr));
  return *Ptr;
}

llvm::Error DataEnvironment::releaseUser(void *DevicePtr, const char *Api) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  auto It = UserBlocks.find(reinterpret_cast<uintptr_t>(DevicePtr));
  if (It == UserBlocks.end())
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + hexAddress(DevicePtr) +
                         " was not returned by acc_malloc (or was freed already)");
  const UserAllocation &A = It->second;
  uintptr_t B = It->first;
  for (Mapping *M : Table.all()) {
    if (M->UserDevice != static_cast<int>(A.Device))
      continue;
    uintptr_t U = reinterpret_cast<uintptr_t>(M->DevicePtrs[A.Device]);
    if (U >= B && U - B < A.Bytes)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": " + hexAddress(DevicePtr) +
                           " still holds the host data " + PresentTable::describe(*M) +
                           " mapped by acc_map_data; call acc_unmap_data first");
  }
  // A queued kernel may still use it (deviceptr clause): free it after the device's work.
  if (auto E = Devices[A.Device]->synchronize())
    return E;
  if (A.Copies) {
    if (auto E = waitForUses(*A.Copies))
      return E;
    if (auto E = releaseCopies(*A.Copies))
      return prefixError(Api, std::move(E));
  }
  if (auto E = Devices[A.Device]->release(DevicePtr))
    return prefixError(Api, std::move(E));
  UserBlocks.erase(It);
  return llvm::Error::success();
}

llvm::Error DataEnvironment::mapUserData(void *P, void *DevicePtr, size_t Bytes, unsigned Device,
                                         const char *Api, const DataPlacement *At) {
  if (auto E = checkRange(Api, P, Bytes))
    return E;
  HolderSet Home = homeOf(At);
  if (!(Home >> Device & 1))
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the current device " + llvm::Twine(Device) +
                         " is not under location '" + At->Location + "' (" +
                         describeDevices(Home) +
                         ") chosen for new data: map its memory with a device of that location "
                         "current, or choose a location covering it (jacc_set_data_location)");
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State != PresentTable::Presence::Absent)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                         " is already present (mapped as " + PresentTable::describe(*F.M) +
                         "); acc_map_data needs host memory that is not mapped");
  uintptr_t A = reinterpret_cast<uintptr_t>(DevicePtr);
  if (Bytes > UINTPTR_MAX - A)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the device range " + hexAddress(DevicePtr) + " +" +
                         llvm::Twine(Bytes) + " wraps around the address space");
  if (auto It = userBlockContaining(A); It != UserBlocks.end()) {
    auto &[Begin, Block] = *It;
    if (Block.Device != Device)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": " + hexAddress(DevicePtr) + " was allocated on " +
                           Devices[Block.Device]->name() + ", not on the current device " +
                           Devices[Device]->name());
    if (A + Bytes > Begin + Block.Bytes)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": " + llvm::Twine(Bytes) + " bytes at " +
                           hexAddress(DevicePtr) + " run past the end of its acc_malloc block (" +
                           llvm::Twine(Block.Bytes) + " bytes at " +
                           hexAddress(reinterpret_cast<void *>(Begin)) + ")");
    // The mapping's copies take over from the block's: its device's copy must hold it all.
    if (auto E = dropUserBlockCopies(Block))
      return prefixError(Api, std::move(E));
  }
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (M->hasCopy(Device) && A < B + M->bytes() && B < A + Bytes)
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(Api) + ": device memory " + hexAddress(DevicePtr) + " +" +
                           llvm::Twine(Bytes) + " overlaps the copy of the mapped host data " +
                           PresentTable::describe(*M) + " on " + Devices[Device]->name());
  }
  // The program may have filled the memory with a kernel still queued (deviceptr clause).
  if (auto E = Devices[Device]->synchronize())
    return E;
  Mapping M;
  M.Begin = reinterpret_cast<uintptr_t>(P);
  M.End = M.Begin + Bytes;
  M.DynamicRefs = 1;
  M.StructuredRefs = 1; // the pin: no exit frees it (see Mapping::UserDevice)
  M.UserDevice = static_cast<int>(Device);
  M.LastUse.assign(Devices.size(), 0);
  M.Home = Home;
  if (At)
    M.Location = At->Location;
  M.DevicePtrs.assign(Devices.size(), nullptr);
  M.DevicePtrs[Device] = DevicePtr;
  auto Cleanup = [&] { llvm::consumeError(releaseCopies(M)); };
  // Unified with every device's memory the host's: the program's memory is every device's copy.
  // (A GPU's acc_malloc memory is not the other devices' to address: they get copies.)
  bool OneMemory = Unified;
  for (unsigned D = 0; D < Devices.size(); ++D)
    OneMemory &= !M.hasCopy(D) || Devices[D]->hostMemory();
  // Every other device of its location gets its own copy of the program's device data, as
  // after acc_copyin.
  for (unsigned D = 0; D < Devices.size(); ++D) {
    if (D == Device || !M.hasCopy(D))
      continue;
    if (OneMemory) {
      M.DevicePtrs[D] = DevicePtr;
      continue;
    }
    auto Ptr = Devices[D]->allocate(Bytes);
    if (!Ptr) {
      Cleanup();
      return prefixError(Api, Ptr.takeError());
    }
    M.DevicePtrs[D] = *Ptr;
  }
  M.Unified = OneMemory;
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (D != Device && M.hasCopy(D) && !sharesEarlierCopy(M, D))
      if (auto E = Devices[Device]->copyToPeer(*Devices[D], M.DevicePtrs[D], DevicePtr, Bytes)) {
        Cleanup();
        return prefixError(Api, std::move(E));
      }
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(P, Bytes) + " mapped to " +
                       hexAddress(DevicePtr) + " on " + Devices[Device]->name());
  initValidity(M);
  Table.insert(std::move(M));
  return llvm::Error::success();
}

llvm::Error DataEnvironment::unmapUserData(void *P, const char *Api) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, 1);
  if (F.State == PresentTable::Presence::Absent)
    return notPresentError(Api, P, 1,
                           "acc_unmap_data takes the host address given to acc_map_data");
  Mapping &M = *F.M;
  if (M.UserDevice < 0)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(M) +
                         " was not mapped by acc_map_data; acc_copyout or acc_delete unmap it");
  if (M.Begin != reinterpret_cast<uintptr_t>(P))
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + hexAddress(P) + " lies inside the mapping " +
                         PresentTable::describe(M) + "; pass the address given to acc_map_data");
  if (M.StructuredRefs > 1)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(M) +
                         " is still used by a data region");
  if (auto E = waitForUses(M))
    return E;
  return unmap(M, Api);
}

bool DataEnvironment::knownDeviceRange(const void *P, size_t Bytes, unsigned Device) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  if (Bytes > UINTPTR_MAX - A)
    return false;
  uintptr_t E = A + Bytes;
  if (auto It = userBlockContaining(A); It != UserBlocks.end())
    if (It->second.Device == Device && E <= It->first + It->second.Bytes)
      return true;
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (M->hasCopy(Device) && A >= B && E <= B + M->bytes())
      return true;
  }
  return false;
}

std::optional<unsigned> DataEnvironment::deviceOwning(const void *P, Mapping **Owner) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  *Owner = nullptr;
  for (Mapping *M : Table.all())
    for (unsigned D = 0; D < M->DevicePtrs.size(); ++D) {
      uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[D]);
      if (M->hasCopy(D) && A >= B && A < B + M->bytes()) {
        *Owner = M;
        return D;
      }
    }
  if (auto It = userBlockContaining(A); It != UserBlocks.end())
    return It->second.Device;
  return std::nullopt;
}

llvm::Error DataEnvironment::copyDeviceMemory(MemcpyKind Kind, void *Dst, const void *Src,
                                              size_t Bytes, unsigned Device, const char *Api) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  auto Check = [&](const void *P, const char *Role) -> llvm::Error {
    if (knownDeviceRange(P, Bytes, Device))
      return llvm::Error::success();
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the " + Role + " " + hexAddress(P) + " +" +
                         llvm::Twine(Bytes) + " is not memory of the current device " +
                         Devices[Device]->name() +
                         " (neither from acc_malloc nor a mapped copy, see acc_deviceptr)");
  };
  if (Kind != MemcpyKind::HostToDevice)
    if (auto E = Check(Src, "source"))
      return E;
  if (Kind != MemcpyKind::DeviceToHost)
    if (auto E = Check(Dst, "destination"))
      return E;
  uintptr_t D = reinterpret_cast<uintptr_t>(Dst), S = reinterpret_cast<uintptr_t>(Src);
  if (Kind == MemcpyKind::DeviceToDevice && D < S + Bytes && S < D + Bytes)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the source and destination ranges overlap");
  // The copy is synchronous: after the device's queued kernels, which may use the memory.
  jacc::Device &Dev = *Devices[Device];
  if (auto E = Dev.synchronize())
    return E;
  // A mapping's copy read here is made current first. One written here stays as the program
  // made it: each device's copy is its own to the OpenACC routines (the validity map is left
  // alone, as the copies of the other devices are).
  // An acc_malloc block with copies is one memory to the program: read whole, and what is
  // written here is current on Device alone.
  Mapping *Read = nullptr, *Written = nullptr;
  if (Kind != MemcpyKind::HostToDevice)
    if (!(Read = mappingOfCopy(Src, Bytes, Device)))
      Read = userBlockCopies(Src);
  if (Kind != MemcpyKind::DeviceToHost)
    Written = userBlockCopies(Dst);
  if (Read) {
    uint64_t B =
        reinterpret_cast<uintptr_t>(Src) - reinterpret_cast<uintptr_t>(Read->DevicePtrs[Device]);
    if (auto E = makeCurrent(*Read, B, B + Bytes, Device))
      return prefixError(Api, std::move(E));
  }

  if (Written)
    if (auto E = waitForUses(*Written)) // a copy queued ahead of a kernel may still read it
      return E;
  llvm::Error E = Kind == MemcpyKind::HostToDevice   ? Dev.copyToDevice(Dst, Src, Bytes)
                  : Kind == MemcpyKind::DeviceToHost ? Dev.copyToHost(Dst, Src, Bytes)
                                                     : Dev.copyToPeer(Dev, Dst, Src, Bytes);
  if (E)
    return prefixError(Api, std::move(E));
  if (Written) {
    uint64_t B = reinterpret_cast<uintptr_t>(Dst) - Written->Begin;
    Written->Valid.assign(B, B + Bytes, ValidityMap::device(Device));
  }
  return llvm::Error::success();
}

llvm::Error DataEnvironment::releaseUserMemory() {
  for (Mapping *M : Table.all())
    if (M->UserDevice >= 0)
      M->DevicePtrs[M->UserDevice] = nullptr; // the program's memory: released below if acc_malloc'ed
  llvm::Error Result = llvm::Error::success();
  for (const auto &[Address, A] : UserBlocks) {
    if (A.Copies)
      if (auto E = releaseCopies(*A.Copies))
        Result = llvm::joinErrors(std::move(Result), std::move(E));
    if (A.Device < Devices.size())
      if (auto E = Devices[A.Device]->release(reinterpret_cast<void *>(Address)))
        Result = llvm::joinErrors(std::move(Result), std::move(E));
  }
  UserBlocks.clear();
  return Result;
}

} // namespace jacc
