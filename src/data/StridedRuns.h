// Byte ranges grouped into strided blocks: a column band of a row-major array is one range per
// row, and a copy engine moves them in one 2-D copy (column splits).
#ifndef JACC_SRC_DATA_STRIDEDRUNS_H
#define JACC_SRC_DATA_STRIDEDRUNS_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace jacc {

/// Byte ranges [first, second).
using ByteRanges = std::vector<std::pair<uint64_t, uint64_t>>;

/// Height ranges of Width bytes, the first at Begin and each Pitch bytes after the previous one
/// (Height 1: a plain range, Pitch unused).
struct StridedBlock {
  uint64_t Begin = 0, Width = 0, Height = 1, Pitch = 0;
  bool operator==(const StridedBlock &O) const {
    return Begin == O.Begin && Width == O.Width && Height == O.Height && Pitch == O.Pitch;
  }
};

/// The ranges, in their order, as blocks: consecutive ranges of equal width, equally far apart
/// and not overlapping, join one block. Empty ranges are dropped.
std::vector<StridedBlock> groupStrided(const ByteRanges &Ranges);

/// [Lo, Hi) of every row: the rows of Pitch bytes from offset Origin (which may be negative:
/// rows before it), clamped to [0, Size). Lo and Hi are relative to each row's start; a band
/// entirely outside every row's [0, Pitch) still yields the clamped parts.
ByteRanges bandOfRows(long long Origin, long long Pitch, long long Lo, long long Hi,
                      long long Size);

/// Keeps the parts of Ranges (ascending, disjoint) inside [Lo, Hi) of every row of Pitch bytes
/// from offset Origin, in their order; Pitch 0: inside [Origin + Lo, Origin + Hi) only. A band
/// as wide as the rows leaves Ranges alone.
void keepWithinBand(ByteRanges &Ranges, long long Origin, long long Pitch, long long Lo,
                    long long Hi);

/// Whether cutting ranges to the band [Lo, Hi) of rows of Pitch bytes saves more than it costs:
/// a band of the whole row saves nothing, and one keeping more than half of each row, or runs
/// under 512 bytes, would list more pieces than it saves bytes. Keeping the uncut ranges is
/// always safe (a superset of what is needed).
bool bandWorthCutting(long long Pitch, long long Lo, long long Hi);

/// Keeps the parts of Ranges inside the band of a window of an access (jit/host/HostABI.h):
/// Window holds the unit and pitch of its dimension and its [begin, end) indices; Origin is the
/// pointer's offset in the mapping and Span the mapping's bytes (indices far outside it are
/// clamped). Left alone without a window (unit 0) or where cutting does not pay.
void keepWithinWindow(ByteRanges &Ranges, long long Origin, long long Span,
                      const long long *Window);

/// The bytes of [0, Size) in [Lo, Hi) of every row of Pitch bytes from offset Origin (Pitch 0:
/// in [Origin + Lo, Origin + Hi)) and inside every window of Windows (keepWithinWindow's
/// words), in order. The windows around the rows cut first, so that only the rows inside them
/// are listed (a plane of an array split by its columns: its rows, not every row's).
ByteRanges bandWithinWindows(long long Origin, long long Pitch, long long Lo, long long Hi,
                             long long Size, llvm::ArrayRef<const long long *> Windows);

class Device;
/// Copy block S of Src's memory at SrcBase to Dst's at DstBase (offsets from the bases): a plain
/// copy for one row, a strided one for several.
llvm::Error copyBlockToPeer(Device &Src, Device &Dst, char *DstBase, const char *SrcBase,
                            const StridedBlock &S);
/// The same to host memory at HostBase.
llvm::Error copyBlockToHost(Device &Src, char *HostBase, const char *SrcBase,
                            const StridedBlock &S);

/// Sorted, overlapping or touching ranges merged.
ByteRanges normalized(ByteRanges Ranges);

/// Whether Ranges is already what normalized() makes of it: non-empty ranges, ascending, none
/// overlapping or touching the next. A launch's ranges are listed normalized once and then
/// handed to the validity map every launch: checking costs a scan, normalizing a copy.
bool isNormalized(const ByteRanges &Ranges);

} // namespace jacc

#endif
