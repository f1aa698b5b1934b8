// JACC_MEMORY=unified (OmpSs-2's model): a mapping gives every device one memory instead of a
// copy each. Host devices then work in the program's own memory; with GPUs the memory is CUDA's
// managed memory, which every device and the host can address. Nothing else changes: the
// validity map still says which device last wrote each byte, so a device still waits for the
// writer's kernels before it reads (Coherence.cpp), and only the copies become no-ops (a copy
// onto itself moves nothing, src/Device.cpp). Split kernels still guard their writes, so each
// device writes its own share; a kernel that cannot split runs on one device (Scheduler.cpp).
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"

#include <llvm/ADT/STLExtras.h>

namespace jacc {

llvm::Expected<void *> DataEnvironment::unifiedCopy(void *P, size_t Bytes, int *Owner) {
  *Owner = -1;
  auto Other = llvm::find_if(Devices, [](const auto &D) { return !D->hostMemory(); });
  if (Other == Devices.end())
    return P; // every device reads and writes the program's memory
  auto Shared = (*Other)->allocateUnified(Bytes);
  if (!Shared)
    return Shared.takeError();
  *Owner = int(Other - Devices.begin());
  return *Shared;
}

bool DataEnvironment::sharesEarlierCopy(const Mapping &M, unsigned D) {
  return M.Unified && D > 0;
}

llvm::Error DataEnvironment::releaseCopies(const Mapping &M) {
  llvm::Error Result = llvm::Error::success();
  for (unsigned D = 0; D < M.DevicePtrs.size(); ++D) {
    if (int(D) == M.UserDevice || (M.Unified && int(D) != M.UnifiedOwner))
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
