// The disk cache's own files: their names, entry.json and stats.json to and from JSON, checksums,
// and reading an entry back with its files checked against its entry.json.
//
// entry.json (format 1):
//   {"format": 1, "key": "<key>", "created": <s>, "last_used": <s>, "hits": <n>,
//    "summary": {"size": <bytes>, "checksum": "xxh64:<16 hex>"},
//    "artifacts": {"<name>": {"size": <bytes>, "checksum": "xxh64:<16 hex>"}, ...}}
// stats.json:
//   {"format": 1, "memory_hits": <n>, "disk_hits": <n>, "misses": <n>,
//    "compile_ms_saved": <ms>, "evictions": <n>, "zeroed_at": <s>}
#ifndef JACC_JIT_CACHE_STOREFORMAT_H
#define JACC_JIT_CACHE_STOREFORMAT_H

#include "jit/cache/CacheFiles.h"
#include "jit/cache/DiskCache.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace jacc::jit::diskcache {

constexpr const char *EntryFile = "entry.json";
constexpr const char *SummaryFile = "summary.json";
constexpr const char *EntryLockFile = "entry.lock";
constexpr const char *StatsFile = "stats.json";
constexpr const char *RootLockFile = "cache.lock";
constexpr const char *TagFile = "CACHEDIR.TAG";
/// Records of what the runtime learnt of running programs (DiskCache::readRecord).
constexpr const char *RecordsDir = "records";
constexpr const char *TagText = "Signature: 8a477f597d28d172789f06886806bc55\n"
                                "# This file is a cache directory tag created by jacc.\n"
                                "# For information about cache directory tags, see:\n"
                                "#\thttps://bford.info/cachedir/\n";

// Bounds on what a reader loads, so that a garbage file cannot make it allocate without limit.
constexpr uint64_t MaxEntryBytes = 1 << 20;
constexpr uint64_t MaxSummaryBytes = 64 << 20;
constexpr uint64_t MaxStatsBytes = 1 << 20;

/// "xxh64:<16 hex>" of Bytes, as entry.json records it.
std::string checksum(llvm::StringRef Bytes);

/// Parse a JSON object (refusing documents nested too deeply for llvm::json::parse, which
/// recurses per level); nullopt with the reason in Why.
std::optional<llvm::json::Object> parseObject(llvm::StringRef Text, std::string &Why);

/// V as indented JSON text, with a final newline.
std::string toJson(llvm::json::Value V);

/// S as a JSON value: the string itself when it is UTF-8, else {"bytes": "<hex>"}. JSON text must
/// be UTF-8 (llvm::json asserts it); a kernel's comments and string literals need not be.
llvm::json::Value textValue(llvm::StringRef S);

/// The text textValue stored in V (either form); nullopt when V is missing or holds neither.
std::optional<std::string> textOf(const llvm::json::Value *V);

/// Typed fields of a stored JSON object, read strictly: the first field missing or of another
/// type is named in Bad (and a default returned), so a reader checks once at its end.
struct FieldReader {
  const llvm::json::Object &O;
  std::string &Bad;
  std::string str(llvm::StringRef F); ///< text as textValue stores it
  int64_t num(llvm::StringRef F);
  bool flag(llvm::StringRef F);
  const llvm::json::Array &arr(llvm::StringRef F);
  void fail(llvm::StringRef F) {
    if (Bad.empty())
      Bad = F.str();
  }
};

/// A file of an entry as entry.json records it.
struct FileSum {
  uint64_t Size = 0;
  std::string Checksum;
};

/// entry.json in memory.
struct EntryMeta {
  int64_t Created = 0, LastUsed = 0;
  uint64_t Hits = 0;
  FileSum Summary;
  std::map<std::string, FileSum> Artifacts;
};

/// The text of Key's entry.json.
std::string entryJson(llvm::StringRef Key, const EntryMeta &M);

/// Parse entry.json; false with the problem ("entry.json: ...") in Why.
bool parseEntry(llvm::StringRef Text, llvm::StringRef Key, EntryMeta &M, std::string &Why);

/// Check a file of an entry against its record: false with "name: problem" in Why. Bytes
/// receives the content when Read (its checksum then verified); otherwise only the size is
/// checked (one stat).
bool checkFile(const std::string &EntryDir, llvm::StringRef Name, const FileSum &F, bool Read,
               std::string *Bytes, std::string &Why);

/// How much of an entry to check.
enum class Depth {
  Meta,   ///< entry.json only
  Lookup, ///< and the summary (read, checksum, parsed), the artifacts' sizes (stat)
  Full,   ///< and the artifacts' checksums (verify)
};

/// What reading an entry found.
enum class Found { Entry, Absent, Bad };

/// entry.json as a reader saw it, to tell later whether the entry was replaced meanwhile.
struct EntrySeen {
  int Errno = 0; ///< of reading it
  std::string Text;
  FileStamp Stamp; ///< which file it was: a replaced entry.json may have the same text
};

/// Read and check an entry. Absent: no entry directory (a plain miss). Bad: Why says why.
/// Summary, when given, receives the summary from Depth::Lookup on.
Found loadEntry(const std::string &EntryDir, llvm::StringRef Key, Depth D, EntryMeta &M,
                EntrySeen &Seen, llvm::json::Object *Summary, std::string &Why);

/// stats.json read tolerantly: a missing or mistyped counter is 0, garbage is all zeros.
DiskCacheStats parseStats(llvm::StringRef Text);

/// The text of stats.json.
std::string statsJson(const DiskCacheStats &S);

} // namespace jacc::jit::diskcache

#endif
