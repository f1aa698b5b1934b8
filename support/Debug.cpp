#include "support/Debug.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

namespace jacc {

static const std::set<std::string> &topics() {
  static const std::set<std::string> T = [] {
    std::set<std::string> S;
    const char *Env = std::getenv("JACC_DEBUG");
    llvm::SmallVector<llvm::StringRef, 8> Parts;
    llvm::StringRef(Env ? Env : "").split(Parts, ',', -1, false);
    for (llvm::StringRef P : Parts)
      S.insert(P.trim().str());
    return S;
  }();
  return T;
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
