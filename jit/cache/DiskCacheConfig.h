// The disk cache's configuration: whether it is on, its directory and its size limit, from the
// JACC_CACHE, JACC_CACHE_DIR and JACC_CACHE_MAX_SIZE variables (XDG_CACHE_HOME and HOME for the
// default directory). The one place that reads them.
#ifndef JACC_JIT_CACHE_DISKCACHECONFIG_H
#define JACC_JIT_CACHE_DISKCACHECONFIG_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>

namespace jacc::jit {

/// Where the settings come from (for `jacc-cache config`).
struct DiskCacheConfig {
  bool Enabled = true;           ///< JACC_CACHE=off disables
  bool ReadOnly = false;         ///< JACC_CACHE=readonly: use the entries, write nothing
  std::string Dir;               ///< JACC_CACHE_DIR, else $XDG_CACHE_HOME/jacc, else ~/.cache/jacc
  uint64_t MaxSize = 1ull << 30; ///< JACC_CACHE_MAX_SIZE ("500M", "2G", "123456"); default 1 GiB
  std::string EnabledFrom, DirFrom, MaxSizeFrom; ///< "JACC_CACHE", "default", "--dir", ...
};

/// The configuration from the environment. InvalidArgument for a malformed JACC_CACHE or
/// JACC_CACHE_MAX_SIZE (naming the variable and the accepted forms). JACC_CACHE accepts
/// on/1/true/yes, off/0/false/no and readonly (any case); an empty variable counts as unset. Dir is absolute;
/// DirFrom is "JACC_CACHE_DIR", "XDG_CACHE_HOME" (an absolute one only, as the XDG specification
/// says), "HOME", or "default": ~/.cache/jacc of the password database's home directory (with no
/// home at all, Dir is empty and the cache disabled, EnabledFrom "default").
llvm::Expected<DiskCacheConfig> diskCacheConfigFromEnv();

/// "1G" -> 1073741824; accepts an integer with an optional K, M, G or T suffix (powers of 1024,
/// optionally followed by "B" or "iB"). InvalidArgument otherwise.
llvm::Expected<uint64_t> parseSize(llvm::StringRef Text);

} // namespace jacc::jit

#endif
