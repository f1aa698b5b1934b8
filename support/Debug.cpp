// The JACC_DEBUG topics, read once and checked against the known ones, and the trace lines of
// each enabled topic.
#include "support/Debug.h"

#include "support/Env.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>
#include <set>
#include <string>

namespace jacc {

/// Every topic some layer traces, and "all".
static const llvm::StringRef KnownTopics[] = {
    "analysis", "cache",  "codegen", "data",    "device", "exchange",
    "ir",       "launch", "remarks", "rewrite", "all"};

/// JACC_DEBUG's topics as listed.
static std::set<std::string> listedTopics() {
  std::set<std::string> S;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  env::text(env::Var::Debug).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      S.insert(P.trim().str());
  return S;
}

static const std::set<std::string> &topics() {
  static const std::set<std::string> T = listedTopics();
  return T;
}

llvm::Error checkDebugTopics() {
  for (const std::string &T : listedTopics())
    if (!llvm::is_contained(KnownTopics, T))
      return env::invalid(env::Var::Debug, env::text(env::Var::Debug),
                          "a comma-separated list of analysis, cache, codegen, data, device, "
                          "ir, launch and rewrite, or all ('" + T + "' is no topic)");
  return llvm::Error::success();
}

bool debugEnabled(llvm::StringRef Topic) {
  const auto &T = topics();
  return !T.empty() && (T.count("all") || T.count(Topic.str()));
}

void debugLog(llvm::StringRef Topic, const llvm::Twine &Message) {
  if (!debugEnabled(Topic))
    return;
  static std::mutex M;
  std::lock_guard<std::mutex> L(M);
  llvm::errs() << "[jacc:" << Topic << "] " << Message << "\n";
}

} // namespace jacc
