// The persistent kernel cache: compiled kernels kept on disk across processes, so that a second
// run of a program compiles nothing. A store of entries addressed by a key (a hash of the
// deterministic inputs of a compile, computed by the caller); it knows nothing of kernels beyond
// the summary the caller gives it as JSON. Used by the runtime (jit/KernelCache) and by the
// `jacc-cache` CLI (tools/jacc-cache/).
//
// Layout under the cache directory:
//   <dir>/CACHEDIR.TAG                     marks the directory as a cache (backup tools skip it)
//   <dir>/stats.json                       cumulative statistics of every process (see Stats)
//   <dir>/<k0k1>/<key>/summary.json        the caller's summary (written once, with the entry)
//   <dir>/<k0k1>/<key>/<artifact>          artifacts ("host.o", "host-split.o", "sm_80.cubin")
//   <dir>/<k0k1>/<key>/entry.json          format version, created, last used, hits, and per
//                                          artifact its size and checksum; written last: an entry
//                                          without it (or with a bad one) does not exist
//   <dir>/<k0k1>/<key>/entry.lock          flock(2) of the writers of the entry (store,
//                                          addArtifact, recordHit, removal); readers take none
//   <dir>/cache.lock                       flock(2) of the writers of stats.json and CACHEDIR.TAG
// Every file is written to a temporary file in the same directory (<name>.tmp.<pid>.<random>),
// then renamed: readers see a whole file or none. Writers of an entry hold its lock, so two
// processes storing one entry at once are safe (one after the other: the last one wins), and
// addArtifact and recordHit (read-modify-write of entry.json) lose neither artifacts nor hits.
// A corrupt, truncated or foreign-version entry is a miss (and is replaced by the next store)
// with one warning, never a crash; an entry being written by another process (its lock held) is
// a quiet miss, and a reader that finds entry.json replaced while it read reads again. A
// directory with neither entry.json nor summary.json is no entry (being created or removed).
//
// The formats of entry.json and stats.json: StoreFormat.h. The configuration from the environment
// (JACC_CACHE*): DiskCacheConfig.h.
#ifndef JACC_JIT_CACHE_DISKCACHE_H
#define JACC_JIT_CACHE_DISKCACHE_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jacc::jit {

/// Bumped whenever the layout, the summary schema or an artifact's meaning changes: entries of
/// another format are misses.
constexpr unsigned DiskCacheFormat = 1;

/// One entry as listed (without its artifacts' bytes).
struct DiskCacheEntryInfo {
  std::string Key;
  llvm::json::Object Summary; ///< what the caller stored (see KernelCache for the schema)
  int64_t Created = 0, LastUsed = 0; ///< seconds since the epoch
  uint64_t Hits = 0;
  uint64_t Size = 0;          ///< bytes of all its files
  std::map<std::string, uint64_t> Artifacts; ///< name -> size
};

/// Cumulative statistics of every process that used the cache (`jacc-cache stats`).
struct DiskCacheStats {
  uint64_t MemoryHits = 0, DiskHits = 0, Misses = 0; ///< misses: compiles
  double CompileMsSaved = 0; ///< compile time of the entries hit on disk
  uint64_t Evictions = 0;    ///< entries removed by store/addArtifact to make room (not prune)
  int64_t ZeroedAt = 0;      ///< when `zero-stats` last ran (0: never)
};

/// Outcome of `verify` for one entry.
struct DiskCacheProblem {
  std::string Key;
  std::string What; ///< "host.o: checksum mismatch", "entry.json: unreadable", ...
};

/// Keys are 2 to 128 lowercase hexadecimal digits (a hash in hex); artifact names are 1 to 128
/// of [A-Za-z0-9._+-], not starting with '.', without ".tmp.", and none of the entry's own files.
class DiskCache {
public:
  /// Open (creating the directory when needed). A directory that cannot be created or written
  /// is an error naming it: callers then run without the disk cache (one warning). A jacc cache
  /// that can be read but not written, or any jacc cache when ReadOnly (JACC_CACHE=readonly),
  /// opens read-only: lookups hit, stores and hits are not recorded, removals are errors.
  static llvm::Expected<DiskCache> open(const std::string &Dir, uint64_t MaxSize,
                                        bool ReadOnly = false);

  const std::string &dir() const { return Dir; }
  bool readOnly() const { return ReadOnly; }
  uint64_t maxSize() const { return MaxSize; }
  /// <dir>/<k0k1>/<key>: where the entry of Key lives (whether or not it exists).
  std::string entryDir(llvm::StringRef Key) const;
  static bool isValidKey(llvm::StringRef Key);
  static bool isValidArtifactName(llvm::StringRef Name);

  /// The entry's summary, if a valid entry of this format exists. A bad entry is a miss; the
  /// reason goes to Warning (empty when there was simply no entry).
  std::optional<llvm::json::Object> lookup(llvm::StringRef Key, std::string &Warning) const;
  /// An artifact of an entry, its checksum verified; nullopt if absent or bad (Warning says).
  std::optional<std::string> readArtifact(llvm::StringRef Key, llvm::StringRef Name,
                                          std::string &Warning) const;

  /// Create or replace an entry with its summary and artifacts (replacing drops the artifacts of
  /// the old entry: created = last used = now, hits 0), then, beyond the size limit, evict bad
  /// entries, then least recently used ones, never this one (evictions are counted in the
  /// statistics). A write error (ENOSPC, EACCES, ...) is an error naming the file.
  llvm::Error store(llvm::StringRef Key, const llvm::json::Object &Summary,
                    const std::map<std::string, std::string> &Artifacts);
  /// Add (or replace) one artifact of an existing entry (a split entry or a GPU image compiled
  /// later), then evict as store does when the entry grew. NotPresent-like error (InvalidArgument)
  /// if the entry does not exist or is not valid.
  llvm::Error addArtifact(llvm::StringRef Key, llvm::StringRef Name, llvm::StringRef Bytes);
  /// Count a hit: hits + 1, last used = now. Under the entry's lock, so concurrent hits all count
  /// and never drop an artifact added at the same time; reads and rewrites entry.json only.
  llvm::Error recordHit(llvm::StringRef Key);

  /// Every valid entry (entry.json, summary and artifact sizes checked: reading every artifact
  /// is verify's job), and the total size of the cache (valid or not).
  std::vector<DiskCacheEntryInfo> list() const;
  uint64_t totalSize() const;
  /// The entry whose key starts with Prefix: InvalidArgument if none or several (naming them).
  llvm::Expected<DiskCacheEntryInfo> find(llvm::StringRef Prefix) const;
  llvm::Error remove(llvm::StringRef Key);
  /// Remove entries last used before OlderThan (seconds since the epoch; 0: no age limit), then
  /// least recently used ones until the total is at most MaxSize. Bad entries (another format, an
  /// unreadable entry.json) count as the least recently used of all. Returns how many went.
  llvm::Expected<unsigned> prune(uint64_t MaxSize, int64_t OlderThan = 0);
  /// Remove every entry and record (the statistics and CACHEDIR.TAG stay).
  llvm::Error clear();

  /// A small record kept beside the entries (<dir>/records/<Name>, Name an artifact name): what
  /// the runtime learnt of running a program, read at its start. Nullopt when absent, unreadable
  /// or over 64 KiB.
  std::optional<std::string> readRecord(llvm::StringRef Name) const;
  /// Write a record whole (readers see the old one or the new one); an error naming the file, or
  /// InvalidArgument when read-only or Name is not an artifact name.
  llvm::Error writeRecord(llvm::StringRef Name, llvm::StringRef Bytes);
  /// Check every entry (files present, checksums, format); remove the bad ones and report them.
  /// Also removes, without reporting them, the files of an entry that entry.json does not name
  /// (temporary files of crashed writers, artifacts of a replaced entry).
  std::vector<DiskCacheProblem> verify();

  /// Add to the cumulative statistics (under a file lock: concurrent processes add up).
  /// Delta.ZeroedAt is ignored.
  llvm::Error addStats(const DiskCacheStats &Delta);
  DiskCacheStats stats() const;
  llvm::Error zeroStats();

private:
  DiskCache(std::string Dir, uint64_t MaxSize) : Dir(std::move(Dir)), MaxSize(MaxSize) {}
  /// Remove the entry of Key under its lock; Removed says whether there was one. OnlyIfBad:
  /// only if it is not a valid entry once locked (eviction of a bad entry must not remove one
  /// that another process has just finished writing).
  llvm::Error removeEntry(llvm::StringRef Key, bool &Removed, bool OnlyIfBad = false);
  /// Remove bad entries (another format, unreadable), then entries last used before OlderThan,
  /// then least recently used ones, but never Keep, until the total is at most Limit. Stops at
  /// the first error unless BestEffort. Adds to N the entries removed.
  llvm::Error removeOldest(uint64_t Limit, int64_t OlderThan, llvm::StringRef Keep,
                           bool BestEffort, unsigned &N);
  /// Evict as removeOldest does down to MaxSize after a store, never Keep; counts evictions.
  void evict(llvm::StringRef Keep);
  std::string Dir;
  uint64_t MaxSize;
  bool ReadOnly = false;
};

} // namespace jacc::jit

#endif
