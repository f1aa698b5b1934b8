// The validity map's runs: rewriting them for updates of sorted ranges, which holders have all
// of a range and what one lacks.
#include "src/data/ValidityMap.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>
#include <atomic>
#include <cassert>

namespace jacc {

uint64_t ValidityMap::newVersion() {
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1, std::memory_order_relaxed);
}

ValidityMap::ValidityMap(uint64_t Bytes, HolderSet Initial) : Bytes(Bytes) {
  if (Bytes)
    Runs.push_back({0, Initial});
}

size_t ValidityMap::runAt(uint64_t B) const {
  assert(B < Bytes && "a byte of the map");
  auto It = std::upper_bound(Runs.begin(), Runs.end(), B,
                             [](uint64_t X, const Start &S) { return X < S.Begin; });
  return static_cast<size_t>(It - Runs.begin()) - 1;
}

size_t ValidityMap::runFrom(size_t I, uint64_t B) const {
  // A few steps forward are cheaper than a search; farther, search what lies ahead.
  constexpr unsigned MaxSteps = 8;
  if (I >= Runs.size() || Runs[I].Begin > B)
    return runAt(B);
  for (unsigned Step = 0; Step < MaxSteps; ++Step, ++I)
    if (endOf(I) > B)
      return I;
  auto It = std::upper_bound(Runs.begin() + I, Runs.end(), B,
                             [](uint64_t X, const Start &S) { return X < S.Begin; });
  return static_cast<size_t>(It - Runs.begin()) - 1;
}

/// Given clipped to [0, Bytes), sorted, overlapping or touching ranges merged, empty ones
/// dropped: Given itself when it is so already, else a copy made so in Scratch.
static const ByteRanges &clipped(const ByteRanges &Given, uint64_t Bytes, ByteRanges &Scratch) {
  if (isNormalized(Given) && (Given.empty() || Given.back().second <= Bytes))
    return Given;
  Scratch = Given;
  for (auto &[B, E] : Scratch)
    E = std::min(E, Bytes);
  Scratch = normalized(std::move(Scratch));
  return Scratch;
}

template <typename Fn> void ValidityMap::updateAll(const Ranges &Given, Fn F) {
  Ranges Made;
  const Ranges &R = clipped(Given, Bytes, Made);
  if (R.empty())
    return;
  // Already so (a kernel rewriting what its device wrote last time, a copy of what is current
  // there): nothing changes. Column splits assign a range per row every launch.
  bool Changes = false;
  size_t I = 0;
  for (auto [B, E] : R) {
    I = runFrom(I, B);
    for (; !Changes && Runs[I].Begin < E; ++I) {
      Changes = F(Runs[I].Holders) != Runs[I].Holders;
      if (endOf(I) >= E)
        break;
    }
    if (Changes)
      break;
  }
  if (!Changes)
    return;
  // One pass over the runs: those outside the ranges copied, those inside with F applied,
  // neighbours with equal holders merged.
  Scratch.clear();
  Scratch.reserve(Runs.size() + 2 * R.size() + 1);
  auto Push = [&](uint64_t Begin, HolderSet H) {
    if (Scratch.empty() || Scratch.back().Holders != H)
      Scratch.push_back({Begin, H});
  };
  uint64_t Pos = 0;
  I = 0;
  HolderSet Lost = 0, Gained = 0;
  // Runs [Pos, To) with their holders mapped by G; I holds Pos.
  auto Copy = [&](uint64_t To, auto G) {
    while (Pos < To) {
      HolderSet Old = Runs[I].Holders, New = G(Old);
      Lost |= Old & ~New;
      Gained |= New & ~Old;
      Push(Pos, New);
      uint64_t End = endOf(I);
      if (End <= To) {
        Pos = End;
        ++I;
      } else {
        Pos = To;
      }
    }
  };
  auto Same = [](HolderSet H) { return H; };
  for (auto [B, E] : R) {
    Copy(B, Same);
    Copy(E, F);
  }
  Copy(Bytes, Same);
  Runs.swap(Scratch);
  Version = newVersion();
  stamp(Lost, Gained, Version);
}

void ValidityMap::stamp(HolderSet Lost, HolderSet Gained, uint64_t V) {
  HolderSet Devices = (Lost | Gained) & ~host();
  size_t Slots = Devices ? slot(63 - __builtin_clzll(Devices)) + 1 : 1;
  if (Stamped.size() < Slots)
    Stamped.resize(Slots);
  for (; Lost; Lost &= Lost - 1)
    Stamped[slot(__builtin_ctzll(Lost))].LostAt = V;
  for (; Gained; Gained &= Gained - 1)
    Stamped[slot(__builtin_ctzll(Gained))].GainedAt = V;
}

bool ValidityMap::aloneSince(unsigned H, uint64_t Since) const {
  if (!heldSince(H, Since))
    return false;
  for (size_t Other = 0; Other < Stamped.size(); ++Other)
    if (Other != slot(H) && Stamped[Other].GainedAt > Since)
      return false;
  return true;
}

void ValidityMap::assignAll(const Ranges &R, HolderSet Holders) {
  updateAll(R, [Holders](HolderSet) { return Holders; });
}

void ValidityMap::addAll(const Ranges &R, HolderSet Holders) {
  updateAll(R, [Holders](HolderSet S) { return S | Holders; });
}

void ValidityMap::remove(uint64_t B, uint64_t E, HolderSet Holders) {
  updateAll({{B, E}}, [Holders](HolderSet S) { return S & ~Holders; });
}

HolderSet ValidityMap::holdersOfAll(uint64_t B, uint64_t E) const {
  E = std::min(E, Bytes);
  HolderSet All = ~HolderSet(0);
  if (B >= E)
    return All;
  for (size_t I = runAt(B); I < Runs.size() && Runs[I].Begin < E; ++I)
    All &= Runs[I].Holders;
  return All;
}

template <typename Keep>
size_t ValidityMap::appendRunsFrom(size_t I, uint64_t B, uint64_t E, std::vector<Run> &Out,
                                   Keep K) const {
  for (;; ++I) {
    uint64_t End = endOf(I);
    if (K(Runs[I].Holders))
      Out.push_back({std::max(Runs[I].Begin, B), std::min(End, E), Runs[I].Holders});
    if (End >= E)
      return I;
  }
}

std::vector<ValidityMap::Run> ValidityMap::runsIn(uint64_t B, uint64_t E) const {
  std::vector<Run> R;
  E = std::min(E, Bytes);
  if (B < E)
    appendRunsFrom(runAt(B), B, E, R, [](HolderSet) { return true; });
  return R;
}

std::vector<ValidityMap::Run> ValidityMap::missingOn(unsigned H, uint64_t B, uint64_t E) const {
  std::vector<Run> R;
  appendMissing(H, {{B, E}}, R);
  return R;
}

void ValidityMap::appendMissing(unsigned H, const Ranges &R, std::vector<Run> &Out) const {
  const HolderSet Bit = HolderSet(1) << H;
  auto Missing = [Bit](HolderSet S) { return !(S & Bit); };
  size_t I = Runs.size(); // the run holding the last range's last byte, once there is one
  for (auto [B, E] : R) {
    E = std::min(E, Bytes);
    if (B >= E)
      continue;
    I = appendRunsFrom(runFrom(I, B), B, E, Out, Missing);
  }
}

std::vector<ValidityMap::Run> ValidityMap::runs() const {
  std::vector<Run> R;
  R.reserve(Runs.size());
  for (size_t I = 0; I < Runs.size(); ++I)
    R.push_back({Runs[I].Begin, endOf(I), Runs[I].Holders});
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
