// A reduction clause's variable as written: a name, an element `a[i]` or a section `a[lo:len]`.
#ifndef JACC_ANALYSIS_REDUCTIONITEM_H
#define JACC_ANALYSIS_REDUCTIONITEM_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace jacc::analysis {

/// One item of a reduction clause's list (OpenACC 3.3 §2.5.15: a variable, an array element or
/// a contiguous section).
struct ReductionItem {
  std::string Name; ///< the variable
  bool Subscripted = false;
  std::string Lower;  ///< the first element's index ("0" when a section omits it)
  std::string Length; ///< a section's length; empty for an element
};

/// Reads Text ("s", "a[i + 1]", "c[0:10]", "c[:n]"); an error names what cannot be read (two
/// subscripts, an unbalanced bracket, a section without a length).
llvm::Expected<ReductionItem> parseReductionItem(llvm::StringRef Text);

} // namespace jacc::analysis

#endif
