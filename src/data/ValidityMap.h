// The validity map of one mapping: for every byte range of the mapped array, the set of holders
// (devices and the host) whose copy is current. Adjacent ranges with equal sets coalesce.
#ifndef JACC_SRC_DATA_VALIDITYMAP_H
#define JACC_SRC_DATA_VALIDITYMAP_H

#include "src/data/StridedRuns.h"

#include <cstdint>
#include <string>
#include <vector>

namespace jacc {

/// A set of holders: bit D for device D (D < MaxDevices), bit HostBit for the host.
using HolderSet = uint64_t;

/// The ranges of one mapping, by offset from its Begin, and who holds a current copy of each.
/// The runs are a sorted array: a lookup costs O(log n + k), n the runs of the map and k those
/// the range touches, and walking them is a scan of contiguous memory (kernels split along
/// different axes cut maps into combs of thousands of runs, which every launch walks). An update
/// rewrites the array once, O(n + k): the updates of a launch's many ranges (a column band is a
/// range per row) come together, sorted (addAll, assignAll). Not thread-safe: the caller holds
/// the present table's lock.
class ValidityMap {
public:
  static constexpr unsigned HostBit = 63;
  static constexpr unsigned MaxDevices = 63;
  static constexpr HolderSet host() { return HolderSet(1) << HostBit; }
  static constexpr HolderSet device(unsigned D) { return HolderSet(1) << D; }
  /// Devices 0..Devices-1.
  static constexpr HolderSet devices(unsigned Devices) {
    return Devices >= MaxDevices ? host() - 1 : device(Devices) - 1;
  }
  /// The host and devices 0..Devices-1.
  static constexpr HolderSet everywhere(unsigned Devices) { return host() | devices(Devices); }

  /// A maximal run [Begin, End) whose bytes all have the holders Holders.
  struct Run {
    uint64_t Begin = 0, End = 0;
    HolderSet Holders = 0;
    bool operator==(const Run &O) const {
      return Begin == O.Begin && End == O.End && Holders == O.Holders;
    }
  };

  /// A mapping of Bytes bytes, every byte valid on Initial (a copyin: everywhere; a create: the
  /// host only, until a device writes).
  ValidityMap(uint64_t Bytes, HolderSet Initial);

  uint64_t bytes() const { return Bytes; }
  /// Changes whenever the holders of a byte change, and differs between any two maps of the
  /// process: a launch that found every range it needs current at version V needs nothing while
  /// the map stays at V (src/launch/ExchangeMemo.h).
  uint64_t version() const { return Version; }
  /// Whether every byte holder H held at version Since (of this map) it still holds: no later
  /// update took H off a byte. A launch that found its ranges held at Since skips walking
  /// them: most launches of a split program need only what their device already holds.
  bool heldSince(unsigned H, uint64_t Since) const {
    return Since >= Born && stamps(H).LostAt <= Since;
  }
  /// Whether bytes that H alone held at version Since are still H's alone: H lost no byte and
  /// no other holder gained one since (a device rewriting the part it owns changes nothing).
  bool aloneSince(unsigned H, uint64_t Since) const;

  /// Sorted, disjoint byte ranges [begin, end).
  using Ranges = ByteRanges;

  /// [B, E) is current on exactly Holders (a device wrote it: Holders is that device).
  void assign(uint64_t B, uint64_t E, HolderSet Holders) { assignAll({{B, E}}, Holders); }
  /// [B, E) is current on Holders too (a copy made it valid there).
  void add(uint64_t B, uint64_t E, HolderSet Holders) { addAll({{B, E}}, Holders); }
  /// [B, E) is no longer current on Holders (their copy was overwritten or released).
  void remove(uint64_t B, uint64_t E, HolderSet Holders);
  /// assign and add of every range of R (sorted and disjoint), in one rewrite of the runs.
  void assignAll(const Ranges &R, HolderSet Holders);
  void addAll(const Ranges &R, HolderSet Holders);

  /// The holders whose copy of every byte of [B, E) is current (all holders for an empty range).
  HolderSet holdersOfAll(uint64_t B, uint64_t E) const;
  /// The runs of [B, E), clipped to it, in order.
  std::vector<Run> runsIn(uint64_t B, uint64_t E) const;
  /// The runs of [B, E) whose copy on holder H is not current, clipped to [B, E), in order; each
  /// with the holders that have it (the sources to fetch from; 0 when nobody has it). Adjacent
  /// runs differ in their holders.
  std::vector<Run> missingOn(unsigned H, uint64_t B, uint64_t E) const;
  /// The same for each of R, sorted and disjoint (a column band's rows), appended to Out in
  /// order: each range's search starts from where the last one ended, since the runs it needs
  /// are usually the next few.
  void appendMissing(unsigned H, const Ranges &R, std::vector<Run> &Out) const;

  /// Every run, in order: they cover [0, bytes()) and no two neighbours have equal holders.
  std::vector<Run> runs() const;
  size_t size() const { return Runs.size(); }

  /// The lowest-numbered holder of a non-empty set (a device before the host).
  static unsigned first(HolderSet S);
  /// "{0,2,host}".
  static std::string describe(HolderSet S);

private:
  /// A run's start and holders; it ends where the next starts (or at Bytes).
  struct Start {
    uint64_t Begin;
    HolderSet Holders;
  };
  /// Apply F to the holders of every byte of the ranges of R (sorted, disjoint), coalescing.
  template <typename Fn> void updateAll(const Ranges &R, Fn F);
  /// The index of the run holding byte B (B < Bytes).
  size_t runAt(uint64_t B) const;
  /// The same, searching from run I on when it is at or before B's (sorted ranges' lookups are
  /// usually a few runs apart); any I else.
  size_t runFrom(size_t I, uint64_t B) const;
  uint64_t endOf(size_t I) const { return I + 1 < Runs.size() ? Runs[I + 1].Begin : Bytes; }
  /// Append the runs of [B, E), clipped to it, whose holders K accepts, from run I (the run
  /// holding B; B < E <= bytes()); returns the run holding E - 1.
  template <typename Keep>
  size_t appendRunsFrom(size_t I, uint64_t B, uint64_t E, std::vector<Run> &Out, Keep K) const;

  /// A version no map of the process had before.
  static uint64_t newVersion();

  uint64_t Bytes;
  uint64_t Version = newVersion();
  uint64_t Born = Version;
  /// A holder's versions of the last update that took it off a byte, and that gave it one.
  struct Stamps {
    uint64_t LostAt = 0, GainedAt = 0;
  };
  /// By slot: the host's first, then each device's up to the highest one an update touched
  /// (kept small: a mapping's size decides which allocator bins its node comes from).
  std::vector<Stamps> Stamped;
  static unsigned slot(unsigned H) { return H == HostBit ? 0 : H + 1; }
  Stamps stamps(unsigned H) const { return slot(H) < Stamped.size() ? Stamped[slot(H)] : Stamps(); }
  /// Stamps of the holders in Lost and Gained with version V.
  void stamp(HolderSet Lost, HolderSet Gained, uint64_t V);
  std::vector<Start> Runs;    ///< sorted by Begin, the first at 0, no two neighbours alike
  std::vector<Start> Scratch; ///< the next runs while an update rewrites them
};

} // namespace jacc

#endif
