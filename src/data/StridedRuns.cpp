// Grouping byte ranges into strided blocks and listing the rows of a column band.
#include "src/data/StridedRuns.h"

#include "src/Device.h"

#include <algorithm>

namespace jacc {

std::vector<StridedBlock> groupStrided(const ByteRanges &Ranges) {
  std::vector<StridedBlock> Out;
  for (auto [B, E] : Ranges) {
    if (B >= E)
      continue;
    uint64_t W = E - B;
    if (!Out.empty()) {
      StridedBlock &Last = Out.back();
      uint64_t LastBegin = Last.Begin + (Last.Height - 1) * Last.Pitch;
      if (Last.Width == W && B >= LastBegin + W) {
        uint64_t Gap = B - LastBegin;
        if (Last.Height == 1 || Gap == Last.Pitch) {
          Last.Pitch = Gap;
          ++Last.Height;
          continue;
        }
      }
    }
    Out.push_back({B, W, 1, 0});
  }
  return Out;
}

ByteRanges bandOfRows(long long Origin, long long Pitch, long long Lo, long long Hi,
                      long long Size) {
  if (Pitch <= 0 || Lo >= Hi || Size <= 0)
    return {};
  ByteRanges R{{0, static_cast<uint64_t>(Size)}};
  keepWithinBand(R, Origin, Pitch, Lo, Hi);
  return R;
}

bool bandWorthCutting(long long Pitch, long long Lo, long long Hi) {
  // Below this, a run costs more to list, look up and copy than its bytes.
  constexpr long long MinRun = 512;
  if (Pitch <= 0)
    return true; // one range cut at both ends
  long long Width = Hi - Lo;
  return Width < Pitch && 2 * Width <= Pitch && Width >= MinRun;
}

void keepWithinBand(ByteRanges &Ranges, long long Origin, long long Pitch, long long Lo,
                    long long Hi) {
  if (Pitch > 0 && Hi - Lo >= Pitch)
    return; // the bands of neighbouring rows touch
  if (Pitch <= 0 && !Ranges.empty() && Lo < Hi &&
      static_cast<long long>(Ranges.front().first) >= Origin + Lo &&
      static_cast<long long>(Ranges.back().second) <= Origin + Hi)
    return; // one band around them all (a dimension's every index)
  ByteRanges R;
  auto Keep = [&](long long B, long long E, uint64_t From, uint64_t To) {
    uint64_t KB = std::max<uint64_t>(static_cast<uint64_t>(std::max(B, 0LL)), From);
    uint64_t KE = std::min<uint64_t>(static_cast<uint64_t>(std::max(E, 0LL)), To);
    if (KB < KE)
      R.push_back({KB, KE});
  };
  if (Lo < Hi) {
    auto FloorDiv = [](long long A, long long B) { return A >= 0 ? A / B : -((-A + B - 1) / B); };
    for (auto [From, To] : Ranges) {
      if (Pitch <= 0) {
        Keep(Origin + Lo, Origin + Hi, From, To);
        continue;
      }
      // The rows whose band [Lo, Hi) meets [From, To).
      long long B = static_cast<long long>(From), E = static_cast<long long>(To);
      long long First = FloorDiv(B - Origin - Hi, Pitch),
                Last = FloorDiv(E - 1 - Origin - Lo, Pitch);
      for (long long K = First; K <= Last; ++K)
        Keep(Origin + K * Pitch + Lo, Origin + K * Pitch + Hi, From, To);
    }
  }
  Ranges = std::move(R);
}

void keepWithinWindow(ByteRanges &Ranges, long long Origin, long long Span,
                      const long long *Window) {
  long long Unit = Window[0], Pitch = Window[1];
  if (Unit <= 0 || Pitch < 0)
    return;
  long long Limit = (Span + std::llabs(Origin)) / Unit + 2;
  long long B = std::clamp(Window[2], -Limit, Limit) * Unit;
  long long E = std::clamp(Window[3], -Limit, Limit) * Unit;
  if (bandWorthCutting(Pitch, B, E))
    keepWithinBand(Ranges, Origin, Pitch, B, E);
}

ByteRanges bandWithinWindows(long long Origin, long long Pitch, long long Lo, long long Hi,
                             long long Size, llvm::ArrayRef<const long long *> Windows) {
  ByteRanges R;
  if (Size <= 0 || Lo >= Hi)
    return R;
  R.push_back({0, static_cast<uint64_t>(Size)});
  // A window of an outer dimension steps by whole rows of the band (its unit spans them).
  auto Outer = [&](const long long *W) { return Pitch > 0 && W[0] >= Pitch; };
  for (const long long *W : Windows)
    if (Outer(W))
      keepWithinWindow(R, Origin, Size, W);
  keepWithinBand(R, Origin, Pitch, Lo, Hi);
  for (const long long *W : Windows)
    if (!Outer(W))
      keepWithinWindow(R, Origin, Size, W);
  return R;
}

llvm::Error copyBlockToPeer(Device &Src, Device &Dst, char *DstBase, const char *SrcBase,
                            const StridedBlock &S) {
  if (S.Height == 1)
    return Src.copyToPeer(Dst, DstBase + S.Begin, SrcBase + S.Begin, S.Width);
  return Src.copyToPeer2D(Dst, DstBase + S.Begin, SrcBase + S.Begin, S.Width, S.Height, S.Pitch);
}

llvm::Error copyBlockToHost(Device &Src, char *HostBase, const char *SrcBase,
                            const StridedBlock &S) {
  if (S.Height == 1)
    return Src.copyToHost(HostBase + S.Begin, SrcBase + S.Begin, S.Width);
  return Src.copyToHost2D(HostBase + S.Begin, SrcBase + S.Begin, S.Width, S.Height, S.Pitch);
}

/// Ranges sorted, given as a concatenation of ascending runs: callers append a column band per
/// read extent, each in order, and merging k runs costs O(n log k) where sorting the thousands
/// of rows of a comb again costs O(n log n) and degrades on such input.
static void sortAscendingRuns(ByteRanges &Ranges) {
  std::vector<size_t> Starts{0};
  for (size_t I = 1; I < Ranges.size(); ++I)
    if (Ranges[I] < Ranges[I - 1])
      Starts.push_back(I);
  while (Starts.size() > 1) {
    std::vector<size_t> Merged;
    for (size_t K = 0; K < Starts.size(); K += 2) {
      Merged.push_back(Starts[K]);
      if (K + 1 == Starts.size())
        break;
      size_t End = K + 2 < Starts.size() ? Starts[K + 2] : Ranges.size();
      std::inplace_merge(Ranges.begin() + Starts[K], Ranges.begin() + Starts[K + 1],
                         Ranges.begin() + End);
    }
    Starts.swap(Merged);
  }
}

bool isNormalized(const ByteRanges &Ranges) {
  for (size_t I = 0; I < Ranges.size(); ++I)
    if (Ranges[I].first >= Ranges[I].second || (I && Ranges[I].first <= Ranges[I - 1].second))
      return false;
  return true;
}

ByteRanges normalized(ByteRanges Ranges) {
  sortAscendingRuns(Ranges);
  ByteRanges Out;
  for (auto [B, E] : Ranges) {
    if (B >= E)
      continue;
    if (!Out.empty() && B <= Out.back().second)
      Out.back().second = std::max(Out.back().second, E);
    else
      Out.push_back({B, E});
  }
  return Out;
}

} // namespace jacc
