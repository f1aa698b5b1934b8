// What each device's launch needs (its probed read extents as bytes, else whole mappings),
// fetched before the launch; and the split or whole writes recorded as current after it.
#include "src/launch/DemandExchange.h"

#include "jit/ReadProbe.h"
#include "jit/host/HostABI.h"

#include <algorithm>

namespace jacc {

using analysis::ArgInfo;
using analysis::ReadExtent;

bool probeSplitLaunches(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                        llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches) {
  if (!Info.Split.ProbeExact || llvm::count_if(Launches, [](const auto &L) { return !!L; }) < 2)
    return false;
  for (const auto &L : Launches)
    if (L && !L->probe(Plan.ArgHosts))
      return false;
  return true;
}

namespace {

/// Byte ranges of a mapping, relative to its Begin.
using Ranges = ByteRanges;

/// The byte ranges of M that argument A (pointing at Host) reads on a device whose probe wrote
/// Words for extent R; nullopt when they are the whole mapping.
std::optional<Ranges> extentBytes(const ReadExtent &R, const long long *Words, const Mapping &M,
                                  const void *Host) {
  long long Unit = Words[0], Pitch = Words[1];
  if (R.Whole || Unit <= 0 || Pitch < 0)
    return std::nullopt;
  // Offsets relative to the mapping's begin, clamped to the mapping.
  long long Base = static_cast<long long>(reinterpret_cast<uintptr_t>(Host) - M.Begin);
  long long Size = static_cast<long long>(M.bytes());
  // The extent's ranges of indices, overlapping ones joined first: a stencil's reads at i - 1,
  // i and i + 1 are one band, whose thousands of rows would otherwise be listed three times.
  llvm::SmallVector<std::pair<long long, long long>, 4> Indices;
  const long long *RangeWords = Words + JACC_READ_INFO_RANGES;
  for (size_t I = 0; I < R.Ranges.size(); ++I)
    if (RangeWords[2 * I] < RangeWords[2 * I + 1])
      Indices.push_back({RangeWords[2 * I], RangeWords[2 * I + 1]});
  llvm::sort(Indices);
  llvm::SmallVector<std::pair<long long, long long>, 4> Joined;
  for (auto [B, E] : Indices)
    if (!Joined.empty() && B <= Joined.back().second)
      Joined.back().second = std::max(Joined.back().second, E);
    else
      Joined.push_back({B, E});
  llvm::SmallVector<const long long *, 4> Windows;
  for (size_t I = 0; I < R.Windows.size(); ++I)
    Windows.push_back(RangeWords + 2 * R.Ranges.size() + 4 * I);
  Ranges Out;
  for (auto [B, E] : Joined) {
    // Guard the products: an index far outside the mapping clamps to it.
    long long Limit = (Size + std::llabs(Base)) / Unit + 2;
    B = std::clamp(B, -Limit, Limit);
    E = std::clamp(E, -Limit, Limit);
    // Along an inner dimension (Pitch > 0): the band [B, E) of every row, within the windows.
    Ranges Band = bandWithinWindows(Base, Pitch, B * Unit, E * Unit, Size, Windows);
    if (Out.empty())
      Out = std::move(Band);
    else
      Out.insert(Out.end(), Band.begin(), Band.end());
  }
  return Out;
}

/// Each argument's read extent and where its words start in a probe's ReadInfo (null where the
/// argument has none, or ReadInfo is null).
struct ArgExtent {
  const ReadExtent *Extent = nullptr;
  const long long *Words = nullptr;
};
std::vector<ArgExtent> extentsByArgument(const analysis::KernelInfo &Info,
                                         const long long *ReadInfo) {
  std::vector<ArgExtent> Out(Info.Args.size());
  if (!ReadInfo)
    return Out;
  const long long *W = ReadInfo;
  for (const ReadExtent &R : Info.Split.Reads) {
    if (R.Arg < Info.Args.size())
      Out[R.Arg] = {&R, W};
    W += jit::extentWords(R);
  }
  return Out;
}

/// What a device's launch reads of each mapping the plan uses: byte ranges, or the whole.
/// Probe: its launch, probed, else null.
void neededOn(const analysis::KernelInfo &Info, const LaunchPlan &Plan, const KernelLaunch *Probe,
              std::vector<std::pair<Mapping *, Ranges>> &Need) {
  const long long *ReadInfo = Probe ? Probe->readInfo() : nullptr;
  auto Add = [&](Mapping *M, Ranges R) {
    for (auto &[Known, Rs] : Need)
      if (Known == M) {
        Rs.insert(Rs.end(), R.begin(), R.end());
        return;
      }
    Need.push_back({M, std::move(R)});
  };
  auto Whole = [&](Mapping *M) { Add(M, {{0, M->bytes()}}); };
  std::vector<ArgExtent> Extents = extentsByArgument(Info, ReadInfo);
  std::vector<Mapping *> ByArgument;
  for (const ArgInfo &A : Info.Args) {
    Mapping *M = Plan.ArgMappings[A.Position];
    if (!M)
      continue;
    ByArgument.push_back(M);
    unsigned Index = &A - Info.Args.data();
    if (!ReadInfo) {
      Whole(M);
      continue;
    }
    if (!Info.Split.Plan.ReadArgs.count(Index)) {
      Add(M, {}); // written only: its owned ranges are overwritten
      continue;
    }
    std::optional<Ranges> R;
    if (const ArgExtent &E = Extents[Index]; E.Extent)
      R = extentBytes(*E.Extent, E.Words, *M, Plan.ArgHosts[A.Position]);
    if (R)
      Add(M, std::move(*R));
    else
      Whole(M);
  }
  if (Probe)
    for (const SplitTarget &T : Plan.Targets)
      if (T.Split && T.Map)
        Add(T.Map,
            SplitGroup::ownedWritten(T, Probe->splitInfo() + T.Info * JACC_SPLIT_INFO_WORDS));
  // Mappings the kernel reaches otherwise (attached rows, present structs): whole.
  for (Mapping *M : Plan.Used)
    if (std::find(ByArgument.begin(), ByArgument.end(), M) == ByArgument.end())
      Whole(M);
}

} // namespace

std::string aliasedReadsMeetWrites(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                                   llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                                   bool Probed) {
  for (const SplitTarget &T : Plan.Targets) {
    if (!T.Split || T.AliasReads.empty())
      continue;
    std::string Name = "'" + Info.Args[Info.Split.Plan.Arrays[T.Info].Arg].Name + "'";
    if (!Probed)
      return Name + " is read through another pointer after a write, and the launch is not "
                    "probed";
    for (unsigned A : T.AliasReads)
      if (llvm::none_of(Info.Split.Reads, [&](const ReadExtent &R) { return R.Arg == A; }))
        return "what '" + Info.Args[A].Name + "' reads of " + Name + " is not known";
    Ranges Written, Read;
    for (const auto &L : Launches) {
      if (!L)
        continue;
      Ranges W = SplitGroup::ownedWritten(T, L->splitInfo() + T.Info * JACC_SPLIT_INFO_WORDS);
      Written.insert(Written.end(), W.begin(), W.end());
      std::vector<ArgExtent> Extents = extentsByArgument(Info, L->readInfo());
      for (unsigned A : T.AliasReads) {
        const ArgExtent &E = Extents[A];
        std::optional<Ranges> Rs =
            extentBytes(*E.Extent, E.Words, *T.Map, Plan.ArgHosts[Info.Args[A].Position]);
        if (!Rs)
          return Name + " may be read whole through '" + Info.Args[A].Name + "'";
        Read.insert(Read.end(), Rs->begin(), Rs->end());
      }
    }
    Written = normalized(std::move(Written));
    Read = normalized(std::move(Read));
    for (size_t W = 0, R = 0; W < Written.size() && R < Read.size();) {
      if (Written[W].first < Read[R].second && Read[R].first < Written[W].second)
        return Name + " is read through another pointer where it is written (bytes " +
               std::to_string(std::max(Written[W].first, Read[R].first)) + " to " +
               std::to_string(std::min(Written[W].second, Read[R].second)) + " of its mapping)";
      (Written[W].second <= Read[R].second ? W : R)++;
    }
  }
  return "";
}

namespace {

/// Whether the kernel may write M: one of its split arrays points into it, or its writes are
/// not known (a nest that cannot split).
bool writtenBy(const analysis::KernelInfo &Info, const LaunchPlan &Plan, const Mapping *M) {
  const analysis::SplitPlan &SP = Info.Split.Plan;
  if (!SP.Splittable)
    return true;
  return llvm::any_of(SP.Arrays, [&](const analysis::SplitArray &A) {
    if (A.Arg >= Info.Args.size())
      return false;
    const ArgInfo &Arg = Info.Args[A.Arg];
    // Device memory the program passes (deviceptr) may be any mapping's copy.
    const Mapping *Into = Plan.ArgMappings[Arg.Position];
    return Into == M || (Arg.Deviceptr && !Into);
  });
}

/// Whether device D holds a current copy of the whole of every mapping the plan uses (not in
/// one memory, which prefetches): a launch there that needs them whole fetches nothing, and a
/// wavefront's thousands of small launches on one device skip working out what they need.
bool holdsEveryMappingWhole(const LaunchPlan &Plan, unsigned D) {
  auto Holds = [&](const Mapping *M) {
    return !M || (!M->Unified && (M->Valid.holdersOfAll(0, M->bytes()) & ValidityMap::device(D)));
  };
  return llvm::all_of(Plan.ArgMappings, Holds) && llvm::all_of(Plan.Used, Holds);
}

/// What a probed part's ranges are listed from: its probe's read and split words, the
/// arguments' host values, and every mapping the plan names (address, begin and size).
std::vector<long long> probedKey(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                                 const KernelLaunch &L) {
  std::vector<long long> Key;
  size_t ReadWords = 0;
  for (const ReadExtent &R : Info.Split.Reads)
    ReadWords += jit::extentWords(R);
  Key.assign(L.readInfo(), L.readInfo() + ReadWords);
  auto Word = [&](auto V) { Key.push_back(static_cast<long long>(V)); };
  auto Mapped = [&](const Mapping *M) {
    Word(reinterpret_cast<uintptr_t>(M));
    if (M) {
      Word(M->Begin);
      Word(M->End);
    }
  };
  for (const SplitTarget &T : Plan.Targets) {
    const long long *Words = L.splitInfo() + T.Info * JACC_SPLIT_INFO_WORDS;
    Key.insert(Key.end(), Words, Words + JACC_SPLIT_INFO_WORDS);
    Word(T.Pointer);
    Word(T.Split);
    Mapped(T.Map);
  }
  for (void *P : Plan.ArgHosts)
    Word(reinterpret_cast<uintptr_t>(P));
  for (const Mapping *M : Plan.ArgMappings)
    Mapped(M);
  Word(Plan.Used.size());
  for (const Mapping *M : Plan.Used)
    Mapped(M);
  return Key;
}

/// Device D's part of a probed launch, its ranges listed once per key (ExchangeMemo.h).
ExchangeMemo::Part &listedPart(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                               const KernelLaunch &L, unsigned D, ExchangeMemo::Use Memo,
                               bool *ListedOnce) {
  bool Kept = false;
  ExchangeMemo::Part &P = Memo.Memo.part(Memo.Kernel, D, probedKey(Info, Plan, L), &Kept);
  if (P.Listed)
    return P;
  if (ListedOnce && Kept)
    *ListedOnce = true;
  neededOn(Info, Plan, &L, P.Need);
  for (auto &[M, Rs] : P.Need)
    Rs = normalized(std::move(Rs));
  P.CurrentAt.assign(P.Need.size(), 0);
  for (const SplitTarget &T : Plan.Targets)
    P.Owned.push_back(T.Split && T.Map ? normalized(SplitGroup::ownedWritten(
                                             T, L.splitInfo() + T.Info * JACC_SPLIT_INFO_WORDS))
                                       : Ranges());
  P.WrittenAt.assign(Plan.Targets.size(), 0);
  P.Listed = true;
  return P;
}

/// Whether a mapping the plan uses is one memory for every device (prefetched, not copied).
bool usesUnified(const LaunchPlan &Plan) {
  return llvm::any_of(Plan.Used, [](const Mapping *M) { return M->Unified; });
}

} // namespace

llvm::Error fetchForLaunch(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                           llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches, bool Probed,
                           DataEnvironment &Data, CopyCost &Cost,
                           std::optional<ExchangeMemo::Use> Memo, bool *ListedOnce) {
  if (Probed && Memo && !usesUnified(Plan)) {
    for (unsigned D = 0; D < Launches.size(); ++D) {
      if (!Launches[D])
        continue;
      ExchangeMemo::Part &P = listedPart(Info, Plan, *Launches[D], D, *Memo, ListedOnce);
      for (size_t I = 0; I < P.Need.size(); ++I) {
        Mapping *M = P.Need[I].first;
        if (P.CurrentAt[I] && M->Valid.heldSince(D, P.CurrentAt[I]))
          continue; // held there since the last launch made it so
        bool AllHeld = false;
        if (auto Err = Data.makeCurrent(*M, P.Need[I].second, D, &Cost, &AllHeld))
          return Err;
        // Bytes nobody holds yet are fetched once a device writes them: walked again.
        P.CurrentAt[I] = AllHeld ? M->Valid.version() : 0;
      }
    }
    return llvm::Error::success();
  }
  for (unsigned D = 0; D < Launches.size(); ++D) {
    if (!Launches[D])
      continue; // not one of the launch's devices
    if (!Probed && holdsEveryMappingWhole(Plan, D))
      continue; // unprobed, it needs every mapping whole, and has them
    std::vector<std::pair<Mapping *, Ranges>> Need;
    neededOn(Info, Plan, Probed ? Launches[D].get() : nullptr, Need);
    for (auto &[M, Rs] : Need) {
      if (M->Unified)
        if (auto Err = Data.prefetch(*M, Rs, D, !writtenBy(Info, Plan, M)))
          return Err;
      if (auto Err = Data.makeCurrent(*M, Rs, D, &Cost))
        return Err;
    }
  }
  return llvm::Error::success();
}

void recordSplitWrites(const LaunchPlan &Plan,
                       llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                       std::optional<ExchangeMemo::Use> Memo) {
  bool Remembered = Memo && !usesUnified(Plan);
  for (size_t I = 0; I < Plan.Targets.size(); ++I) {
    const SplitTarget &T = Plan.Targets[I];
    if (!T.Split || !T.Map)
      continue;
    for (unsigned D = 0; D < Launches.size(); ++D) {
      if (!Launches[D])
        continue;
      // The part fetchForLaunch listed for this launch.
      ExchangeMemo::Part *P = Remembered ? Memo->Memo.last(Memo->Kernel, D) : nullptr;
      if (!P || !P->Listed) {
        const long long *Words = Launches[D]->splitInfo() + T.Info * JACC_SPLIT_INFO_WORDS;
        T.Map->Valid.assignAll(SplitGroup::ownedWritten(T, Words), ValidityMap::device(D));
        continue;
      }
      if (P->WrittenAt[I] && T.Map->Valid.aloneSince(D, P->WrittenAt[I]))
        continue; // the device's alone since the last launch recorded them
      T.Map->Valid.assignAll(P->Owned[I], ValidityMap::device(D));
      P->WrittenAt[I] = T.Map->Valid.version();
    }
  }
}

void recordWholeWrites(const analysis::KernelInfo &Info, const LaunchPlan &Plan, HolderSet On) {
  llvm::SmallVector<Mapping *, 8> Seen;
  for (Mapping *M : Plan.Used) {
    if (llvm::is_contained(Seen, M) || !writtenBy(Info, Plan, M))
      continue;
    Seen.push_back(M);
    M->Valid.assign(0, M->bytes(), On & M->Home);
  }
}

} // namespace jacc
