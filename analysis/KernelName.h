// A kernel's names, decided in this one place: where it was written (the site jaccc records in
// its last line), its display name (its first loop line), and how messages and symbols spell them.
#ifndef JACC_ANALYSIS_KERNELNAME_H
#define JACC_ANALYSIS_KERNELNAME_H

#include <llvm/ADT/StringRef.h>

#include <string>

namespace jacc::analysis {

struct KernelInfo;

struct KernelName {
  std::string Site;    ///< "heat.c:42"; empty for a kernel pushed without a site line
  std::string Display; ///< the construct's first loop line ("for (int i = 0; i < n; i++)")

  /// "kernel 'for (...)'" (shortened past 80 characters), then " (Part)" when Part is given.
  std::string described(llvm::StringRef Part = "") const;
  /// "the kernel at heat.c:42", else described().
  std::string where() const;
  /// What its code's symbols are called (perf's map): "jacc:heat.c:42", then " split" for the
  /// split entry and " [Key]" for a variant's.
  std::string symbol(bool Split, llvm::StringRef VariantKey = "") const;
};

/// K's names, from its source and its construct's offsets (the frontend's, or a summary's from
/// the disk cache, which knows the construct but not the nests).
KernelName nameKernel(const KernelInfo &K);

} // namespace jacc::analysis

#endif
