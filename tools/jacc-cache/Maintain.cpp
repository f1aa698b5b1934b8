// The jacc-cache commands that maintain the cache: stats and zero-stats, prune, clear and verify.
#include "tools/jacc-cache/Output.h"
#include "tools/jacc-cache/Tool.h"

#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <optional>

using namespace jacc::jit;
namespace json = llvm::json;

namespace jacc::cachetool {

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

namespace {

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

} // namespace

int runPrune(Context &C) {
  uint64_t MaxSize = 0;
  int64_t OlderThan = 0;
  if (int E = pruneLimits(C, MaxSize, OlderThan))
    return E;
  if (int E = openCache(C, /*MissingIsError=*/false))
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
  if (int E = openCache(C, /*MissingIsError=*/false))
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

} // namespace jacc::cachetool
