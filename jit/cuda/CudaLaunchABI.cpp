// Comparing an entry's PTX parameters with the launcher's, in count, name, size, alignment and
// offset, and reporting the first mismatch with both lists.
#include "jit/cuda/CudaLaunchABI.h"

#include "jit/cuda/PtxEntry.h"
#include "support/Error.h"

namespace jacc::jit {

llvm::Error checkCudaLaunchABI(const CudaKernelSource &S, llvm::StringRef Ptx) {
  auto Ptxs = parsePtxEntryParams(Ptx, S.Entry);
  if (!Ptxs)
    return Ptxs.takeError();
  unsigned Size = 0;
  std::vector<unsigned> Offsets = cudaParamOffsets(S.Params, Size);
  std::vector<CudaParam> FromPtx;
  for (const PtxParam &P : *Ptxs)
    FromPtx.push_back({P.Name, P.Size, P.Align});
  unsigned PtxSize = 0;
  std::vector<unsigned> PtxOffsets = cudaParamOffsets(FromPtx, PtxSize);

  std::string Problem;
  if (Ptxs->size() != S.Params.size())
    Problem = "the PTX entry has " + std::to_string(Ptxs->size()) + " parameters, the launcher " +
              std::to_string(S.Params.size());
  for (size_t I = 0; Problem.empty() && I < S.Params.size(); ++I) {
    const PtxParam &P = (*Ptxs)[I];
    const CudaParam &L = S.Params[I];
    std::string Expected = S.Entry + "_param_" + std::to_string(I);
    if (P.Name != Expected)
      Problem = "parameter " + std::to_string(I) + " is named '" + P.Name + "', expected '" +
                Expected + "'";
    else if (P.Size != L.Size || P.Align != L.Align || PtxOffsets[I] != Offsets[I])
      Problem = "parameter " + std::to_string(I) + " ('" + L.What + "') is " +
                std::to_string(P.Size) + " bytes aligned to " + std::to_string(P.Align) +
                " at offset " + std::to_string(PtxOffsets[I]) + " in PTX, but the launcher "
                "passes " + std::to_string(L.Size) + " bytes aligned to " +
                std::to_string(L.Align) + " at offset " + std::to_string(Offsets[I]);
  }
  if (Problem.empty())
    return llvm::Error::success();
  std::string Sides = "\n  PTX:";
  for (const PtxParam &P : *Ptxs)
    Sides += " " + P.Type + "[" + std::to_string(P.Size) + "/" + std::to_string(P.Align) + "]";
  Sides += "\n  launcher:";
  for (const CudaParam &L : S.Params)
    Sides += " " + L.What + "[" + std::to_string(L.Size) + "/" + std::to_string(L.Align) + "]";
  return makeError(ErrorCode::Internal,
                   "CUDA launch ABI mismatch for " + S.Entry + ": " + Problem + Sides);
}

} // namespace jacc::jit
