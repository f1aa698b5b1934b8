// The disk cache's configuration from the environment (see DiskCacheConfig.h).
#include "jit/cache/DiskCacheConfig.h"

#include "support/Env.h"
#include "support/Error.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

#include <pwd.h>
#include <unistd.h>

namespace jacc::jit {

namespace {

/// A system variable's value (XDG_CACHE_HOME, HOME); null when unset or empty.
const char *getEnv(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V ? V : nullptr;
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
  if (env::text(env::Var::Cache).trim().equals_insensitive("readonly")) {
    C.ReadOnly = true;
    C.EnabledFrom = "JACC_CACHE";
  } else if (!env::text(env::Var::Cache).empty()) {
    llvm::Expected<bool> On =
        env::onOff(env::Var::Cache, true, "on, off, readonly, 1, 0, true, false, yes or no");
    if (!On)
      return On.takeError();
    C.Enabled = *On;
    C.EnabledFrom = "JACC_CACHE";
  }
  C.MaxSizeFrom = "default";
  if (llvm::StringRef V = env::text(env::Var::CacheMaxSize); !V.empty()) {
    llvm::Expected<uint64_t> N = parseSize(V);
    if (!N) {
      llvm::consumeError(N.takeError());
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_CACHE_MAX_SIZE='" + V +
                           "' is not a size: use a number of bytes with an optional K, M, G or T "
                           "suffix (powers of 1024), e.g. 500M or 2G");
    }
    C.MaxSize = *N;
    C.MaxSizeFrom = "JACC_CACHE_MAX_SIZE";
  }
  llvm::SmallString<256> Dir;
  if (const char *V = env::get(env::Var::CacheDir); V && *V) {
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

} // namespace jacc::jit
