// The POSIX file primitives of the disk cache (see CacheFiles.h).
#include "jit/cache/CacheFiles.h"

#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <random>
#include <system_error>
#include <thread>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jacc::jit::diskcache {

std::string errnoText(int E) {
  return std::error_code(E, std::generic_category()).message();
}

std::string pathJoin(llvm::StringRef A, llvm::StringRef B) {
  return (A + "/" + B).str();
}

FileLock::~FileLock() {
  if (FD >= 0)
    ::close(FD);
}

bool isDirectory(const std::string &Path) {
  struct stat St;
  return ::lstat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

int removeTree(const std::string &Path) {
  if (!isDirectory(Path))
    return ::unlink(Path.c_str()) == 0 || errno == ENOENT ? 0 : errno;
  std::error_code EC = llvm::sys::fs::remove_directories(Path, /*IgnoreErrors=*/false);
  return EC && EC != std::errc::no_such_file_or_directory ? EC.value() : 0;
}

namespace {

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

} // namespace

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

bool lockHeld(const std::string &Path) {
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (FD < 0)
    return false;
  bool Held = ::flock(FD, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(FD);
  return Held;
}

int readFile(const std::string &Path, uint64_t Max, std::string &Out, FileStamp *Stamp) {
  Out.clear();
  if (Stamp)
    *Stamp = FileStamp();
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
  if (E == 0 && Stamp)
    *Stamp = {static_cast<uint64_t>(St.st_dev), static_cast<uint64_t>(St.st_ino),
              static_cast<int64_t>(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec};
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

uint64_t treeSize(const std::string &Path, unsigned Depth) {
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

} // namespace jacc::jit::diskcache
