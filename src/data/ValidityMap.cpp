// The validity map's runs: splitting, updating and coalescing byte ranges of holder sets, and
// which holders have all of a range and what one lacks.
#include "src/data/ValidityMap.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>
#include <cassert>

namespace jacc {

ValidityMap::ValidityMap(uint64_t Bytes, HolderSet Initial) : Bytes(Bytes) {
  if (Bytes)
    Runs.emplace(0, Initial);
}

void ValidityMap::split(uint64_t B) {
  if (B == 0 || B >= Bytes)
    return;
  auto It = Runs.upper_bound(B);
  assert(It != Runs.begin() && "the first run starts at 0");
  HolderSet Holders = std::prev(It)->second;
  Runs.emplace_hint(It, B, Holders); // no-op when a run already starts at B
}

void ValidityMap::coalesce(uint64_t B, uint64_t E) {
  // From the run before B's (it may now equal B's run) through the run starting at E.
  auto It = Runs.upper_bound(B);
  if (It != Runs.begin())
    --It;
  if (It != Runs.begin())
    --It;
  auto Last = Runs.upper_bound(E);
  while (It != Last) {
    auto Next = std::next(It);
    if (Next == Runs.end())
      break;
    if (Next->second == It->second) {
      bool Stop = Next == Last;
      Runs.erase(Next);
      if (Stop)
        break;
    } else {
      It = Next;
    }
  }
}

template <typename Fn> void ValidityMap::update(uint64_t B, uint64_t E, Fn F) {
  E = std::min(E, Bytes);
  if (B >= E)
    return;
  split(B);
  split(E);
  for (auto It = Runs.find(B); It != Runs.end() && It->first < E; ++It)
    It->second = F(It->second);
  coalesce(B, E);
}

void ValidityMap::assign(uint64_t B, uint64_t E, HolderSet Holders) {
  E = std::min(E, Bytes);
  if (B >= E)
    return;
  // Already so (a kernel rewriting what its device wrote last time): nothing changes. Column
  // splits assign a range per row every launch, so this is their common case.
  auto Containing = std::prev(Runs.upper_bound(B));
  if (Containing->second == Holders) {
    auto Next = std::next(Containing);
    if ((Next == Runs.end() ? Bytes : Next->first) >= E)
      return;
  }
  // Cheaper than update(): the runs inside [B, E) become one.
  split(B);
  split(E);
  auto First = Runs.find(B);
  First->second = Holders;
  Runs.erase(std::next(First), Runs.lower_bound(E));
  coalesce(B, E);
}

void ValidityMap::add(uint64_t B, uint64_t E, HolderSet Holders) {
  update(B, E, [Holders](HolderSet S) { return S | Holders; });
}

void ValidityMap::remove(uint64_t B, uint64_t E, HolderSet Holders) {
  update(B, E, [Holders](HolderSet S) { return S & ~Holders; });
}

HolderSet ValidityMap::holdersOfAll(uint64_t B, uint64_t E) const {
  E = std::min(E, Bytes);
  HolderSet All = ~HolderSet(0);
  if (B >= E)
    return All;
  auto It = std::prev(Runs.upper_bound(B));
  for (; It != Runs.end() && It->first < E; ++It)
    All &= It->second;
  return All;
}

template <typename Keep>
ValidityMap::RunIt ValidityMap::appendRunsFrom(RunIt It, uint64_t B, uint64_t E,
                                               std::vector<Run> &Out, Keep K) const {
  for (;; ++It) {
    auto Next = std::next(It);
    uint64_t End = Next == Runs.end() ? Bytes : Next->first;
    if (K(It->second))
      Out.push_back({std::max(It->first, B), std::min(End, E), It->second});
    if (End >= E)
      return It;
  }
}

template <typename Keep>
void ValidityMap::appendRuns(uint64_t B, uint64_t E, std::vector<Run> &Out, Keep K) const {
  E = std::min(E, Bytes);
  if (B < E)
    appendRunsFrom(std::prev(Runs.upper_bound(B)), B, E, Out, K);
}

std::vector<ValidityMap::Run> ValidityMap::runsIn(uint64_t B, uint64_t E) const {
  std::vector<Run> R;
  appendRuns(B, E, R, [](HolderSet) { return true; });
  return R;
}

std::vector<ValidityMap::Run> ValidityMap::missingOn(unsigned H, uint64_t B, uint64_t E) const {
  std::vector<Run> R;
  appendMissing(H, {{B, E}}, R);
  return R;
}

void ValidityMap::appendMissing(unsigned H,
                                const std::vector<std::pair<uint64_t, uint64_t>> &Ranges,
                                std::vector<Run> &Out) const {
  const HolderSet Bit = HolderSet(1) << H;
  auto Missing = [Bit](HolderSet S) { return !(S & Bit); };
  // A few steps forward are cheaper than a search from the root; farther, search.
  constexpr unsigned MaxSteps = 8;
  auto It = Runs.end(); // the run holding the last range's last byte, once there is one
  for (auto [B, E] : Ranges) {
    E = std::min(E, Bytes);
    if (B >= E)
      continue;
    auto Next = It == Runs.end() ? It : std::next(It);
    for (unsigned Step = 0; It != Runs.end() && Next != Runs.end() && Next->first <= B; ++Step) {
      if (Step == MaxSteps) {
        It = Runs.end();
        break;
      }
      It = Next++;
    }
    if (It == Runs.end())
      It = std::prev(Runs.upper_bound(B));
    It = appendRunsFrom(It, B, E, Out, Missing);
  }
}

std::vector<ValidityMap::Run> ValidityMap::runs() const {
  std::vector<Run> R;
  for (auto It = Runs.begin(); It != Runs.end(); ++It) {
    auto Next = std::next(It);
    R.push_back({It->first, Next == Runs.end() ? Bytes : Next->first, It->second});
  }
  return R;
}

unsigned ValidityMap::first(HolderSet S) {
  assert(S && "no holder");
  return __builtin_ctzll(S);
}

std::string ValidityMap::describe(HolderSet S) {
  std::string R = "{";
  for (unsigned D = 0; D < MaxDevices; ++D)
    if (S & device(D))
      R += (R.size() > 1 ? "," : "") + std::to_string(D);
  if (S & host())
    R += R.size() > 1 ? ",host" : "host";
  return R + "}";
}

} // namespace jacc
