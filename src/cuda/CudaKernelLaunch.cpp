// Enqueueing a kernel on a CUDA device: its image, a grid sized by occupancy, scratch for the
// barrier, split information, partials and bounds, the argument buffer, the launch and read-backs.
#include "src/cuda/CudaKernelLaunch.h"

#include "jit/cuda/CudaABI.h"
#include "jit/host/HostABI.h"
#include "src/cuda/CudaDevice.h"
#include "support/Debug.h"

#include <algorithm>
#include <cstring>

namespace jacc {

static constexpr llvm::StringLiteral ModuleKeyPrefix = "jacc:";

std::string cudaModuleKey(const jit::CudaCode &Code) {
  return (ModuleKeyPrefix + llvm::Twine(Code.Id)).str();
}

bool cudaModuleGone(llvm::StringRef Key) {
  uint64_t Id = 0;
  return Key.consume_front(ModuleKeyPrefix) && !Key.getAsInteger(10, Id) &&
         !jit::DeviceCode::alive(Id);
}

CudaKernelLaunch::CudaKernelLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                                   AggregateArgs Aggregates, const jit::VariantCode *Variant)
    : KernelLaunch(std::move(K), std::move(Cells), std::move(Aggregates)), Variant(Variant) {}

CudaKernelLaunch::~CudaKernelLaunch() {
  if (Scratch && Dev)
    Dev->giveScratch(Scratch, ScratchCapacity);
}

void CudaKernelLaunch::argumentBuffer(const jit::CudaKernelSource &S,
                                      const analysis::KernelInfo &Info, const ArgCells &Cells,
                                      const std::vector<std::vector<char>> *Aggregates,
                                      const void *Team, std::vector<char> &B,
                                      std::vector<void *> &Pointers) {
  unsigned Size = 0;
  std::vector<unsigned> Offsets = jit::cudaParamOffsets(S.Params, Size);
  B.assign(Size, 0);
  // Parameters in order: the kernel's arguments (ArgInfo::Param), the split bounds, the team.
  unsigned NArgs = Info.Args.size();
  for (unsigned P = 0; P + 1 < S.Params.size(); ++P) {
    const void *From = &Cells[2 * P];
    if (P < NArgs && Aggregates && !(*Aggregates)[P].empty())
      From = (*Aggregates)[P].data(); // structs by value
    std::memcpy(&B[Offsets[P]], From, S.Params[P].Size);
  }
  std::memcpy(&B[Offsets.back()], Team, S.Params.back().Size);
  Pointers.resize(Offsets.size());
  for (size_t P = 0; P < Offsets.size(); ++P)
    Pointers[P] = B.data() + Offsets[P];
}

llvm::Error CudaKernelLaunch::enqueue(CudaDevice &D) {
  Dev = &D;
  // The variant's image for this architecture (compiled with the variant), else the generic one.
  const jit::CudaCode *Own =
      Variant ? jit::cudaCodeOf(*Variant, D.smVersion(), Split && K->Info.Split.Enabled) : nullptr;
  auto Code =
      Own ? llvm::Expected<const jit::CudaCode *>(Own) : jit::cudaCodeOf(*K, D.smVersion(), Split);
  if (!Code)
    return Code.takeError();
  const jit::CudaKernelSource &S = (*Code)->Kernel;
  // A kernel compiled again after the kernel cache let it go is loaded as a new module.
  auto F = D.loadFunction(cudaModuleKey(**Code), (*Code)->Image.Image, S.Entry.c_str());
  if (!F)
    return F.takeError();

  Block = S.BlockSize;
  auto PerSM = D.maxActiveBlocksPerSM(*F, Block);
  if (!PerSM)
    return PerSM.takeError();
  unsigned Resident = std::max(1u, *PerSM) * std::max(1u, D.computeUnits());
  if (S.GridSync) {
    if (!D.cooperativeLaunch())
      return makeError(ErrorCode::Unsupported,
                       D.name() + " cannot launch cooperatively, which this kernel needs (it "
                                  "synchronises all threads between statements): put each loop "
                                  "in its own kernel");
    Grid = S.NumGangs ? std::min(S.NumGangs, Resident) : Resident; // every block resident
  } else {
    Grid = S.NumGangs ? S.NumGangs : Resident;
  }

  Partials = Grid;
  if (Observed) { // the run's report (complete(), on the poller) carries the geometry too
    Observed->Event.Gangs = Grid;
    Observed->Event.VectorLength = Block;
  }
  Slots.assign(size_t(Grid) * NumReductions, 0);
  size_t InfoBytes = SplitInfo.size() * sizeof(long long);
  size_t SlotBytes = Slots.size() * sizeof(uint64_t);
  size_t BoundsBytes = Bounds.size() * sizeof(long long);
  auto Mem =
      D.takeScratch(sizeof ZeroBarrier + InfoBytes + SlotBytes + BoundsBytes, ScratchCapacity);
  if (!Mem)
    return Mem.takeError();
  Scratch = *Mem;
  char *Base = static_cast<char *>(Scratch);
  jacc_cuda_team Team;
  Team.share_begin = Share.Begin;
  Team.share_end = Share.End;
  Team.share_scale = Share.Scale;
  Team.narrow = Narrow;
  Team.barrier = reinterpret_cast<unsigned int *>(Base);
  Team.split_info = InfoBytes ? reinterpret_cast<long long *>(Base + sizeof ZeroBarrier) : nullptr;
  Team.reduction = SlotBytes ? Base + sizeof ZeroBarrier + InfoBytes : nullptr;
  Team.bounds = BoundsBytes ? reinterpret_cast<long long *>(Base + sizeof ZeroBarrier + InfoBytes +
                                                            SlotBytes)
                            : nullptr;
  argumentBuffer(S, K->Info, Cells, Aggregates.get(), &Team, Buffer, ParamPointers);

  if (S.GridSync)
    if (auto E = D.copyToDeviceAsync(Team.barrier, ZeroBarrier, sizeof ZeroBarrier))
      return E;
  if (BoundsBytes)
    if (auto E = D.copyToDeviceAsync(Team.bounds, Bounds.data(), BoundsBytes))
      return E;
  debugLog("launch", D.name() + ": " + S.Entry + " grid " + std::to_string(Grid) + " x block " +
                         std::to_string(Block) + (S.GridSync ? " (cooperative)" : ""));
  if (auto E = D.launchKernel(*F, Grid, Block, ParamPointers.data(), S.GridSync))
    return E;
  if (InfoBytes)
    if (auto E = D.copyToHostAsync(SplitInfo.data(), Team.split_info, InfoBytes))
      return E;
  if (SlotBytes)
    if (auto E = D.copyToHostAsync(Slots.data(), Team.reduction, SlotBytes))
      return E;
  if (BoundsBytes) // the violation record: takeFailure() reads it
    if (auto E = D.copyToHostAsync(Bounds.data(), Team.bounds,
                                   JACC_BOUNDS_RECORD_WORDS * sizeof(long long)))
      return E;
  return llvm::Error::success();
}

void CudaKernelLaunch::finished() {
  KernelLaunch::finished();
  if (Scratch && Dev)
    Dev->giveScratch(Scratch, ScratchCapacity);
  Scratch = nullptr;
}

} // namespace jacc
