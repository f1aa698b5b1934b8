// What a kernel's disk cache entry holds: the names of its artifacts, the record of each
// specialized variant, and a typed reading of the summary fields that `jacc-cache list` and
// `show` display. The summary's writer is KernelSummary.h; the store is DiskCache.h.
//
// A kernel's entry (artifacts are added as they are compiled):
//   summary.json                        kernelSummary(), with the store's entry.json
//   host.o, host-split.o                the host objects of the plain and the split entries
//   <stem>.*                            a device target's code of either entry for one of its
//                                       architectures (CodeTarget::stem, jit/CodeTarget.h)
//   spec-<16 hex>.<any of the above>    the same artifacts of a specialized variant
//   spec-<16 hex>.json                  the variant's record: its values, compile time and hits
#ifndef JACC_JIT_CACHE_KERNELENTRY_H
#define JACC_JIT_CACHE_KERNELENTRY_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jacc::jit {

// --- Artifact names ------------------------------------------------------------------------

/// "host.o", or "host-split.o" for the split entry: the host object of an entry.
const char *hostObjectArtifact(bool Split);

/// "spec-<16 hex>": the stem of the artifacts of the variant whose Specialization::key() is Key.
std::string variantArtifactStem(llvm::StringRef Key);
/// Artifact Name (a host object, a device code stem) of the variant of stem Stem: "Stem.Name".
std::string variantArtifact(llvm::StringRef Stem, llvm::StringRef Name);
/// The record of the variant of stem Stem: "Stem.json".
std::string variantRecordArtifact(llvm::StringRef Stem);
/// Whether Name is a variant's record: spec-<16 hex>.json exactly, not a JSON artifact of a
/// variant's device code (spec-<hash>.<stem>.json).
bool isVariantRecordArtifact(llvm::StringRef Name);

// --- A variant's record --------------------------------------------------------------------

/// A variant's record as read back: {"values": ..., "compile_ms": ..., "hits": ...}.
struct VariantRecord {
  std::string Values;              ///< the values folded in: Specialization::key() (else empty)
  std::optional<double> CompileMs; ///< of the variant's compile
  int64_t Hits = 0;                ///< pushes that ran it, added at each statistics flush
  llvm::json::Object Stored;       ///< the whole record as stored (`jacc-cache show --json`)
};

/// The text of a variant's record.
std::string variantRecordJson(llvm::StringRef Values, double CompileMs, uint64_t Hits);
/// A variant's record from its text; nullopt when it is not a JSON object.
std::optional<VariantRecord> parseVariantRecord(llvm::StringRef Text);

// --- The summary as displayed --------------------------------------------------------------

/// A split array as the summary describes it.
struct SummarySplitArray {
  std::optional<std::string> Name;
  std::optional<int64_t> Dim; ///< the dimension split
  std::optional<bool> Affine; ///< whether its writes are affine in the split index
};

/// The summary's split plan.
struct SummarySplit {
  std::optional<bool> Enabled, Narrowable;
  std::string Fallback; ///< why the kernel is not split (else empty)
  std::vector<SummarySplitArray> Arrays;
  std::vector<std::string> Predicates; ///< "kernel:<line>: <statement>  when <predicate>"
};

/// The summary's GPU block geometry (what the GPU target adds: CodeTarget::describe).
struct SummaryGpu {
  int64_t BlockSize = 0;
  std::string BlockWhy, Traits;
};

/// The fields of a kernel's summary that `jacc-cache list` and `show` display. Read tolerantly:
/// a summary of another jacc may lack any field or hold another type there (the field is then
/// missing); text items that are no string are kept as their JSON.
struct KernelSummaryFields {
  std::optional<std::string> Name;   ///< the kernel's first loop line
  std::optional<std::string> Target; ///< the host target: "<triple> <cpu> <features>"
  std::optional<std::string> Source;
  std::optional<std::string> Rewritten; ///< the predicate-rewritten source (empty: not split)
  std::vector<std::string> Decls;       ///< the argument declarations
  std::optional<double> AnalysisMs, CompileMs;
  /// The compilers' versions by name: the known ones first (llvm, the device targets' compilers,
  /// jacc, format), then the others by name.
  std::optional<std::vector<std::pair<std::string, std::string>>> Compilers;
  std::optional<SummarySplit> Split;
  std::optional<SummaryGpu> Gpu; ///< absent from summaries written before the access traits
};

KernelSummaryFields readKernelSummaryFields(const llvm::json::Object &Summary);

} // namespace jacc::jit

#endif
