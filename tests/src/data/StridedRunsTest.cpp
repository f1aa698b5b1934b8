// Grouping byte ranges into strided blocks, and the rows of a column band.
#include "src/data/StridedRuns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace jacc {
namespace {

TEST(StridedRunsTest, EqualRowsPitchApartFormOneBlock) {
  ByteRanges Column = {{8, 16}, {108, 116}, {208, 216}, {308, 316}};
  EXPECT_EQ(groupStrided(Column), (std::vector<StridedBlock>{{8, 8, 4, 100}}));
}

TEST(StridedRunsTest, AnotherWidthOrGapStartsANewBlock) {
  ByteRanges R = {{0, 16}, {100, 108}, {200, 208}, {250, 258}, {400, 402}};
  EXPECT_EQ(groupStrided(R), (std::vector<StridedBlock>{
                                 {0, 16, 1, 0}, {100, 8, 2, 100}, {250, 8, 1, 0}, {400, 2, 1, 0}}));
}

TEST(StridedRunsTest, TouchingRangesOfEqualWidthStayPlain) {
  // Ranges that touch would be better joined by the caller; never a block of pitch < width.
  ByteRanges R = {{0, 8}, {4, 12}, {}};
  EXPECT_EQ(groupStrided(R), (std::vector<StridedBlock>{{0, 8, 1, 0}, {4, 8, 1, 0}}));
  EXPECT_TRUE(groupStrided({}).empty());
}

TEST(StridedRunsTest, BandOfEveryRowClampedToTheMapping) {
  // Rows of 100 bytes from offset -30 (the mapping starts inside row 0), band [40, 50).
  EXPECT_EQ(bandOfRows(-30, 100, 40, 50, 300), (ByteRanges{{10, 20}, {110, 120}, {210, 220}}));
  // A band crossing the mapping's ends is cut there.
  EXPECT_EQ(bandOfRows(0, 100, 90, 110, 250), (ByteRanges{{0, 10}, {90, 110}, {190, 210}}));
  // Columns left of the pointer's row start: the band of the rows before.
  EXPECT_EQ(bandOfRows(100, 100, -10, 0, 300), (ByteRanges{{90, 100}, {190, 200}, {290, 300}}));
  // A band as wide as a row is everything.
  EXPECT_EQ(bandOfRows(0, 100, 5, 105, 300), (ByteRanges{{0, 300}}));
  EXPECT_TRUE(bandOfRows(0, 100, 50, 50, 300).empty());
}

TEST(StridedRunsTest, NormalizedSortsAndJoins) {
  EXPECT_EQ(normalized({{20, 30}, {0, 10}, {10, 15}, {25, 40}, {50, 50}}),
            (ByteRanges{{0, 15}, {20, 40}}));
}

TEST(StridedRunsTest, IsNormalizedIsWhatNormalizedLeaves) {
  EXPECT_TRUE(isNormalized({}));
  EXPECT_TRUE(isNormalized({{0, 10}, {11, 20}}));
  EXPECT_FALSE(isNormalized({{0, 10}, {10, 20}})) << "touching: normalized joins them";
  EXPECT_FALSE(isNormalized({{0, 10}, {5, 20}}));
  EXPECT_FALSE(isNormalized({{11, 20}, {0, 10}}));
  EXPECT_FALSE(isNormalized({{0, 10}, {30, 30}})) << "empty";
  std::mt19937 Rng(3);
  for (int Trial = 0; Trial < 200; ++Trial) {
    ByteRanges R;
    for (int I = 0; I < 6; ++I) {
      uint64_t B = Rng() % 50;
      R.push_back({B, B + Rng() % 6});
    }
    EXPECT_EQ(isNormalized(R), normalized(R) == R);
    EXPECT_TRUE(isNormalized(normalized(R)));
  }
}

TEST(StridedRunsTest, NormalizedMergesBandsListedOneAfterAnother) {
  // A launch's needs: a band of rows per read extent, each in order, one after the other; also
  // in descending and random order. Each is checked against sorting and joining.
  std::mt19937 Rng(7);
  auto Reference = [](ByteRanges R) {
    std::sort(R.begin(), R.end());
    ByteRanges Out;
    for (auto [B, E] : R)
      if (B < E) {
        if (!Out.empty() && B <= Out.back().second)
          Out.back().second = std::max(Out.back().second, E);
        else
          Out.push_back({B, E});
      }
    return Out;
  };
  for (unsigned Bands : {1u, 2u, 3u, 5u, 17u}) {
    ByteRanges R;
    for (unsigned K = 0; K < Bands; ++K) {
      ByteRanges Band = bandOfRows(Rng() % 50, 100, Rng() % 60, 60 + Rng() % 30, 10000);
      R.insert(R.end(), Band.begin(), Band.end());
    }
    EXPECT_EQ(normalized(R), Reference(R)) << Bands << " bands";
    std::reverse(R.begin(), R.end());
    EXPECT_EQ(normalized(R), Reference(R)) << Bands << " bands, reversed";
    std::shuffle(R.begin(), R.end(), Rng);
    EXPECT_EQ(normalized(R), Reference(R)) << Bands << " bands, shuffled";
  }
}

/// keepWithinBand's result.
ByteRanges withinBand(ByteRanges Ranges, long long Origin, long long Pitch, long long Lo,
                      long long Hi) {
  keepWithinBand(Ranges, Origin, Pitch, Lo, Hi);
  return Ranges;
}

/// The bytes of [0, Size) in Ranges and inside [Lo, Hi) of a row of Pitch bytes from Origin
/// (Pitch 0: of [Origin + Lo, Origin + Hi)), one by one.
ByteRanges withinBandByBytes(const ByteRanges &Ranges, long long Origin, long long Pitch,
                             long long Lo, long long Hi, long long Size) {
  ByteRanges Out;
  for (long long X = 0; X < Size; ++X) {
    bool In = llvm::any_of(
        Ranges, [&](auto R) { return uint64_t(X) >= R.first && uint64_t(X) < R.second; });
    // Some row K has Origin + K * Pitch + Lo <= X < Origin + K * Pitch + Hi.
    long long At = X - Origin - Lo;
    if (Pitch > 0)
      At = ((At % Pitch) + Pitch) % Pitch;
    bool Band = At >= 0 && At < Hi - Lo;
    if (In && Band) {
      if (!Out.empty() && Out.back().second == uint64_t(X))
        Out.back().second++;
      else
        Out.push_back({uint64_t(X), uint64_t(X) + 1});
    }
  }
  return Out;
}

TEST(StridedRunsTest, KeepWithinBandKeepsWhatEveryRowsBandHolds) {
  // Columns [3, 9) of every row of 12 bytes, kept in rows 1 and 2 of every block of 4 rows.
  ByteRanges Columns = bandOfRows(0, 12, 3, 9, 96);
  EXPECT_EQ(withinBand(Columns, 0, 48, 12, 36),
            (ByteRanges{{15, 21}, {27, 33}, {63, 69}, {75, 81}}));
  // Pitch 0: one band from the origin.
  EXPECT_EQ(withinBand({{0, 40}}, 8, 0, 4, 10), (ByteRanges{{12, 18}}));
  EXPECT_EQ(withinBand({{0, 40}}, 8, 0, 10, 4), ByteRanges{});
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 400; ++Trial) {
    long long Size = 1 + Rng() % 120, Pitch = Rng() % 4 == 0 ? 0 : 1 + Rng() % 30;
    long long Origin = long(Rng() % 40) - 20, Lo = long(Rng() % 50) - 25, Hi = Lo + Rng() % 40;
    ByteRanges In;
    for (uint64_t At = Rng() % 7; At < uint64_t(Size); At += 1 + Rng() % 9) {
      uint64_t End = std::min<uint64_t>(Size, At + 1 + Rng() % 11);
      In.push_back({At, End});
      At = End;
    }
    SCOPED_TRACE("trial " + std::to_string(Trial));
    EXPECT_EQ(normalized(withinBand(In, Origin, Pitch, Lo, Hi)),
              withinBandByBytes(In, Origin, Pitch, Lo, Hi, Size));
  }
}

TEST(StridedRunsTest, BandWithinWindowsListsOnlyTheRowsInsideThem) {
  // An array [4][8][1024] of bytes split by its columns [100, 900) within row 2 of every
  // block: that row's columns in each of the 4 blocks, none of the other rows'.
  long long Row2[4] = {1024, 8192, 2, 3}; // unit, pitch, [begin, end)
  EXPECT_EQ(bandWithinWindows(0, 1024, 100, 900, 4 * 8192, {Row2}),
            (ByteRanges{{2148, 2948}, {10340, 11140}, {18532, 19332}, {26724, 27524}}));
  // A window too narrow to pay (16 bytes) is not cut: every row's columns.
  long long Narrow[4] = {16, 128, 2, 3};
  EXPECT_EQ(bandWithinWindows(0, 16, 4, 12, 512, {Narrow}).size(), 32u);
  // Against listing every row and cutting after, for windows around, inside and along the band.
  std::mt19937 Rng(11);
  for (int Trial = 0; Trial < 300; ++Trial) {
    long long Pitch = Rng() % 3 == 0 ? 0 : 4 << (Rng() % 5), Size = 64 + Rng() % 2000;
    long long Origin = long(Rng() % 64) - 32, Lo = long(Rng() % 80) - 8, Hi = Lo + 1 + Rng() % 90;
    std::vector<std::vector<long long>> Words;
    for (int W = 0, N = Rng() % 3; W < N; ++W) {
      long long Unit = 1 << (Rng() % 9), WPitch = Rng() % 3 == 0 ? 0 : Unit * (1 + Rng() % 8);
      long long B = long(Rng() % 6) - 1;
      Words.push_back({Unit, WPitch, B, B + 1 + long(Rng() % 3)});
    }
    std::vector<const long long *> Windows;
    for (const auto &W : Words)
      Windows.push_back(W.data());
    ByteRanges Naive = Pitch > 0 ? bandOfRows(Origin, Pitch, Lo, Hi, Size)
                                 : withinBand({{0, uint64_t(Size)}}, Origin, 0, Lo, Hi);
    for (const long long *W : Windows)
      keepWithinWindow(Naive, Origin, Size, W);
    SCOPED_TRACE("trial " + std::to_string(Trial));
    EXPECT_EQ(normalized(bandWithinWindows(Origin, Pitch, Lo, Hi, Size, Windows)),
              normalized(Naive));
  }
}

} // namespace
} // namespace jacc
