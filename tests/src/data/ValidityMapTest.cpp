// Tests of the validity map: splitting, merging, invalidation and queries of ranges, updates of
// many ranges at once, and random operation sequences checked against a model holding one holder
// set per byte.
#include "src/data/ValidityMap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace jacc;
using Runs = std::vector<ValidityMap::Run>;

namespace {

constexpr HolderSet Host = ValidityMap::host();
constexpr HolderSet D0 = ValidityMap::device(0), D1 = ValidityMap::device(1),
                    D2 = ValidityMap::device(2);

/// The map's invariants: runs cover [0, bytes()) in order, none empty, neighbours differ.
void expectWellFormed(const ValidityMap &M) {
  Runs R = M.runs();
  ASSERT_EQ(R.size(), M.size());
  if (M.bytes() == 0) {
    EXPECT_TRUE(R.empty());
    return;
  }
  ASSERT_FALSE(R.empty());
  EXPECT_EQ(R.front().Begin, 0u);
  EXPECT_EQ(R.back().End, M.bytes());
  for (size_t I = 0; I < R.size(); ++I) {
    EXPECT_LT(R[I].Begin, R[I].End) << "run " << I;
    if (I + 1 < R.size()) {
      EXPECT_EQ(R[I].End, R[I + 1].Begin) << "run " << I;
      EXPECT_NE(R[I].Holders, R[I + 1].Holders) << "runs " << I << " and " << I + 1;
    }
  }
}

TEST(ValidityMapTest, StartsAsOneRun) {
  ValidityMap M(100, ValidityMap::everywhere(2));
  EXPECT_EQ(M.runs(), (Runs{{0, 100, Host | D0 | D1}}));
  EXPECT_EQ(M.holdersOfAll(10, 20), Host | D0 | D1);
  EXPECT_TRUE(M.missingOn(1, 0, 100).empty());
}

TEST(ValidityMapTest, EmptyMappingHasNoRuns) {
  ValidityMap M(0, Host);
  M.assign(0, 10, D0);
  M.add(0, 10, D1);
  expectWellFormed(M);
  EXPECT_EQ(M.size(), 0u);
  EXPECT_TRUE(M.missingOn(0, 0, 10).empty());
}

TEST(ValidityMapTest, EverywhereCoversTheDevicesAndTheHost) {
  EXPECT_EQ(ValidityMap::everywhere(0), Host);
  EXPECT_EQ(ValidityMap::everywhere(3), Host | D0 | D1 | D2);
  EXPECT_EQ(ValidityMap::everywhere(63), ~HolderSet(0));
}

TEST(ValidityMapTest, AssignSplitsAndMergesBack) {
  ValidityMap M(100, ValidityMap::everywhere(2));
  // Two devices each write their half: two runs.
  M.assign(0, 50, D0);
  M.assign(50, 100, D1);
  EXPECT_EQ(M.runs(), (Runs{{0, 50, D0}, {50, 100, D1}}));
  // A write in the middle of device 0's half splits it in three.
  M.assign(10, 20, D1);
  EXPECT_EQ(M.runs(), (Runs{{0, 10, D0}, {10, 20, D1}, {20, 50, D0}, {50, 100, D1}}));
  // Device 0 writes it back: the three runs merge again.
  M.assign(10, 20, D0);
  EXPECT_EQ(M.runs(), (Runs{{0, 50, D0}, {50, 100, D1}}));
  // Copying device 0's half to device 1 merges everything.
  M.add(0, 50, D1);
  EXPECT_EQ(M.runs(), (Runs{{0, 50, D0 | D1}, {50, 100, D1}}));
  M.add(50, 100, D0);
  EXPECT_EQ(M.runs(), (Runs{{0, 100, D0 | D1}}));
}

TEST(ValidityMapTest, AssignOverManyRunsLeavesOne) {
  ValidityMap M(100, Host);
  for (uint64_t B = 0; B < 100; B += 10)
    M.assign(B, B + 5, D0);
  EXPECT_EQ(M.size(), 20u);
  M.assign(3, 97, D1);
  EXPECT_EQ(M.runs(), (Runs{{0, 3, D0}, {3, 97, D1}, {97, 100, Host}}));
}

TEST(ValidityMapTest, RangesAreClippedToTheMapping) {
  ValidityMap M(100, Host);
  M.assign(90, 1000, D0);
  M.assign(200, 300, D1);
  M.add(50, 50, D1); // empty
  EXPECT_EQ(M.runs(), (Runs{{0, 90, Host}, {90, 100, D0}}));
}

TEST(ValidityMapTest, RemoveInvalidates) {
  ValidityMap M(64, ValidityMap::everywhere(2));
  M.remove(16, 32, D1 | Host);
  EXPECT_EQ(M.runs(),
            (Runs{{0, 16, Host | D0 | D1}, {16, 32, D0}, {32, 64, Host | D0 | D1}}));
  M.remove(0, 64, D0);
  EXPECT_EQ(M.holdersOfAll(16, 32), 0u);
  EXPECT_EQ(M.runs(), (Runs{{0, 16, Host | D1}, {16, 32, 0}, {32, 64, Host | D1}}));
}

TEST(ValidityMapTest, MissingRunsNameTheirSources) {
  // A 1-D stencil on two devices after one sweep: device 0 holds [0, 40), device 1 [40, 80).
  ValidityMap M(80, ValidityMap::everywhere(2));
  M.assign(0, 40, D0);
  M.assign(40, 80, D1);
  // Device 0's next sweep reads [0, 48): the halo [40, 48) comes from device 1.
  EXPECT_EQ(M.missingOn(0, 0, 48), (Runs{{40, 48, D1}}));
  // Device 1 reads [32, 80).
  EXPECT_EQ(M.missingOn(1, 32, 80), (Runs{{32, 40, D0}}));
  // The host (copyout) misses everything, from two sources.
  EXPECT_EQ(M.missingOn(ValidityMap::HostBit, 0, 80),
            (Runs{{0, 40, D0}, {40, 80, D1}}));
  // After the halo exchange nothing is missing any more.
  M.add(40, 48, D0);
  M.add(32, 40, D1);
  EXPECT_TRUE(M.missingOn(0, 0, 48).empty());
  EXPECT_TRUE(M.missingOn(1, 32, 80).empty());
  EXPECT_EQ(M.holdersOfAll(32, 48), D0 | D1);
  EXPECT_EQ(M.holdersOfAll(0, 48), D0);
  EXPECT_EQ(M.holdersOfAll(0, 80), 0u);
}

TEST(ValidityMapTest, MissingRunsOfAColumnBandComeRowByRow) {
  // Rows of 40 bytes split by columns: device 0 holds [0, 20) of each row, device 1 [20, 40).
  ValidityMap M(120, ValidityMap::devices(2));
  for (uint64_t Row = 0; Row < 3; ++Row) {
    M.assign(Row * 40, Row * 40 + 20, D0);
    M.assign(Row * 40 + 20, Row * 40 + 40, D1);
  }
  EXPECT_EQ(M.size(), 6u);
  // Device 0 reads columns [0, 24) of every row: the halo [20, 24) of each row from device 1.
  Runs Missing;
  M.appendMissing(0, {{0, 24}, {40, 64}, {80, 104}}, Missing);
  EXPECT_EQ(Missing, (Runs{{20, 24, D1}, {60, 64, D1}, {100, 104, D1}}));
  EXPECT_EQ(M.missingOn(0, 40, 64), (Runs{{60, 64, D1}}));
  // Assigning a device what it alone holds already changes nothing.
  M.assign(40, 60, D0);
  M.assign(45, 50, D0);
  EXPECT_EQ(M.size(), 6u);
  EXPECT_EQ(M.runsIn(40, 80), (Runs{{40, 60, D0}, {60, 80, D1}}));
}

TEST(ValidityMapTest, RunsInAreClippedAndKeepTheirHolders) {
  ValidityMap M(80, ValidityMap::devices(3));
  EXPECT_EQ(ValidityMap::devices(3), D0 | D1 | D2);
  M.assign(10, 20, D1);
  M.assign(20, 30, D2);
  // A copyout of [5, 25) gathers from three runs; the devices' holders say from where.
  EXPECT_EQ(M.runsIn(5, 25), (Runs{{5, 10, D0 | D1 | D2}, {10, 20, D1}, {20, 25, D2}}));
  EXPECT_EQ(M.runsIn(12, 18), (Runs{{12, 18, D1}}));
  EXPECT_TRUE(M.runsIn(30, 30).empty());
  EXPECT_EQ(M.runsIn(70, 200), (Runs{{70, 80, D0 | D1 | D2}}));
}

TEST(ValidityMapTest, DescribeAndFirst) {
  EXPECT_EQ(ValidityMap::describe(0), "{}");
  EXPECT_EQ(ValidityMap::describe(D0 | D2 | Host), "{0,2,host}");
  EXPECT_EQ(ValidityMap::describe(Host), "{host}");
  EXPECT_EQ(ValidityMap::first(D2 | Host), 2u);
  EXPECT_EQ(ValidityMap::first(Host), ValidityMap::HostBit);
}

/// The model: one holder set per byte.
TEST(ValidityMapTest, RowsAskedAtOnceStepOrSearchToTheirRuns) {
  // 100 rows of 40 bytes, device 0 holding [0, 20) of each and device 1 the rest: 200 runs.
  ValidityMap M(4000, ValidityMap::devices(2));
  for (uint64_t Row = 0; Row < 100; ++Row) {
    M.assign(Row * 40, Row * 40 + 20, D0);
    M.assign(Row * 40 + 20, Row * 40 + 40, D1);
  }
  // Device 0's halo [20, 24) of every row (runs next to each other), then of every 30th row
  // (60 runs apart: past the steps, searched).
  for (uint64_t Every : {1u, 30u}) {
    std::vector<std::pair<uint64_t, uint64_t>> Rows;
    Runs Expected;
    for (uint64_t Row = 0; Row < 100; Row += Every) {
      Rows.push_back({Row * 40, Row * 40 + 24});
      Expected.push_back({Row * 40 + 20, Row * 40 + 24, D1});
    }
    Runs Missing;
    M.appendMissing(0, Rows, Missing);
    EXPECT_EQ(Missing, Expected) << "every " << Every << " rows";
  }
}

TEST(ValidityMapTest, VersionChangesWithTheHoldersOnly) {
  ValidityMap A(1000, ValidityMap::devices(2)), B(1000, ValidityMap::devices(2));
  EXPECT_NE(A.version(), B.version());
  uint64_t V = A.version();
  A.assignAll({{0, 100}, {200, 300}}, D0);
  EXPECT_NE(A.version(), V);
  V = A.version();
  // Already so: the same writes again, a copy to where it is current.
  A.assignAll({{0, 100}, {200, 300}}, D0);
  A.add(500, 600, D1);
  EXPECT_EQ(A.version(), V);
  A.remove(0, 50, D0);
  EXPECT_NE(A.version(), V);
  EXPECT_NE(A.version(), B.version());
}

using Model = std::vector<HolderSet>;

/// The map and the model agree on every byte.
void expectMatches(const ValidityMap &M, const Model &Bytes) {
  expectWellFormed(M);
  for (const ValidityMap::Run &R : M.runs())
    for (uint64_t B = R.Begin; B < R.End; ++B)
      ASSERT_EQ(R.Holders, Bytes[B]) << "byte " << B;
}

/// Random assign/add/remove sequences over 4 devices and the host, with queries checked after
/// every step.
void randomSequence(unsigned Seed, uint64_t Size, unsigned Steps) {
  SCOPED_TRACE("seed " + std::to_string(Seed));
  std::mt19937_64 Rng(Seed);
  const HolderSet All = ValidityMap::everywhere(4);
  auto Pick = [&](uint64_t N) { return std::uniform_int_distribution<uint64_t>(0, N)(Rng); };
  auto Holders = [&] {
    // Mostly one holder (a device wrote), sometimes any subset.
    return Pick(2) ? HolderSet(1) << (Pick(4) == 4 ? ValidityMap::HostBit : Pick(3))
                   : (Rng() & All);
  };
  ValidityMap M(Size, All);
  Model Bytes(Size, All);
  // A snapshot of who held what at a version: whatever heldSince and aloneSince answer yes to
  // must still be so. Taken again every so often.
  uint64_t SnapVersion = M.version();
  Model Snapshot = Bytes;
  unsigned StillHeld = 0;
  for (unsigned Step = 0; Step < Steps; ++Step) {
    if (Pick(40) == 0) {
      SnapVersion = M.version();
      Snapshot = Bytes;
    }
    uint64_t B = Pick(Size), E = Pick(Size + 4); // E past the end: clipped
    if (B > E)
      std::swap(B, E);
    HolderSet H = Holders();
    // Ranges for the updates of many at once: sorted and disjoint as the runtime gives them,
    // sometimes shuffled and overlapping (they are sorted and merged first).
    auto ManyRanges = [&] {
      ValidityMap::Ranges R;
      for (uint64_t At = Pick(3); At < Size + 2; At += 1 + Pick(Size / 4)) {
        uint64_t End = At + 1 + Pick(Size / 8);
        R.push_back({At, End});
        At = End;
      }
      if (!R.empty() && Pick(3) == 0) {
        R.push_back({R.front().first, R.front().second + Pick(Size / 2)});
        std::shuffle(R.begin(), R.end(), Rng);
      }
      return R;
    };
    switch (Pick(5)) {
    case 0:
      M.assign(B, E, H);
      for (uint64_t I = B; I < std::min(E, Size); ++I)
        Bytes[I] = H;
      break;
    case 1:
      M.add(B, E, H);
      for (uint64_t I = B; I < std::min(E, Size); ++I)
        Bytes[I] |= H;
      break;
    case 2:
      M.remove(B, E, H);
      for (uint64_t I = B; I < std::min(E, Size); ++I)
        Bytes[I] &= ~H;
      break;
    case 3:
    case 4: {
      ValidityMap::Ranges R = ManyRanges();
      bool Add = Pick(1);
      if (Add)
        M.addAll(R, H);
      else
        M.assignAll(R, H);
      for (auto [RB, RE] : R)
        for (uint64_t I = RB; I < std::min(RE, Size); ++I)
          Bytes[I] = Add ? Bytes[I] | H : H;
      break;
    }
    default: {
      // Queries: who holds all of [B, E), and what one holder misses there.
      HolderSet Expected = ~HolderSet(0);
      for (uint64_t I = B; I < std::min(E, Size); ++I)
        Expected &= Bytes[I];
      ASSERT_EQ(M.holdersOfAll(B, E), Expected) << "[" << B << "," << E << ")";
      unsigned Holder = Pick(4) == 4 ? ValidityMap::HostBit : Pick(3);
      Model Missing(Size, ~HolderSet(0)); // ~0: not missing
      for (const ValidityMap::Run &R : M.missingOn(Holder, B, E)) {
        ASSERT_LE(B, R.Begin);
        ASSERT_LE(R.End, std::min(E, Size));
        for (uint64_t I = R.Begin; I < R.End; ++I)
          Missing[I] = R.Holders;
      }
      for (uint64_t I = 0; I < Size; ++I) {
        bool ShouldMiss = I >= B && I < E && !(Bytes[I] & (HolderSet(1) << Holder));
        ASSERT_EQ(Missing[I] != ~HolderSet(0), ShouldMiss) << "byte " << I;
        if (ShouldMiss) {
          ASSERT_EQ(Missing[I], Bytes[I]) << "byte " << I;
        }
      }
      // Sorted disjoint ranges asked at once answer as each asked alone.
      std::vector<std::pair<uint64_t, uint64_t>> Ranges;
      for (uint64_t At = Pick(3); At < Size + 2; At += 1 + Pick(Size / 4)) {
        uint64_t End = At + 1 + Pick(Size / 8);
        Ranges.push_back({At, End});
        At = End;
      }
      Runs OneByOne, AtOnce;
      for (auto [RB, RE] : Ranges) {
        Runs One = M.missingOn(Holder, RB, RE);
        OneByOne.insert(OneByOne.end(), One.begin(), One.end());
      }
      M.appendMissing(Holder, Ranges, AtOnce);
      ASSERT_EQ(AtOnce, OneByOne);
    }
    }
    expectMatches(M, Bytes);
    for (unsigned H : {0u, 1u, 2u, 3u, ValidityMap::HostBit}) {
      HolderSet Bit = HolderSet(1) << H;
      bool Held = M.heldSince(H, SnapVersion), Alone = M.aloneSince(H, SnapVersion);
      StillHeld += Held;
      for (uint64_t I = 0; I < Size; ++I) {
        if (Held && (Snapshot[I] & Bit)) {
          ASSERT_TRUE(Bytes[I] & Bit) << "holder " << H << " lost byte " << I;
        }
        if (Alone && Snapshot[I] == Bit) {
          ASSERT_EQ(Bytes[I], Bit) << "holder " << H << " no longer alone on byte " << I;
        }
      }
    }
    if (::testing::Test::HasFatalFailure())
      return;
  }
  EXPECT_GT(StillHeld, 0u) << "heldSince never said yes";
}

TEST(ValidityMapTest, HoldersLostAndGainedAreKnownByVersion) {
  ValidityMap M(1000, ValidityMap::devices(2));
  uint64_t Start = M.version();
  EXPECT_TRUE(M.heldSince(0, Start));
  EXPECT_TRUE(M.aloneSince(0, Start));
  M.assignAll({{0, 500}}, D0); // device 1 loses [0, 500)
  EXPECT_TRUE(M.heldSince(0, Start));
  EXPECT_FALSE(M.heldSince(1, Start));
  uint64_t Written = M.version();
  EXPECT_TRUE(M.aloneSince(0, Written));
  M.assignAll({{0, 500}}, D0); // already so: nothing lost or gained
  EXPECT_TRUE(M.aloneSince(0, Written));
  EXPECT_TRUE(M.heldSince(1, Written));
  M.add(0, 100, D1); // device 1 gains a copy of device 0's bytes
  EXPECT_TRUE(M.heldSince(0, Written));
  EXPECT_FALSE(M.aloneSince(0, Written));
  EXPECT_TRUE(M.aloneSince(1, Written)) << "device 0 gained nothing";
  M.assign(0, 100, D0); // device 1's copy is overwritten
  EXPECT_FALSE(M.heldSince(1, Written));
  EXPECT_TRUE(M.aloneSince(0, M.version()));
  // A map made after a version knows nothing of what was held at it.
  ValidityMap Later(1000, ValidityMap::devices(2));
  EXPECT_FALSE(Later.heldSince(0, Written));
  EXPECT_FALSE(Later.aloneSince(0, Written));
  M = ValidityMap(1000, ValidityMap::devices(2)); // a new mapping in the old one's place
  EXPECT_FALSE(M.heldSince(0, Written));
  EXPECT_TRUE(M.heldSince(0, M.version()));
}

TEST(ValidityMapTest, RandomSequencesMatchTheModel) {
  for (unsigned Seed : {1u, 2u, 3u, 42u, 1234u})
    randomSequence(Seed, 97, 3000);
  // A small mapping, where ranges hit the ends and each other most often.
  for (unsigned Seed : {7u, 8u})
    randomSequence(Seed, 5, 2000);
}

} // namespace
