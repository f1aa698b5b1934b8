// A split launch's exchange: once every device finished, each copies from the others the ranges
// they own and wrote, then waits for all before its next work.
#include "src/launch/SplitGroup.h"

#include "jit/host/HostABI.h"
#include "src/data/StridedRuns.h"
#include "src/launch/KernelLaunch.h"

#include <algorithm>

namespace jacc {

SplitGroup::SplitGroup(std::vector<Device *> Devices, std::vector<SplitTarget> Targets,
                       SpinPolicy *Spin)
    : Devices(std::move(Devices)), Targets(std::move(Targets)),
      Launches(this->Devices.size(), nullptr), Spin(Spin) {
  for (unsigned D = this->Devices.size(); D-- > 0;)
    if (this->Devices[D]) {
      ++Members;
      Lead = D;
    }
}

std::vector<const KernelLaunch *> SplitGroup::memberLaunches() const {
  std::vector<const KernelLaunch *> Out;
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (Devices[D])
      Out.push_back(Launches[D]);
  return Out;
}

void SplitGroup::withoutExchange(std::vector<std::shared_ptr<const KernelLaunch>> Launches) {
  Exchange = false;
  if (OnAllComputed)
    Kept = std::move(Launches);
}

void SplitGroup::rendezvous(unsigned Phase) {
  if (Arrived[Phase].fetch_add(1, std::memory_order_acq_rel) + 1 == Members) {
    { std::lock_guard<std::mutex> G(M); } // a member between its check and its sleep is woken
    CV.notify_all();
    return;
  }
  auto All = [&] { return Arrived[Phase].load(std::memory_order_acquire) == Members; };
  auto Sleep = [&] {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, All);
  };
  // The members run on different threads, usually on cores of their own: the others arrive
  // within microseconds, sooner than a futex wake-up.
  if (Spin)
    spinThenBlock(*Spin, All, Sleep);
  else
    Sleep();
}

std::vector<std::pair<uint64_t, uint64_t>> SplitGroup::ownedWritten(const SplitTarget &T,
                                                                    const long long *Info) {
  long long Lo = std::max(Info[0], Info[4]), Hi = std::min(Info[1], Info[5]);
  long long Unit = Info[2], Pitch = Info[3];
  if (Lo > Hi || Unit <= 0)
    return {};
  // Offsets relative to the mapping's begin; the pointer is at -MLo.
  long long MLo = static_cast<long long>(T.Begin - T.Pointer);
  long long MHi = static_cast<long long>(T.End - T.Pointer);
  llvm::SmallVector<const long long *, JACC_SPLIT_WINDOWS> Windows;
  for (unsigned W = 0; W < JACC_SPLIT_WINDOWS; ++W)
    Windows.push_back(Info + JACC_SPLIT_INFO_WINDOWS + 4 * W);
  // The owned rows (strided: the owned columns of every row), within the writes' windows.
  return bandWithinWindows(-MLo, Pitch, Lo * Unit, (Hi + 1) * Unit, MHi - MLo, Windows);
}

void SplitGroup::deviceFinished(unsigned D, const KernelLaunch &L) {
  if (!Exchange) {
    std::unique_lock<std::mutex> G(M);
    Launches[D] = &L;
    if (++Finished < Members)
      return;
    G.unlock();
    if (OnAllComputed)
      OnAllComputed(memberLaunches());
    Kept.clear(); // breaks the cycle launch -> group -> launch
    return;
  }
  {
    std::lock_guard<std::mutex> G(M);
    Launches[D] = &L;
  }
  rendezvous(0);
  // Pull what every other device owns and may have written, for each split array (several
  // pointers into one mapping each pull their own ranges: together, the widest).
  llvm::Error Err = llvm::Error::success();
  for (unsigned Src = 0; Src < Devices.size() && !Err; ++Src) {
    if (Src == D || !Devices[Src])
      continue;
    const long long *Info = Launches[Src]->splitInfo();
    for (const SplitTarget &T : Targets) {
      if (!T.Split)
        continue;
      // Equal rows Pitch apart: one strided copy.
      auto Ranges = ownedWritten(T, Info + T.Info * JACC_SPLIT_INFO_WORDS);
      for (const StridedBlock &S : groupStrided(Ranges))
        if (!Err)
          Err = copyBlockToPeer(*Devices[Src], *Devices[D], static_cast<char *>(T.DevicePtrs[D]),
                                static_cast<const char *>(T.DevicePtrs[Src]), S);
    }
  }
  if (Err) {
    std::lock_guard<std::mutex> G(M);
    Failure.keep(std::move(Err));
  }
  if (D == Lead && OnAllComputed)
    OnAllComputed(memberLaunches());
  // No device may overwrite what others are still pulling from it.
  rendezvous(1);
}

llvm::Error SplitGroup::takeError() {
  std::lock_guard<std::mutex> G(M);
  return prefixError("exchange after a split kernel failed", Failure.error());
}

} // namespace jacc
