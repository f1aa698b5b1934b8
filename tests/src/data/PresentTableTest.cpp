// Tests of the present table: range lookups (absent, contained, partial), insertion, erasure and
// the "[0x...,+N]" description of ranges.
#include "src/data/PresentTable.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

using namespace jacc;
using Presence = PresentTable::Presence;

namespace {

/// A host address as a pointer, for lookups (the table never dereferences it).
const void *at(uintptr_t A) {
  return reinterpret_cast<const void *>(A);
}

/// A mapping of [Begin, Begin+Bytes) with one fake device copy.
Mapping mapping(uintptr_t Begin, size_t Bytes, uintptr_t Device = 0x900000) {
  Mapping M;
  M.Begin = Begin;
  M.End = Begin + Bytes;
  M.DevicePtrs.push_back(reinterpret_cast<void *>(Device));
  M.LastUse.push_back(0);
  return M;
}

/// Looks [Addr, Addr+Bytes) up in T: the answer must be State, naming the mapping M.
void expectLookup(PresentTable &T, uintptr_t Addr, size_t Bytes, Presence State, const Mapping *M) {
  char Range[64];
  std::snprintf(Range, sizeof Range, "lookup of [0x%jx,+0x%zx)", static_cast<uintmax_t>(Addr),
                Bytes);
  SCOPED_TRACE(Range);
  PresentTable::Lookup L = T.lookup(at(Addr), Bytes);
  EXPECT_EQ(L.State, State);
  EXPECT_EQ(L.M, M);
}

/// A table with [0x1000,+0x100) and [0x2000,+0x100).
class PresentTableTest : public ::testing::Test {
protected:
  void SetUp() override {
    A = &T.insert(mapping(0x1000, 0x100, 0xa0000));
    B = &T.insert(mapping(0x2000, 0x100, 0xb0000));
  }
  PresentTable T;
  Mapping *A = nullptr, *B = nullptr;
};

TEST(PresentTableEmptyTest, EverythingIsAbsent) {
  PresentTable T;
  EXPECT_EQ(T.size(), 0u);
  EXPECT_TRUE(T.all().empty());
  expectLookup(T, 0x1000, 16, Presence::Absent, nullptr);
  EXPECT_EQ(T.lookup(nullptr, 0).State, Presence::Absent);
}

TEST_F(PresentTableTest, InsertReturnsTheStoredMapping) {
  EXPECT_EQ(T.size(), 2u);
  EXPECT_EQ(A->Begin, 0x1000u);
  EXPECT_EQ(A->End, 0x1100u);
  EXPECT_EQ(A->bytes(), 0x100u);
  ASSERT_EQ(A->DevicePtrs.size(), 1u);
  EXPECT_EQ(A->DevicePtrs[0], reinterpret_cast<void *>(0xa0000));
  EXPECT_EQ(B->Begin, 0x2000u);
}

TEST_F(PresentTableTest, AbsentOutsideEveryMapping) {
  for (uintptr_t P : {uintptr_t(0x0), uintptr_t(0x800), uintptr_t(0x1100), uintptr_t(0x1800),
                      uintptr_t(0x1fff), uintptr_t(0x2100), uintptr_t(0x10000)}) {
    PresentTable::Lookup L = T.lookup(at(P), 1);
    EXPECT_EQ(L.State, Presence::Absent) << std::hex << P;
    EXPECT_EQ(L.M, nullptr) << std::hex << P;
  }
  // Ranges ending exactly where a mapping begins, or beginning exactly where one ends.
  EXPECT_EQ(T.lookup(at(0xf00), 0x100).State, Presence::Absent);
  EXPECT_EQ(T.lookup(at(0x1100), 0x100).State, Presence::Absent);
  EXPECT_EQ(T.lookup(at(0x1100), 0xf00).State, Presence::Absent); // the whole gap
}

TEST_F(PresentTableTest, ContainedExactRange) {
  expectLookup(T, 0x1000, 0x100, Presence::Contained, A);
  expectLookup(T, 0x2000, 0x100, Presence::Contained, B);
}

TEST_F(PresentTableTest, ContainedInteriorPointers) {
  expectLookup(T, 0x1010, 0x20, Presence::Contained, A);
  // Interior start running to the very end.
  expectLookup(T, 0x1080, 0x80, Presence::Contained, A);
  // The first byte alone.
  expectLookup(T, 0x1000, 1, Presence::Contained, A);
}

TEST_F(PresentTableTest, ContainedLastByte) {
  expectLookup(T, 0x10ff, 1, Presence::Contained, A);
  expectLookup(T, 0x20ff, 1, Presence::Contained, B);
}

TEST_F(PresentTableTest, ZeroBytesIsLookedUpAsOneByte) {
  EXPECT_EQ(T.lookup(at(0x1000), 0).State, Presence::Contained);
  EXPECT_EQ(T.lookup(at(0x10ff), 0).State, Presence::Contained);
  EXPECT_EQ(T.lookup(at(0x10ff), 0).M, A);
  EXPECT_EQ(T.lookup(at(0x1100), 0).State, Presence::Absent);
  EXPECT_EQ(T.lookup(at(0xfff), 0).State, Presence::Absent);
}

TEST_F(PresentTableTest, PartialOverlappingTheStart) {
  expectLookup(T, 0xff0, 0x20, Presence::Partial, A);
  // One byte before the start, running into the first byte.
  expectLookup(T, 0xfff, 2, Presence::Partial, A);
  // Covering the whole mapping and more on both sides.
  expectLookup(T, 0xf00, 0x300, Presence::Partial, A);
}

TEST_F(PresentTableTest, PartialOverlappingTheEnd) {
  expectLookup(T, 0x10f0, 0x20, Presence::Partial, A);
  // The last byte and one past it.
  expectLookup(T, 0x10ff, 2, Presence::Partial, A);
  // The exact start, one byte too long.
  expectLookup(T, 0x1000, 0x101, Presence::Partial, A);
}

TEST_F(PresentTableTest, PartialSpanningTwoMappings) {
  // From inside A to inside B.
  PresentTable::Lookup L = T.lookup(at(0x1080), 0x1000);
  EXPECT_EQ(L.State, Presence::Partial);
  EXPECT_TRUE(L.M == A || L.M == B);
  // From the gap before A over both.
  L = T.lookup(at(0x800), 0x2000);
  EXPECT_EQ(L.State, Presence::Partial);
  EXPECT_TRUE(L.M == A || L.M == B);
  // From the gap between them into B.
  expectLookup(T, 0x1800, 0x900, Presence::Partial, B);
}

TEST_F(PresentTableTest, RangeRunningToTheEndOfTheAddressSpace) {
  // P + Bytes wraps around (a negative size converted to size_t): the range runs past every
  // mapping after P, so it can never be contained in one.
  expectLookup(T, 0x1010, SIZE_MAX, Presence::Partial, A);
  expectLookup(T, 0x1800, SIZE_MAX - 0x100, Presence::Partial, B);
}

TEST(PresentTableAdjacentTest, AdjacentMappingsAreNotConfused) {
  PresentTable T;
  Mapping *Lo = &T.insert(mapping(0x1000, 0x100, 0xa0000));
  Mapping *Hi = &T.insert(mapping(0x1100, 0x100, 0xb0000));
  EXPECT_EQ(T.size(), 2u);
  expectLookup(T, 0x10ff, 1, Presence::Contained, Lo);
  expectLookup(T, 0x1100, 1, Presence::Contained, Hi);
  expectLookup(T, 0x1000, 0x100, Presence::Contained, Lo);
  expectLookup(T, 0x1100, 0x100, Presence::Contained, Hi);
  // Across the boundary: in neither alone.
  expectLookup(T, 0x10ff, 2, Presence::Partial, Lo);
  expectLookup(T, 0x1000, 0x200, Presence::Partial, Lo);
  // The translations stay with their own mapping.
  EXPECT_EQ(Lo->translate(at(0x10ff), 0), reinterpret_cast<void *>(0xa00ff));
  EXPECT_EQ(Hi->translate(at(0x1100), 0), reinterpret_cast<void *>(0xb0000));
}

TEST_F(PresentTableTest, EraseRemovesOnlyThatMapping) {
  T.erase(0x1000);
  EXPECT_EQ(T.size(), 1u);
  EXPECT_EQ(T.lookup(at(0x1000), 0x100).State, Presence::Absent);
  EXPECT_EQ(T.lookup(at(0x1080), 1).State, Presence::Absent);
  PresentTable::Lookup L = T.lookup(at(0x2000), 0x100);
  EXPECT_EQ(L.State, Presence::Contained);
  ASSERT_NE(L.M, nullptr);
  EXPECT_EQ(L.M->Begin, 0x2000u);
  // Erasing an address that starts no mapping changes nothing.
  T.erase(0x2010);
  EXPECT_EQ(T.size(), 1u);
  EXPECT_EQ(T.lookup(at(0x2010), 1).State, Presence::Contained);
  T.erase(0x2000);
  EXPECT_EQ(T.size(), 0u);
  EXPECT_EQ(T.lookup(at(0x2000), 1).State, Presence::Absent);
}

TEST_F(PresentTableTest, ReinsertAfterErase) {
  T.erase(0x1000);
  // A different range over the freed addresses (e.g. a new allocation at the same place).
  Mapping *C = &T.insert(mapping(0x1000, 0x40, 0xc0000));
  EXPECT_EQ(T.size(), 2u);
  expectLookup(T, 0x1000, 0x40, Presence::Contained, C);
  EXPECT_EQ(T.lookup(at(0x1000), 0x100).State, Presence::Partial);
  EXPECT_EQ(T.lookup(at(0x1040), 1).State, Presence::Absent);
}

TEST_F(PresentTableTest, AllListsMappingsInAddressOrder) {
  T.insert(mapping(0x500, 0x10));
  std::vector<Mapping *> All = T.all();
  ASSERT_EQ(All.size(), 3u);
  EXPECT_EQ(All[0]->Begin, 0x500u);
  EXPECT_EQ(All[1], A);
  EXPECT_EQ(All[2], B);
}

TEST(PresentTableMappingTest, TranslateKeepsTheOffsetPerDevice) {
  Mapping M;
  M.Begin = 0x1000;
  M.End = 0x1100;
  M.DevicePtrs = {reinterpret_cast<void *>(0x50000), reinterpret_cast<void *>(0x70000)};
  EXPECT_EQ(M.translate(at(0x1000), 0), reinterpret_cast<void *>(0x50000));
  EXPECT_EQ(M.translate(at(0x1010), 0), reinterpret_cast<void *>(0x50010));
  EXPECT_EQ(M.translate(at(0x1010), 1), reinterpret_cast<void *>(0x70010));
  // One past the end is allowed (the End of a range).
  EXPECT_EQ(M.translate(at(0x1100), 1), reinterpret_cast<void *>(0x70100));
}

TEST(PresentTableDescribeTest, Format) {
  EXPECT_EQ(PresentTable::describe(at(0x1000), 4096), "[0x1000,+4096]");
  EXPECT_EQ(PresentTable::describe(at(0x7f0012345678), 8), "[0x7f0012345678,+8]");
  EXPECT_EQ(PresentTable::describe(at(0xabc), 0), "[0xabc,+0]");
  Mapping M = mapping(0x2000, 0x100);
  EXPECT_EQ(PresentTable::describe(M), "[0x2000,+256]");
}

TEST(PresentTableDescribeTest, RealPointer) {
  double X[4];
  char Expected[64];
  std::snprintf(Expected, sizeof Expected, "[0x%llx,+32]",
                static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(X)));
  EXPECT_EQ(PresentTable::describe(X, sizeof X), Expected);
}

} // namespace
