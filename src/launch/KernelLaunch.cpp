#include "src/launch/KernelLaunch.h"

#include "jit/host/HostABI.h"

#include <llvm/ADT/SmallVector.h>

#include <cstring>

namespace jacc {

KernelLaunch::KernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                           std::shared_ptr<const std::vector<std::vector<char>>> Aggregates)
    : K(std::move(K)), Cells(std::move(Cells)), Aggregates(std::move(Aggregates)),
      NumReductions(this->K->Info.Reductions.size()) {}

void KernelLaunch::setSplit(unsigned D, unsigned N, bool DoNarrow,
                            std::shared_ptr<SplitGroup> G) {
  Split = true;
  Device = D;
  NDevices = N;
  Narrow = DoNarrow;
  Group = std::move(G);
  SplitInfo.assign(JACC_SPLIT_INFO_WORDS * K->Info.Split.Plan.Arrays.size(), 0);
}

void KernelLaunch::finished() {
  if (Group)
    Group->deviceFinished(Device, *this);
  if (OnFinished)
    OnFinished(*this);
}

HostKernelLaunch::HostKernelLaunch(
    std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
    std::shared_ptr<const std::vector<std::vector<char>>> Aggregates, unsigned Threads)
    : KernelLaunch(std::move(K), std::move(Cells), std::move(Aggregates)) {
  Partials = Threads;
  Slots.resize(Threads * NumReductions);
  // Host entries take structs by address.
  if (this->Aggregates)
    for (size_t P = 0; P < this->Aggregates->size(); ++P)
      if (!(*this->Aggregates)[P].empty()) {
        const void *Data = (*this->Aggregates)[P].data();
        std::memcpy(&this->Cells[2 * P], &Data, sizeof Data);
      }
}

void HostKernelLaunch::runHostMember(unsigned Tid, unsigned NThreads, void *Team,
                                     void (*Barrier)(void *Team)) {
  jacc_host_team T;
  T.tid = Tid;
  T.nthreads = NThreads;
  T.barrier = Barrier;
  T.team = Team;
  T.reduction = NumReductions ? &Slots[Tid * NumReductions] : nullptr;
  T.device = Device;
  T.ndevices = NDevices;
  T.narrow = Narrow;
  T.split_info = SplitInfo.empty() ? nullptr : SplitInfo.data();
  const jacc_host_team *TP = &T;
  unsigned NParams = Cells.size() / 2;
  llvm::SmallVector<void *, 16> Values(NParams + 1);
  for (unsigned P = 0; P < NParams; ++P)
    Values[P] = const_cast<uint64_t *>(&Cells[2 * P]);
  Values[NParams] = &TP;
  if (SplitEntry)
    SplitEntry->Call->call(Variant ? Variant->SplitEntry : SplitEntry->Entry, Values.data());
  else
    K->Call->call(Variant ? Variant->Entry : K->Entry, Values.data());
}

} // namespace jacc
