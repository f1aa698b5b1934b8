// What a kernel's disk cache entry holds: artifact names, variant records, the summary as
// displayed (see KernelEntry.h).
#include "jit/cache/KernelEntry.h"

#include "jit/CodeTarget.h"
#include "jit/cache/StoreFormat.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <tuple>

namespace jacc::jit {

namespace json = llvm::json;

namespace {

constexpr llvm::StringLiteral VariantPrefix = "spec-", JsonSuffix = ".json";
/// Hexadecimal digits of a variant's hash in its artifacts' names.
constexpr size_t VariantHashDigits = 16;

/// A JSON value as text: strings bare (also those stored as bytes), anything else as JSON writes
/// it.
std::string valueText(const json::Value &V) {
  if (std::optional<std::string> S = diskcache::textOf(&V))
    return *S;
  return llvm::formatv("{0}", V).str();
}

std::optional<std::string> optionalString(const json::Object &O, llvm::StringRef Field) {
  return diskcache::textOf(O.get(Field));
}

std::string stringOrEmpty(const json::Object &O, llvm::StringRef Field) {
  return optionalString(O, Field).value_or("");
}

/// The items of an array field as text (none when it is missing or not an array).
std::vector<std::string> textList(const json::Object &O, llvm::StringRef Field) {
  std::vector<std::string> Out;
  if (const json::Array *A = O.getArray(Field))
    for (const json::Value &V : *A)
      Out.push_back(valueText(V));
  return Out;
}

std::vector<std::pair<std::string, std::string>> compilers(const json::Object &O) {
  std::vector<std::pair<std::string, std::string>> Out;
  for (const auto &KV : O)
    Out.emplace_back(KV.first.str(), valueText(KV.second));
  // The device targets' compiler names, asked once (not per comparison: a target may ask its
  // compiler library for its version).
  std::vector<std::string> DeviceCompilers;
  for (const CodeTarget *T : codeTargets())
    for (const auto &C : T->compilers())
      DeviceCompilers.push_back(C.first);
  auto Rank = [&](llvm::StringRef N) {
    if (llvm::is_contained(DeviceCompilers, N))
      return 1;
    return llvm::StringSwitch<int>(N).Case("llvm", 0).Case("jacc", 2).Case("format", 3).Default(4);
  };
  llvm::sort(Out, [&](const auto &A, const auto &B) {
    return std::make_tuple(Rank(A.first), A.first) < std::make_tuple(Rank(B.first), B.first);
  });
  return Out;
}

SummarySplit split(const json::Object &O) {
  SummarySplit S;
  S.Enabled = O.getBoolean("enabled");
  S.Narrowable = O.getBoolean("narrowable");
  S.Fallback = stringOrEmpty(O, "fallback");
  if (const json::Array *Arrays = O.getArray("arrays"))
    for (const json::Value &V : *Arrays)
      if (const json::Object *A = V.getAsObject())
        S.Arrays.push_back(
            {optionalString(*A, "name"), A->getInteger("dim"), A->getBoolean("affine")});
  S.Predicates = textList(O, "predicates");
  return S;
}

} // namespace

const char *hostObjectArtifact(bool Split) {
  return Split ? "host-split.o" : "host.o";
}

std::string variantArtifactStem(llvm::StringRef Key) {
  std::string H = llvm::utohexstr(llvm::xxHash64(Key), /*LowerCase=*/true);
  return VariantPrefix.str() + std::string(VariantHashDigits - H.size(), '0') + H;
}

std::string variantArtifact(llvm::StringRef Stem, llvm::StringRef Name) {
  return (Stem + "." + Name).str();
}

std::string variantRecordArtifact(llvm::StringRef Stem) {
  return (Stem + JsonSuffix).str();
}

bool isVariantRecordArtifact(llvm::StringRef Name) {
  return Name.consume_front(VariantPrefix) && Name.consume_back(JsonSuffix) &&
         Name.size() == VariantHashDigits && llvm::all_of(Name, llvm::isHexDigit);
}

std::string variantRecordJson(llvm::StringRef Values, double CompileMs, uint64_t Hits) {
  json::Object O{
      {"values", Values}, {"compile_ms", CompileMs}, {"hits", static_cast<int64_t>(Hits)}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << json::Value(std::move(O));
  return OS.str();
}

std::optional<VariantRecord> parseVariantRecord(llvm::StringRef Text) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  json::Object *O = V->getAsObject();
  if (!O)
    return std::nullopt;
  VariantRecord R;
  R.Values = stringOrEmpty(*O, "values");
  R.CompileMs = O->getNumber("compile_ms");
  R.Hits = O->getInteger("hits").value_or(0);
  R.Stored = std::move(*O);
  return R;
}

KernelSummaryFields readKernelSummaryFields(const json::Object &S) {
  KernelSummaryFields F;
  F.Name = optionalString(S, "name");
  F.Target = optionalString(S, "target");
  F.Source = optionalString(S, "source");
  F.Rewritten = optionalString(S, "rewritten");
  F.Decls = textList(S, "decls");
  F.AnalysisMs = S.getNumber("analysis_ms");
  F.CompileMs = S.getNumber("compile_ms");
  if (const json::Object *C = S.getObject("compilers"))
    F.Compilers = compilers(*C);
  if (const json::Object *Split = S.getObject("split"))
    F.Split = split(*Split);
  if (const json::Object *Gpu = S.getObject("gpu"))
    F.Gpu = SummaryGpu{Gpu->getInteger("block_size").value_or(0), stringOrEmpty(*Gpu, "block_why"),
                       stringOrEmpty(*Gpu, "traits")};
  return F;
}

} // namespace jacc::jit
