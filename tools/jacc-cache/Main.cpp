// jacc-cache: its command line (options before or after the command), the command table and each
// command's help, and main. What the tool does and its exit status: Tool.h.
#include "tools/jacc-cache/Output.h"
#include "tools/jacc-cache/Tool.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <ctime>
#include <optional>

namespace jacc::cachetool {

/// The commands, in the order of `jacc-cache --help`.
const Command Commands[] = {
    {"list", "", "list the entries, most recently used first",
     "Prints a table: the key's first 12 hexadecimal digits, the kernel (its first loop line),\n"
     "the CPU it was compiled for, its size on disk, its hits and when it was last used.\n"
     "With --json: an array of objects with the full key, name, target, cpu, size (bytes),\n"
     "hits, created, last_used (seconds since the epoch), artifacts and compile_ms.\n",
     0, 0, false, runList},
    {"show", "KEY", "show one entry (a unique prefix of its key is enough)",
     "Prints the kernel's source and declarations, the predicate-rewritten source, its\n"
     "predicates, the split arrays and dimensions (or why it is not split), its artifacts and\n"
     "their sizes, the compiler versions, the compile time, and when it was created and last\n"
     "used and its hits. A prefix that matches no entry or several fails (exit status 1),\n"
     "naming the candidates. With --json: the entry with the whole stored summary.\n",
     1, 1, false, runShow},
    {"stats", "", "print the statistics of every process that used the cache",
     "Prints the entries, the size against the limit, the hits (in memory and on disk), the\n"
     "misses (compiles), the hit ratio, the compile time saved by disk hits, the evictions and\n"
     "when the statistics were last zeroed.\n",
     0, 0, false, runStats},
    {"zero-stats", "", "zero the statistics (the entries stay)",
     "Sets every counter of 'jacc-cache stats' to zero and records when.\n", 0, 0, false,
     runZeroStats},
    {"prune", "[--max-size S] [--older-than D]", "remove old entries and fit the size limit",
     "Removes the entries last used more than D ago, then the least recently used ones until\n"
     "the cache fits in S.\n\n"
     "  --max-size S     a size: bytes with an optional K, M, G or T suffix (powers of 1024),\n"
     "                   e.g. 500M (default: the configured limit, JACC_CACHE_MAX_SIZE or 1G)\n"
     "  --older-than D   a duration: a number with s, m, h, d or w, e.g. 30d, 12h, 45m, 3600s\n",
     0, 0, true, runPrune},
    {"clear", "", "remove every entry (the statistics stay)",
     "Removes every entry of the cache. The statistics and the directory stay.\n", 0, 0, false,
     runClear},
    {"verify", "", "check every entry's checksums; remove and report the bad ones",
     "Reads every file of every entry and checks it against the size and checksum recorded\n"
     "when it was stored, and the entry's format. Bad entries (truncated, corrupt, of another\n"
     "format) are reported and removed: the next run compiles and stores them again. Exit\n"
     "status 1 when any entry was bad.\n",
     0, 0, false, runVerify},
    {"path", "", "print the cache directory",
     "Prints the directory of the cache: --dir, else JACC_CACHE_DIR, else\n"
     "$XDG_CACHE_HOME/jacc, else ~/.cache/jacc. It need not exist yet.\n",
     0, 0, false, runPath},
    {"config", "", "print each setting, its value and where it came from",
     "Prints whether the cache is enabled (JACC_CACHE), its directory (--dir, JACC_CACHE_DIR,\n"
     "XDG_CACHE_HOME or HOME) and its size limit (JACC_CACHE_MAX_SIZE), each with its source.\n",
     0, 0, false, runConfig},
};

llvm::ArrayRef<Command> commands() {
  return Commands;
}

const Command *findCommand(llvm::StringRef Name) {
  for (const Command &C : Commands)
    if (Name == C.Name)
      return &C;
  return nullptr;
}

namespace {

// --- The command line ------------------------------------------------------------------------

/// Options that take a value: "--dir DIR" or "--dir=DIR". Returns the option's name when Arg is
/// one of them.
std::optional<llvm::StringRef> valueOption(llvm::StringRef Arg) {
  for (llvm::StringRef Name : {"--dir", "--max-size", "--older-than"})
    if (Arg == Name || Arg.startswith((Name + "=").str()))
      return Name;
  return std::nullopt;
}

/// Store the value of a value option; Usage if it has none.
int takeValue(Invocation &Inv, llvm::StringRef Name, llvm::StringRef Arg, int &I, int Argc,
              char **Argv) {
  std::string Value;
  if (Arg.size() > Name.size()) {
    Value = Arg.drop_front(Name.size() + 1).str();
  } else if (I + 1 < Argc) {
    Value = Argv[++I];
  } else {
    return usageError("option '" + Name + "' needs a value", Inv.Command);
  }
  if (Value.empty())
    return usageError("option '" + Name + "' needs a non-empty value", Inv.Command);
  if (Name == "--dir")
    Inv.Dir = Value;
  else if (Name == "--max-size")
    Inv.MaxSize = Value;
  else
    Inv.OlderThan = Value;
  return Success;
}

/// Parse argv: options may come before or after the command; "--" ends them.
int parseArgs(int Argc, char **Argv, Invocation &Inv) {
  bool Options = true;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Options && Arg == "--") {
      Options = false;
    } else if (Options && Arg == "--json") {
      Inv.Json = true;
    } else if (Options && (Arg == "--help" || Arg == "-h")) {
      Inv.Help = true;
    } else if (Options && Arg == "--version") {
      Inv.Version = true;
    } else if (std::optional<llvm::StringRef> Name = Options ? valueOption(Arg) : std::nullopt) {
      if (int E = takeValue(Inv, *Name, Arg, I, Argc, Argv))
        return E;
    } else if (Options && Arg.size() > 1 && Arg.startswith("-")) {
      return usageError("unknown option '" + Arg + "'", Inv.Command);
    } else if (Inv.Command.empty()) {
      Inv.Command = Arg.str();
    } else {
      Inv.Args.push_back(Arg.str());
    }
  }
  return Success;
}

// --- Help ------------------------------------------------------------------------------------

constexpr const char *GlobalOptionsHelp =
    "Options (every command):\n"
    "  --dir DIR   the cache directory (default: $JACC_CACHE_DIR, else $XDG_CACHE_HOME/jacc,\n"
    "              else ~/.cache/jacc)\n"
    "  --json      print the result as JSON\n"
    "  --help      print the help of the command\n";

constexpr const char *ExitHelp = "Exit status: 0 success, 1 the operation failed (verify: bad "
                                 "entries were found), 2 usage error.\n";

std::string synopsis(const Command &C) {
  return std::string(C.Name) + (*C.Args ? " " : "") + C.Args;
}

void printGlobalHelp(llvm::raw_ostream &OS) {
  OS << "Usage: jacc-cache [--dir DIR] [--json] COMMAND [ARGS]\n\n"
        "Inspect and maintain jacc's persistent kernel cache: the compiled kernels kept on disk\n"
        "so that the next run of a program compiles nothing.\n\nCommands:\n";
  for (const Command &C : commands()) {
    std::string S = synopsis(C);
    if (S.size() > 20)
      OS << "  " << S << "\n" << llvm::formatv("  {0,-20} {1}\n", "", C.Summary);
    else
      OS << llvm::formatv("  {0,-20} {1}\n", S, C.Summary);
  }
  OS << "  help [COMMAND]       print this help, or the help of a command\n\n"
     << GlobalOptionsHelp << "  --version   print the version of jacc-cache\n\n"
     << "Run 'jacc-cache COMMAND --help' for the help of a command.\n"
     << ExitHelp;
}

void printCommandHelp(const Command &C) {
  llvm::outs() << "Usage: jacc-cache " << synopsis(C) << " [--dir DIR] [--json]\n\n"
               << llvm::toUpper(C.Summary[0]) << (C.Summary + 1) << ".\n\n"
               << C.Help << "\n"
               << GlobalOptionsHelp << "\n"
               << ExitHelp;
}

/// `jacc-cache help [COMMAND]`.
int runHelp(const Invocation &Inv) {
  if (Inv.Args.empty()) {
    printGlobalHelp(llvm::outs());
    return Success;
  }
  if (Inv.Args.size() > 1)
    return usageError("'help' takes at most one command");
  const Command *C = findCommand(Inv.Args[0]);
  if (!C)
    return usageError("unknown command '" + Inv.Args[0] + "'");
  printCommandHelp(*C);
  return Success;
}

// --- Dispatch --------------------------------------------------------------------------------

/// "unknown command 'lst'; did you mean 'list'?".
int unknownCommand(llvm::StringRef Name) {
  const Command *Best = nullptr;
  unsigned BestDistance = 3;
  for (const Command &C : Commands) {
    unsigned D = llvm::StringRef(C.Name).edit_distance(Name, true, BestDistance);
    if (D < BestDistance) {
      Best = &C;
      BestDistance = D;
    }
  }
  std::string Names;
  for (const Command &C : Commands)
    Names += (Names.empty() ? "" : ", ") + std::string(C.Name);
  return usageError("unknown command '" + Name + "'" +
                    (Best ? "; did you mean '" + std::string(Best->Name) + "'?" : "") +
                    " (the commands: " + Names + ")");
}

/// The arguments and options of a known command: Usage printed when they do not fit.
int checkArgs(const Command &C, const Invocation &Inv) {
  if (!C.PruneOptions && (Inv.MaxSize || Inv.OlderThan))
    return usageError(llvm::Twine("option '") + (Inv.MaxSize ? "--max-size" : "--older-than") +
                          "' belongs to 'prune', not to '" + C.Name + "'",
                      C.Name);
  if (Inv.Args.size() < C.MinArgs)
    return usageError(llvm::Twine("'") + C.Name + "' needs " + C.Args, C.Name);
  if (Inv.Args.size() > C.MaxArgs)
    return usageError(llvm::Twine("unexpected argument '") + Inv.Args[C.MaxArgs] + "' to '" +
                          C.Name + "'",
                      C.Name);
  return Success;
}

int run(int Argc, char **Argv) {
  Context C;
  if (int E = parseArgs(Argc, Argv, C.Inv))
    return E;
  const Invocation &Inv = C.Inv;
  setJsonErrors(Inv.Json);
  if (Inv.Command.empty()) {
    if (Inv.Version) {
      llvm::outs() << "jacc-cache " << JACC_VERSION << " (cache format " << jit::DiskCacheFormat
                   << ")\n";
      return Success;
    }
    printGlobalHelp(Inv.Help ? llvm::outs() : llvm::errs());
    return Inv.Help ? Success : Usage;
  }
  if (Inv.Command == "help")
    return runHelp(Inv);
  const Command *Cmd = findCommand(Inv.Command);
  if (!Cmd)
    return unknownCommand(Inv.Command);
  if (Inv.Help) {
    printCommandHelp(*Cmd);
    return Success;
  }
  if (int E = checkArgs(*Cmd, Inv))
    return E;
  if (int E = loadConfig(C))
    return E;
  C.Now = static_cast<int64_t>(std::time(nullptr));
  return Cmd->Run(C);
}

} // namespace

} // namespace jacc::cachetool

int main(int Argc, char **Argv) {
  int Status = jacc::cachetool::run(Argc, Argv);
  llvm::outs().flush();
  return Status;
}
