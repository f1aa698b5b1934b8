// Splitting a reduction clause's item into its name and subscript (ReductionItem.h).
#include "analysis/ReductionItem.h"

#include "support/Error.h"

namespace jacc::analysis {

llvm::Expected<ReductionItem> parseReductionItem(llvm::StringRef Text) {
  Text = Text.trim();
  ReductionItem R;
  size_t Br = Text.find('[');
  R.Name = Text.take_front(Br).trim().str();
  if (Br == llvm::StringRef::npos)
    return R;
  auto Bad = [&](const char *Why) {
    return makeError(ErrorCode::InvalidArgument,
                     "reduction item '" + Text + "': " + Why +
                         "; write a variable, an element a[i] or a section a[lower:length]");
  };
  // The subscript: up to the ']' that closes the first '[', its top-level ':' if any.
  int Depth = 0;
  size_t Colon = llvm::StringRef::npos, Close = llvm::StringRef::npos;
  for (size_t I = Br; I < Text.size() && Close == llvm::StringRef::npos; ++I) {
    char Ch = Text[I];
    if (Ch == '[' || Ch == '(')
      ++Depth;
    else if ((Ch == ']' || Ch == ')') && --Depth == 0)
      Close = I;
    else if (Ch == ':' && Depth == 1 && Colon == llvm::StringRef::npos)
      Colon = I;
  }
  if (Close == llvm::StringRef::npos || Text[Close] != ']')
    return Bad("unbalanced brackets");
  if (!Text.drop_front(Close + 1).trim().empty())
    return Bad("one subscript only (the elements must be contiguous)");
  R.Subscripted = true;
  if (Colon == llvm::StringRef::npos) {
    R.Lower = Text.slice(Br + 1, Close).trim().str();
    if (R.Lower.empty())
      return Bad("an empty subscript");
    return R;
  }
  R.Lower = Text.slice(Br + 1, Colon).trim().str();
  if (R.Lower.empty())
    R.Lower = "0";
  R.Length = Text.slice(Colon + 1, Close).trim().str();
  if (R.Length.empty())
    return Bad("a section needs its length");
  return R;
}

} // namespace jacc::analysis
