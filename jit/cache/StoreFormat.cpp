// The disk cache's own files: entry.json and stats.json, and reading an entry back (see
// StoreFormat.h).
#include "jit/cache/StoreFormat.h"

#include "jit/cache/CacheFiles.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <cerrno>
#include <cstdio>

#include <sys/stat.h>

namespace jacc::jit::diskcache {

namespace {

/// llvm::json::parse recurses per nesting level: deeper documents are refused before parsing.
constexpr unsigned MaxJsonDepth = 256;

/// Whether a JSON text nests deeper than MaxJsonDepth (counted outside strings).
bool jsonTooDeep(llvm::StringRef Text) {
  unsigned Depth = 0;
  bool InString = false, Escape = false;
  for (char C : Text) {
    if (InString) {
      if (Escape)
        Escape = false;
      else if (C == '\\')
        Escape = true;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxJsonDepth)
        return true;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return false;
}

} // namespace

std::string checksum(llvm::StringRef Bytes) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "xxh64:%016llx",
                static_cast<unsigned long long>(llvm::xxHash64(Bytes)));
  return Buf;
}

std::optional<llvm::json::Object> parseObject(llvm::StringRef Text, std::string &Why) {
  if (Text.empty()) {
    Why = "empty";
    return std::nullopt;
  }
  if (jsonTooDeep(Text)) {
    Why = "not valid JSON (nested too deeply)";
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    Why = "not valid JSON (" + llvm::toString(V.takeError()) + ")";
    return std::nullopt;
  }
  llvm::json::Object *O = V->getAsObject();
  if (!O) {
    Why = "not a JSON object";
    return std::nullopt;
  }
  return std::move(*O);
}

std::string toJson(llvm::json::Value V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", V) << "\n";
  OS.flush();
  return S;
}

llvm::json::Value textValue(llvm::StringRef S) {
  if (llvm::json::isUTF8(S))
    return S.str();
  return llvm::json::Object{{"bytes", llvm::toHex(S, /*LowerCase=*/true)}};
}

std::optional<std::string> textOf(const llvm::json::Value *V) {
  if (!V)
    return std::nullopt;
  if (std::optional<llvm::StringRef> S = V->getAsString())
    return S->str();
  const llvm::json::Object *O = V->getAsObject();
  std::optional<llvm::StringRef> Hex = O ? O->getString("bytes") : std::nullopt;
  std::string Bytes;
  if (!Hex || !llvm::tryGetFromHex(*Hex, Bytes))
    return std::nullopt;
  return Bytes;
}

namespace {

llvm::json::Value fileSumJson(const FileSum &F) {
  return llvm::json::Object{{"size", F.Size}, {"checksum", F.Checksum}};
}

bool parseFileSum(const llvm::json::Value *V, FileSum &F) {
  const llvm::json::Object *O = V ? V->getAsObject() : nullptr;
  if (!O)
    return false;
  const llvm::json::Value *Size = O->get("size");
  std::optional<uint64_t> N = Size ? Size->getAsUINT64() : std::nullopt;
  std::optional<llvm::StringRef> C = O->getString("checksum");
  if (!N || !C)
    return false;
  F.Size = *N;
  F.Checksum = C->str();
  return true;
}

} // namespace

std::string entryJson(llvm::StringRef Key, const EntryMeta &M) {
  llvm::json::Object Artifacts;
  for (const auto &[Name, F] : M.Artifacts)
    Artifacts[Name] = fileSumJson(F);
  return toJson(llvm::json::Object{{"format", static_cast<int64_t>(DiskCacheFormat)},
                                   {"key", Key},
                                   {"created", M.Created},
                                   {"last_used", M.LastUsed},
                                   {"hits", M.Hits},
                                   {"summary", fileSumJson(M.Summary)},
                                   {"artifacts", std::move(Artifacts)}});
}

bool parseEntry(llvm::StringRef Text, llvm::StringRef Key, EntryMeta &M, std::string &Why) {
  std::string Reason;
  std::optional<llvm::json::Object> O = parseObject(Text, Reason);
  if (!O) {
    Why = std::string(EntryFile) + ": " + Reason;
    return false;
  }
  std::optional<int64_t> Format = O->getInteger("format");
  if (!Format) {
    Why = std::string(EntryFile) + ": no format version";
    return false;
  }
  if (*Format != static_cast<int64_t>(DiskCacheFormat)) {
    Why = std::string(EntryFile) + ": format " + std::to_string(*Format) +
          ", this jacc reads format " + std::to_string(DiskCacheFormat);
    return false;
  }
  std::optional<llvm::StringRef> K = O->getString("key");
  if (!K || *K != Key) {
    Why = std::string(EntryFile) + ": " +
          (K ? "belongs to key '" + K->str() + "'" : std::string("no key"));
    return false;
  }
  std::optional<int64_t> Created = O->getInteger("created"), Used = O->getInteger("last_used");
  const llvm::json::Value *Hits = O->get("hits");
  std::optional<uint64_t> NHits = Hits ? Hits->getAsUINT64() : std::nullopt;
  if (!Created || !Used || !NHits) {
    Why = std::string(EntryFile) + ": created, last_used or hits missing or not an integer";
    return false;
  }
  M.Created = *Created;
  M.LastUsed = *Used;
  M.Hits = *NHits;
  if (!parseFileSum(O->get("summary"), M.Summary)) {
    Why = std::string(EntryFile) + ": no summary size and checksum";
    return false;
  }
  const llvm::json::Object *A = O->getObject("artifacts");
  if (!A) {
    Why = std::string(EntryFile) + ": no artifacts object";
    return false;
  }
  M.Artifacts.clear();
  for (const auto &[Name, V] : *A) {
    FileSum F;
    if (!DiskCache::isValidArtifactName(Name) || !parseFileSum(&V, F)) {
      Why = std::string(EntryFile) + ": bad artifact record '" + Name.str() + "'";
      return false;
    }
    M.Artifacts[Name.str()] = std::move(F);
  }
  return true;
}

bool checkFile(const std::string &EntryDir, llvm::StringRef Name, const FileSum &F, bool Read,
               std::string *Bytes, std::string &Why) {
  std::string Path = pathJoin(EntryDir, Name);
  auto Fail = [&](const std::string &What) {
    Why = Name.str() + ": " + What;
    return false;
  };
  struct stat St;
  if (!Read) {
    if (::stat(Path.c_str(), &St) != 0)
      return Fail(errno == ENOENT ? "missing" : "unreadable (" + errnoText(errno) + ")");
    if (!S_ISREG(St.st_mode))
      return Fail("not a regular file");
    if (static_cast<uint64_t>(St.st_size) != F.Size)
      return Fail(std::to_string(St.st_size) + " bytes instead of " + std::to_string(F.Size) +
                  " (truncated or overwritten)");
    return true;
  }
  if (F.Size >= (uint64_t(1) << 40))
    return Fail("recorded size " + std::to_string(F.Size) + " is implausible");
  std::string Local;
  std::string &Out = Bytes ? *Bytes : Local;
  // One byte more than recorded, to tell a longer file from a match without reading it all.
  int E = readFile(Path, F.Size + 1, Out);
  if (E == ENOENT)
    return Fail("missing");
  if (E == EISDIR)
    return Fail("not a regular file");
  if (E == EFBIG) {
    std::string Size = ::stat(Path.c_str(), &St) == 0 ? std::to_string(St.st_size) : "more";
    return Fail(Size + " bytes instead of " + std::to_string(F.Size) +
                " (truncated or overwritten)");
  }
  if (E != 0)
    return Fail("unreadable (" + errnoText(E) + ")");
  if (Out.size() != F.Size)
    return Fail(std::to_string(Out.size()) + " bytes instead of " + std::to_string(F.Size) +
                " (truncated or overwritten)");
  if (checksum(Out) != F.Checksum)
    return Fail("checksum mismatch");
  return true;
}

Found loadEntry(const std::string &EntryDir, llvm::StringRef Key, Depth D, EntryMeta &M,
                EntrySeen &Seen, llvm::json::Object *Summary, std::string &Why) {
  int E = Seen.Errno =
      readFile(pathJoin(EntryDir, EntryFile), MaxEntryBytes, Seen.Text, &Seen.Stamp);
  const std::string &EntryText = Seen.Text;
  if (E == ENOENT) {
    // Without a summary either, nothing of an entry is there: no directory, or one being created
    // or removed (only the lock file). A summary without entry.json is a writer that died.
    struct stat St;
    if (::lstat(pathJoin(EntryDir, SummaryFile).c_str(), &St) != 0 &&
        (errno == ENOENT || errno == ENOTDIR))
      return Found::Absent;
    Why = std::string(EntryFile) + ": missing";
    return Found::Bad;
  }
  if (E == ENOTDIR) {
    Why = "not a directory";
    return Found::Bad;
  }
  if (E == EISDIR) {
    Why = std::string(EntryFile) + ": not a regular file";
    return Found::Bad;
  }
  if (E == EFBIG) {
    Why = std::string(EntryFile) + ": larger than " + std::to_string(MaxEntryBytes) + " bytes";
    return Found::Bad;
  }
  if (E != 0) {
    Why = std::string(EntryFile) + ": unreadable (" + errnoText(E) + ")";
    return Found::Bad;
  }
  if (!parseEntry(EntryText, Key, M, Why))
    return Found::Bad;
  if (D == Depth::Meta)
    return Found::Entry;
  std::string SummaryText;
  if (M.Summary.Size > MaxSummaryBytes) {
    Why = std::string(SummaryFile) + ": larger than " + std::to_string(MaxSummaryBytes) + " bytes";
    return Found::Bad;
  }
  if (!checkFile(EntryDir, SummaryFile, M.Summary, /*Read=*/true, &SummaryText, Why))
    return Found::Bad;
  std::string Reason;
  std::optional<llvm::json::Object> S = parseObject(SummaryText, Reason);
  if (!S) {
    Why = std::string(SummaryFile) + ": " + Reason;
    return Found::Bad;
  }
  if (Summary)
    *Summary = std::move(*S);
  for (const auto &[Name, F] : M.Artifacts)
    if (!checkFile(EntryDir, Name, F, /*Read=*/D == Depth::Full, nullptr, Why))
      return Found::Bad;
  return Found::Entry;
}

DiskCacheStats parseStats(llvm::StringRef Text) {
  DiskCacheStats S;
  std::string Why;
  std::optional<llvm::json::Object> O = parseObject(Text, Why);
  if (!O)
    return S;
  auto U = [&](const char *Name) -> uint64_t {
    const llvm::json::Value *V = O->get(Name);
    std::optional<uint64_t> N = V ? V->getAsUINT64() : std::nullopt;
    return N ? *N : 0;
  };
  S.MemoryHits = U("memory_hits");
  S.DiskHits = U("disk_hits");
  S.Misses = U("misses");
  S.Evictions = U("evictions");
  S.CompileMsSaved = O->getNumber("compile_ms_saved").value_or(0.0);
  S.ZeroedAt = O->getInteger("zeroed_at").value_or(0);
  return S;
}

std::string statsJson(const DiskCacheStats &S) {
  return toJson(llvm::json::Object{{"format", static_cast<int64_t>(DiskCacheFormat)},
                                   {"memory_hits", S.MemoryHits},
                                   {"disk_hits", S.DiskHits},
                                   {"misses", S.Misses},
                                   {"compile_ms_saved", S.CompileMsSaved},
                                   {"evictions", S.Evictions},
                                   {"zeroed_at", S.ZeroedAt}});
}

std::string FieldReader::str(llvm::StringRef F) {
  if (auto V = textOf(O.get(F)))
    return *V;
  fail(F);
  return {};
}

int64_t FieldReader::num(llvm::StringRef F) {
  if (auto V = O.getInteger(F))
    return *V;
  fail(F);
  return 0;
}

bool FieldReader::flag(llvm::StringRef F) {
  if (auto V = O.getBoolean(F))
    return *V;
  fail(F);
  return false;
}

const llvm::json::Array &FieldReader::arr(llvm::StringRef F) {
  static const llvm::json::Array Empty;
  if (const llvm::json::Array *A = O.getArray(F))
    return *A;
  fail(F);
  return Empty;
}

} // namespace jacc::jit::diskcache
