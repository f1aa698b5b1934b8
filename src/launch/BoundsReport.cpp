// A launch's bounds block built from its mapping ranges, and the violation record a checked
// kernel leaves in it turned into the push's error.
#include "src/launch/BoundsReport.h"

#include "analysis/KernelSource.h"
#include "jit/BoundsChecks.h"
#include "jit/host/HostABI.h"

#include <algorithm>

namespace jacc {

std::vector<long long> boundsBlock(const analysis::KernelInfo &K,
                                   llvm::ArrayRef<long long> Ranges) {
  uint64_t Scratch = 64;
  for (const analysis::ArgInfo &A : K.Args)
    if (A.ArgKind == analysis::ArgInfo::Kind::Pointer)
      Scratch = std::max(Scratch, A.PointeeSize);
  std::vector<long long> B(jit::boundsScratchWord(K.Args.size()) + (Scratch + 7) / 8, 0);
  std::copy(Ranges.begin(), Ranges.end(), B.begin() + JACC_BOUNDS_RECORD_WORDS);
  return B;
}

/// X / Y rounded towards minus infinity (Y > 0).
static long long floorDiv(long long X, long long Y) {
  return X / Y - (X % Y != 0 && X < 0);
}

llvm::Error boundsViolation(const analysis::KernelInfo &K, llvm::ArrayRef<long long> Block,
                            unsigned Device) {
  if (Block.size() < JACC_BOUNDS_RECORD_WORDS || Block[0] == 0)
    return llvm::Error::success();
  long long Line = Block[1], Col = Block[2], Param = Block[3], How = Block[4], Offset = Block[5];
  std::string Where = analysis::kernelFileName(K.Source) + ":" + std::to_string(Line) + ":" +
                      std::to_string(Col) + ": ";
  long long Size = std::max(1ll, Block[6]);
  std::string Name = "?";
  for (const analysis::ArgInfo &A : K.Args)
    if (A.Param == Param)
      Name = A.Name;
  long long Lo = 0, Hi = 0;
  size_t Range = JACC_BOUNDS_RECORD_WORDS + 2 * Param;
  if (Param >= 0 && Range + 1 < Block.size()) {
    Lo = floorDiv(Block[Range], Size);
    Hi = floorDiv(Block[Range + 1], Size);
  }
  long long Index = floorDiv(Offset, Size);
  unsigned Subscripts = (How & (JACC_BOUNDS_OWNED - 1)) >> 1;
  std::string Access = Subscripts <= 1 ? Name + "[" + std::to_string(Index) + "]"
                                       : "element " + std::to_string(Index) + " of " + Name;
  std::string Kind = (How & 1) ? "write " : "read ";
  if (How & JACC_BOUNDS_OWNED) {
    long long Dim = How / (JACC_BOUNDS_OWNED * 2);
    if (Dim > 0)
      // A split along an inner dimension: a subscript past the row ([0, extent) in the record)
      // reached the widened guards of the first or last device (jit/BoundsChecks.h).
      return makeError(ErrorCode::Bounds,
                       Where + Kind + Access + " on device " + llvm::Twine(Device) +
                           ": its subscript of dimension " + llvm::Twine(Dim) + " of " + Name +
                           " is outside [" + llvm::Twine(Block[7]) + ", " +
                           llvm::Twine(Block[8] + 1) +
                           "); on one device it would land in a neighbouring row, a launch "
                           "split along that dimension cannot write it (keep the subscript in "
                           "its dimension, or JACC_SPLIT=never runs the kernel on one device)");
    // The owned range along dimension 0; [lb, ub] in the record.
    std::string Of = Subscripts <= 1 ? Name : "dimension 0 of " + Name;
    return makeError(ErrorCode::Bounds,
                     Where + Kind +
                         Access + " outside device " + llvm::Twine(Device) +
                         "'s owned range [" + llvm::Twine(Block[7]) + ", " +
                         llvm::Twine(Block[8] + 1) + ") of " + Of +
                         " in a split launch: the split predicates failed to filter it; this "
                         "is a jacc bug, please report it (JACC_SPLIT=never avoids it)");
  }
  return makeError(ErrorCode::Bounds, Where + Kind + Access + " outside its mapping [" +
                                          llvm::Twine(Lo) + ", " + llvm::Twine(Hi) +
                                          ") on device " + llvm::Twine(Device));
}

} // namespace jacc
