// The persistent kernel cache store: layout and concurrency rules in DiskCache.h, its files in
// StoreFormat.h, the file primitives in CacheFiles.h.
#include "jit/cache/DiskCache.h"

#include "jit/cache/CacheFiles.h"
#include "jit/cache/StoreFormat.h"
#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <tuple>
#include <utility>

#include <sys/stat.h>
#include <unistd.h>

namespace jacc::jit {

using namespace diskcache;

namespace {

int64_t now() {
  return static_cast<int64_t>(std::time(nullptr));
}

bool isHexDigit(char C) {
  return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f');
}

bool isHexPair(llvm::StringRef S) {
  return S.size() == 2 && isHexDigit(S[0]) && isHexDigit(S[1]);
}

/// What a reader does after finding a bad entry.
enum class Verdict { Warn, Quiet, Retry };

/// A bad entry is worth a warning only when nobody is changing it: while a writer holds its lock
/// it is a quiet miss, and when entry.json changed since it was read the reader mixed two
/// versions of the entry and tries again.
Verdict judge(const std::string &EntryDir, const EntrySeen &Seen) {
  if (lockHeld(pathJoin(EntryDir, EntryLockFile)))
    return Verdict::Quiet;
  EntrySeen Now;
  Now.Errno = readFile(pathJoin(EntryDir, EntryFile), MaxEntryBytes, Now.Text, &Now.Stamp);
  // A remover that finished meanwhile (its lock is gone with the entry): nothing is left of it.
  struct stat St;
  if (Now.Errno == ENOENT && ::lstat(pathJoin(EntryDir, SummaryFile).c_str(), &St) != 0 &&
      (errno == ENOENT || errno == ENOTDIR))
    return Verdict::Quiet;
  // A store that replaced the entry meanwhile (in the same second: the same text) is a retry.
  if (Now.Errno != Seen.Errno || Now.Text != Seen.Text || Now.Stamp != Seen.Stamp)
    return Verdict::Retry;
  return Verdict::Warn;
}

/// Remove an entry directory whose lock L holds; 0 or the errno value of what failed (Failed).
/// entry.json goes first: from then on the entry does not exist, whatever is left on failure.
/// The lock file goes last, still held: waiters see it unlinked and start again (see lockIn); a
/// writer that recreated it meanwhile keeps the directory (rmdir fails with ENOTEMPTY).
int removeLocked(const std::string &EntryDir, std::string &Failed) {
  Failed = pathJoin(EntryDir, EntryFile);
  if (int E = removeTree(Failed))
    return E;
  for (const std::string &N : listDir(EntryDir)) {
    Failed = pathJoin(EntryDir, N);
    if (N != EntryLockFile)
      if (int E = removeTree(Failed))
        return E;
  }
  ::unlink(pathJoin(EntryDir, EntryLockFile).c_str());
  Failed = EntryDir;
  if (::rmdir(EntryDir.c_str()) != 0 && errno != ENOTEMPTY && errno != EEXIST && errno != ENOENT)
    return errno;
  return 0;
}

/// The valid entries whose key starts with Prefix, checked to depth D (Summary filled from
/// Depth::Lookup on). Bad, when given, receives the keys of the entry directories that hold a bad
/// entry (or one being written).
std::vector<DiskCacheEntryInfo> scanEntries(const std::string &Root, Depth D,
                                            llvm::StringRef Prefix = "",
                                            std::vector<DiskCacheEntryInfo> *Bad = nullptr) {
  std::vector<DiskCacheEntryInfo> Entries;
  for (const std::string &Sub : listDir(Root)) {
    if (!isHexPair(Sub) || !(llvm::StringRef(Sub).startswith(Prefix.take_front(2))))
      continue;
    for (const std::string &Key : listDir(pathJoin(Root, Sub))) {
      if (!DiskCache::isValidKey(Key) || llvm::StringRef(Key).take_front(2) != Sub ||
          !llvm::StringRef(Key).startswith(Prefix))
        continue;
      std::string EDir = pathJoin(pathJoin(Root, Sub), Key);
      EntryMeta M;
      EntrySeen Seen;
      std::string Why;
      DiskCacheEntryInfo Info;
      Found F = loadEntry(EDir, Key, D, M, Seen, D == Depth::Meta ? nullptr : &Info.Summary, Why);
      if (F != Found::Entry) {
        if (F == Found::Bad && Bad) {
          Info.Key = Key;
          Info.Size = treeSize(EDir);
          Bad->push_back(std::move(Info));
        }
        continue;
      }
      Info.Key = Key;
      Info.Created = M.Created;
      Info.LastUsed = M.LastUsed;
      Info.Hits = M.Hits;
      Info.Size = treeSize(EDir);
      for (const auto &[Name, F] : M.Artifacts)
        Info.Artifacts[Name] = F.Size;
      Entries.push_back(std::move(Info));
    }
  }
  return Entries;
}

std::string warningFor(const std::string &EntryDir, const std::string &Why) {
  return "kernel cache entry '" + EntryDir + "': " + Why +
         "; ignored (the next compile of this kernel replaces it)";
}

bool lruBefore(const DiskCacheEntryInfo &A, const DiskCacheEntryInfo &B) {
  return std::tie(A.LastUsed, A.Created, A.Key) < std::tie(B.LastUsed, B.Created, B.Key);
}

} // namespace

bool DiskCache::isValidKey(llvm::StringRef Key) {
  return Key.size() >= 2 && Key.size() <= 128 && llvm::all_of(Key, isHexDigit);
}

bool DiskCache::isValidArtifactName(llvm::StringRef Name) {
  if (Name.empty() || Name.size() > 128 || Name[0] == '.' || Name.contains(".tmp.") ||
      Name == EntryFile || Name == SummaryFile || Name == EntryLockFile)
    return false;
  return llvm::all_of(Name, [](char C) {
    return llvm::isAlnum(C) || C == '.' || C == '_' || C == '-' || C == '+';
  });
}

std::string DiskCache::entryDir(llvm::StringRef Key) const {
  return Dir + "/" + Key.take_front(2).str() + "/" + Key.str();
}

namespace {

llvm::Error readOnlyError(const std::string &Dir) {
  return makeError(ErrorCode::InvalidArgument,
                   "the kernel cache directory '" + Dir +
                       "' is read-only: its entries are used but cannot be removed or changed");
}

} // namespace

llvm::Expected<DiskCache> DiskCache::open(const std::string &Dir, uint64_t MaxSize,
                                          bool ReadOnly) {
  const char *Fix = "; set JACC_CACHE_DIR to a writable directory, or JACC_CACHE=off to run "
                    "without the disk cache";
  if (Dir.empty())
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine("no kernel cache directory (neither JACC_CACHE_DIR, "
                                 "XDG_CACHE_HOME nor HOME is set)") +
                         Fix);
  if (ReadOnly) {
    // JACC_CACHE=readonly: an existing jacc cache, used as it is.
    if (::access(pathJoin(Dir, TagFile).c_str(), R_OK) != 0)
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_CACHE=readonly: '" + Dir + "' is not a jacc kernel cache (" +
                           errnoText(errno) + "); run once with JACC_CACHE=on to fill it" + Fix);
    DiskCache C(Dir, MaxSize);
    C.ReadOnly = true;
    return C;
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return makeError(ErrorCode::InvalidArgument, "cannot create the kernel cache directory '" +
                                                     Dir + "': " + EC.message() + Fix);
  struct stat St;
  if (::stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode))
    return makeError(ErrorCode::InvalidArgument,
                     "the kernel cache directory '" + Dir + "' is not a directory" + Fix);
  // access() says EROFS for a read-only mount and EACCES for a directory without write
  // permission (except for root, whom only EROFS stops: a failing write then says so).
  if (::access(Dir.c_str(), W_OK | X_OK) != 0) {
    int Errno = errno;
    // A populated cache that cannot be written (installed read-only, shared) still serves hits.
    if (::access(pathJoin(Dir, TagFile).c_str(), R_OK) == 0 &&
        ::access(Dir.c_str(), R_OK | X_OK) == 0) {
      DiskCache C(Dir, MaxSize);
      C.ReadOnly = true;
      return C;
    }
    return makeError(ErrorCode::InvalidArgument, "the kernel cache directory '" + Dir +
                                                     "' is not writable: " + errnoText(Errno) +
                                                     Fix);
  }
  DiskCache C(Dir, MaxSize);
  if (::access(pathJoin(Dir, TagFile).c_str(), F_OK) != 0) {
    FileLock L;
    if (int E = lockIn(Dir, RootLockFile, false, {}, L))
      return makeError(ErrorCode::InvalidArgument, "the kernel cache directory '" + Dir +
                                                       "' is not writable: " + errnoText(E) + Fix);
    if (llvm::Error E = writeFileAtomic(Dir, TagFile, TagText)) {
      std::string Message;
      takeError(std::move(E), Message);
      return makeError(ErrorCode::InvalidArgument, Message);
    }
  }
  return C;
}

std::optional<llvm::json::Object> DiskCache::lookup(llvm::StringRef Key,
                                                    std::string &Warning) const {
  Warning.clear();
  if (!isValidKey(Key)) {
    Warning = "'" + Key.str() + "' is not a kernel cache key (2 to 128 lowercase hex digits)";
    return std::nullopt;
  }
  std::string EDir = entryDir(Key);
  for (int Attempt = 0; Attempt < 3; ++Attempt) {
    EntryMeta M;
    EntrySeen Seen;
    std::string Why;
    llvm::json::Object Summary;
    switch (loadEntry(EDir, Key, Depth::Lookup, M, Seen, &Summary, Why)) {
    case Found::Entry:
      return Summary;
    case Found::Absent:
      return std::nullopt;
    case Found::Bad:
      switch (judge(EDir, Seen)) {
      case Verdict::Quiet:
        return std::nullopt;
      case Verdict::Warn:
        Warning = warningFor(EDir, Why);
        return std::nullopt;
      case Verdict::Retry:
        break;
      }
    }
  }
  return std::nullopt; // replaced under our feet again and again: busy, not bad
}

std::optional<std::string> DiskCache::readArtifact(llvm::StringRef Key, llvm::StringRef Name,
                                                   std::string &Warning) const {
  Warning.clear();
  if (!isValidKey(Key) || !isValidArtifactName(Name)) {
    Warning = "'" + Key.str() + "/" + Name.str() + "' does not name a kernel cache artifact";
    return std::nullopt;
  }
  std::string EDir = entryDir(Key);
  for (int Attempt = 0; Attempt < 3; ++Attempt) {
    EntryMeta M;
    EntrySeen Seen;
    std::string Why, Bytes;
    Found F = loadEntry(EDir, Key, Depth::Meta, M, Seen, nullptr, Why);
    if (F == Found::Absent)
      return std::nullopt;
    if (F == Found::Entry) {
      auto It = M.Artifacts.find(Name.str());
      if (It == M.Artifacts.end())
        return std::nullopt; // not compiled yet (a GPU image, a split entry): a plain miss
      if (checkFile(EDir, Name, It->second, /*Read=*/true, &Bytes, Why))
        return Bytes;
    }
    switch (judge(EDir, Seen)) {
    case Verdict::Quiet:
      return std::nullopt;
    case Verdict::Warn:
      Warning = warningFor(EDir, Why);
      return std::nullopt;
    case Verdict::Retry:
      break;
    }
  }
  return std::nullopt;
}

llvm::Error DiskCache::store(llvm::StringRef Key, const llvm::json::Object &Summary,
                             const std::map<std::string, std::string> &Artifacts) {
  if (!isValidKey(Key))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Key + "' is not a kernel cache key (2 to 128 lowercase hex digits)");
  for (const auto &A : Artifacts)
    if (!isValidArtifactName(A.first))
      return makeError(ErrorCode::InvalidArgument,
                       "'" + A.first +
                           "' is not a kernel cache artifact name (letters, digits, "
                           "'.', '_', '-', '+'; not entry.json or summary.json)");
  if (ReadOnly)
    return llvm::Error::success(); // hits are served, nothing is written
  std::string EDir = entryDir(Key);
  {
    // The root again, should someone have removed the whole cache since open().
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return ioError("create the cache directory", Dir, EC.value());
    FileLock L;
    if (int E = lockIn(EDir, EntryLockFile, /*MakeDirs=*/true,
                       {Dir + "/" + Key.take_front(2).str()}, L))
      return ioError("create the cache entry", EDir, E);
    // Replacing: the old entry goes first, so that readers meanwhile see a miss (quiet, the lock
    // being held), never the old entry.json over new files. Then whatever else is there (files
    // of the old entry, temporary files of a crashed writer, garbage) goes too.
    if (::unlink(pathJoin(EDir, EntryFile).c_str()) != 0 && errno != ENOENT && errno != EISDIR)
      return ioError("remove", pathJoin(EDir, EntryFile), errno);
    for (const std::string &N : listDir(EDir))
      if (N != EntryLockFile)
        if (int E = removeTree(pathJoin(EDir, N)))
          return ioError("remove", pathJoin(EDir, N), E);
    // A write that fails (a full disk) leaves no half entry behind: it would take room, and
    // readers would warn about it.
    auto Abandon = [&](llvm::Error E) {
      std::string Failed;
      removeLocked(EDir, Failed);
      return E;
    };
    EntryMeta M;
    M.Created = M.LastUsed = now();
    std::string SummaryText = toJson(llvm::json::Object(Summary));
    M.Summary = {SummaryText.size(), checksum(SummaryText)};
    if (llvm::Error E = writeFileAtomic(EDir, SummaryFile, SummaryText))
      return Abandon(std::move(E));
    for (const auto &[Name, Bytes] : Artifacts) {
      if (llvm::Error E = writeFileAtomic(EDir, Name, Bytes))
        return Abandon(std::move(E));
      M.Artifacts[Name] = {Bytes.size(), checksum(Bytes)};
    }
    if (llvm::Error E = writeFileAtomic(EDir, EntryFile, entryJson(Key, M)))
      return Abandon(std::move(E));
  }
  evict(Key);
  return llvm::Error::success();
}

llvm::Error DiskCache::addArtifact(llvm::StringRef Key, llvm::StringRef Name,
                                   llvm::StringRef Bytes) {
  if (!isValidKey(Key))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Key + "' is not a kernel cache key (2 to 128 lowercase hex digits)");
  if (!isValidArtifactName(Name))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Name +
                         "' is not a kernel cache artifact name (letters, digits, '.', "
                         "'_', '-', '+'; not entry.json or summary.json)");
  if (ReadOnly)
    return llvm::Error::success(); // hits are served, nothing is written
  std::string EDir = entryDir(Key);
  bool Grew = true;
  {
    FileLock L;
    int E = lockIn(EDir, EntryLockFile, /*MakeDirs=*/false, {}, L);
    if (E == ENOENT || E == ENOTDIR)
      return makeError(ErrorCode::InvalidArgument, "no entry '" + Key + "' in the kernel cache '" +
                                                       Dir + "': store it before adding '" + Name +
                                                       "'");
    if (E)
      return ioError("lock the cache entry", EDir, E);
    EntryMeta M;
    EntrySeen Seen;
    std::string Why;
    if (loadEntry(EDir, Key, Depth::Meta, M, Seen, nullptr, Why) != Found::Entry)
      return makeError(ErrorCode::InvalidArgument, "no valid entry '" + Key +
                                                       "' in the kernel cache '" + Dir + "'" +
                                                       (Why.empty() ? "" : " (" + Why + ")") +
                                                       ": store it before adding '" + Name + "'");
    if (isDirectory(pathJoin(EDir, Name))) // garbage in the way of the rename
      if (int E = removeTree(pathJoin(EDir, Name)))
        return ioError("remove", pathJoin(EDir, Name), E);
    if (llvm::Error E = writeFileAtomic(EDir, Name, Bytes))
      return E;
    auto Old = M.Artifacts.find(Name.str());
    Grew = Old == M.Artifacts.end() || Bytes.size() > Old->second.Size;
    M.Artifacts[Name.str()] = {Bytes.size(), checksum(Bytes)};
    if (llvm::Error E = writeFileAtomic(EDir, EntryFile, entryJson(Key, M)))
      return E;
  }
  // Eviction walks the whole cache: not for a record rewritten at its size (a variant's hits,
  // flushed at every exit, one walk per variant).
  if (Grew)
    evict(Key);
  return llvm::Error::success();
}

llvm::Error DiskCache::recordHit(llvm::StringRef Key) {
  if (!isValidKey(Key))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Key + "' is not a kernel cache key (2 to 128 lowercase hex digits)");
  if (ReadOnly)
    return llvm::Error::success(); // hits are served, nothing is written
  std::string EDir = entryDir(Key);
  FileLock L;
  int E = lockIn(EDir, EntryLockFile, /*MakeDirs=*/false, {}, L);
  if (E == ENOENT || E == ENOTDIR)
    return makeError(ErrorCode::InvalidArgument,
                     "no entry '" + Key + "' in the kernel cache '" + Dir + "' to count a hit of");
  if (E)
    return ioError("lock the cache entry", EDir, E);
  EntryMeta M;
  EntrySeen Seen;
  std::string Why;
  if (loadEntry(EDir, Key, Depth::Meta, M, Seen, nullptr, Why) != Found::Entry)
    return makeError(ErrorCode::InvalidArgument,
                     "no valid entry '" + Key + "' in the kernel cache '" + Dir +
                         "' to count a hit of" + (Why.empty() ? "" : " (" + Why + ")"));
  ++M.Hits;
  M.LastUsed = std::max(M.LastUsed, now());
  return writeFileAtomic(EDir, EntryFile, entryJson(Key, M));
}

std::vector<DiskCacheEntryInfo> DiskCache::list() const {
  return scanEntries(Dir, Depth::Lookup);
}

uint64_t DiskCache::totalSize() const {
  return treeSize(Dir);
}

llvm::Expected<DiskCacheEntryInfo> DiskCache::find(llvm::StringRef Prefix) const {
  std::string P = Prefix.trim().lower();
  if (P.empty() || P.size() > 128 || !llvm::all_of(P, isHexDigit))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Prefix + "' is not a key prefix: give the first hex digits of a key");
  std::vector<DiskCacheEntryInfo> Matches = scanEntries(Dir, Depth::Lookup, P);
  if (Matches.empty())
    return makeError(ErrorCode::InvalidArgument, "no entry of the kernel cache '" + Dir +
                                                     "' has a key starting with '" + P + "'");
  if (Matches.size() > 1) {
    std::string Names;
    for (size_t I = 0; I < Matches.size() && I < 5; ++I)
      Names += (I ? ", " : "") + Matches[I].Key.substr(0, std::max<size_t>(P.size() + 4, 12));
    if (Matches.size() > 5)
      Names += ", ...";
    return makeError(ErrorCode::InvalidArgument, "key prefix '" + P + "' matches " +
                                                     llvm::Twine(Matches.size()) + " entries (" +
                                                     Names + "): give more digits");
  }
  return std::move(Matches.front());
}

llvm::Error DiskCache::removeEntry(llvm::StringRef Key, bool &Removed, bool OnlyIfBad) {
  Removed = false;
  std::string EDir = entryDir(Key);
  FileLock L;
  int E = lockIn(EDir, EntryLockFile, /*MakeDirs=*/false, {}, L);
  if (E == ENOENT)
    return llvm::Error::success();
  if (E == ENOTDIR) { // a file where the entry directory should be: garbage
    if (::unlink(EDir.c_str()) != 0 && errno != ENOENT)
      return ioError("remove", EDir, errno);
    Removed = true;
    return llvm::Error::success();
  }
  if (E)
    return ioError("lock the cache entry", EDir, E);
  if (OnlyIfBad) {
    EntryMeta M;
    EntrySeen Seen;
    std::string Why;
    if (loadEntry(EDir, Key, Depth::Meta, M, Seen, nullptr, Why) == Found::Entry)
      return llvm::Error::success();
  }
  std::string Failed;
  if (int Err = removeLocked(EDir, Failed))
    return ioError("remove", Failed, Err);
  Removed = true;
  return llvm::Error::success();
}

llvm::Error DiskCache::remove(llvm::StringRef Key) {
  if (ReadOnly)
    return readOnlyError(Dir);
  if (!isValidKey(Key))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Key + "' is not a kernel cache key (2 to 128 lowercase hex digits)");
  bool Removed = false;
  if (llvm::Error E = removeEntry(Key, Removed))
    return E;
  if (!Removed)
    return makeError(ErrorCode::InvalidArgument,
                     "no entry '" + Key + "' in the kernel cache '" + Dir + "'");
  return llvm::Error::success();
}

llvm::Error DiskCache::removeOldest(uint64_t Limit, int64_t OlderThan, llvm::StringRef Keep,
                                    bool BestEffort, unsigned &N) {
  std::vector<DiskCacheEntryInfo> Bad;
  std::vector<DiskCacheEntryInfo> Valid = scanEntries(Dir, Depth::Meta, "", &Bad);
  std::sort(Valid.begin(), Valid.end(), lruBefore);
  uint64_t Total = totalSize();
  // Bad entries first: nobody can use them (after a format change, all the old ones), yet they
  // would otherwise take room from valid ones for ever.
  auto Remove = [&](const DiskCacheEntryInfo &E, bool IsBad) -> llvm::Error {
    bool Removed = false;
    if (llvm::Error Err = removeEntry(E.Key, Removed, /*OnlyIfBad=*/IsBad)) {
      if (!BestEffort)
        return Err;
      llvm::consumeError(std::move(Err)); // the next store tries again
    }
    if (Removed) { // else another process removed it first, or finished writing it
      Total -= std::min(Total, E.Size);
      ++N;
    }
    return llvm::Error::success();
  };
  for (const DiskCacheEntryInfo &E : Bad)
    if (E.Key != Keep && (Total > Limit || OlderThan > 0))
      if (llvm::Error Err = Remove(E, true))
        return Err;
  for (const DiskCacheEntryInfo &E : Valid)
    if (E.Key != Keep && (Total > Limit || E.LastUsed < OlderThan))
      if (llvm::Error Err = Remove(E, false))
        return Err;
  return llvm::Error::success();
}

void DiskCache::evict(llvm::StringRef Keep) {
  // A walk of the whole cache, but only after a compile (store) or a GPU image (addArtifact),
  // never on a hit.
  if (totalSize() <= MaxSize)
    return;
  unsigned N = 0;
  llvm::consumeError(removeOldest(MaxSize, 0, Keep, /*BestEffort=*/true, N));
  if (N > 0) {
    DiskCacheStats Delta;
    Delta.Evictions = N;
    llvm::consumeError(addStats(Delta)); // statistics are not worth failing a store for
  }
}

llvm::Expected<unsigned> DiskCache::prune(uint64_t MaxSize, int64_t OlderThan) {
  if (ReadOnly)
    return readOnlyError(Dir);
  unsigned N = 0;
  if (llvm::Error E = removeOldest(MaxSize, OlderThan, "", /*BestEffort=*/false, N))
    return E;
  return N;
}

llvm::Error DiskCache::clear() {
  if (ReadOnly)
    return readOnlyError(Dir);
  llvm::Error First = llvm::Error::success();
  auto Keep = [&](llvm::Error E) {
    if (E && !First)
      First = std::move(E);
    else
      llvm::consumeError(std::move(E));
  };
  for (const std::string &Sub : listDir(Dir)) {
    if (!isHexPair(Sub))
      continue; // not an entry (stats.json, CACHEDIR.TAG, the lock, anything a user put there)
    std::string SubDir = pathJoin(Dir, Sub);
    if (!isDirectory(SubDir)) {
      if (int E = removeTree(SubDir))
        Keep(ioError("remove", SubDir, E));
      continue;
    }
    for (const std::string &Name : listDir(SubDir)) {
      if (isValidKey(Name) && llvm::StringRef(Name).take_front(2) == Sub) {
        bool Removed = false;
        Keep(removeEntry(Name, Removed));
      } else if (int E = removeTree(pathJoin(SubDir, Name))) {
        Keep(ioError("remove", pathJoin(SubDir, Name), E));
      }
    }
    ::rmdir(SubDir.c_str()); // fails, rightly, if a store is filling it meanwhile
  }
  std::string Records = pathJoin(Dir, RecordsDir);
  if (isDirectory(Records))
    if (int E = removeTree(Records))
      Keep(ioError("remove", Records, E));
  return First;
}

std::optional<std::string> DiskCache::readRecord(llvm::StringRef Name) const {
  if (!isValidArtifactName(Name))
    return std::nullopt;
  std::string Records = pathJoin(Dir, RecordsDir), Bytes;
  if (!isDirectory(Records) || readFile(pathJoin(Records, Name), 64 << 10, Bytes) != 0)
    return std::nullopt;
  return Bytes;
}

llvm::Error DiskCache::writeRecord(llvm::StringRef Name, llvm::StringRef Bytes) {
  if (ReadOnly)
    return readOnlyError(Dir);
  if (!isValidArtifactName(Name))
    return makeError(ErrorCode::InvalidArgument,
                     "kernel cache: '" + Name + "' is not a record's name");
  std::string Records = pathJoin(Dir, RecordsDir);
  if (::mkdir(Records.c_str(), 0755) != 0 && errno != EEXIST)
    return ioError("create", Records, errno);
  if (!isDirectory(Records)) // a file or a link planted there: write nothing through it
    return ioError("use", Records, ENOTDIR);
  return writeFileAtomic(Records, Name, Bytes);
}

std::vector<DiskCacheProblem> DiskCache::verify() {
  std::vector<DiskCacheProblem> Problems;
  auto Report = [&](std::string Key, std::string What, int RemoveErrno, const std::string &Path) {
    if (RemoveErrno)
      What += "; cannot remove '" + Path + "': " + errnoText(RemoveErrno);
    Problems.push_back({std::move(Key), std::move(What)});
  };
  for (const std::string &Sub : listDir(Dir)) {
    if (!isHexPair(Sub))
      continue;
    std::string SubDir = pathJoin(Dir, Sub);
    if (!isDirectory(SubDir)) {
      Report(Sub, "a file where a directory of entries should be", removeTree(SubDir), SubDir);
      continue;
    }
    for (const std::string &Key : listDir(SubDir)) {
      std::string EDir = pathJoin(SubDir, Key);
      if (!isValidKey(Key) || llvm::StringRef(Key).take_front(2) != Sub) {
        // Nobody writes anything else here (temporary files go into entry directories).
        Report(Key, "not a cache entry", removeTree(EDir), EDir);
        continue;
      }
      if (!isDirectory(EDir)) {
        Report(Key, "not a directory", removeTree(EDir), EDir);
        continue;
      }
      // Under the lock an entry is complete or bad, never being written, and every file that
      // its entry.json does not name is left over (a crashed writer's temporary file, an
      // artifact of a replaced entry).
      FileLock L;
      int E = lockIn(EDir, EntryLockFile, /*MakeDirs=*/false, {}, L);
      if (E == ENOENT)
        continue; // removed meanwhile
      if (E) {
        Report(Key, "cannot lock it (" + errnoText(E) + ")", 0, EDir);
        continue;
      }
      EntryMeta M;
      EntrySeen Seen;
      std::string Why;
      Found F = loadEntry(EDir, Key, Depth::Full, M, Seen, nullptr, Why);
      if (F == Found::Absent) { // a directory of no entry (a race of removals): tidied silently
        std::string Failed;
        removeLocked(EDir, Failed);
        continue;
      }
      if (F == Found::Entry) {
        for (const std::string &N : listDir(EDir))
          if (N != EntryFile && N != SummaryFile && N != EntryLockFile && !M.Artifacts.count(N))
            removeTree(pathJoin(EDir, N));
        continue;
      }
      std::string Failed;
      int RemoveErrno = removeLocked(EDir, Failed);
      Report(Key, Why, RemoveErrno, Failed);
    }
  }
  return Problems;
}

llvm::Error DiskCache::addStats(const DiskCacheStats &Delta) {
  if (ReadOnly)
    return llvm::Error::success();
  FileLock L;
  if (int E = lockIn(Dir, RootLockFile, /*MakeDirs=*/false, {}, L))
    return ioError("lock", pathJoin(Dir, RootLockFile), E);
  DiskCacheStats S = stats();
  S.MemoryHits += Delta.MemoryHits;
  S.DiskHits += Delta.DiskHits;
  S.Misses += Delta.Misses;
  S.CompileMsSaved += Delta.CompileMsSaved;
  S.Evictions += Delta.Evictions;
  return writeFileAtomic(Dir, StatsFile, statsJson(S));
}

DiskCacheStats DiskCache::stats() const {
  std::string Text;
  if (readFile(pathJoin(Dir, StatsFile), MaxStatsBytes, Text) != 0)
    return DiskCacheStats(); // none yet, or unreadable: counting starts again
  return parseStats(Text);
}

llvm::Error DiskCache::zeroStats() {
  if (ReadOnly)
    return readOnlyError(Dir);
  FileLock L;
  if (int E = lockIn(Dir, RootLockFile, /*MakeDirs=*/false, {}, L))
    return ioError("lock", pathJoin(Dir, RootLockFile), E);
  DiskCacheStats S;
  S.ZeroedAt = now();
  return writeFileAtomic(Dir, StatsFile, statsJson(S));
}

} // namespace jacc::jit
