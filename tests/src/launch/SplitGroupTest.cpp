// Tests of the byte ranges a device sends after a split launch (SplitGroup::ownedWritten): its
// owned indices met with the written hull, clamped to the mapping, for plain and strided (column)
// splits, with the kernel's pointer at, inside or before the mapping.
#include "src/launch/SplitGroup.h"

#include "jit/host/HostABI.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

using jacc::SplitGroup;
using jacc::SplitTarget;

namespace {

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

/// One array's split_info words (jit/host/HostABI.h), as a device's launch leaves them.
struct SplitInfo {
  long long OwnedLo, OwnedHi; ///< owned indices [OwnedLo, OwnedHi] along the split dimension
  long long Unit;             ///< bytes of one index step along it
  long long Pitch;            ///< bytes of the enclosing sub-array (a row); 0 for dimension 0
  long long WriteLo, WriteHi; ///< hull of the indices the kernel may write (lo > hi: none)

  std::array<long long, JACC_SPLIT_INFO_WORDS> words() const {
    // The last two words, the iterations the device ran, play no part: give them noise.
    return {OwnedLo, OwnedHi, Unit, Pitch, WriteLo, WriteHi, -7, 12345};
  }
};

/// Far from address 0, so that mappings around it have room on both sides.
constexpr uintptr_t Base = 0x100000;

/// The ranges for a split array whose kernel pointer is Pointer and whose mapping is
/// [Begin, End): addresses only, nothing is read through them.
Ranges ownedWritten(uintptr_t Pointer, uintptr_t Begin, uintptr_t End, const SplitInfo &Info) {
  SplitTarget T;
  T.Pointer = Pointer;
  T.Begin = Begin;
  T.End = End;
  auto Words = Info.words();
  return SplitGroup::ownedWritten(T, Words.data());
}

// ---- plain splits (dimension 0) ----------------------------------------------------------------

// An int array of 100 elements mapped exactly from the kernel's pointer.
constexpr uintptr_t IntsEnd = Base + 100 * 4;

TEST(SplitGroupTest, OwnedRangeWhollyWritten) {
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 0, 99}), (Ranges{{40, 80}}));
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {0, 99, 4, 0, 0, 99}), (Ranges{{0, 400}}));
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {7, 7, 4, 0, 0, 99}), (Ranges{{28, 32}}))
      << "one element";
}

TEST(SplitGroupTest, OnlyTheWrittenPartOfTheOwnedRange) {
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 15, 50}), (Ranges{{60, 80}}));
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 0, 12}), (Ranges{{40, 52}}));
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 12, 14}), (Ranges{{48, 60}}));
}

TEST(SplitGroupTest, NothingWhenOwnedAndWrittenDoNotMeet) {
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 20, 30}), Ranges{}) << "after";
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 0, 9}), Ranges{}) << "before";
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 4, 0, 0, -1}), Ranges{}) << "no writes";
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 9, 4, 0, 0, 99}), Ranges{}) << "owns nothing";
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {10, 19, 0, 0, 0, 99}), Ranges{}) << "no unit";
}

TEST(SplitGroupTest, ClampedToTheMapping) {
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {90, 120, 4, 0, 0, 200}), (Ranges{{360, 400}}));
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {100, 120, 4, 0, 0, 200}), Ranges{})
      << "owned only past the end";
  EXPECT_EQ(ownedWritten(Base, Base, IntsEnd, {-5, 3, 4, 0, -10, 99}), (Ranges{{0, 16}}))
      << "negative indices before the mapping";
}

TEST(SplitGroupTest, PointerInsideTheMapping) {
  // The mapping starts 50 ints before the kernel's pointer: the ranges are still offsets from
  // the mapping's begin, and negative indices reach into it.
  const uintptr_t Begin = Base - 200, End = Base + 400;
  EXPECT_EQ(ownedWritten(Base, Begin, End, {0, 9, 4, 0, -50, 99}), (Ranges{{200, 240}}));
  EXPECT_EQ(ownedWritten(Base, Begin, End, {-50, -41, 4, 0, -50, 99}), (Ranges{{0, 40}}));
  EXPECT_EQ(ownedWritten(Base, Begin, End, {-60, -45, 4, 0, -60, 99}), (Ranges{{0, 24}}))
      << "clamped at the mapping's begin";
  EXPECT_EQ(ownedWritten(Base, Begin, End, {-60, -51, 4, 0, -60, 99}), Ranges{})
      << "wholly before the mapping";
}

TEST(SplitGroupTest, PointerBeforeTheMapping) {
  // The kernel indexes from 10 ints before the mapping (which holds its elements 10 .. 109).
  const uintptr_t Pointer = Base - 40;
  EXPECT_EQ(ownedWritten(Pointer, Base, IntsEnd, {0, 19, 4, 0, 0, 109}), (Ranges{{0, 40}}));
  EXPECT_EQ(ownedWritten(Pointer, Base, IntsEnd, {20, 29, 4, 0, 0, 109}), (Ranges{{40, 80}}));
  EXPECT_EQ(ownedWritten(Pointer, Base, IntsEnd, {0, 5, 4, 0, 0, 109}), Ranges{});
  EXPECT_EQ(ownedWritten(Pointer, Base, IntsEnd, {100, 200, 4, 0, 0, 200}), (Ranges{{360, 400}}));
}

// ---- strided splits: columns of a 2-D array
// ------------------------------------------------------

// A 4 x 10 array of doubles: rows of 80 bytes, columns 8 bytes apart.
constexpr long long Row = 80, Col = 8;

/// Columns [FirstCol, EndCol) of rows [FirstRow, EndRow), as offsets from a mapping that starts
/// at row MappedFrom.
Ranges columns(long long FirstRow, long long EndRow, long long FirstCol, long long EndCol,
               long long MappedFrom = 0) {
  Ranges R;
  for (long long I = FirstRow; I < EndRow; ++I)
    R.push_back({static_cast<uint64_t>((I - MappedFrom) * Row + FirstCol * Col),
                 static_cast<uint64_t>((I - MappedFrom) * Row + EndCol * Col)});
  return R;
}

constexpr uintptr_t GridEnd = Base + 4 * Row;

TEST(SplitGroupTest, OwnedColumnsOfEveryRow) {
  EXPECT_EQ(ownedWritten(Base, Base, GridEnd, {2, 4, Col, Row, 0, 9}), columns(0, 4, 2, 5));
  EXPECT_EQ(ownedWritten(Base, Base, GridEnd, {0, 9, Col, Row, 0, 9}), (Ranges{{0, 4 * Row}}))
      << "every column: whole rows, one range";
}

TEST(SplitGroupTest, OnlyTheWrittenColumns) {
  EXPECT_EQ(ownedWritten(Base, Base, GridEnd, {2, 4, Col, Row, 3, 9}), columns(0, 4, 3, 5));
  EXPECT_EQ(ownedWritten(Base, Base, GridEnd, {2, 4, Col, Row, 5, 9}), Ranges{});
  EXPECT_EQ(ownedWritten(Base, Base, GridEnd, {2, 4, Col, Row, 9, 0}), Ranges{}) << "no writes";
}

TEST(SplitGroupTest, RowsOfTheMappingAroundAnInteriorPointer) {
  // A halo row on each side: the pointer is row 0 of a mapping of rows -1 .. 4.
  EXPECT_EQ(ownedWritten(Base, Base - Row, Base + 5 * Row, {2, 4, Col, Row, 0, 9}),
            columns(-1, 5, 2, 5, -1));
}

TEST(SplitGroupTest, RowsOfTheMappingAfterThePointer) {
  // The kernel's rows 0 and 1 are not mapped: the mapping holds its rows 2 and 3.
  EXPECT_EQ(ownedWritten(Base - 2 * Row, Base, GridEnd - 2 * Row, {2, 4, Col, Row, 0, 9}),
            columns(2, 4, 2, 5, 2));
}

} // namespace
