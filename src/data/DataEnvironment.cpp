// Mapped data: present-or entries, exits under jacc's and OpenACC's rules, updates, and the
// lookups between host and device addresses.
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"
#include "support/ProgramMemory.h"

#include <llvm/ADT/StringExtras.h>

namespace jacc {

llvm::Error DataEnvironment::checkRange(const char *Api, const void *P, size_t Bytes) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(P);
  if (Bytes <= UINTPTR_MAX - Begin)
    return llvm::Error::success();
  return makeError(ErrorCode::InvalidArgument,
                   llvm::Twine(Api) + ": 0x" + llvm::utohexstr(Begin, true) + " + " +
                       llvm::Twine(Bytes) +
                       " bytes wraps past the end of the address space; pass the pointer and "
                       "size of an object of the program");
}

llvm::Error DataEnvironment::checkWritable(const char *Api, const void *P, size_t Bytes) {
  if (programMemoryAllows(P, Bytes, MemoryAccess::Write))
    return llvm::Error::success();
  return makeError(ErrorCode::InvalidArgument,
                   llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                       " cannot be written back: some of it is read-only memory of the program "
                       "(a string literal, const data) or no longer mapped; copy back into "
                       "writable memory, or end the mapping without a copy back (a delete)");
}

llvm::Error DataEnvironment::partialError(const char *Api, const void *P, size_t Bytes,
                                          const Mapping &M) {
  return makeError(ErrorCode::PartiallyPresent,
                   llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                       " is partially present: it overlaps the mapped block " +
                       PresentTable::describe(M) +
                       " without lying inside it; map and unmap whole blocks");
}

llvm::Error DataEnvironment::notPresentError(const char *Api, const void *P, size_t Bytes,
                                             const char *Hint) {
  return makeError(ErrorCode::NotPresent, llvm::Twine(Api) + ": " +
                                              PresentTable::describe(P, Bytes) +
                                              " is not mapped on the devices; " + Hint);
}

llvm::Error DataEnvironment::waitForUses(const Mapping &M) {
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (M.LastUse[D])
      if (auto E = Devices[D]->waitFor(M.LastUse[D]))
        return E;
  return llvm::Error::success();
}

llvm::Error DataEnvironment::enter(void *P, size_t Bytes, bool Copy, const char *Api, bool Zero,
                                   const DataPlacement *At) {
  if (auto E = checkRange(Api, P, Bytes))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  if (F.State == PresentTable::Presence::Contained) {
    if (auto E = checkPresentAt(*F.M, At, Api, P, Bytes))
      return E;
    ++F.M->DynamicRefs; // present: no allocation, no copy
    return llvm::Error::success();
  }
  if (!programMemoryAllows(P, Bytes, MemoryAccess::Read)) // before anything reads it
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                         " is not memory of the program (some of it cannot be read); pass the "
                         "pointer and size of an object of the program");
  Mapping M;
  M.Begin = reinterpret_cast<uintptr_t>(P);
  M.End = M.Begin + Bytes;
  M.DynamicRefs = 1;
  M.LastUse.assign(Devices.size(), 0);
  M.Home = homeOf(At);
  if (At)
    M.Location = At->Location;
  M.DevicePtrs.assign(Devices.size(), nullptr); // none outside its location
  auto ReleaseAll = [&] { llvm::consumeError(releaseCopies(M)); };
  if (Unified) {
    auto Shared = unifiedCopy(P, Bytes, M.Home, &M.UnifiedOwner);
    if (!Shared)
      return Shared.takeError();
    M.Unified = true;
    for (unsigned D = 0; D < Devices.size(); ++D)
      if (M.hasCopy(D))
        M.DevicePtrs[D] = *Shared;
  } else {
    // Allocate on every device of its location first, so that a failure leaves nothing behind.
    for (unsigned D = 0; D < Devices.size(); ++D) {
      if (!M.hasCopy(D))
        continue;
      auto Ptr = Devices[D]->allocate(Bytes);
      if (!Ptr) {
        ReleaseAll();
        return Ptr.takeError();
      }
      M.DevicePtrs[D] = *Ptr;
    }
  }
  std::vector<char> Zeros(Copy || !Zero ? 0 : Bytes, 0);
  if (Copy || Zero)
    for (unsigned D = 0; D < Devices.size(); ++D) {
      if (!M.hasCopy(D) || sharesEarlierCopy(M, D))
        continue;
      if (auto E = Devices[D]->copyToDevice(M.DevicePtrs[D], Copy ? P : Zeros.data(), Bytes)) {
        ReleaseAll();
        return E;
      }
    }
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(P, Bytes) + " mapped on " +
                       describeHome(M));
  initValidity(M);
  Table.insert(std::move(M));
  return llvm::Error::success();
}

llvm::Error DataEnvironment::exit(void *P, size_t Bytes, bool CopyBack, bool Finalize,
                                  ExitRules Rules, const char *Api) {
  if (auto E = checkRange(Api, P, Bytes))
    return E;
  bool Jacc = Rules == ExitRules::Jacc;
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Absent)
    return Jacc ? notPresentError(Api, P, Bytes,
                                  "an exit needs a matching jacc_create or jacc_copyin before it")
                : llvm::Error::success(); // OpenACC: an exit of absent data does nothing
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  Mapping &M = *F.M;
  if (M.DynamicRefs == 0)
    return Jacc ? makeError(ErrorCode::NotPresent,
                            llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                                " has no dynamic reference left (it is only mapped by a data "
                                "region)")
                : llvm::Error::success(); // only a data region holds it: nothing to undo
  // jacc's exits complete the kernels using the data first, whatever the count becomes.
  if (Jacc)
    if (auto E = waitForUses(M))
      return E;
  uint64_t Left = Finalize ? 0 : M.DynamicRefs - 1;
  if (!Jacc && Left == 0 && M.UserDevice >= 0)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": " + PresentTable::describe(P, Bytes) +
                         " was mapped by acc_map_data: its dynamic reference count cannot reach "
                         "zero; end the mapping with acc_unmap_data");
  if (Left > 0 || M.StructuredRefs > 0) {
    M.DynamicRefs = Left;
    return llvm::Error::success();
  }
  if (!Jacc)
    if (auto E = waitForUses(M))
      return E;
  if (CopyBack) {
    if (auto E = checkWritable(Api, P, Bytes))
      return E; // the count is unchanged: the data stays mapped
    if (auto E = gatherToHost(M, P, Bytes))
      return E; // the count is unchanged: the data stays mapped
    restoreHostPointers(M, P, Bytes);
  }
  return unmap(M, Api);
}

llvm::Error DataEnvironment::unmap(Mapping &M, const char *Api) {
  llvm::Error Result = releaseCopies(M);
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(M) + " unmapped");
  Table.erase(M.Begin);
  return Result;
}

llvm::Error DataEnvironment::update(void *P, size_t Bytes, bool ToDevice, const char *Api) {
  if (auto E = checkRange(Api, P, Bytes))
    return E;
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, Bytes);
  if (F.State == PresentTable::Presence::Absent)
    return notPresentError(Api, P, Bytes, "map it first with jacc_copyin or jacc_create");
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, P, Bytes, *F.M);
  if (auto E = waitForUses(*F.M))
    return E;
  if (!ToDevice) {
    if (auto E = checkWritable(Api, P, Bytes))
      return E;
    if (auto E = gatherToHost(*F.M, P, Bytes))
      return E;
    restoreHostPointers(*F.M, P, Bytes);
    return llvm::Error::success();
  }
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (F.M->hasCopy(D) && !sharesEarlierCopy(*F.M, D))
      if (auto E = Devices[D]->copyToDevice(F.M->translate(P, D), P, Bytes))
        return E;
  uint64_t B = reinterpret_cast<uintptr_t>(P) - F.M->Begin;
  F.M->Valid.assign(B, B + Bytes, F.M->Home);
  return reattach(*F.M, P, Bytes);
}

bool DataEnvironment::isPresent(const void *P, size_t Bytes) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  return Table.lookup(P, Bytes).State == PresentTable::Presence::Contained;
}

llvm::Expected<void *> DataEnvironment::devicePtr(const void *P, unsigned Device, bool Sole) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(P, 1);
  if (F.State != PresentTable::Presence::Contained)
    return nullptr;
  // OpenACC: data not accessible from the device has no address there. host_data must not
  // hand the program its host address instead: an error.
  if (!F.M->hasCopy(Device)) {
    if (Sole)
      return noCopyError(*F.M, Device, "host_data use_device on the current device");
    return nullptr;
  }
  if (auto E = makeCurrent(*F.M, 0, F.M->bytes(), Device))
    return E;
  // The next kernel on another device fetches what it reads from Device, written or not: jacc
  // cannot see which bytes the program changes through the address.
  if (Sole)
    F.M->Valid.assign(0, F.M->bytes(), ValidityMap::device(Device));
  return F.M->translate(P, Device);
}

void *DataEnvironment::hostPtr(const void *DevicePtr, unsigned Device) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  uintptr_t A = reinterpret_cast<uintptr_t>(DevicePtr);
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (M->hasCopy(Device) && A >= B && A - B < M->bytes())
      return reinterpret_cast<void *>(M->Begin + (A - B));
  }
  return nullptr;
}

llvm::Error DataEnvironment::copyBetweenDevices(void *DstP, const void *SrcP, size_t Bytes,
                                                unsigned DstDevice, unsigned SrcDevice,
                                                const char *Api) {
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup FD = Table.lookup(DstP, Bytes), FS = Table.lookup(SrcP, Bytes);
  for (auto [F, P] : {std::pair{FD, static_cast<const void *>(DstP)}, std::pair{FS, SrcP}}) {
    if (F.State == PresentTable::Presence::Absent)
      return notPresentError(Api, P, Bytes, "map it first with acc_copyin or acc_create");
    if (F.State == PresentTable::Presence::Partial)
      return partialError(Api, P, Bytes, *F.M);
  }
  if (!FD.M->hasCopy(DstDevice))
    return noCopyError(*FD.M, DstDevice, llvm::Twine(Api) + "'s destination");
  if (!FS.M->hasCopy(SrcDevice))
    return noCopyError(*FS.M, SrcDevice, llvm::Twine(Api) + "'s source");
  void *To = FD.M->translate(DstP, DstDevice);
  const void *From = FS.M->translate(SrcP, SrcDevice);
  if (To == From)
    return llvm::Error::success();
  uintptr_t T = reinterpret_cast<uintptr_t>(To), S = reinterpret_cast<uintptr_t>(From);
  if (DstDevice == SrcDevice && T < S + Bytes && S < T + Bytes)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the source and destination ranges overlap");
  if (auto E = waitForUses(*FD.M))
    return E;
  if (auto E = waitForUses(*FS.M))
    return E;
  uint64_t SB = reinterpret_cast<uintptr_t>(SrcP) - FS.M->Begin;
  if (auto E = makeCurrent(*FS.M, SB, SB + Bytes, SrcDevice))
    return prefixError(Api, std::move(E));
  // The destination copy is the program's to shape (as in copyDeviceMemory): its validity
  // stays as it was.
  return prefixError(Api, Devices[SrcDevice]->copyToPeer(*Devices[DstDevice], To, From, Bytes));
}

llvm::Error DataEnvironment::releaseAll() {
  std::lock_guard<std::mutex> TL(Table.mutex());
  llvm::Error Result = releaseUserMemory(); // the program's: never acc_map_data'd memory
  for (Mapping *M : Table.all()) {
    if (auto E = releaseCopies(*M))
      Result = llvm::joinErrors(std::move(Result), std::move(E));
    Table.erase(M->Begin);
  }
  return Result;
}

} // namespace jacc
