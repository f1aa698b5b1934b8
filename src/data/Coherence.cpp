// Which device copies are current: fetching what a device lacks from one that holds
// it, gathering a range to the host from its holders, and recording writes. Callers hold the
// table's lock; the validity maps change in push order.
#include "src/data/DataEnvironment.h"

#include "src/data/StridedRuns.h"
#include "support/Debug.h"

#include <chrono>

namespace jacc {

HolderSet DataEnvironment::allDevices() const {
  return ValidityMap::devices(Devices.size());
}

void DataEnvironment::initValidity(Mapping &M) {
  M.Valid = ValidityMap(M.bytes(), M.Home);
}

llvm::Error DataEnvironment::makeCurrent(Mapping &M, uint64_t B, uint64_t E, unsigned Device,
                                         CopyCost *Cost) {
  return makeCurrent(M, ByteRanges{{B, E}}, Device, Cost);
}

/// The runs of Runs (in offset order) by the device to copy them from, the lowest holding
/// each, adjacent runs of one source joined; a run nobody holds is left out.
static std::vector<ByteRanges> bySource(const std::vector<ValidityMap::Run> &Runs,
                                        HolderSet Devices, size_t NumDevices) {
  std::vector<ByteRanges> From(NumDevices);
  for (const ValidityMap::Run &R : Runs) {
    HolderSet Holders = R.Holders & Devices;
    if (!Holders)
      continue; // nobody holds it (never written since a create): nothing to fetch
    ByteRanges &Rs = From[ValidityMap::first(Holders)];
    if (!Rs.empty() && Rs.back().second == R.Begin)
      Rs.back().second = R.End;
    else
      Rs.push_back({R.Begin, R.End});
  }
  return From;
}

llvm::Error DataEnvironment::makeCurrent(Mapping &M, const ByteRanges &Ranges, unsigned Device,
                                         CopyCost *Cost, bool *AllHeld) {
  // The launch plan and the routines only ask devices that hold a copy: a safety net.
  if (!M.hasCopy(Device))
    return noCopyError(M, Device, "making the copy current");
  std::vector<ValidityMap::Run> Missing;
  if (isNormalized(Ranges))
    M.Valid.appendMissing(Device, Ranges, Missing);
  else
    M.Valid.appendMissing(Device, normalized(Ranges), Missing);
  if (AllHeld)
    *AllHeld = llvm::all_of(
        Missing, [&](const ValidityMap::Run &R) { return (R.Holders & allDevices()) != 0; });
  if (Missing.empty())
    return llvm::Error::success();
  std::vector<ByteRanges> From = bySource(Missing, allDevices(), Devices.size());
  // The copies read the sources' results and overwrite what the device's queued work may still
  // read: both have completed their queued work first.
  llvm::SmallVector<bool, 8> Waited(Devices.size(), false);
  auto Settle = [&](unsigned D) -> llvm::Error {
    if (Waited[D])
      return llvm::Error::success();
    Waited[D] = true;
    return Devices[D]->waitFor(Devices[D]->lastTicket());
  };
  if (auto Err = Settle(Device))
    return Err;
  for (unsigned Src = 0; Src < From.size(); ++Src) {
    if (From[Src].empty())
      continue;
    if (auto Err = Settle(Src))
      return Err;
    // A column band is a range per row: one strided copy for rows of equal width.
    for (const StridedBlock &S : groupStrided(From[Src])) {
      std::string Rows = S.Height > 1 ? " x " + std::to_string(S.Height) + " rows, pitch " +
                                            std::to_string(S.Pitch)
                                      : "";
      debugLog("exchange", PresentTable::describe(M) + " [" + llvm::Twine(S.Begin) + ", " +
                               llvm::Twine(S.Begin + S.Width) + ")" + Rows + " device " +
                               llvm::Twine(Src) + " -> " + llvm::Twine(Device));
      auto Start = std::chrono::steady_clock::now();
      if (auto Err = copyBlockToPeer(*Devices[Src], *Devices[Device],
                                     static_cast<char *>(M.DevicePtrs[Device]),
                                     static_cast<const char *>(M.DevicePtrs[Src]), S))
        return Err;
      if (Cost) {
        Cost->Bytes += uint64_t(S.Width) * S.Height;
        Cost->Seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
      }
    }
    M.Valid.addAll(From[Src], ValidityMap::device(Device));
    // Pointers attached in the runs copied hold Src's addresses: Device's own instead.
    if (!M.Attachments.empty())
      if (auto Err = reattachOn(M, Device, From[Src]))
        return Err;
  }
  return llvm::Error::success();
}

llvm::Error DataEnvironment::gatherToHost(const Mapping &M, void *P, size_t Bytes) {
  uint64_t B = reinterpret_cast<uintptr_t>(P) - M.Begin;
  std::vector<ValidityMap::Run> Runs = M.Valid.runsIn(B, B + Bytes);
  // A run nobody holds (created, never written) comes from the first device with a copy, whose
  // copy is as good.
  for (ValidityMap::Run &R : Runs)
    if (!(R.Holders & allDevices()))
      R.Holders = ValidityMap::device(ValidityMap::first(M.Home));
  std::vector<ByteRanges> From = bySource(Runs, allDevices(), Devices.size());
  // A column split leaves a run per row and device: one strided copy per device.
  for (unsigned Src = 0; Src < From.size(); ++Src)
    for (const StridedBlock &S : groupStrided(From[Src]))
      if (auto E = copyBlockToHost(*Devices[Src], reinterpret_cast<char *>(M.Begin),
                                   static_cast<const char *>(M.DevicePtrs[Src]), S))
        return E;
  return llvm::Error::success();
}

Mapping *DataEnvironment::mappingOfCopy(const void *P, size_t Bytes, unsigned Device) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (M->hasCopy(Device) && A >= B && A - B < M->bytes() && Bytes <= M->bytes() - (A - B))
      return M;
  }
  return nullptr;
}

} // namespace jacc
