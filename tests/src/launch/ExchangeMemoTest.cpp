// Tests of the exchange memo: a part is kept for the same key, listed again for another, and
// forgotten with its kernel.
#include "src/launch/ExchangeMemo.h"

#include <gtest/gtest.h>

namespace jacc {
namespace {

/// Mark P listed with one range, as fetchForLaunch does once it listed the part.
void list(ExchangeMemo::Part &P) {
  P.Need.push_back({nullptr, {{0, 8}}});
  P.CurrentAt.push_back(42);
  P.Listed = true;
}

TEST(ExchangeMemoTest, SameKeyKeepsThePartAnotherListsAgain) {
  ExchangeMemo Memo;
  auto Kernel = std::make_shared<int>(1);
  ExchangeMemo::Part &P = Memo.part(Kernel, 1, {3, 4, 5});
  EXPECT_FALSE(P.Listed);
  list(P);
  ExchangeMemo::Part &Again = Memo.part(Kernel, 1, {3, 4, 5});
  EXPECT_EQ(&Again, &P);
  EXPECT_TRUE(Again.Listed);
  EXPECT_EQ(Again.CurrentAt, std::vector<uint64_t>{42});
  EXPECT_EQ(Memo.last(Kernel, 1), &P);
  // Device 0 has parts of its own; another key (the probe found other extents) starts over.
  EXPECT_FALSE(Memo.part(Kernel, 0, {3, 4, 5}).Listed);
  ExchangeMemo::Part &Other = Memo.part(Kernel, 1, {3, 4, 6});
  EXPECT_FALSE(Other.Listed);
  EXPECT_TRUE(Other.Need.empty());
  EXPECT_EQ(Other.Key, (std::vector<long long>{3, 4, 6}));
}

TEST(ExchangeMemoTest, EachPlaneOfASweepKeepsItsPart) {
  // A kernel pushed once per plane: a key per plane, each listed once, then found again.
  ExchangeMemo Memo;
  auto Kernel = std::make_shared<int>(1);
  std::vector<ExchangeMemo::Part *> Planes;
  for (long long Plane = 0; Plane < 40; ++Plane) {
    bool Kept = false;
    ExchangeMemo::Part &P = Memo.part(Kernel, 0, {7, Plane}, &Kept);
    EXPECT_FALSE(P.Listed);
    EXPECT_TRUE(Kept) << "room for plane " << Plane;
    list(P);
    Planes.push_back(&P);
  }
  for (long long Plane = 39; Plane >= 0; --Plane) {
    ExchangeMemo::Part &P = Memo.part(Kernel, 0, {7, Plane});
    EXPECT_EQ(&P, Planes[Plane]) << "the part stays where it was";
    EXPECT_TRUE(P.Listed);
    EXPECT_EQ(Memo.last(Kernel, 0), &P);
  }
}

TEST(ExchangeMemoTest, BeyondItsKeysTheLeastRecentlyUsedGoes) {
  // A key that changes at every launch (a time step's value) never comes back: once the memo
  // is full, each new one takes the place of the least recently used, and is not kept.
  ExchangeMemo Memo;
  auto Kernel = std::make_shared<int>(1);
  const long long Steps = ExchangeMemo::MaxKeys + 20;
  for (long long Step = 0; Step < Steps; ++Step) {
    bool Kept = false;
    list(Memo.part(Kernel, 0, {Step}, &Kept));
    EXPECT_EQ(Kept, Step < static_cast<long long>(ExchangeMemo::MaxKeys)) << "step " << Step;
  }
  EXPECT_TRUE(Memo.part(Kernel, 0, {Steps - 1}).Listed);
  EXPECT_FALSE(Memo.part(Kernel, 0, {0}).Listed) << "the oldest went first";
}

TEST(ExchangeMemoTest, ClearForgetsEveryPart) {
  // Finalize: the devices and mappings the parts name are gone.
  ExchangeMemo Memo;
  auto Kernel = std::make_shared<int>(1);
  list(Memo.part(Kernel, 0, {1}));
  list(Memo.part(Kernel, 1, {1}));
  Memo.clear();
  EXPECT_EQ(Memo.last(Kernel, 0), nullptr);
  EXPECT_FALSE(Memo.part(Kernel, 1, {1}).Listed);
}

TEST(ExchangeMemoTest, AKernelThatLeftIsForgottenAtItsAddress) {
  // Two kernels at one address, one after the other (aliasing pointers: each its own owner).
  static int Address;
  ExchangeMemo Memo;
  auto First = std::shared_ptr<const void>(std::make_shared<int>(1), &Address);
  list(Memo.part(First, 0, {1}));
  First.reset();
  auto Second = std::shared_ptr<const void>(std::make_shared<int>(2), &Address);
  EXPECT_EQ(Memo.last(Second, 0), nullptr);
  ExchangeMemo::Part &P = Memo.part(Second, 0, {1});
  EXPECT_FALSE(P.Listed);
  EXPECT_TRUE(P.Need.empty());
}

} // namespace
} // namespace jacc
