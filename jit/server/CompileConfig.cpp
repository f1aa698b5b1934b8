// Where host code is compiled, from the environment (see CompileConfig.h).
#include "jit/server/CompileConfig.h"

#include "jit/cache/DiskCacheConfig.h"
#include "support/Env.h"

#include <llvm/ADT/STLExtras.h>

#include <unistd.h>

namespace jacc::jit {

/// Half the machine's memory: a compile needing more is surely runaway (a real kernel takes
/// well under 1 GB), and the application keeps the other half.
static uint64_t defaultMemoryLimit() {
  long Pages = ::sysconf(_SC_PHYS_PAGES), PageSize = ::sysconf(_SC_PAGESIZE);
  return Pages > 0 && PageSize > 0 ? uint64_t(Pages) * uint64_t(PageSize) / 2 : 0;
}

llvm::Expected<CompileConfig> compileConfigFromEnv() {
  CompileConfig C;
  auto Mode = env::keyword(env::Var::Compile, {{"server", 0}, {"inprocess", 1}}, 0,
                           "server or inprocess");
  if (!Mode)
    return Mode.takeError();
  C.InProcess = *Mode == 1;
  auto Timeout = env::seconds(env::Var::CompileTimeout, C.TimeoutSeconds, 1e7,
                              "60 or 0.5; 0 for no limit");
  if (!Timeout)
    return Timeout.takeError();
  C.TimeoutSeconds = *Timeout;
  C.MemoryBytes = defaultMemoryLimit();
  if (llvm::StringRef M = env::text(env::Var::CompileMemory); !M.empty()) {
    auto N = parseSize(M);
    if (!N) {
      llvm::consumeError(N.takeError());
      return env::invalid(env::Var::CompileMemory, M,
                          "a size with an optional K, M, G or T suffix (e.g. 2G; 0 for no "
                          "limit)");
    }
    C.MemoryBytes = *N;
  }
  C.ServerPath = env::text(env::Var::CompileServer).str();
  if (llvm::StringRef T = env::text(env::Var::TestCompileFault); !T.empty()) {
    auto [Kind, Text] = T.split(':');
    static const llvm::StringRef Kinds[] = {"crash", "abort", "fatal", "hang", "memory"};
    if (!llvm::is_contained(Kinds, Kind))
      return env::invalid(env::Var::TestCompileFault, T,
                          "crash, abort, fatal, hang or memory, optionally followed by :text");
    C.Fault = {Kind.str(), Text.str()};
  }
  return C;
}

} // namespace jacc::jit
