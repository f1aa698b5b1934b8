// The registry of native implementations by kernel source and device type: registering and
// removing one, and choosing each device's for a push.
#include "src/launch/NativeKernels.h"

#include <llvm/ADT/StringSwitch.h>

#include <algorithm>
#include <mutex>

namespace jacc {

llvm::Expected<acc_device_t> nativeDeviceType(const char *Kind) {
  acc_device_t T = Kind ? llvm::StringSwitch<acc_device_t>(Kind)
                              .Cases("host", "multicore", acc_device_host)
                              .Case("nvidia", acc_device_nvidia)
                              .Default(acc_device_none)
                        : acc_device_none;
  if (T == acc_device_none)
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_kernel_native: " +
                         (Kind ? "unknown device kind '" + std::string(Kind) + "'"
                               : std::string("the device kind is NULL")) +
                         ": name \"host\" (or \"multicore\") for host devices or \"nvidia\" for "
                         "CUDA GPUs");
  return T;
}

const char *nativeKindName(acc_device_t Type) {
  return Type == acc_device_nvidia ? "nvidia" : "host";
}

std::string nativeKinds(llvm::ArrayRef<NativeImpl> C) {
  std::vector<std::string> Kinds;
  for (const NativeImpl &I : C)
    if (I.Fn && std::find(Kinds.begin(), Kinds.end(), nativeKindName(I.Type)) == Kinds.end())
      Kinds.push_back(nativeKindName(I.Type));
  std::sort(Kinds.begin(), Kinds.end());
  std::string S;
  for (size_t I = 0; I < Kinds.size(); ++I)
    S += (I ? " and " : "") + Kinds[I];
  return S + " devices";
}

llvm::Error NativeKernels::set(const char *Source, const char *Kind, jacc_native_fn Fn,
                               void *User) {
  if (!Source)
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_kernel_native: the source is NULL: pass the kernel's text exactly as "
                     "it is pushed");
  auto Type = nativeDeviceType(Kind);
  if (!Type)
    return Type.takeError();
  std::unique_lock<std::shared_mutex> Lock(M);
  auto It = BySource.find(llvm::StringRef(Source));
  if (!Fn) {
    if (It == BySource.end())
      return llvm::Error::success();
    llvm::erase_if(It->second, [&](const NativeImpl &I) { return I.Type == *Type; });
    if (It->second.empty())
      BySource.erase(It);
  } else {
    std::vector<NativeImpl> &Impls = BySource[Source];
    auto Same = llvm::find_if(Impls, [&](const NativeImpl &I) { return I.Type == *Type; });
    if (Same == Impls.end())
      Impls.push_back({Fn, User, *Type});
    else
      *Same = {Fn, User, *Type};
  }
  Empty.store(BySource.empty(), std::memory_order_release);
  return llvm::Error::success();
}

NativeChoice NativeKernels::choose(const char *Source, llvm::ArrayRef<acc_device_t> Types) const {
  NativeChoice C;
  if (Empty.load(std::memory_order_acquire) || !Source)
    return C;
  std::shared_lock<std::shared_mutex> Lock(M);
  auto It = BySource.find(llvm::StringRef(Source));
  if (It == BySource.end())
    return C;
  bool Any = false;
  C.resize(Types.size());
  for (size_t D = 0; D < Types.size(); ++D)
    for (const NativeImpl &I : It->second)
      if (I.Type == Types[D]) {
        C[D] = I;
        Any = true;
      }
  if (!Any)
    C.clear();
  return C;
}

} // namespace jacc
