// The persistent kernel cache store: layout, file formats and concurrency rules in DiskCache.h.
//
// POSIX directly rather than llvm::sys::fs for the files: the hit path (lookup, readArtifact,
// recordHit) must stay a handful of system calls, and every failure must map to a precise errno
// (ENOSPC, EROFS, ENOTDIR, ...) for the warning or the error.
#include "jit/cache/DiskCache.h"

#include "support/Error.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jacc::jit {

namespace {

constexpr const char *EntryFile = "entry.json";
constexpr const char *SummaryFile = "summary.json";
constexpr const char *EntryLockFile = "entry.lock";
constexpr const char *StatsFile = "stats.json";
constexpr const char *RootLockFile = "cache.lock";
constexpr const char *TagFile = "CACHEDIR.TAG";
constexpr const char *TagText = "Signature: 8a477f597d28d172789f06886806bc55\n"
                                "# This file is a cache directory tag created by jacc.\n"
                                "# For information about cache directory tags, see:\n"
                                "#\thttps://bford.info/cachedir/\n";

// Bounds on what a reader loads, so that a garbage file cannot make it allocate without limit.
constexpr uint64_t MaxEntryBytes = 1 << 20;
constexpr uint64_t MaxSummaryBytes = 64 << 20;
constexpr uint64_t MaxStatsBytes = 1 << 20;
/// llvm::json::parse recurses per nesting level: deeper documents are refused before parsing.
constexpr unsigned MaxJsonDepth = 256;
/// Directories nested below the cache root that size walks descend (entries have none; deeper
/// trees are someone else's files, still counted up to this depth).
constexpr unsigned MaxWalkDepth = 8;

std::string errnoText(int E) {
  return std::error_code(E, std::generic_category()).message();
}

std::string pathJoin(llvm::StringRef A, llvm::StringRef B) {
  return (A + "/" + B).str();
}

int64_t now() {
  return static_cast<int64_t>(std::time(nullptr));
}

bool isHexDigit(char C) {
  return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f');
}

bool isHexPair(llvm::StringRef S) {
  return S.size() == 2 && isHexDigit(S[0]) && isHexDigit(S[1]);
}

std::string checksum(llvm::StringRef Bytes) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "xxh64:%016llx",
                static_cast<unsigned long long>(llvm::xxHash64(Bytes)));
  return Buf;
}

/// An exclusive flock(2) held until destruction (closing the descriptor releases it).
class FileLock {
public:
  FileLock() = default;
  FileLock(FileLock &&O) : FD(std::exchange(O.FD, -1)) {}
  FileLock &operator=(FileLock &&O) {
    std::swap(FD, O.FD);
    return *this;
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;
  ~FileLock() {
    if (FD >= 0)
      ::close(FD);
  }
  int FD = -1;
};

bool isDirectory(const std::string &Path) {
  struct stat St;
  return ::lstat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

/// Remove a file or a whole tree; 0 or the first errno value (a missing path is no error).
int removeTree(const std::string &Path) {
  if (!isDirectory(Path))
    return ::unlink(Path.c_str()) == 0 || errno == ENOENT ? 0 : errno;
  std::error_code EC = llvm::sys::fs::remove_directories(Path, /*IgnoreErrors=*/false);
  return EC && EC != std::errc::no_such_file_or_directory ? EC.value() : 0;
}

/// mkdir that replaces a non-directory in the way (a file where the layout wants a directory is
/// garbage). 0 or an errno value.
int ensureDir(const std::string &Path) {
  if (::mkdir(Path.c_str(), 0777) == 0)
    return 0;
  int E = errno;
  if (E != EEXIST)
    return E;
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
    return 0;
  if (::unlink(Path.c_str()) != 0 && errno != ENOENT)
    return errno;
  return ::mkdir(Path.c_str(), 0777) == 0 || errno == EEXIST ? 0 : errno;
}

/// Lock Dir/Name (created when missing), blocking. With MakeDirs, Parents then Dir are created
/// first (and again if a concurrent removal deletes them). 0 or an errno value: ENOENT when Dir
/// does not exist and MakeDirs is false.
///
/// Removing an entry unlinks its lock file while holding it; a process that opened the file before
/// that and then got the lock holds a lock nobody else will ever see. So after locking, check that
/// the path still names the locked file, and start again otherwise.
int lockIn(const std::string &Dir, const char *Name, bool MakeDirs,
           llvm::ArrayRef<std::string> Parents, FileLock &Out) {
  std::string Path = pathJoin(Dir, Name);
  int Last = EAGAIN;
  for (int Attempt = 0; Attempt < 100; ++Attempt) {
    if (MakeDirs) {
      int E = 0;
      for (const std::string &P : Parents)
        if (!E)
          E = ensureDir(P);
      if (!E)
        E = ensureDir(Dir);
      if (E == ENOENT) { // a parent removed meanwhile (clear): again
        Last = E;
        continue;
      }
      if (E)
        return E;
    }
    FileLock L;
    L.FD = ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (L.FD < 0) {
      Last = errno;
      if (Last == ENOENT && MakeDirs)
        continue;                            // removed between mkdir and open
      if (Last == EISDIR || Last == ELOOP) { // a directory or a symbolic link: garbage
        removeTree(Path);
        continue;
      }
      return Last;
    }
    while (::flock(L.FD, LOCK_EX) != 0)
      if (errno != EINTR)
        return errno;
    struct stat Held, Named;
    if (::fstat(L.FD, &Held) != 0)
      return errno;
    if (::stat(Path.c_str(), &Named) == 0 && Held.st_dev == Named.st_dev &&
        Held.st_ino == Named.st_ino) {
      Out = std::move(L);
      return 0;
    }
    Last = ENOENT;
    if (!MakeDirs && ::access(Dir.c_str(), F_OK) != 0)
      return ENOENT;
  }
  return Last;
}

/// Whether a writer holds the lock of an entry now (a reader seeing a bad entry then keeps quiet:
/// the entry is being replaced). Opens without creating: readers never write.
bool entryLockHeld(const std::string &EntryDir) {
  int FD = ::open(pathJoin(EntryDir, EntryLockFile).c_str(),
                  O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (FD < 0)
    return false;
  bool Held = ::flock(FD, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(FD);
  return Held;
}

/// Read a whole file of at most Max bytes. 0, or an errno value: EISDIR for anything but a
/// regular file, EFBIG beyond Max. Never blocks on a FIFO planted in the cache (O_NONBLOCK).
int readFile(const std::string &Path, uint64_t Max, std::string &Out) {
  Out.clear();
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (FD < 0)
    return errno;
  struct stat St;
  int E = 0;
  if (::fstat(FD, &St) != 0)
    E = errno;
  else if (!S_ISREG(St.st_mode))
    E = EISDIR;
  else if (static_cast<uint64_t>(St.st_size) > Max)
    E = EFBIG;
  // Up to Max + 1 bytes whatever fstat said (the file may change meanwhile): one byte more than
  // Max means too large.
  uint64_t Want = E ? 0 : std::min<uint64_t>(static_cast<uint64_t>(St.st_size), Max) + 1;
  size_t Done = 0;
  while (E == 0) {
    if (Done == Out.size()) {
      if (Out.size() > Max) {
        E = EFBIG;
        break;
      }
      Out.resize(static_cast<size_t>(
          std::min<uint64_t>(Max + 1, std::max<uint64_t>(Want, Out.size() * 2))));
    }
    ssize_t N = ::read(FD, &Out[Done], Out.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      E = errno;
    else if (N == 0)
      break;
    else
      Done += static_cast<size_t>(N);
  }
  ::close(FD);
  Out.resize(E == 0 ? Done : 0);
  return E;
}

llvm::Error ioError(llvm::StringRef What, const std::string &Path, int E) {
  std::string Fix;
  if (E == ENOSPC || E == EDQUOT || E == EFBIG)
    Fix = "; free some space, lower JACC_CACHE_MAX_SIZE or set JACC_CACHE_DIR elsewhere";
  else if (E == EACCES || E == EPERM || E == EROFS)
    Fix = "; make it writable, set JACC_CACHE_DIR to a writable directory or JACC_CACHE=off";
  return makeError(ErrorCode::Internal,
                   "kernel cache: cannot " + What + " '" + Path + "': " + errnoText(E) + Fix);
}

/// Write Dir/Name whole through a temporary file in Dir and rename(2).
llvm::Error writeFileAtomic(const std::string &Dir, llvm::StringRef Name, llvm::StringRef Bytes) {
  // The pid keeps forked processes apart (they share the generator's state), the random part
  // threads of one process.
  // (Seeded from the clock, not std::random_device, which may throw.)
  thread_local std::mt19937_64 Random(
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      std::hash<std::thread::id>()(std::this_thread::get_id()));
  std::string Final = pathJoin(Dir, Name);
  std::string Temp;
  int FD = -1;
  for (int Attempt = 0; Attempt < 16 && FD < 0; ++Attempt) {
    Temp = Final + ".tmp." + std::to_string(::getpid()) + "." +
           llvm::utohexstr(Random(), /*LowerCase=*/true);
    FD = ::open(Temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (FD < 0 && errno != EEXIST)
      return ioError("create", Temp, errno);
  }
  if (FD < 0)
    return ioError("create", Temp, EEXIST);
  const char *P = Bytes.data();
  size_t Left = Bytes.size();
  int E = 0;
  while (Left > 0) {
    ssize_t N = ::write(FD, P, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      E = errno;
      break;
    }
    if (N == 0) {
      E = ENOSPC;
      break;
    }
    P += N;
    Left -= static_cast<size_t>(N);
  }
  // close() reports delayed write errors on some file systems (NFS, quotas).
  if (::close(FD) != 0 && E == 0)
    E = errno;
  if (E == 0 && ::rename(Temp.c_str(), Final.c_str()) != 0) {
    E = errno;
    ::unlink(Temp.c_str());
    return ioError("rename a temporary file to", Final, E);
  }
  if (E != 0) {
    ::unlink(Temp.c_str());
    return ioError("write", Final, E);
  }
  return llvm::Error::success();
}

/// The names in a directory but . and .. (empty when it cannot be read).
std::vector<std::string> listDir(const std::string &Path) {
  std::vector<std::string> Names;
  DIR *D = ::opendir(Path.c_str());
  if (!D)
    return Names;
  while (struct dirent *Ent = ::readdir(D)) {
    llvm::StringRef N(Ent->d_name);
    if (N != "." && N != "..")
      Names.push_back(N.str());
  }
  ::closedir(D);
  std::sort(Names.begin(), Names.end());
  return Names;
}

/// Bytes of the regular files under Path (itself if a file), symbolic links not followed.
uint64_t treeSize(const std::string &Path, unsigned Depth = MaxWalkDepth) {
  struct stat St;
  if (::lstat(Path.c_str(), &St) != 0)
    return 0;
  if (S_ISREG(St.st_mode))
    return static_cast<uint64_t>(St.st_size);
  if (!S_ISDIR(St.st_mode) || Depth == 0)
    return 0;
  uint64_t Sum = 0;
  for (const std::string &N : listDir(Path))
    Sum += treeSize(pathJoin(Path, N), Depth - 1);
  return Sum;
}

/// Whether a JSON text nests deeper than MaxJsonDepth (counted outside strings).
bool jsonTooDeep(llvm::StringRef Text) {
  unsigned Depth = 0;
  bool InString = false, Escape = false;
  for (char C : Text) {
    if (InString) {
      if (Escape)
        Escape = false;
      else if (C == '\\')
        Escape = true;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxJsonDepth)
        return true;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return false;
}

/// Parse a JSON object; nullopt with the reason in Why.
std::optional<llvm::json::Object> parseObject(llvm::StringRef Text, std::string &Why) {
  if (Text.empty()) {
    Why = "empty";
    return std::nullopt;
  }
  if (jsonTooDeep(Text)) {
    Why = "not valid JSON (nested too deeply)";
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    Why = "not valid JSON (" + llvm::toString(V.takeError()) + ")";
    return std::nullopt;
  }
  llvm::json::Object *O = V->getAsObject();
  if (!O) {
    Why = "not a JSON object";
    return std::nullopt;
  }
  return std::move(*O);
}

std::string toJson(llvm::json::Value V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", V) << "\n";
  OS.flush();
  return S;
}

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

llvm::json::Value fileSumJson(const FileSum &F) {
  return llvm::json::Object{{"size", F.Size}, {"checksum", F.Checksum}};
}

std::string entryJson(llvm::StringRef Key, const EntryMeta &M) {
  llvm::json::Object Artifacts;
  for (const auto &[Name, F] : M.Artifacts)
    Artifacts[Name] = fileSumJson(F);
  return toJson(llvm::json::Object{{"format", static_cast<int64_t>(DiskCacheFormat)},
                                   {"key", Key},
                                   {"created", M.Created},
                                   {"last_used", M.LastUsed},
                                   {"hits", M.Hits},
                                   {"summary", fileSumJson(M.Summary)},
                                   {"artifacts", std::move(Artifacts)}});
}

bool parseFileSum(const llvm::json::Value *V, FileSum &F) {
  const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return false;
  const llvm::json::Value *Size = O->get("size");
  std::optional<uint64_t> N = Size ? Size->getAsUINT64() : std::nullopt;
  std::optional<llvm::StringRef> C = O->getString("checksum");
  if (!N || !C)
    return false;
  F.Size = *N;
  F.Checksum = C->str();
  return true;
}

/// Parse entry.json; false with the problem ("entry.json: ...") in Why.
bool parseEntry(llvm::StringRef Text, llvm::StringRef Key, EntryMeta &M, std::string &Why) {
  std::string Reason;
  std::optional<llvm::json::Object> O = parseObject(Text, Reason);
  if (!O) {
    Why = std::string(EntryFile) + ": " + Reason;
    return false;
  }
  std::optional<int64_t> Format = O->getInteger("format");
  if (!Format) {
    Why = std::string(EntryFile) + ": no format version";
    return false;
  }
  if (*Format != static_cast<int64_t>(DiskCacheFormat)) {
    Why = std::string(EntryFile) + ": format " + std::to_string(*Format) +
          ", this jacc reads format " + std::to_string(DiskCacheFormat);
    return false;
  }
  std::optional<llvm::StringRef> K = O->getString("key");
  if (!K || *K != Key) {
    Why = std::string(EntryFile) + ": " +
          (K ? "belongs to key '" + K->str() + "'" : std::string("no key"));
    return false;
  }
  std::optional<int64_t> Created = O->getInteger("created"), Used = O->getInteger("last_used");
  const llvm::json::Value *Hits = O->get("hits");
  std::optional<uint64_t> NHits = Hits ? Hits->getAsUINT64() : std::nullopt;
  if (!Created || !Used || !NHits) {
    Why = std::string(EntryFile) + ": created, last_used or hits missing or not an integer";
    return false;
  }
  M.Created = *Created;
  M.LastUsed = *Used;
  M.Hits = *NHits;
  if (!parseFileSum(O->get("summary"), M.Summary)) {
    Why = std::string(EntryFile) + ": no summary size and checksum";
    return false;
  }
  const llvm::json::Object *A = O->getObject("artifacts");
  if (!A) {
    Why = std::string(EntryFile) + ": no artifacts object";
    return false;
  }
  M.Artifacts.clear();
  for (const auto &[Name, V] : *A) {
    FileSum F;
    if (!DiskCache::isValidArtifactName(Name) || !parseFileSum(&V, F)) {
      Why = std::string(EntryFile) + ": bad artifact record '" + Name.str() + "'";
      return false;
    }
    M.Artifacts[Name.str()] = std::move(F);
  }
  return true;
}

/// Check a file of an entry against its record: false with "name: problem" in Why. Bytes
/// receives the content when Read (its checksum then verified); otherwise only the size is
/// checked (one stat).
bool checkFile(const std::string &EntryDir, llvm::StringRef Name, const FileSum &F, bool Read,
               std::string *Bytes, std::string &Why) {
  std::string Path = pathJoin(EntryDir, Name);
  auto Fail = [&](const std::string &What) {
    Why = Name.str() + ": " + What;
    return false;
  };
  struct stat St;
  if (!Read) {
    if (::stat(Path.c_str(), &St) != 0)
      return Fail(errno == ENOENT ? "missing" : "unreadable (" + errnoText(errno) + ")");
    if (!S_ISREG(St.st_mode))
      return Fail("not a regular file");
    if (static_cast<uint64_t>(St.st_size) != F.Size)
      return Fail(std::to_string(St.st_size) + " bytes instead of " + std::to_string(F.Size) +
                  " (truncated or overwritten)");
    return true;
  }
  if (F.Size >= (uint64_t(1) << 40))
    return Fail("recorded size " + std::to_string(F.Size) + " is implausible");
  std::string Local;
  std::string &Out = Bytes ? *Bytes : Local;
  // One byte more than recorded, to tell a longer file from a match without reading it all.
  int E = readFile(Path, F.Size + 1, Out);
  if (E == ENOENT)
    return Fail("missing");
  if (E == EISDIR)
    return Fail("not a regular file");
  if (E == EFBIG) {
    std::string Size = ::stat(Path.c_str(), &St) == 0 ? std::to_string(St.st_size) : "more";
    return Fail(Size + " bytes instead of " + std::to_string(F.Size) +
                " (truncated or overwritten)");
  }
  if (E != 0)
    return Fail("unreadable (" + errnoText(E) + ")");
  if (Out.size() != F.Size)
    return Fail(std::to_string(Out.size()) + " bytes instead of " + std::to_string(F.Size) +
                " (truncated or overwritten)");
  if (checksum(Out) != F.Checksum)
    return Fail("checksum mismatch");
  return true;
}

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
};

/// Read and check an entry. Absent: no entry directory (a plain miss). Bad: Why says why.
Found loadEntry(const std::string &EntryDir, llvm::StringRef Key, Depth D, EntryMeta &M,
                EntrySeen &Seen, llvm::json::Object *Summary, std::string &Why) {
  int E = Seen.Errno = readFile(pathJoin(EntryDir, EntryFile), MaxEntryBytes, Seen.Text);
  const std::string &EntryText = Seen.Text;
  if (E == ENOENT) {
    // Without a summary either, nothing of an entry is there: no directory, or one being created
    // or removed (only the lock file). A summary without entry.json is a writer that died.
    struct stat St;
    if (::lstat(pathJoin(EntryDir, SummaryFile).c_str(), &St) != 0 &&
        (errno == ENOENT || errno == ENOTDIR))
      return Found::Absent;
    Why = std::string(EntryFile) + ": missing";
    return Found::Bad;
  }
  if (E == ENOTDIR) {
    Why = "not a directory";
    return Found::Bad;
  }
  if (E == EISDIR) {
    Why = std::string(EntryFile) + ": not a regular file";
    return Found::Bad;
  }
  if (E == EFBIG) {
    Why = std::string(EntryFile) + ": larger than " + std::to_string(MaxEntryBytes) + " bytes";
    return Found::Bad;
  }
  if (E != 0) {
    Why = std::string(EntryFile) + ": unreadable (" + errnoText(E) + ")";
    return Found::Bad;
  }
  if (!parseEntry(EntryText, Key, M, Why))
    return Found::Bad;
  if (D == Depth::Meta)
    return Found::Entry;
  std::string SummaryText;
  if (M.Summary.Size > MaxSummaryBytes) {
    Why = std::string(SummaryFile) + ": larger than " + std::to_string(MaxSummaryBytes) + " bytes";
    return Found::Bad;
  }
  if (!checkFile(EntryDir, SummaryFile, M.Summary, /*Read=*/true, &SummaryText, Why))
    return Found::Bad;
  std::string Reason;
  std::optional<llvm::json::Object> S = parseObject(SummaryText, Reason);
  if (!S) {
    Why = std::string(SummaryFile) + ": " + Reason;
    return Found::Bad;
  }
  if (Summary)
    *Summary = std::move(*S);
  for (const auto &[Name, F] : M.Artifacts)
    if (!checkFile(EntryDir, Name, F, /*Read=*/D == Depth::Full, nullptr, Why))
      return Found::Bad;
  return Found::Entry;
}

/// What a reader does after finding a bad entry.
enum class Verdict { Warn, Quiet, Retry };

/// A bad entry is worth a warning only when nobody is changing it: while a writer holds its lock
/// it is a quiet miss, and when entry.json changed since it was read the reader mixed two
/// versions of the entry and tries again.
Verdict judge(const std::string &EntryDir, const EntrySeen &Seen) {
  if (entryLockHeld(EntryDir))
    return Verdict::Quiet;
  EntrySeen Now;
  Now.Errno = readFile(pathJoin(EntryDir, EntryFile), MaxEntryBytes, Now.Text);
  if (Now.Errno != Seen.Errno || Now.Text != Seen.Text)
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

llvm::Expected<bool> parseSwitch(const char *Var, llvm::StringRef Text) {
  llvm::StringRef T = Text.trim();
  for (const char *Off : {"off", "0", "false", "no"})
    if (T.equals_insensitive(Off))
      return false;
  for (const char *On : {"on", "1", "true", "yes"})
    if (T.equals_insensitive(On))
      return true;
  return makeError(ErrorCode::InvalidArgument, llvm::Twine(Var) + "='" + Text +
                                                   "' is not valid: use on, off, 1, 0, true, "
                                                   "false, yes or no");
}

const char *getEnv(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V ? V : nullptr;
}

DiskCacheStats parseStats(llvm::StringRef Text) {
  DiskCacheStats S;
  std::string Why;
  std::optional<llvm::json::Object> O = parseObject(Text, Why);
  if (!O)
    return S;
  auto U = [&](const char *Name) -> uint64_t {
    const llvm::json::Value *V = O->get(Name);
    std::optional<uint64_t> N = V ? V->getAsUINT64() : std::nullopt;
    return N ? *N : 0;
  };
  S.MemoryHits = U("memory_hits");
  S.DiskHits = U("disk_hits");
  S.Misses = U("misses");
  S.Evictions = U("evictions");
  S.CompileMsSaved = O->getNumber("compile_ms_saved").value_or(0.0);
  S.ZeroedAt = O->getInteger("zeroed_at").value_or(0);
  return S;
}

std::string statsJson(const DiskCacheStats &S) {
  return toJson(llvm::json::Object{{"format", static_cast<int64_t>(DiskCacheFormat)},
                                   {"memory_hits", S.MemoryHits},
                                   {"disk_hits", S.DiskHits},
                                   {"misses", S.Misses},
                                   {"compile_ms_saved", S.CompileMsSaved},
                                   {"evictions", S.Evictions},
                                   {"zeroed_at", S.ZeroedAt}});
}

bool lruBefore(const DiskCacheEntryInfo &A, const DiskCacheEntryInfo &B) {
  return std::tie(A.LastUsed, A.Created, A.Key) < std::tie(B.LastUsed, B.Created, B.Key);
}

} // namespace

llvm::Expected<uint64_t> parseSize(llvm::StringRef Text) {
  auto Bad = [&] {
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Text +
                         "' is not a size: use a number of bytes with an optional K, M, "
                         "G or T suffix (powers of 1024), e.g. 500M or 2G");
  };
  llvm::StringRef T = Text.trim();
  size_t Digits = 0;
  while (Digits < T.size() && T[Digits] >= '0' && T[Digits] <= '9')
    ++Digits;
  if (Digits == 0)
    return Bad();
  uint64_t N = 0;
  if (T.take_front(Digits).getAsInteger(10, N))
    return Bad(); // overflow
  llvm::StringRef Suffix = T.drop_front(Digits).trim();
  unsigned Shift = 0;
  if (!Suffix.empty()) {
    switch (llvm::toLower(Suffix[0])) {
    case 'k':
      Shift = 10;
      break;
    case 'm':
      Shift = 20;
      break;
    case 'g':
      Shift = 30;
      break;
    case 't':
      Shift = 40;
      break;
    default:
      break;
    }
    if (Shift != 0)
      Suffix = Suffix.drop_front();
    if (!Suffix.empty() && !Suffix.equals_insensitive("b") &&
        !(Shift != 0 && Suffix.equals_insensitive("ib")))
      return Bad();
  }
  if (Shift != 0 && N > (UINT64_MAX >> Shift))
    return Bad();
  return N << Shift;
}

llvm::Expected<DiskCacheConfig> diskCacheConfigFromEnv() {
  DiskCacheConfig C;
  C.EnabledFrom = "default";
  if (const char *V = getEnv("JACC_CACHE")) {
    llvm::Expected<bool> On = parseSwitch("JACC_CACHE", V);
    if (!On)
      return On.takeError();
    C.Enabled = *On;
    C.EnabledFrom = "JACC_CACHE";
  }
  C.MaxSizeFrom = "default";
  if (const char *V = getEnv("JACC_CACHE_MAX_SIZE")) {
    llvm::Expected<uint64_t> N = parseSize(V);
    if (!N) {
      llvm::consumeError(N.takeError());
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_CACHE_MAX_SIZE='" + llvm::Twine(V) +
                           "' is not a size: use a number of bytes with an optional K, M, G or T "
                           "suffix (powers of 1024), e.g. 500M or 2G");
    }
    C.MaxSize = *N;
    C.MaxSizeFrom = "JACC_CACHE_MAX_SIZE";
  }
  llvm::SmallString<256> Dir;
  if (const char *V = getEnv("JACC_CACHE_DIR")) {
    // Absolute, so that messages and `jacc-cache config` name one directory whatever the
    // current directory of the reader.
    Dir = V;
    llvm::sys::fs::make_absolute(Dir);
    C.DirFrom = "JACC_CACHE_DIR";
  } else if (const char *X = getEnv("XDG_CACHE_HOME"); X && llvm::sys::path::is_absolute(X)) {
    // The XDG specification says to ignore a relative path.
    Dir = X;
    llvm::sys::path::append(Dir, "jacc");
    C.DirFrom = "XDG_CACHE_HOME";
  } else if (const char *H = getEnv("HOME")) {
    Dir = H;
    llvm::sys::path::append(Dir, ".cache", "jacc");
    C.DirFrom = "HOME";
  } else if (struct passwd *Pw = ::getpwuid(::getuid()); Pw && Pw->pw_dir && *Pw->pw_dir) {
    Dir = Pw->pw_dir;
    llvm::sys::path::append(Dir, ".cache", "jacc");
    C.DirFrom = "default";
  } else {
    // No home at all (a daemon, a bare container): no place of our own, so no disk cache rather
    // than a guessable shared directory such as /tmp.
    C.DirFrom = "default";
    C.Enabled = false;
    C.EnabledFrom = "default";
  }
  llvm::sys::path::remove_dots(Dir); // not "..": a symbolic link may precede it
  C.Dir = std::string(Dir);
  return C;
}

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

llvm::Expected<DiskCache> DiskCache::open(const std::string &Dir, uint64_t MaxSize) {
  const char *Fix = "; set JACC_CACHE_DIR to a writable directory, or JACC_CACHE=off to run "
                    "without the disk cache";
  if (Dir.empty())
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine("no kernel cache directory (neither JACC_CACHE_DIR, "
                                 "XDG_CACHE_HOME nor HOME is set)") +
                         Fix);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return makeError(ErrorCode::InvalidArgument, "cannot create the kernel cache directory '" +
                                                     Dir + "': " + EC.message() + Fix);
  struct stat St;
  if (::stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode))
    return makeError(ErrorCode::InvalidArgument,
                     "the kernel cache directory '" + Dir + "' is not a directory" + Fix);
  // access() says EROFS for a read-only mount and EACCES for a directory without write
  // permission (except for root, whom only EROFS stops: a failing write then says so).
  if (::access(Dir.c_str(), W_OK | X_OK) != 0)
    return makeError(ErrorCode::InvalidArgument, "the kernel cache directory '" + Dir +
                                                     "' is not writable: " + errnoText(errno) +
                                                     Fix);
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
  std::string EDir = entryDir(Key);
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
    M.Artifacts[Name.str()] = {Bytes.size(), checksum(Bytes)};
    if (llvm::Error E = writeFileAtomic(EDir, EntryFile, entryJson(Key, M)))
      return E;
  }
  evict(Key);
  return llvm::Error::success();
}

llvm::Error DiskCache::recordHit(llvm::StringRef Key) {
  if (!isValidKey(Key))
    return makeError(ErrorCode::InvalidArgument,
                     "'" + Key + "' is not a kernel cache key (2 to 128 lowercase hex digits)");
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
  unsigned N = 0;
  if (llvm::Error E = removeOldest(MaxSize, OlderThan, "", /*BestEffort=*/false, N))
    return E;
  return N;
}

llvm::Error DiskCache::clear() {
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
  return First;
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
  FileLock L;
  if (int E = lockIn(Dir, RootLockFile, /*MakeDirs=*/false, {}, L))
    return ioError("lock", pathJoin(Dir, RootLockFile), E);
  DiskCacheStats S;
  S.ZeroedAt = now();
  return writeFileAtomic(Dir, StatsFile, statsJson(S));
}

} // namespace jacc::jit
