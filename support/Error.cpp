// JaccError, the llvm::Error that carries an ErrorCode: making one, taking its code and message
// out of any error, and prefixing its message.
#include "support/Error.h"

namespace jacc {

char JaccError::ID = 0;

std::error_code JaccError::convertToErrorCode() const { return llvm::inconvertibleErrorCode(); }

llvm::Error makeError(ErrorCode Code, const llvm::Twine &Message) {
  return llvm::make_error<JaccError>(Code, Message.str());
}

ErrorCode takeError(llvm::Error E, std::string &Message) {
  ErrorCode Code = ErrorCode::Internal;
  Message.clear();
  llvm::handleAllErrors(
      std::move(E),
      [&](const JaccError &JE) {
        Code = JE.code();
        Message = JE.text();
      },
      [&](const llvm::ErrorInfoBase &Other) {
        Code = ErrorCode::Internal;
        Message = "internal error: " + Other.message();
      });
  return Code;
}

llvm::Error prefixError(const llvm::Twine &Prefix, llvm::Error E) {
  if (!E)
    return E;
  std::string Message;
  ErrorCode Code = takeError(std::move(E), Message);
  return makeError(Code, Prefix + ": " + Message);
}

} // namespace jacc
