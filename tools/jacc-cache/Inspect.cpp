// The jacc-cache commands that look at entries: list (a table, newest first) and show (one entry
// in full: its kernel, split plan, GPU block geometry, variants and artifacts).
#include "tools/jacc-cache/Output.h"
#include "tools/jacc-cache/Tool.h"

#include "jit/cache/KernelEntry.h"
#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <array>
#include <tuple>

using namespace jacc::jit;
namespace json = llvm::json;

namespace jacc::cachetool {

namespace {

/// The width of the kernel column of `list`.
constexpr size_t MaxNameWidth = 48;

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

} // namespace

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

namespace {

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

/// The records of the entry's specialized variants (jit/specialize/KernelVariants.h), most used
/// first.
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

} // namespace

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

} // namespace jacc::cachetool
