// The validity map of one mapping: for every byte range of the mapped array, the set of holders
// (devices and the host) whose copy is current. Adjacent ranges with equal sets coalesce.
#ifndef JACC_SRC_DATA_VALIDITYMAP_H
#define JACC_SRC_DATA_VALIDITYMAP_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace jacc {

/// A set of holders: bit D for device D (D < MaxDevices), bit HostBit for the host.
using HolderSet = uint64_t;

/// The ranges of one mapping, by offset from its Begin, and who holds a current copy of each.
/// Updates and lookups of a range cost O(log n + k), n the runs of the map and k those the range
/// touches. Not thread-safe: the caller holds the present table's lock.
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

  /// [B, E) is current on exactly Holders (a device wrote it: Holders is that device).
  void assign(uint64_t B, uint64_t E, HolderSet Holders);
  /// [B, E) is current on Holders too (a copy made it valid there).
  void add(uint64_t B, uint64_t E, HolderSet Holders);
  /// [B, E) is no longer current on Holders (their copy was overwritten or released).
  void remove(uint64_t B, uint64_t E, HolderSet Holders);

  /// The holders whose copy of every byte of [B, E) is current (all holders for an empty range).
  HolderSet holdersOfAll(uint64_t B, uint64_t E) const;
  /// The runs of [B, E), clipped to it, in order.
  std::vector<Run> runsIn(uint64_t B, uint64_t E) const;
  /// The runs of [B, E) whose copy on holder H is not current, clipped to [B, E), in order; each
  /// with the holders that have it (the sources to fetch from; 0 when nobody has it). Adjacent
  /// runs differ in their holders.
  std::vector<Run> missingOn(unsigned H, uint64_t B, uint64_t E) const;
  /// The same for each of Ranges, sorted and disjoint (a column band's rows), appended to Out in
  /// order: each range's search starts from where the last one ended, since the runs it needs
  /// are usually the next few (a search per row from the root missed the cache at every node).
  void appendMissing(unsigned H, const std::vector<std::pair<uint64_t, uint64_t>> &Ranges,
                     std::vector<Run> &Out) const;

  /// Every run, in order: they cover [0, bytes()) and no two neighbours have equal holders.
  std::vector<Run> runs() const;
  size_t size() const { return Runs.size(); }

  /// The lowest-numbered holder of a non-empty set (a device before the host).
  static unsigned first(HolderSet S);
  /// "{0,2,host}".
  static std::string describe(HolderSet S);

private:
  /// Make B the start of a run (0 < B < Bytes), splitting the run that contains it.
  void split(uint64_t B);
  /// Merge the runs around [B, E) with their neighbours when their holders are equal.
  void coalesce(uint64_t B, uint64_t E);
  /// Apply F to the holders of every byte of [B, E).
  template <typename Fn> void update(uint64_t B, uint64_t E, Fn F);
  using RunIt = std::map<uint64_t, HolderSet>::const_iterator;
  /// Append the runs of [B, E), clipped to it, whose holders K accepts.
  template <typename Keep>
  void appendRuns(uint64_t B, uint64_t E, std::vector<Run> &Out, Keep K) const;
  /// The same from It, the run holding B (B < E <= bytes()); returns the run holding E - 1.
  template <typename Keep>
  RunIt appendRunsFrom(RunIt It, uint64_t B, uint64_t E, std::vector<Run> &Out, Keep K) const;

  uint64_t Bytes;
  std::map<uint64_t, HolderSet> Runs; ///< by start; a run ends where the next starts (or Bytes)
};

} // namespace jacc

#endif
