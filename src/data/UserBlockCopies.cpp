// acc_malloc memory with a copy on every device: the program sees one block on its current
// device; jacc keeps the other devices' copies current as it does a mapping's, so that the
// kernels the program gives the block by deviceptr split over the devices instead of running on
// the block's device alone. Only jacc's own writes keep the copies current, so by default a
// block stays its device's alone where code outside jacc (a vendor library) may write it.
#include "src/data/DataEnvironment.h"

#include "support/Debug.h"
#include "support/Format.h"

namespace jacc {

Mapping *DataEnvironment::userBlockCopies(const void *P) {
  auto It = userBlockContaining(reinterpret_cast<uintptr_t>(P));
  return It == UserBlocks.end() ? nullptr : It->second.Copies.get();
}

void DataEnvironment::copyUserBlock(uintptr_t Begin, UserAllocation &A, HolderSet Home) {
  if (BlockCopies == UserBlockCopies::Never || Unified || !(Home >> A.Device & 1) ||
      __builtin_popcountll(Home) < 2)
    return;
  if (BlockCopies == UserBlockCopies::UnlessNativeCode)
    for (unsigned D = 0; D < Devices.size(); ++D)
      if ((Home >> D & 1) && Devices[D]->nativeCodeMayWrite()) {
        debugLog("data", "acc_malloc block " + hexAddress(reinterpret_cast<void *>(Begin)) +
                             " stays on " + Devices[A.Device]->name() +
                             ": code outside jacc may write " + Devices[D]->name() +
                             "'s memory (JACC_MALLOC=every copies it all the same)");
        return;
      }
  auto M = std::make_unique<Mapping>();
  M->Begin = Begin;
  M->End = Begin + A.Bytes;
  M->Home = Home;
  M->UserDevice = static_cast<int>(A.Device); // never released with the copies
  M->LastUse.assign(Devices.size(), 0);
  M->DevicePtrs.assign(Devices.size(), nullptr);
  M->DevicePtrs[A.Device] = reinterpret_cast<void *>(Begin);
  for (unsigned D = 0; D < Devices.size(); ++D) {
    if (D == A.Device || !M->hasCopy(D))
      continue;
    auto Ptr = Devices[D]->allocate(A.Bytes);
    if (!Ptr) {
      // The program asked for its device's memory, which it has: the block stays that device's.
      debugLog("data", "acc_malloc block " + hexAddress(reinterpret_cast<void *>(Begin)) +
                           " stays on " + Devices[A.Device]->name() + ": " +
                           llvm::toString(Ptr.takeError()));
      llvm::consumeError(releaseCopies(*M));
      return;
    }
    M->DevicePtrs[D] = *Ptr;
  }
  // Nothing written yet: every copy is as current as the block.
  initValidity(*M);
  A.Copies = std::move(M);
}

llvm::Error DataEnvironment::dropUserBlockCopies(UserAllocation &A) {
  if (!A.Copies)
    return llvm::Error::success();
  Mapping &M = *A.Copies;
  if (auto E = waitForUses(M))
    return E;
  if (auto E = makeCurrent(M, 0, M.bytes(), A.Device))
    return E;
  llvm::Error Result = releaseCopies(M);
  A.Copies.reset();
  return Result;
}

} // namespace jacc
