// What each device's launch needs (its probed read extents as bytes, else whole mappings),
// fetched before the launch; and the split or whole writes recorded as current after it.
#include "src/launch/DemandExchange.h"

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
  Ranges Out;
  for (size_t I = 0; I < R.Ranges.size(); ++I) {
    long long B = Words[2 + 2 * I], E = Words[3 + 2 * I];
    if (B >= E)
      continue;
    // Guard the products: an index far outside the mapping clamps to it.
    long long Limit = (Size + std::llabs(Base)) / Unit + 2;
    B = std::clamp(B, -Limit, Limit);
    E = std::clamp(E, -Limit, Limit);
    if (Pitch > 0) {
      // Along an inner dimension: the band [B, E) of every row (Pitch bytes) of the mapping.
      Ranges Band = bandOfRows(Base, Pitch, B * Unit, E * Unit, Size);
      Out.insert(Out.end(), Band.begin(), Band.end());
      continue;
    }
    long long Lo = std::max(0LL, Base + B * Unit), Hi = std::min(Size, Base + E * Unit);
    if (Lo < Hi)
      Out.push_back({static_cast<uint64_t>(Lo), static_cast<uint64_t>(Hi)});
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
  // The extents' words, by argument.
  std::vector<const long long *> WordsOf(Info.Args.size(), nullptr);
  std::vector<const ReadExtent *> ExtentOf(Info.Args.size(), nullptr);
  if (ReadInfo) {
    const long long *W = ReadInfo;
    for (const ReadExtent &R : Info.Split.Reads) {
      if (R.Arg < Info.Args.size()) {
        WordsOf[R.Arg] = W;
        ExtentOf[R.Arg] = &R;
      }
      W += JACC_READ_INFO_WORDS(R.Whole ? 0 : R.Ranges.size());
    }
  }
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
    if (ExtentOf[Index])
      R = extentBytes(*ExtentOf[Index], WordsOf[Index], *M, Plan.ArgHosts[A.Position]);
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

/// Whether the kernel may write M: one of its split arrays points into it, or its writes are
/// not known (a nest that cannot split).
bool writtenBy(const analysis::KernelInfo &Info, const LaunchPlan &Plan, const Mapping *M) {
  const analysis::SplitPlan &SP = Info.Split.Plan;
  if (!SP.Splittable)
    return true;
  return llvm::any_of(SP.Arrays, [&](const analysis::SplitArray &A) {
    return A.Arg < Info.Args.size() && Plan.ArgMappings[Info.Args[A.Arg].Position] == M;
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

} // namespace

llvm::Error fetchForLaunch(const analysis::KernelInfo &Info, const LaunchPlan &Plan,
                           llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches, bool Probed,
                           DataEnvironment &Data, CopyCost &Cost) {
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
                       llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches) {
  for (const SplitTarget &T : Plan.Targets) {
    if (!T.Split || !T.Map)
      continue;
    for (unsigned D = 0; D < Launches.size(); ++D) {
      if (!Launches[D])
        continue;
      const long long *Words = Launches[D]->splitInfo() + T.Info * JACC_SPLIT_INFO_WORDS;
      T.Map->Valid.assignAll(SplitGroup::ownedWritten(T, Words), ValidityMap::device(D));
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
