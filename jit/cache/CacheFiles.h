// The POSIX file primitives of the disk cache: file locks, bounded reads, atomic writes by rename,
// directory listings, tree sizes and removal, and errno values as text and as the cache's errors.
//
// POSIX directly rather than llvm::sys::fs: the hit path (lookup, readArtifact, recordHit) must
// stay a handful of system calls, and every failure must map to a precise errno (ENOSPC, EROFS,
// ENOTDIR, ...) for the warning or the error. Functions returning int return 0 or an errno value.
#ifndef JACC_JIT_CACHE_CACHEFILES_H
#define JACC_JIT_CACHE_CACHEFILES_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace jacc::jit::diskcache {

/// Directories nested below the cache root that size walks descend (entries have none; deeper
/// trees are someone else's files, still counted up to this depth).
constexpr unsigned MaxWalkDepth = 8;

/// strerror of an errno value.
std::string errnoText(int E);

/// "A/B".
std::string pathJoin(llvm::StringRef A, llvm::StringRef B);

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
  ~FileLock();
  int FD = -1;
};

/// Whether Path is a directory (symbolic links not followed).
bool isDirectory(const std::string &Path);

/// Remove a file or a whole tree; 0 or the first errno value (a missing path is no error).
int removeTree(const std::string &Path);

/// Lock Dir/Name (created when missing), blocking. With MakeDirs, Parents then Dir are created
/// first (and again if a concurrent removal deletes them); a file in their way is replaced. 0 or
/// an errno value: ENOENT when Dir does not exist and MakeDirs is false.
///
/// Removing an entry unlinks its lock file while holding it; a process that opened the file before
/// that and then got the lock holds a lock nobody else will ever see. So after locking, check that
/// the path still names the locked file, and start again otherwise.
int lockIn(const std::string &Dir, const char *Name, bool MakeDirs,
           llvm::ArrayRef<std::string> Parents, FileLock &Out);

/// Whether a process holds the lock file Path now. Opens without creating: readers never write.
bool lockHeld(const std::string &Path);

/// Which file a path named when it was read: a file replaced by a rename has another identity
/// even when its bytes are the same.
struct FileStamp {
  uint64_t Dev = 0, Ino = 0;
  int64_t ModifiedNs = 0;
  bool operator==(const FileStamp &O) const {
    return Dev == O.Dev && Ino == O.Ino && ModifiedNs == O.ModifiedNs;
  }
  bool operator!=(const FileStamp &O) const { return !(*this == O); }
};

/// Read a whole file of at most Max bytes. 0, or an errno value: EISDIR for anything but a
/// regular file, EFBIG beyond Max. Never blocks on a FIFO planted in the cache (O_NONBLOCK).
/// Stamp, when given, receives the file's identity.
int readFile(const std::string &Path, uint64_t Max, std::string &Out,
             FileStamp *Stamp = nullptr);

/// "kernel cache: cannot <What> '<Path>': <errno text>", and for a full disk or a read-only
/// directory what to do about it (JACC_CACHE_MAX_SIZE, JACC_CACHE_DIR, JACC_CACHE).
llvm::Error ioError(llvm::StringRef What, const std::string &Path, int E);

/// Write Dir/Name whole through a temporary file in Dir (<name>.tmp.<pid>.<random>) and
/// rename(2): readers see the whole file or none. An ioError naming the file on failure.
llvm::Error writeFileAtomic(const std::string &Dir, llvm::StringRef Name, llvm::StringRef Bytes);

/// The names in a directory but . and .., sorted (empty when it cannot be read).
std::vector<std::string> listDir(const std::string &Path);

/// Bytes of the regular files under Path (itself if a file), symbolic links not followed.
uint64_t treeSize(const std::string &Path, unsigned Depth = MaxWalkDepth);

} // namespace jacc::jit::diskcache

#endif
