// Keeping the first error as code and message, and making it an llvm::Error again on demand.
#include "support/SavedError.h"

namespace jacc {

bool SavedError::keep(llvm::Error E) {
  if (!E)
    return false;
  if (Has) {
    llvm::consumeError(std::move(E));
    return true;
  }
  Has = true;
  Code = takeError(std::move(E), Message);
  return true;
}

void SavedError::keep(const SavedError &Other) {
  if (Has || !Other.Has)
    return;
  *this = Other;
}

llvm::Error SavedError::error() const {
  if (!Has)
    return llvm::Error::success();
  return makeError(Code, Message);
}

llvm::Error SavedError::take() {
  llvm::Error E = error();
  Has = false;
  Message.clear();
  return E;
}

} // namespace jacc
