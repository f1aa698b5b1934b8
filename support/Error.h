// The one error model of jacc: llvm::Error / llvm::Expected carrying an ErrorCode, converted to a
// jacc_status once, at the C boundary (CApi.cpp).
#ifndef JACC_SUPPORT_ERROR_H
#define JACC_SUPPORT_ERROR_H

#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>

#include <string>

namespace jacc {

/// Mirrors the public jacc_status values.
enum class ErrorCode : int {
  InvalidArgument = -1,
  NotPresent = -2,
  PartiallyPresent = -3,
  Compile = -4,
  Unsupported = -5,
  OutOfMemory = -6,
  Device = -7,
  Internal = -8,
  Bounds = -9 ///< JACC_CHECK=bounds: an access outside its argument's mapping
};

/// An error with a status code and a message that names the problem and, where known, the fix.
class JaccError : public llvm::ErrorInfo<JaccError> {
public:
  static char ID;
  JaccError(ErrorCode Code, std::string Message) : Code(Code), Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;
  ErrorCode code() const { return Code; }
  const std::string &text() const { return Message; }

private:
  ErrorCode Code;
  std::string Message;
};

/// Build an error; call as `return makeError(ErrorCode::NotPresent, "x is not mapped")`.
llvm::Error makeError(ErrorCode Code, const llvm::Twine &Message);

/// Consume an error: its code (Internal for foreign errors) and its message.
ErrorCode takeError(llvm::Error E, std::string &Message);

/// E with "Prefix: " in front of its message, same code (success stays success): how a caller
/// names itself in errors of the layers below, which name only what they know.
llvm::Error prefixError(const llvm::Twine &Prefix, llvm::Error E);

} // namespace jacc

#endif
