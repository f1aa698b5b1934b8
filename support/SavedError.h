// An error kept for later: what a launch that failed on another thread, an exchange, or a compile
// that failed once reports when it is asked. Kept as code and text, since an llvm::Error must be
// handled before it is destroyed. Not synchronised: its owner's lock guards it.
#ifndef JACC_SUPPORT_SAVEDERROR_H
#define JACC_SUPPORT_SAVEDERROR_H

#include "support/Error.h"

#include <string>

namespace jacc {

class SavedError {
public:
  /// Keep E unless an error is kept already (the first one wins); E is consumed either way.
  /// Returns whether E was an error.
  bool keep(llvm::Error E);
  /// Keep Other's error unless one is kept already.
  void keep(const SavedError &Other);
  /// Whether an error is kept.
  explicit operator bool() const { return Has; }
  ErrorCode code() const { return Code; }
  const std::string &message() const { return Message; }
  /// The kept error (success if none), still kept: every caller gets it.
  llvm::Error error() const;
  /// The kept error (success if none), forgotten: reported once.
  llvm::Error take();

private:
  bool Has = false;
  ErrorCode Code = ErrorCode::Internal;
  std::string Message;
};

} // namespace jacc

#endif
