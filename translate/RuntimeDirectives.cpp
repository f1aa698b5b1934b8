// The OpenACC runtime routines that `init`, `shutdown` and `set` stand for (see the header).
#include "translate/RuntimeDirectives.h"

#include <llvm/ADT/StringSwitch.h>

namespace jacc::translate {

std::string deviceTypeConstant(llvm::StringRef Name) {
  return llvm::StringSwitch<std::string>(Name.trim().lower())
      .Cases("host", "multicore", "acc_device_host", "acc_device_host")
      .Cases("nvidia", "acc_device_nvidia", "acc_device_nvidia")
      .Cases("radeon", "acc_device_radeon", "acc_device_radeon")
      .Cases("default", "*", "acc_device_default", "acc_device_default")
      .Default("");
}

std::string unknownDeviceType(llvm::StringRef Name) {
  return "unknown device type '" + Name.trim().str() +
         "' in clause 'device_type': jacc knows host (multicore), nvidia, radeon, default and *";
}

std::vector<std::string> runtimeDirectiveCalls(const RuntimeDirective &D) {
  std::vector<std::string> Calls;
  bool Typed = !D.Types.empty();
  std::vector<std::string> Types = D.Types;
  if (!Typed)
    Types.push_back(D.Num.empty() ? "acc_device_default" : "acc_get_device_type()");
  if (D.K == RuntimeDirective::Set) {
    if (Typed)
      Calls.push_back("acc_set_device_type(" + Types[0] + ");");
    if (!D.Num.empty())
      Calls.push_back("acc_set_device_num(" + D.Num + ", " + Types[0] + ");");
    if (!D.Async.empty())
      Calls.push_back("acc_set_default_async(" + D.Async + ");");
    return Calls;
  }
  std::string Fn = D.K == RuntimeDirective::Init ? "acc_init" : "acc_shutdown";
  for (const std::string &T : Types)
    Calls.push_back(D.Num.empty() ? Fn + "(" + T + ");"
                                  : Fn + "_device(" + D.Num + ", " + T + ");");
  return Calls;
}

} // namespace jacc::translate
