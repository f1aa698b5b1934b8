// Attached pointers (OpenACC's attach and detach actions): a pointer inside mapped data whose
// device copies hold their own device's address of the pointer's target.
//
// Every jacc device has a copy of each mapping (of its location's devices, when it lives at
// one), so attaching writes into each device's copy of the pointer that device's copy of the
// target: a kernel on any device follows the pointer into its own memory (NVHPC does the same on
// its one current device). A device without a copy of the target gets a null pointer: no kernel
// runs there with both (src/launch/LaunchPlan.cpp), and a stray one faults rather than reading
// the host's memory.
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"

namespace jacc {

/// Device D's value of a pointer attached to Target (TargetMap: its mapping, or null).
static void *attachedValue(void *Target, const Mapping *TargetMap, unsigned D) {
  if (!TargetMap)
    return Target;
  return TargetMap->hasCopy(D) ? TargetMap->translate(Target, D) : nullptr;
}

llvm::Error DataEnvironment::writePointer(const Mapping &M, void **PtrAddr, void *Target,
                                          const Mapping *TargetMap) {
  for (unsigned D = 0; D < Devices.size(); ++D) {
    if (!M.hasCopy(D))
      continue;
    void *Value = attachedValue(Target, TargetMap, D);
    if (auto E = Devices[D]->copyToDevice(M.translate(PtrAddr, D), &Value, sizeof Value))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error DataEnvironment::attachPointer(void **PtrAddr, AttachOp Op, const char *Api) {
  if (!PtrAddr)
    return llvm::Error::success();
  std::lock_guard<std::mutex> TL(Table.mutex());
  PresentTable::Lookup F = Table.lookup(PtrAddr, sizeof *PtrAddr);
  if (F.State == PresentTable::Presence::Absent)
    return llvm::Error::success(); // OpenACC: a pointer that is not present is left alone
  if (F.State == PresentTable::Presence::Partial)
    return partialError(Api, PtrAddr, sizeof *PtrAddr, *F.M);
  Mapping &M = *F.M;
  uintptr_t Key = reinterpret_cast<uintptr_t>(PtrAddr);
  auto It = M.Attachments.find(Key);
  if (Op != AttachOp::Attach) {
    if (It == M.Attachments.end())
      return llvm::Error::success(); // never attached: nothing to undo
    It->second.Count = Op == AttachOp::DetachFinalize ? 0 : It->second.Count - 1;
    if (It->second.Count > 0)
      return llvm::Error::success();
    M.Attachments.erase(It);
    if (auto E = waitForUses(M))
      return E;
    debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(PtrAddr, sizeof(void *)) +
                         " detached");
    return writePointer(M, PtrAddr, *PtrAddr, nullptr); // the host's value again
  }
  if (It != M.Attachments.end()) {
    ++It->second.Count; // already pointing at its target's copies
    return llvm::Error::success();
  }
  void *Target = *PtrAddr;
  if (!Target)
    return llvm::Error::success();
  PresentTable::Lookup T = Table.lookup(Target, 1);
  if (T.State != PresentTable::Presence::Contained)
    return llvm::Error::success(); // OpenACC: a target that is not present leaves it alone
  if (auto E = waitForUses(M))
    return E;
  if (auto E = writePointer(M, PtrAddr, Target, T.M))
    return E;
  M.Attachments[Key] = {1, Target};
  debugLog("data", llvm::Twine(Api) + " " + PresentTable::describe(PtrAddr, sizeof(void *)) +
                       " attached to " + PresentTable::describe(*T.M));
  return llvm::Error::success();
}

llvm::Error DataEnvironment::reattachOn(const Mapping &M, unsigned Device,
                                        const ByteRanges &Copied) {
  for (const auto &[Addr, A] : M.Attachments) {
    uint64_t Off = Addr - M.Begin;
    if (llvm::none_of(Copied, [&](const auto &R) {
          return Off < R.second && R.first < Off + sizeof(void *);
        }))
      continue;
    PresentTable::Lookup T = Table.lookup(A.HostValue, 1);
    void *Value = attachedValue(
        A.HostValue, T.State == PresentTable::Presence::Contained ? T.M : nullptr, Device);
    if (auto E = Devices[Device]->copyToDevice(M.translate(reinterpret_cast<void *>(Addr), Device),
                                               &Value, sizeof Value))
      return E;
  }
  return llvm::Error::success();
}

void DataEnvironment::restoreHostPointers(const Mapping &M, void *P, size_t Bytes) {
  uintptr_t Lo = reinterpret_cast<uintptr_t>(P), Hi = Lo + Bytes;
  for (auto &[Addr, A] : M.Attachments)
    if (Addr >= Lo && Addr + sizeof(void *) <= Hi)
      *reinterpret_cast<void **>(Addr) = A.HostValue;
}

llvm::Error DataEnvironment::reattach(const Mapping &M, void *P, size_t Bytes) {
  uintptr_t Lo = reinterpret_cast<uintptr_t>(P), Hi = Lo + Bytes;
  for (auto &[Addr, A] : M.Attachments) {
    if (Addr < Lo || Addr + sizeof(void *) > Hi)
      continue;
    PresentTable::Lookup T = Table.lookup(A.HostValue, 1);
    if (T.State != PresentTable::Presence::Contained)
      continue; // the target was unmapped since: the copies keep the host's value
    if (auto E = writePointer(M, reinterpret_cast<void **>(Addr), A.HostValue, T.M))
      return E;
  }
  return llvm::Error::success();
}

} // namespace jacc
