// Which device copies are current (issue 16): fetching what a device lacks from one that holds
// it, gathering a range to the host from its holders, and recording writes. Callers hold the
// table's lock; the validity maps change in push order.
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"

#include <chrono>

namespace jacc {

HolderSet DataEnvironment::allDevices() const {
  return ValidityMap::devices(Devices.size());
}

void DataEnvironment::initValidity(Mapping &M) {
  M.Valid = ValidityMap(M.bytes(), allDevices());
}

llvm::Error DataEnvironment::makeCurrent(Mapping &M, uint64_t B, uint64_t E, unsigned Device,
                                         CopyCost *Cost) {
  std::vector<ValidityMap::Run> Missing = M.Valid.missingOn(Device, B, E);
  if (Missing.empty())
    return llvm::Error::success();
  // Adjacent runs fetched from one device become one copy.
  struct Fetch {
    uint64_t B, E;
    unsigned From;
  };
  std::vector<Fetch> Fetches;
  for (const ValidityMap::Run &R : Missing) {
    HolderSet From = R.Holders & allDevices();
    if (!From)
      continue; // nobody holds it (never written since a create): nothing to fetch
    unsigned Src = ValidityMap::first(From);
    if (!Fetches.empty() && Fetches.back().E == R.Begin && Fetches.back().From == Src)
      Fetches.back().E = R.End;
    else
      Fetches.push_back({R.Begin, R.End, Src});
  }
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
  for (const Fetch &F : Fetches) {
    if (auto Err = Settle(F.From))
      return Err;
    debugLog("exchange", PresentTable::describe(M) + " [" + llvm::Twine(F.B) + ", " +
                             llvm::Twine(F.E) + ") device " + llvm::Twine(F.From) + " -> " +
                             llvm::Twine(Device));
    auto Start = std::chrono::steady_clock::now();
    if (auto Err = Devices[F.From]->copyToPeer(
            *Devices[Device], static_cast<char *>(M.DevicePtrs[Device]) + F.B,
            static_cast<char *>(M.DevicePtrs[F.From]) + F.B, F.E - F.B))
      return Err;
    if (Cost) {
      Cost->Bytes += F.E - F.B;
      Cost->Seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    }
    M.Valid.add(F.B, F.E, ValidityMap::device(Device));
  }
  return llvm::Error::success();
}

llvm::Error DataEnvironment::gatherToHost(const Mapping &M, void *P, size_t Bytes) {
  uint64_t B = reinterpret_cast<uintptr_t>(P) - M.Begin;
  for (const ValidityMap::Run &R : M.Valid.runsIn(B, B + Bytes)) {
    HolderSet From = R.Holders & allDevices();
    unsigned Src = From ? ValidityMap::first(From) : 0;
    if (auto E = Devices[Src]->copyToHost(reinterpret_cast<char *>(M.Begin) + R.Begin,
                                          static_cast<char *>(M.DevicePtrs[Src]) + R.Begin,
                                          R.End - R.Begin))
      return E;
  }
  return llvm::Error::success();
}

Mapping *DataEnvironment::mappingOfCopy(const void *P, size_t Bytes, unsigned Device) {
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  for (Mapping *M : Table.all()) {
    uintptr_t B = reinterpret_cast<uintptr_t>(M->DevicePtrs[Device]);
    if (A >= B && A - B < M->bytes() && Bytes <= M->bytes() - (A - B))
      return M;
  }
  return nullptr;
}

} // namespace jacc
