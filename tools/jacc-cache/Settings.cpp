// The cache a jacc-cache command runs against: its configuration (--dir over the environment),
// opening its directory only if it is a jacc cache, and the path and config commands.
#include "tools/jacc-cache/Output.h"
#include "tools/jacc-cache/Tool.h"

#include "jit/cache/StoreFormat.h"
#include "support/Error.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

using namespace jacc::jit;
namespace json = llvm::json;

namespace jacc::cachetool {

namespace {

constexpr const char *NoDirectory = "no kernel cache directory: neither JACC_CACHE_DIR, "
                                    "XDG_CACHE_HOME nor HOME is set; set one of them or pass "
                                    "--dir DIR";

/// Whether Dir holds the CACHEDIR.TAG that jacc writes, or nothing at all: the tool refuses to
/// work in (and so to tag, or remove entries from) a directory that is not a jacc cache.
bool looksLikeCache(const std::string &Dir) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Tag =
      llvm::MemoryBuffer::getFile(Dir + "/" + diskcache::TagFile);
  if (Tag)
    return (*Tag)->getBuffer().contains("jacc");
  if (Tag.getError() != std::errc::no_such_file_or_directory)
    return true; // unreadable: DiskCache::open says why
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  return !EC && It == llvm::sys::fs::directory_iterator();
}

json::Object setting(json::Value Value, llvm::StringRef From) {
  return json::Object{{"value", std::move(Value)}, {"from", From}};
}

} // namespace

int loadConfig(Context &C) {
  llvm::Expected<DiskCacheConfig> Config = diskCacheConfigFromEnv();
  if (!Config) {
    std::string Message;
    takeError(Config.takeError(), Message);
    return fail(Message + " (or unset it)");
  }
  C.Config = std::move(*Config);
  if (C.Inv.Dir) {
    llvm::SmallString<256> Dir(*C.Inv.Dir);
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_dots(Dir);
    C.Config.Dir = std::string(Dir);
    C.Config.DirFrom = "--dir";
  }
  return Success;
}

int openCache(Context &C, bool MissingIsError) {
  const std::string &Dir = C.Config.Dir;
  if (Dir.empty())
    return fail(NoDirectory);
  if (!llvm::sys::fs::exists(Dir)) {
    // The default directory appears with the first kernel a program stores: an empty cache. A
    // directory the user named is a mistake when missing, except to commands that only remove.
    if (!MissingIsError || (C.Config.DirFrom != "--dir" && C.Config.DirFrom != "JACC_CACHE_DIR"))
      return Success;
    return fail("no kernel cache at '" + Dir + "' (from " + C.Config.DirFrom +
                "): the directory does not exist; check the path, or run a jacc program with " +
                "this cache directory first");
  }
  if (!llvm::sys::fs::is_directory(Dir))
    return fail("the kernel cache directory '" + Dir + "' is not a directory: set " +
                "JACC_CACHE_DIR or pass --dir to name the cache directory");
  if (!looksLikeCache(Dir))
    return fail("'" + Dir + "' is not a jacc kernel cache (no CACHEDIR.TAG written by jacc, and " +
                "not empty): check JACC_CACHE_DIR or --dir");
  llvm::Expected<DiskCache> Cache = DiskCache::open(Dir, C.Config.MaxSize);
  if (!Cache) {
    std::string Message;
    takeError(Cache.takeError(), Message);
    return fail(Message);
  }
  C.Cache.emplace(std::move(*Cache));
  return Success;
}

int runPath(Context &C) {
  if (C.Config.Dir.empty())
    return fail(NoDirectory);
  if (C.Inv.Json)
    printJson(json::Object{{"dir", C.Config.Dir}});
  else
    llvm::outs() << C.Config.Dir << "\n";
  return Success;
}

int runConfig(Context &C) {
  const DiskCacheConfig &K = C.Config;
  if (C.Inv.Json) {
    printJson(json::Object{{"enabled", setting(K.Enabled, K.EnabledFrom)},
                           {"read_only", setting(K.ReadOnly, K.EnabledFrom)},
                           {"dir", setting(K.Dir, K.DirFrom)},
                           {"max_size", setting(K.MaxSize, K.MaxSizeFrom)}});
    return Success;
  }
  auto Row = [](llvm::StringRef Name, const std::string &Value, llvm::StringRef From) {
    llvm::outs() << llvm::formatv("{0,-10} {1,-40} (from {2})\n", Name, Value, From);
  };
  Row("enabled", !K.Enabled ? "no" : K.ReadOnly ? "yes, read-only" : "yes", K.EnabledFrom);
  Row("dir", K.Dir.empty() ? "(none)" : K.Dir, K.DirFrom);
  Row("max size", humanSize(K.MaxSize) + " (" + std::to_string(K.MaxSize) + " bytes)",
      K.MaxSizeFrom);
  return Success;
}

} // namespace jacc::cachetool
