// ACC_DEVICE_TYPE and ACC_DEVICE_NUM: checked once, when the runtime starts, so that a bad value
// is an error naming the variable (as libgomp's "device type bogus not supported").
#include "src/AccDeviceVars.h"

#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/Twine.h>

#include <optional>

namespace jacc {

namespace {

/// The device kind (DeviceSpec::Kind) ACC_DEVICE_TYPE names, or an error.
llvm::Expected<std::string> kindOf(llvm::StringRef Type) {
  std::string Lower = Type.lower();
  if (Lower == "host" || Lower == "multicore")
    return std::string("host");
  if (Lower == "nvidia")
    return std::string("cuda");
  return makeError(ErrorCode::InvalidArgument,
                   "ACC_DEVICE_TYPE='" + Type +
                       "' is not a device type: use host or multicore (the CPU) or nvidia "
                       "(NVIDIA GPUs), or unset it");
}

/// ACC_DEVICE_NUM's number, or an error.
llvm::Expected<unsigned> numberOf(llvm::StringRef Num) {
  unsigned N = 0;
  if (Num.getAsInteger(10, N))
    return makeError(ErrorCode::InvalidArgument,
                     "ACC_DEVICE_NUM='" + Num +
                         "' is not a device number: use 0, 1, ... (jacc-info lists the devices)");
  return N;
}

/// The variables' values: the kind ("" when ACC_DEVICE_TYPE is unset) and the number.
struct Parsed {
  std::string Kind;
  std::optional<unsigned> Num;
};

llvm::Expected<Parsed> parse(AccDeviceVars V) {
  Parsed P;
  if (!V.Type.empty()) {
    auto K = kindOf(V.Type);
    if (!K)
      return K.takeError();
    P.Kind = *K;
  }
  if (!V.Num.empty()) {
    auto N = numberOf(V.Num);
    if (!N)
      return N.takeError();
    P.Num = *N;
  }
  return P;
}

/// "ACC_DEVICE_NUM=5, but there are 2 nvidia devices (0 to 1)".
llvm::Error outOfRange(unsigned Num, llvm::StringRef Type, unsigned Count, llvm::StringRef Where) {
  return makeError(ErrorCode::InvalidArgument,
                   "ACC_DEVICE_NUM=" + llvm::Twine(Num) + " is out of range: " + Where +
                       " has " + llvm::Twine(Count) + " " + Type + " device(s), numbered 0 to " +
                       llvm::Twine(Count - 1));
}

} // namespace

llvm::Expected<std::string> accDevicesSpec(AccDeviceVars V, CudaCountFn CudaCount) {
  if (V.Type.empty() && V.Num.empty())
    return std::string();
  auto P = parse(V);
  if (!P)
    return P.takeError();
  std::string Kind = P->Kind;
  std::optional<unsigned> Num = P->Num;
  // The GPUs, when the type asks for them or, unset, when jacc's default would take them.
  int Gpus = 0;
  std::string NoGpu;
  if (Kind != "host") {
    auto N = CudaCount();
    if (N)
      Gpus = *N;
    else
      takeError(N.takeError(), NoGpu);
    if (!N || Gpus == 0) {
      if (Kind == "cuda")
        return makeError(ErrorCode::Device,
                         "ACC_DEVICE_TYPE=" + V.Type + " asks for NVIDIA GPUs, but " +
                             (N ? std::string("the CUDA driver found none") : NoGpu) +
                             "; use ACC_DEVICE_TYPE=host to run on the CPU");
      Kind = "host";
    } else {
      Kind = "cuda";
    }
  }
  llvm::StringRef TypeName = Kind == "cuda" ? "nvidia" : "host";
  if (Kind == "host") {
    if (Num && *Num != 0)
      return outOfRange(*Num, TypeName, 1, "the CPU (JACC_DEVICES unset)");
    return std::string("host");
  }
  if (!Num)
    return std::string("cuda:all");
  if (*Num >= unsigned(Gpus))
    return outOfRange(*Num, TypeName, unsigned(Gpus), "the CUDA driver");
  return "cuda:" + std::to_string(*Num);
}

llvm::Expected<unsigned> accCurrentDevice(AccDeviceVars V, llvm::ArrayRef<DeviceSpec> Devices) {
  if ((V.Type.empty() && V.Num.empty()) || Devices.empty())
    return 0;
  auto P = parse(V);
  if (!P)
    return P.takeError();
  std::string Kind = P->Kind.empty() ? Devices.front().Kind : P->Kind;
  unsigned Num = P->Num.value_or(0);
  llvm::StringRef TypeName = Kind == "cuda" ? "nvidia" : "host";
  unsigned Count = 0;
  for (unsigned I = 0; I < Devices.size(); ++I)
    if (Devices[I].Kind == Kind && Count++ == Num)
      return I;
  if (Count == 0)
    return makeError(ErrorCode::InvalidArgument,
                     "ACC_DEVICE_TYPE=" + V.Type + " names no device of JACC_DEVICES: it has no " +
                         TypeName + " device; change one of the two");
  return outOfRange(Num, TypeName, Count, "JACC_DEVICES");
}

} // namespace jacc
