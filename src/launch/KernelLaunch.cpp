// The launch part every backend shares: its split share and information, the read probe run
// through the host split entry, the bounds block and its failure, and the finished notifications.
#include "src/launch/KernelLaunch.h"

#include "jit/EntryCodegen.h"
#include "jit/ReadProbe.h"
#include "jit/cache/KernelSummary.h"
#include "jit/host/HostABI.h"
#include "src/launch/BoundsReport.h"
#include "src/launch/SplitGroup.h"

#include <algorithm>
#include <cstring>

namespace jacc {

KernelLaunch::KernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                           AggregateArgs Aggregates)
    : K(std::move(K)), Cells(std::move(Cells)), Aggregates(std::move(Aggregates)),
      NumReductions(this->K->Info.reductionSlots()) {}

void KernelLaunch::setSplit(unsigned D, SplitShare S, bool DoNarrow,
                            std::shared_ptr<SplitGroup> G) {
  Split = true;
  Device = D;
  Share = S;
  Narrow = DoNarrow;
  Group = std::move(G);
  SplitInfo.assign(JACC_SPLIT_INFO_WORDS * K->Info.Split.Plan.Arrays.size(), 0);
}

void KernelLaunch::keepWhole(size_t I) {
  size_t Cell = jit::splitBoundsCell(K->Info, I);
  std::memcpy(&Cells[2 * Cell], &jit::NotSplitBounds[0], sizeof(long long));
  std::memcpy(&Cells[2 * (Cell + 1)], &jit::NotSplitBounds[1], sizeof(long long));
  Narrow = false;
}

static void noBarrier(void *) {}

bool KernelLaunch::probe(llvm::ArrayRef<void *> ArgHosts) {
  if (!Split)
    return false;
  auto Code = K->splitCode();
  if (!Code) {
    llvm::consumeError(Code.takeError()); // the launch exchanges eagerly instead
    return false;
  }
  ArgCells C = Cells;
  unsigned NParams = C.size() / 2;
  llvm::SmallVector<void *, 16> Values(NParams + 1);
  for (unsigned P = 0; P < NParams; ++P)
    Values[P] = &C[2 * P];
  for (const analysis::ArgInfo &A : K->Info.Args) {
    using Kind = analysis::ArgInfo::Kind;
    if (A.ArgKind == Kind::Pointer && A.Position < ArgHosts.size() && ArgHosts[A.Position])
      std::memcpy(&C[2 * A.Param], &ArgHosts[A.Position], sizeof(void *));
    // As the host entry takes them: structs by address, wide scalars by value from their bytes.
    if (Aggregates && A.ArgKind == Kind::Aggregate) {
      const void *Data = (*Aggregates)[A.Param].data();
      std::memcpy(&C[2 * A.Param], &Data, sizeof Data);
    }
    if (Aggregates && A.ArgKind == Kind::Scalar && A.Size > ArgCellBytes)
      Values[A.Param] = const_cast<char *>((*Aggregates)[A.Param].data());
  }
  // Never empty (the loop's words follow the extents): read_info is never null in a probe.
  ReadInfo.assign(jit::readInfoWords(K->Info), 0);
  jacc_host_team T{};
  T.nthreads = 1;
  T.barrier = noBarrier;
  T.share_begin = Share.Begin;
  T.share_end = Share.End;
  T.share_scale = Share.Scale;
  T.narrow = Narrow;
  T.split_info = SplitInfo.data();
  T.bounds = Bounds.empty() ? nullptr : Bounds.data(); // checked code reads it
  T.read_info = ReadInfo.data();
  const jacc_host_team *TP = &T;
  Values[NParams] = &TP;
  (*Code)->Call->call((*Code)->Entry, Values.data());
  return true;
}

void KernelLaunch::checkBounds(llvm::ArrayRef<long long> Ranges, unsigned D) {
  Bounds = boundsBlock(K->Info, Ranges);
  BoundsDevice = D;
  BoundsKernel = describe() + " on device " + std::to_string(D);
}

llvm::Error KernelLaunch::takeFailure() {
  llvm::Error E = boundsViolation(K->Info, Bounds, BoundsDevice);
  if (!Bounds.empty())
    Bounds[0] = 0;
  return E;
}

std::string KernelLaunch::describe() const {
  return K->Info.Name.described();
}

void KernelLaunch::finished() {
  if (Group)
    Group->deviceFinished(Device, *this);
  if (OnFinished)
    OnFinished(*this);
}

} // namespace jacc
