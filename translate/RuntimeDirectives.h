// The OpenACC runtime routines that `init`, `shutdown` and `set` stand for: one answer for the C
// and the Fortran translations, which read the clauses each from their own parser.
#ifndef JACC_TRANSLATE_RUNTIMEDIRECTIVES_H
#define JACC_TRANSLATE_RUNTIMEDIRECTIVES_H

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace jacc::translate {

/// The acc_device_t constant a device_type clause's name stands for ("nvidia" ->
/// "acc_device_nvidia"; host and multicore are the host, default and * the default), or "" for
/// a name jacc does not know.
std::string deviceTypeConstant(llvm::StringRef Name);

/// The error for a name deviceTypeConstant does not know, naming those it does.
std::string unknownDeviceType(llvm::StringRef Name);

/// What one of the three directives says, its expressions already in C.
struct RuntimeDirective {
  enum Kind { Init, Shutdown, Set } K = Init;
  std::vector<std::string> Types; ///< device_type's constants (deviceTypeConstant)
  std::string Num;                ///< device_num's value, or ""
  std::string Async;              ///< default_async's value, or ""
};

/// The C statements D stands for, one per line's worth ("acc_init(acc_device_host);"): without
/// device_type, the current device type (OpenACC's acc-current-device-type-var).
std::vector<std::string> runtimeDirectiveCalls(const RuntimeDirective &D);

} // namespace jacc::translate

#endif
