// A team member's run of a host launch: its jacc_host_team filled in, and the entry (plain,
// split or a variant's) called through libffi with the argument cells.
#include "src/host/HostKernelLaunch.h"

#include "jit/EntryCodegen.h"
#include "jit/host/HostABI.h"
#include "src/host/GuardedMemory.h"

#include <llvm/ADT/SmallVector.h>

#include <cstring>

namespace jacc {

HostKernelLaunch::HostKernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                                   AggregateArgs Aggregates, unsigned Threads,
                                   const jit::SplitCode *SplitEntry,
                                   const jit::VariantCode *Variant)
    : KernelLaunch(std::move(K), std::move(Cells), std::move(Aggregates)),
      SplitEntry(SplitEntry), Variant(Variant) {
  Partials = Threads;
  Slots.resize(Threads * NumReductions);
  // Host entries take structs by address.
  if (this->Aggregates)
    for (const analysis::ArgInfo &A : this->K->Info.Args)
      if (A.ArgKind == analysis::ArgInfo::Kind::Aggregate) {
        const void *Data = (*this->Aggregates)[A.Param].data();
        std::memcpy(&this->Cells[2 * A.Param], &Data, sizeof Data);
      }
}

void HostKernelLaunch::runMember(unsigned Tid, unsigned NThreads, void *Team,
                                 void (*Barrier)(void *Team)) {
  jacc_host_team T;
  T.tid = Tid;
  T.nthreads = NThreads;
  T.barrier = Barrier;
  T.team = Team;
  T.reduction = NumReductions ? &Slots[Tid * NumReductions] : nullptr;
  T.share_begin = Share.Begin;
  T.share_end = Share.End;
  T.share_scale = Share.Scale;
  T.narrow = Narrow;
  T.split_info = SplitInfo.empty() ? nullptr : SplitInfo.data();
  T.bounds = Bounds.empty() ? nullptr : Bounds.data();
  T.read_info = nullptr;
  const jacc_host_team *TP = &T;
  unsigned NParams = Cells.size() / 2;
  llvm::SmallVector<void *, 16> Values(NParams + 1);
  for (unsigned P = 0; P < NParams; ++P)
    Values[P] = const_cast<uint64_t *>(&Cells[2 * P]);
  if (Aggregates) // scalars wider than a cell: by value from their bytes
    for (const analysis::ArgInfo &A : K->Info.Args)
      if (A.ArgKind == analysis::ArgInfo::Kind::Scalar && A.Size > ArgCellBytes)
        Values[A.Param] = const_cast<char *>((*Aggregates)[A.Param].data());
  Values[NParams] = &TP;
  if (Bounds.empty())
    return callEntry(Values.data());
  RunningKernel Report(BoundsKernel.c_str()); // a fault in the kernel names it
  callEntry(Values.data());
}

const void *HostKernelLaunch::codeRunnableInTurn() const {
  if (jit::entryHasBarrier(K->Info))
    return nullptr;
  if (SplitEntry)
    return Variant ? Variant->SplitEntry : SplitEntry->Entry;
  return Variant ? Variant->Entry : K->Entry;
}

void HostKernelLaunch::callEntry(void **Values) {
  if (SplitEntry)
    SplitEntry->Call->call(Variant ? Variant->SplitEntry : SplitEntry->Entry, Values);
  else
    K->Call->call(Variant ? Variant->Entry : K->Entry, Values);
}

} // namespace jacc
