// jacc-cache: inspect and maintain jacc's persistent kernel cache (the store of jit/cache/DiskCache.h):
// list its entries, show one, print and zero the statistics, prune, clear, verify checksums,
// print its directory and its configuration.
//
// Exit status: 0 success, 1 the operation failed (or `verify` found bad entries), 2 usage error.
// Errors go to stderr, prefixed "jacc-cache: ". With --json, results go to stdout as JSON.
#include "jit/cache/DiskCache.h"
#include "jit/cache/DiskCacheConfig.h"
#include "jit/cache/KernelEntry.h"

#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

using namespace jacc;
using namespace jacc::jit;
namespace json = llvm::json;

namespace {

/// The exit status of the tool.
enum Exit : int { Success = 0, Failure = 1, Usage = 2 };

/// Columns of names and keys in the text output.
constexpr size_t KeyPrefixLength = 12;
constexpr size_t MaxNameWidth = 48;
/// The labels of `show` and `stats`, and the width of the values wrapped after them.
constexpr size_t FieldWidth = 20;
constexpr size_t WrapWidth = 80;

// --- The command line ------------------------------------------------------------------------

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
  DiskCacheConfig Config;         ///< from the environment, --dir applied
  std::optional<DiskCache> Cache; ///< set by openCache when the directory exists
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

const Command *findCommand(llvm::StringRef Name);
llvm::ArrayRef<Command> commands();

/// Print "jacc-cache: Message" on stderr; returns Failure.
int fail(const llvm::Twine &Message) {
  llvm::outs().flush();
  llvm::errs() << "jacc-cache: " << Message << "\n";
  return Failure;
}

/// Print a usage error and where to find help on stderr; returns Usage.
int usageError(const llvm::Twine &Message, llvm::StringRef Command = "") {
  llvm::errs() << "jacc-cache: " << Message << "\nRun 'jacc-cache "
               << (Command.empty() ? "" : Command.str() + " ") << "--help' for the usage.\n";
  return Usage;
}

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

// --- Formatting ------------------------------------------------------------------------------

/// 512B, 12.3K, 4.5M, 1.0G (powers of 1024).
std::string humanSize(uint64_t Bytes) {
  if (Bytes < 1024)
    return std::to_string(Bytes) + "B";
  static const char Units[] = "KMGTPE";
  double V = static_cast<double>(Bytes) / 1024;
  unsigned U = 0;
  while (V >= 1023.95 && U + 1 < sizeof Units - 1) {
    V /= 1024;
    ++U;
  }
  return llvm::formatv("{0:f1}", V).str() + Units[U];
}

/// "850 ms", "12.3 s", "4.2 min", "1.5 h".
std::string humanMs(double Ms) {
  if (Ms < 1000)
    return llvm::formatv("{0:f1} ms", Ms).str();
  double S = Ms / 1000;
  if (S < 60)
    return llvm::formatv("{0:f1} s", S).str();
  if (S < 3600)
    return llvm::formatv("{0:f1} min", S / 60).str();
  return llvm::formatv("{0:f1} h", S / 3600).str();
}

/// ISO-8601 local time: 2025-11-22T08:30:12.
std::string isoLocal(int64_t T) {
  std::time_t TT = static_cast<std::time_t>(T);
  std::tm Tm{};
  if (!localtime_r(&TT, &Tm))
    return std::to_string(T);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%S", &Tm);
  return Buf;
}

/// "just now", "42s ago", "3m ago", "5h ago" within a day; the local time beyond.
std::string whenShort(int64_t T, int64_t Now) {
  int64_t D = Now - T;
  if (D < 0 || D >= 86400)
    return isoLocal(T);
  if (D < 5)
    return "just now";
  if (D < 60)
    return std::to_string(D) + "s ago";
  if (D < 3600)
    return std::to_string(D / 60) + "m ago";
  return std::to_string(D / 3600) + "h ago";
}

/// The local time and, within a day, how long ago: "2025-11-22T08:30:12 (3m ago)".
std::string whenLong(int64_t T, int64_t Now) {
  std::string S = isoLocal(T);
  int64_t D = Now - T;
  if (D >= 0 && D < 86400)
    S += " (" + whenShort(T, Now) + ")";
  return S;
}

/// The CPU of a target "x86_64-unknown-linux-gnu skylake +avx2,...": "skylake" (else the triple).
std::string shortTarget(llvm::StringRef Target) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Target.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  if (Parts.empty())
    return "-";
  return (Parts.size() > 1 ? Parts[1] : Parts[0]).str();
}

/// The first line of Text, cut to Width characters ("..." marks a cut).
std::string clip(llvm::StringRef Text, size_t Width) {
  llvm::StringRef Line = Text.take_until([](char C) { return C == '\n'; }).trim();
  if (Line.size() <= Width && Line.size() == Text.trim().size())
    return Line.str();
  if (Line.size() + 3 > Width)
    Line = Line.take_front(Width - 3).rtrim();
  return Line.str() + "...";
}

void printJson(json::Value V) { llvm::outs() << llvm::formatv("{0:2}", V) << "\n"; }

/// "label       value" lines of `show`, `stats` and `config`.
void field(llvm::StringRef Label, const llvm::Twine &Value) {
  llvm::outs() << Label;
  // A label as wide as the column still gets a gap (artifact names can be).
  llvm::outs().indent(Label.size() < FieldWidth ? static_cast<unsigned>(FieldWidth - Label.size())
                                                : 2);
  llvm::outs() << Value << "\n";
}

/// Text indented by four spaces, line by line.
void block(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.rtrim("\n").split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    llvm::outs() << "    " << L.rtrim() << "\n";
}

// --- The cache -------------------------------------------------------------------------------

/// The configuration from the environment, --dir applied. Failure printed when malformed.
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

/// Whether Dir holds the CACHEDIR.TAG that jacc writes, or nothing at all: the tool refuses to
/// work in (and so to tag, or remove entries from) a directory that is not a jacc cache.
bool looksLikeCache(const std::string &Dir) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Tag =
      llvm::MemoryBuffer::getFile(Dir + "/CACHEDIR.TAG");
  if (Tag)
    return (*Tag)->getBuffer().contains("jacc");
  if (Tag.getError() != std::errc::no_such_file_or_directory)
    return true; // unreadable: DiskCache::open says why
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  return !EC && It == llvm::sys::fs::directory_iterator();
}

/// Open the configured cache into C.Cache, unless its directory does not exist (then C.Cache
/// stays empty: an empty cache, not created by looking at it). Failure printed.
int openCache(Context &C) {
  const std::string &Dir = C.Config.Dir;
  if (Dir.empty())
    return fail("no kernel cache directory: neither JACC_CACHE_DIR, XDG_CACHE_HOME nor HOME is "
                "set; set one of them or pass --dir DIR");
  if (!llvm::sys::fs::exists(Dir))
    return Success;
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

/// The entries, most recently used first.
std::vector<DiskCacheEntryInfo> entriesNewestFirst(const Context &C) {
  std::vector<DiskCacheEntryInfo> Entries;
  if (C.Cache)
    Entries = C.Cache->list();
  llvm::sort(Entries, [](const DiskCacheEntryInfo &A, const DiskCacheEntryInfo &B) {
    return std::tie(B.LastUsed, B.Created, A.Key) < std::tie(A.LastUsed, A.Created, B.Key);
  });
  return Entries;
}

json::Object artifactsJson(const DiskCacheEntryInfo &E) {
  json::Object A;
  for (const auto &[Name, Size] : E.Artifacts)
    A[Name] = Size;
  return A;
}

// --- list ------------------------------------------------------------------------------------

json::Value listJson(const std::vector<DiskCacheEntryInfo> &Entries) {
  json::Array Out;
  for (const DiskCacheEntryInfo &E : Entries) {
    KernelSummaryFields F = readKernelSummaryFields(E.Summary);
    std::string Target = F.Target.value_or("");
    json::Object O{{"key", E.Key},
                   {"name", F.Name.value_or("")},
                   {"target", Target},
                   {"cpu", Target.empty() ? "" : shortTarget(Target)},
                   {"size", E.Size},
                   {"hits", E.Hits},
                   {"created", E.Created},
                   {"last_used", E.LastUsed},
                   {"artifacts", artifactsJson(E)}};
    if (F.CompileMs)
      O["compile_ms"] = *F.CompileMs;
    Out.push_back(std::move(O));
  }
  return Out;
}

/// One row of the table: key prefix, kernel, target, size, hits, last used.
using Row = std::array<std::string, 6>;

/// Text padded with spaces to Width, on the right (Left) or on the left.
std::string pad(const std::string &Text, size_t Width, bool Left) {
  std::string Fill(Width > Text.size() ? Width - Text.size() : 0, ' ');
  return Left ? Text + Fill : Fill + Text;
}

void printTable(const std::vector<Row> &Rows) {
  std::array<size_t, 6> W{};
  for (const Row &R : Rows)
    for (size_t I = 0; I < R.size(); ++I)
      W[I] = std::max(W[I], R[I].size());
  for (const Row &R : Rows) {
    std::string Line;
    for (size_t I = 0; I < R.size(); ++I) {
      bool Last = I + 1 == R.size(), Numeric = I == 3 || I == 4;
      Line += Last ? R[I] : pad(R[I], W[I], !Numeric) + "  ";
    }
    llvm::outs() << llvm::StringRef(Line).rtrim() << "\n";
  }
}

int runList(Context &C) {
  if (int E = openCache(C))
    return E;
  std::vector<DiskCacheEntryInfo> Entries = entriesNewestFirst(C);
  if (C.Inv.Json) {
    printJson(listJson(Entries));
    return Success;
  }
  if (Entries.empty()) {
    llvm::outs() << "no entries in the kernel cache '" << C.Config.Dir << "'\n";
    return Success;
  }
  std::vector<Row> Rows{{"KEY", "KERNEL", "TARGET", "SIZE", "HITS", "LAST USED"}};
  uint64_t Total = 0;
  for (const DiskCacheEntryInfo &E : Entries) {
    KernelSummaryFields F = readKernelSummaryFields(E.Summary);
    std::string Name = F.Name.value_or(""), Target = F.Target.value_or("");
    Rows.push_back({E.Key.substr(0, KeyPrefixLength), Name.empty() ? "-" : clip(Name, MaxNameWidth),
                    Target.empty() ? "-" : shortTarget(Target), humanSize(E.Size),
                    std::to_string(E.Hits), whenShort(E.LastUsed, C.Now)});
    Total += E.Size;
  }
  printTable(Rows);
  llvm::outs() << Entries.size() << (Entries.size() == 1 ? " entry, " : " entries, ")
               << humanSize(Total) << " (limit " << humanSize(C.Config.MaxSize) << ")\n";
  return Success;
}

// --- show ------------------------------------------------------------------------------------

/// "llvm 16.0.6, nvrtc 13.0, jacc 0.1.0, format 1".
std::string compilersText(const std::vector<std::pair<std::string, std::string>> &Compilers) {
  std::string Out;
  for (const auto &[Name, Version] : Compilers)
    Out += (Out.empty() ? "" : ", ") + Name + " " + Version;
  return Out;
}

/// A list of strings (decls, predicates) as an indented block; nothing when empty.
void stringList(llvm::StringRef Title, const std::vector<std::string> &Items) {
  if (Items.empty())
    return;
  llvm::outs() << "\n" << Title << "\n";
  for (const std::string &Item : Items)
    block(Item);
}

/// Words filled into lines of at most WrapWidth characters, continued under a field's value.
std::string wrapWords(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 64> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::string Out, Line;
  for (llvm::StringRef W : Words) {
    if (!Line.empty() && Line.size() + 1 + W.size() > WrapWidth) {
      Out += Line + "\n" + std::string(FieldWidth, ' ');
      Line.clear();
    }
    Line += (Line.empty() ? "" : " ") + W.str();
  }
  return Out + Line;
}

void showHeader(const Context &C, const DiskCacheEntryInfo &E, const KernelSummaryFields &S) {
  field("key", E.Key);
  field("kernel", S.Name.value_or("-"));
  field("target", S.Target ? wrapWords(*S.Target) : "-");
  field("created", whenLong(E.Created, C.Now));
  field("last used", whenLong(E.LastUsed, C.Now));
  field("hits", llvm::Twine(E.Hits));
  field("size", humanSize(E.Size) + " (" + llvm::Twine(E.Size) + " bytes)");
  if (S.CompileMs)
    field("compile time",
          humanMs(*S.CompileMs) +
              (S.AnalysisMs ? " (analysis " + humanMs(*S.AnalysisMs) + ")" : std::string()));
  if (S.Compilers)
    field("compilers", compilersText(*S.Compilers));
}

std::string arraysText(const std::vector<SummarySplitArray> &Arrays) {
  std::string Out;
  for (const SummarySplitArray &A : Arrays) {
    std::string One = A.Name.value_or("?");
    if (A.Dim)
      One += " (dim " + std::to_string(*A.Dim);
    else
      One += " (dim ?";
    if (A.Affine)
      One += *A.Affine ? ", affine" : ", not affine";
    Out += (Out.empty() ? "" : ", ") + One + ")";
  }
  return Out;
}

void showSplit(const KernelSummaryFields &S) {
  if (!S.Split)
    return;
  const SummarySplit &Split = *S.Split;
  llvm::outs() << "\nsplit\n";
  field("    enabled", Split.Enabled ? (*Split.Enabled ? "yes" : "no") : "?");
  if (!Split.Fallback.empty())
    field("    fallback", Split.Fallback);
  if (Split.Narrowable)
    field("    narrowable", *Split.Narrowable ? "yes" : "no");
  if (std::string Text = arraysText(Split.Arrays); !Text.empty())
    field("    arrays", Text);
  stringList("predicates", Split.Predicates);
}

/// The CUDA entries' block size and the access traits it follows from (jit/cuda/BlockGeometry.h).
void showGpu(const KernelSummaryFields &S) {
  if (!S.Gpu)
    return; // a summary from before the traits
  llvm::outs() << "\ngpu block geometry\n";
  field("    block size",
        llvm::Twine(S.Gpu->BlockSize).str() + " threads (" + S.Gpu->BlockWhy + ")");
  field("    traits", S.Gpu->Traits);
}

void showArtifacts(const DiskCacheEntryInfo &E) {
  llvm::outs() << "\nartifacts\n";
  if (E.Artifacts.empty())
    llvm::outs() << "    (none)\n";
  for (const auto &[Name, Size] : E.Artifacts)
    field("    " + Name, humanSize(Size) + " (" + llvm::Twine(Size) + " bytes)");
}

/// The records of the entry's specialized variants (jit/KernelVariants.h), most used first.
std::vector<VariantRecord> variants(const Context &C, const DiskCacheEntryInfo &E) {
  std::vector<VariantRecord> Found;
  for (const auto &[Name, Size] : E.Artifacts) {
    if (!isVariantRecordArtifact(Name))
      continue;
    std::string Warning;
    std::optional<std::string> Text = C.Cache->readArtifact(E.Key, Name, Warning);
    if (!Text)
      continue;
    if (std::optional<VariantRecord> R = parseVariantRecord(*Text))
      Found.push_back(std::move(*R));
  }
  std::stable_sort(Found.begin(), Found.end(),
                   [](const VariantRecord &A, const VariantRecord &B) { return A.Hits > B.Hits; });
  return Found;
}

/// The variants' records as stored.
json::Array variantsJson(const std::vector<VariantRecord> &Variants) {
  json::Array Out;
  for (const VariantRecord &R : Variants)
    Out.push_back(json::Object(R.Stored));
  return Out;
}

void showVariants(const Context &C, const DiskCacheEntryInfo &E) {
  std::vector<VariantRecord> Variants = variants(C, E);
  llvm::outs() << "\nvariants (JACC_SPECIALIZE)\n";
  if (Variants.empty())
    llvm::outs() << "    (none)\n";
  for (const VariantRecord &R : Variants)
    field("    " + llvm::Twine(R.Hits).str() + " hits",
          R.Values + llvm::formatv(" (compiled in {0:f1} ms)", R.CompileMs.value_or(0)).str());
}

void showText(const Context &C, const DiskCacheEntryInfo &E) {
  KernelSummaryFields S = readKernelSummaryFields(E.Summary);
  showHeader(C, E, S);
  stringList("declarations", S.Decls);
  if (S.Source) {
    llvm::outs() << "\nsource\n";
    block(*S.Source);
  }
  showSplit(S);
  showGpu(S);
  if (S.Rewritten) {
    llvm::outs() << "\nrewritten source\n";
    if (llvm::StringRef(*S.Rewritten).trim().empty())
      llvm::outs() << "    (none: the kernel is not split)\n";
    else
      block(*S.Rewritten);
  }
  showVariants(C, E);
  showArtifacts(E);
}

/// Whether Text could start a key: hexadecimal digits.
bool isKeyPrefix(llvm::StringRef Text) {
  return !Text.empty() && llvm::all_of(Text, [](char Ch) { return llvm::isHexDigit(Ch); });
}

int runShow(Context &C) {
  const std::string &Prefix = C.Inv.Args[0];
  if (!isKeyPrefix(Prefix))
    return usageError("'" + Prefix + "' is not a key prefix: give the first hexadecimal digits "
                                     "of a key, as 'jacc-cache list' prints them",
                      "show");
  if (int E = openCache(C))
    return E;
  if (!C.Cache)
    return fail("no entry '" + Prefix + "': the kernel cache '" + C.Config.Dir +
                "' does not exist yet");
  llvm::Expected<DiskCacheEntryInfo> E = C.Cache->find(Prefix);
  if (!E) {
    std::string Message;
    takeError(E.takeError(), Message);
    return fail(Message + " ('jacc-cache list' prints the keys)");
  }
  if (C.Inv.Json)
    printJson(json::Object{{"key", E->Key},
                           {"created", E->Created},
                           {"last_used", E->LastUsed},
                           {"hits", E->Hits},
                           {"size", E->Size},
                           {"artifacts", artifactsJson(*E)},
                           {"variants", variantsJson(variants(C, *E))},
                           {"summary", json::Object(E->Summary)}});
  else
    showText(C, *E);
  return Success;
}

// --- stats, zero-stats -----------------------------------------------------------------------

int runStats(Context &C) {
  if (int E = openCache(C))
    return E;
  DiskCacheStats S = C.Cache ? C.Cache->stats() : DiskCacheStats();
  size_t Entries = C.Cache ? C.Cache->list().size() : 0;
  uint64_t Size = C.Cache ? C.Cache->totalSize() : 0;
  uint64_t Hits = S.MemoryHits + S.DiskHits, Calls = Hits + S.Misses;
  std::optional<double> Ratio;
  if (Calls > 0)
    Ratio = 100.0 * static_cast<double>(Hits) / static_cast<double>(Calls);
  if (C.Inv.Json) {
    printJson(json::Object{{"dir", C.Config.Dir},
                           {"entries", static_cast<int64_t>(Entries)},
                           {"size", Size},
                           {"max_size", C.Config.MaxSize},
                           {"memory_hits", S.MemoryHits},
                           {"disk_hits", S.DiskHits},
                           {"misses", S.Misses},
                           {"hit_ratio", Ratio ? json::Value(*Ratio / 100) : json::Value(nullptr)},
                           {"compile_ms_saved", S.CompileMsSaved},
                           {"evictions", S.Evictions},
                           {"zeroed_at", S.ZeroedAt}});
    return Success;
  }
  double Percent = C.Config.MaxSize ? 100.0 * static_cast<double>(Size) /
                                          static_cast<double>(C.Config.MaxSize)
                                    : 0.0;
  field("cache directory", C.Config.Dir);
  field("entries", llvm::Twine(Entries));
  field("size", humanSize(Size) + " of " + humanSize(C.Config.MaxSize) +
                    llvm::formatv(" ({0:f1}%)", Percent).str());
  field("hits", llvm::Twine(Hits));
  field("  memory", llvm::Twine(S.MemoryHits));
  field("  disk", llvm::Twine(S.DiskHits));
  field("misses", llvm::Twine(S.Misses) + " (compiles)");
  field("hit ratio", Ratio ? llvm::formatv("{0:f1}%", *Ratio).str() : std::string("-"));
  field("compile time saved", humanMs(S.CompileMsSaved));
  field("evictions", llvm::Twine(S.Evictions));
  field("stats zeroed", S.ZeroedAt ? whenLong(S.ZeroedAt, C.Now) : std::string("never"));
  return Success;
}

int runZeroStats(Context &C) {
  if (int E = openCache(C))
    return E;
  if (C.Cache)
    if (llvm::Error E = C.Cache->zeroStats()) {
      std::string Message;
      takeError(std::move(E), Message);
      return fail(Message);
    }
  int64_t At = C.Cache ? C.Cache->stats().ZeroedAt : 0;
  if (C.Inv.Json)
    printJson(json::Object{{"dir", C.Config.Dir}, {"zeroed_at", At}});
  else if (C.Cache)
    llvm::outs() << "statistics of '" << C.Config.Dir << "' zeroed\n";
  else
    llvm::outs() << "the kernel cache '" << C.Config.Dir
                 << "' does not exist yet: no statistics to zero\n";
  return Success;
}

// --- prune, clear, verify --------------------------------------------------------------------

/// "30d", "12h", "45m", "3600s", "2w" or bare seconds; nullopt when malformed.
std::optional<int64_t> parseDuration(llvm::StringRef Text) {
  llvm::StringRef T = Text.trim();
  llvm::StringRef Digits = T.take_while([](char Ch) { return llvm::isDigit(Ch); });
  llvm::StringRef Unit = T.drop_front(Digits.size());
  int64_t N = 0;
  if (Digits.empty() || Digits.getAsInteger(10, N) || Unit.size() > 1)
    return std::nullopt;
  int64_t Scale = llvm::StringSwitch<int64_t>(Unit.lower())
                      .Cases("", "s", 1)
                      .Case("m", 60)
                      .Case("h", 3600)
                      .Case("d", 86400)
                      .Case("w", 7 * 86400)
                      .Default(0);
  if (Scale == 0 || N > INT64_MAX / Scale)
    return std::nullopt;
  return N * Scale;
}

/// prune's limits from its options: Usage printed when malformed.
int pruneLimits(const Context &C, uint64_t &MaxSize, int64_t &OlderThan) {
  MaxSize = C.Config.MaxSize;
  OlderThan = 0;
  if (C.Inv.MaxSize) {
    llvm::Expected<uint64_t> N = parseSize(*C.Inv.MaxSize);
    if (!N) {
      llvm::consumeError(N.takeError());
      return usageError("--max-size '" + *C.Inv.MaxSize +
                            "' is not a size: use bytes with an optional K, M, G or T suffix, "
                            "e.g. 500M",
                        "prune");
    }
    MaxSize = *N;
  }
  if (C.Inv.OlderThan) {
    std::optional<int64_t> D = parseDuration(*C.Inv.OlderThan);
    if (!D)
      return usageError("--older-than '" + *C.Inv.OlderThan +
                            "' is not a duration: use a number with s, m, h, d or w, e.g. 30d "
                            "or 12h",
                        "prune");
    OlderThan = std::max<int64_t>(1, C.Now - *D);
  }
  return Success;
}

/// "the cache holds 5 entries, 12.3M (limit 1.0G)".
std::string holdsText(const Context &C, uint64_t Limit) {
  size_t N = C.Cache ? C.Cache->list().size() : 0;
  uint64_t Size = C.Cache ? C.Cache->totalSize() : 0;
  return "the cache holds " + std::to_string(N) + (N == 1 ? " entry, " : " entries, ") +
         humanSize(Size) + " (limit " + humanSize(Limit) + ")";
}

int runPrune(Context &C) {
  uint64_t MaxSize = 0;
  int64_t OlderThan = 0;
  if (int E = pruneLimits(C, MaxSize, OlderThan))
    return E;
  if (int E = openCache(C))
    return E;
  unsigned Removed = 0;
  if (C.Cache) {
    llvm::Expected<unsigned> N = C.Cache->prune(MaxSize, OlderThan);
    if (!N) {
      std::string Message;
      takeError(N.takeError(), Message);
      return fail(Message);
    }
    Removed = *N;
  }
  if (C.Inv.Json)
    printJson(json::Object{{"removed", Removed},
                           {"entries", static_cast<int64_t>(C.Cache ? C.Cache->list().size() : 0)},
                           {"size", C.Cache ? C.Cache->totalSize() : 0},
                           {"max_size", MaxSize}});
  else
    llvm::outs() << "removed " << Removed << (Removed == 1 ? " entry; " : " entries; ")
                 << holdsText(C, MaxSize) << "\n";
  return Success;
}

int runClear(Context &C) {
  if (int E = openCache(C))
    return E;
  size_t N = C.Cache ? C.Cache->list().size() : 0;
  if (C.Cache)
    if (llvm::Error E = C.Cache->clear()) {
      std::string Message;
      takeError(std::move(E), Message);
      return fail(Message);
    }
  if (C.Inv.Json)
    printJson(json::Object{{"removed", static_cast<int64_t>(N)}});
  else
    llvm::outs() << "removed " << N << (N == 1 ? " entry" : " entries") << " from '"
                 << C.Config.Dir << "'\n";
  return Success;
}

int runVerify(Context &C) {
  if (int E = openCache(C))
    return E;
  std::vector<DiskCacheProblem> Problems;
  if (C.Cache)
    Problems = C.Cache->verify();
  size_t Good = C.Cache ? C.Cache->list().size() : 0;
  if (C.Inv.Json) {
    json::Array P;
    for (const DiskCacheProblem &Pr : Problems)
      P.push_back(json::Object{{"key", Pr.Key}, {"problem", Pr.What}, {"removed", true}});
    printJson(json::Object{{"good", static_cast<int64_t>(Good)}, {"bad", std::move(P)}});
  } else {
    for (const DiskCacheProblem &Pr : Problems)
      llvm::outs() << "bad entry " << llvm::StringRef(Pr.Key).take_front(KeyPrefixLength) << ": "
                   << Pr.What << " (removed)\n";
    llvm::outs() << Good << (Good == 1 ? " good entry, " : " good entries, ") << Problems.size()
                 << (Problems.size() == 1 ? " bad entry" : " bad entries")
                 << (Problems.empty() ? "" : " removed") << "\n";
  }
  if (Problems.empty())
    return Success;
  return fail("verify found " + llvm::Twine(Problems.size()) +
              (Problems.size() == 1 ? " bad entry" : " bad entries") +
              " and removed them (the next compile of each kernel stores it again)");
}

// --- path, config ----------------------------------------------------------------------------

int runPath(Context &C) {
  if (C.Config.Dir.empty())
    return fail("no kernel cache directory: neither JACC_CACHE_DIR, XDG_CACHE_HOME nor HOME is "
                "set; set one of them or pass --dir DIR");
  if (C.Inv.Json)
    printJson(json::Object{{"dir", C.Config.Dir}});
  else
    llvm::outs() << C.Config.Dir << "\n";
  return Success;
}

json::Object setting(json::Value Value, llvm::StringRef From) {
  return json::Object{{"value", std::move(Value)}, {"from", From}};
}

int runConfig(Context &C) {
  const DiskCacheConfig &K = C.Config;
  if (C.Inv.Json) {
    printJson(json::Object{{"enabled", setting(K.Enabled, K.EnabledFrom)},
                           {"dir", setting(K.Dir, K.DirFrom)},
                           {"max_size", setting(K.MaxSize, K.MaxSizeFrom)}});
    return Success;
  }
  auto Row = [](llvm::StringRef Name, const std::string &Value, llvm::StringRef From) {
    llvm::outs() << llvm::formatv("{0,-10} {1,-40} (from {2})\n", Name, Value, From);
  };
  Row("enabled", K.Enabled ? "yes" : "no", K.EnabledFrom);
  Row("dir", K.Dir.empty() ? "(none)" : K.Dir, K.DirFrom);
  Row("max size", humanSize(K.MaxSize) + " (" + std::to_string(K.MaxSize) + " bytes)",
      K.MaxSizeFrom);
  return Success;
}

// --- The commands ----------------------------------------------------------------------------

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

llvm::ArrayRef<Command> commands() { return Commands; }

const Command *findCommand(llvm::StringRef Name) {
  for (const Command &C : Commands)
    if (Name == C.Name)
      return &C;
  return nullptr;
}

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
  if (Inv.Command.empty()) {
    if (Inv.Version) {
      llvm::outs() << "jacc-cache " << JACC_VERSION << " (cache format " << DiskCacheFormat
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

int main(int Argc, char **Argv) {
  int Status = run(Argc, Argv);
  llvm::outs().flush();
  return Status;
}
