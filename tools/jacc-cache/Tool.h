// What the parts of jacc-cache share: the exit status, the parsed command line, what a command runs
// against, the command table, and the cache's configuration and opening.
//
// jacc-cache inspects and maintains jacc's persistent kernel cache (the store of
// jit/cache/DiskCache.h): it lists its entries, shows one, prints and zeroes the statistics,
// prunes, clears, verifies checksums, and prints its directory and its configuration.
// Exit status: 0 success, 1 the operation failed (or `verify` found bad entries), 2 usage error.
// Errors go to stderr, prefixed "jacc-cache: ". With --json, results go to stdout as JSON.
#ifndef JACC_TOOLS_JACC_CACHE_TOOL_H
#define JACC_TOOLS_JACC_CACHE_TOOL_H

#include "jit/cache/DiskCache.h"
#include "jit/cache/DiskCacheConfig.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jacc::cachetool {

/// The exit status of the tool.
enum Exit : int { Success = 0, Failure = 1, Usage = 2 };

/// The parsed command line.
struct Invocation {
  std::string Command;
  std::vector<std::string> Args;  ///< positional arguments after the command
  std::optional<std::string> Dir; ///< --dir
  bool Json = false, Help = false, Version = false;
  std::optional<std::string> MaxSize, OlderThan; ///< prune's --max-size and --older-than
};

/// What a command runs against.
struct Context {
  Invocation Inv;
  jit::DiskCacheConfig Config;         ///< from the environment, --dir applied
  std::optional<jit::DiskCache> Cache; ///< set by openCache when the directory exists
  int64_t Now = 0;
};

/// One command: its synopsis, help and implementation.
struct Command {
  const char *Name;
  const char *Args;    ///< synopsis of its arguments ("" for none)
  const char *Summary; ///< one line for `jacc-cache --help`
  const char *Help;    ///< the body of `jacc-cache COMMAND --help`
  unsigned MinArgs, MaxArgs;
  bool PruneOptions; ///< accepts --max-size and --older-than
  int (*Run)(Context &);
};

/// Every command, in the order of `jacc-cache --help`.
llvm::ArrayRef<Command> commands();
/// The command called Name; null if none is.
const Command *findCommand(llvm::StringRef Name);

/// The configuration from the environment, --dir applied, into C.Config. Failure printed when
/// malformed.
int loadConfig(Context &C);
/// Open the configured cache into C.Cache, unless its directory does not exist: then C.Cache
/// stays empty (an empty cache, not created by looking at it) when the directory is the default
/// one or !MissingIsError; Failure when --dir or JACC_CACHE_DIR named it. Failure printed.
int openCache(Context &C, bool MissingIsError = true);

// The commands (Inspect.cpp, Maintain.cpp, Settings.cpp): each prints its result, or its error
// on stderr, and returns the exit status.
int runList(Context &C);
int runShow(Context &C);
int runStats(Context &C);
int runZeroStats(Context &C);
int runPrune(Context &C);
int runClear(Context &C);
int runVerify(Context &C);
int runPath(Context &C);
int runConfig(Context &C);

} // namespace jacc::cachetool

#endif
