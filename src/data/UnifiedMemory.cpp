// JACC_MEMORY=unified (OmpSs-2's model): a mapping gives every device one memory instead of a
// copy each. Host devices then work in the program's own memory; with GPUs the memory is CUDA's
// managed memory, which every device and the host can address. Nothing else changes: the
// validity map still says which device last wrote each byte, so a device still waits for the
// writer's kernels before it reads (Coherence.cpp), and only the copies become no-ops (a copy
// onto itself moves nothing, src/Device.cpp). Split kernels still guard their writes, so each
// device writes its own share; a kernel that cannot split runs on one device (Scheduler.cpp).
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"

namespace jacc {

llvm::Expected<void *> DataEnvironment::unifiedCopy(void *P, size_t Bytes, HolderSet Home,
                                                    int *Owner) {
  *Owner = -1;
  // Gecko's allocation algorithm: the host's memory when every device of the location is a
  // multicore one, else memory every device can address (managed).
  for (unsigned D = 0; D < Devices.size(); ++D) {
    if (!(Home >> D & 1) || Devices[D]->hostMemory())
      continue;
    auto Shared = Devices[D]->allocateUnified(Bytes);
    if (!Shared)
      return Shared.takeError();
    *Owner = int(D);
    return *Shared;
  }
  return P; // every device reads and writes the program's memory
}

bool DataEnvironment::sharesEarlierCopy(const Mapping &M, unsigned D) {
  return M.Unified && D != ValidityMap::first(M.Home);
}

llvm::Error DataEnvironment::releaseCopies(const Mapping &M) {
  llvm::Error Result = llvm::Error::success();
  for (unsigned D = 0; D < M.DevicePtrs.size(); ++D) {
    if (!M.DevicePtrs[D] || int(D) == M.UserDevice || (M.Unified && int(D) != M.UnifiedOwner))
      continue;
    if (auto E = Devices[D]->release(M.DevicePtrs[D], M.bytes()))
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  }
  return Result;
}

llvm::Error DataEnvironment::prefetch(const Mapping &M, const ByteRanges &Ranges, unsigned Device,
                                      bool ReadMostly) {
  if (!M.Unified || M.UnifiedOwner < 0)
    return llvm::Error::success(); // the program's memory: nothing to move
  for (auto [B, E] : normalized(Ranges))
    if (auto Err = Devices[Device]->prefetch(static_cast<char *>(M.DevicePtrs[Device]) + B, E - B,
                                             ReadMostly))
      return Err;
  return llvm::Error::success();
}

} // namespace jacc
