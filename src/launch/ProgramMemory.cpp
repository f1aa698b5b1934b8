// The program's record beside the kernel cache: its identity hashed into a name, the regime a run
// chose, its re-check interval and whether a re-check confirmed it, as JSON.
#include "src/launch/ProgramMemory.h"

#include "jit/cache/DiskCache.h"
#include "support/Debug.h"
#include "support/Env.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/xxhash.h>

#include <fstream>
#include <iterator>

#include <dlfcn.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

namespace jacc {

namespace {

constexpr unsigned RecordFormat = 1;

const char *regimeName(ProgramSpread::Regime R) {
  return R == ProgramSpread::Regime::Spread ? "spread" : "one device";
}

/// Variables that only observe a run (or say where its caches are): the same program with or
/// without them is the same program.
bool observes(env::Var V) {
  switch (V) {
  case env::Var::Debug:
  case env::Var::Profile:
  case env::Var::Trace:
  case env::Var::Perf:
  case env::Var::Progress:
  case env::Var::AccProfLib:
  case env::Var::KernelWarn:
  case env::Var::Cache:
  case env::Var::CacheDir:
  case env::Var::CacheMaxSize:
  case env::Var::ProgramCache:
  case env::Var::Compile:
  case env::Var::CompileTimeout:
  case env::Var::CompileMemory:
  case env::Var::CompileServer:
    return true;
  default:
    return false;
  }
}

/// A file's path, size and modification time: a rebuilt file is another one.
std::string fileIdentity(const char *Path) {
  std::string Id = Path;
  struct stat St;
  if (::stat(Path, &St) == 0)
    Id += ";size=" + std::to_string(St.st_size) + ";mtime=" + std::to_string(St.st_mtim.tv_sec) +
          "." + std::to_string(St.st_mtim.tv_nsec);
  return Id;
}

} // namespace

std::string programIdentity(llvm::StringRef Devices) {
  std::string Id = "exe=";
  char Path[PATH_MAX];
  ssize_t N = ::readlink("/proc/self/exe", Path, sizeof Path - 1);
  if (N > 0) {
    Path[N] = 0;
    Id += fileIdentity(Path);
  }
  // The library that chose: another jacc may choose otherwise (its choices are not the record's).
  Dl_info Self;
  char Library[PATH_MAX];
  if (::dladdr(reinterpret_cast<void *>(&programIdentity), &Self) && Self.dli_fname &&
      ::realpath(Self.dli_fname, Library))
    Id += ";jacc=" + fileIdentity(Library);
  // The arguments after the program's name (an input's size may change what pays).
  std::ifstream Cmdline("/proc/self/cmdline", std::ios::binary);
  std::string Args((std::istreambuf_iterator<char>(Cmdline)), std::istreambuf_iterator<char>());
  size_t Name = Args.find('\0');
  Id += ";args=";
  if (Name != std::string::npos)
    Id += llvm::StringRef(Args).drop_front(Name + 1).str();
  for (env::Var V : env::allVars())
    if (!observes(V))
      if (const char *Value = env::get(V))
        Id += ";" + std::string(env::name(V)) + "=" + Value;
  Id += ";devices=" + Devices.str();
  return Id;
}

ProgramMemory::ProgramMemory(std::shared_ptr<jit::DiskCache> Cache, std::string Identity)
    : Cache(std::move(Cache)), Identity(std::move(Identity)),
      Name("program-" + llvm::utohexstr(llvm::xxHash64(this->Identity), /*LowerCase=*/true)) {}

std::optional<ProgramMemory::Choice> ProgramMemory::recall() const {
  if (!Cache)
    return std::nullopt;
  std::optional<std::string> Text = Cache->readRecord(Name);
  if (!Text)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(*Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || O->getInteger("format") != int64_t(RecordFormat) ||
      O->getString("identity") != llvm::StringRef(Identity))
    return std::nullopt;
  std::optional<llvm::StringRef> Regime = O->getString("regime");
  std::optional<int64_t> Windows = O->getInteger("recheck_windows");
  std::optional<bool> Confirmed = O->getBoolean("confirmed");
  if (!Regime || !Windows || *Windows < 1 || !Confirmed)
    return std::nullopt;
  Choice C;
  if (*Regime == regimeName(ProgramSpread::Regime::Spread))
    C.Choice = ProgramSpread::Regime::Spread;
  else if (*Regime == regimeName(ProgramSpread::Regime::OneDevice))
    C.Choice = ProgramSpread::Regime::OneDevice;
  else
    return std::nullopt;
  C.Windows = uint64_t(*Windows);
  C.Confirmed = *Confirmed;
  return C;
}

void ProgramMemory::remember(const Choice &C) {
  if (!Cache || Cache->readOnly())
    return;
  std::lock_guard<std::mutex> L(M);
  if (Kept && *Kept == C)
    return;
  Kept = C;
  llvm::json::Object O{{"format", int64_t(RecordFormat)},
                       {"regime", regimeName(C.Choice)},
                       {"recheck_windows", int64_t(C.Windows)},
                       {"confirmed", C.Confirmed},
                       {"identity", Identity}};
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::json::Value(std::move(O));
  if (llvm::Error E = Cache->writeRecord(Name, Text))
    debugLog("launch", "program: not kept for the next runs: " + llvm::toString(std::move(E)));
}

} // namespace jacc
