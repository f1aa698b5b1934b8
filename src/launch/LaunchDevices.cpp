// The devices a launch runs on when data lives at locations, and the error naming what a
// targeted device lacks.
#include "src/launch/LaunchDevices.h"

#include "analysis/KernelSource.h"
#include "jit/cache/KernelSummary.h"

#include <cstring>

namespace jacc {

HolderSet devicesHolding(llvm::ArrayRef<Mapping *> Used, unsigned NDevices) {
  HolderSet S = ValidityMap::devices(NDevices);
  for (const Mapping *M : Used)
    S &= M->Home;
  return S;
}

namespace {

/// How the kernel reaches M, for messages: "'x'" (an argument pointing into it or a present
/// struct), "what 'rows' points to" (a pointer attached in an argument's data), else "data it
/// uses".
std::string useOf(const analysis::KernelInfo &Info, const jacc_arg *Args,
                  llvm::ArrayRef<Mapping *> ArgMapping, const Mapping *M, DataEnvironment &Data) {
  for (const analysis::ArgInfo &A : Info.Args) {
    if (ArgMapping[A.Position] == M)
      return "'" + A.Name + "'";
    const void *Value = Args[A.Position].value;
    if (A.ArgKind == analysis::ArgInfo::Kind::Aggregate &&
        Data.table().lookup(Value, A.Size).M == M)
      return "'" + A.Name + "'";
    if (A.ArgKind == analysis::ArgInfo::Kind::Pointer && A.Deviceptr) {
      void *Host;
      std::memcpy(&Host, Value, sizeof Host);
      Mapping *In = nullptr;
      Data.deviceOwning(Host, &In);
      if (In == M)
        return "the data deviceptr '" + A.Name + "' points into";
    }
  }
  for (const analysis::ArgInfo &A : Info.Args)
    if (const Mapping *Holder = ArgMapping[A.Position])
      for (const auto &[Addr, At] : Holder->Attachments)
        if (reinterpret_cast<uintptr_t>(At.HostValue) >= M->Begin &&
            reinterpret_cast<uintptr_t>(At.HostValue) < M->End)
          return "what a pointer in '" + A.Name + "' points to";
  return "data it uses";
}

/// "targets location 'LocB' (devices 0, 1)", or how else the kernel's devices were chosen.
std::string whereItRuns(const LaunchPlan &P, const PlanOptions &O, HolderSet Wanted) {
  if (P.Owner)
    return "runs on device " + std::to_string(*P.Owner) + " alone (deviceptr '" + P.OwnerArg +
           "')";
  if (O.TargetName.empty())
    return "runs on every device (no location targeted)";
  if (!O.Target)
    return "targets location '" + O.TargetName +
           "', which has no device under it: it runs on every device";
  return "targets location '" + O.TargetName + "' (" + DataEnvironment::describeDevices(Wanted) +
         ")";
}

} // namespace

llvm::Error checkLaunchDevices(const analysis::KernelInfo &Info, const jacc_arg *Args,
                               const LaunchPlan &P, const PlanOptions &O,
                               llvm::ArrayRef<Mapping *> ArgMapping, DataEnvironment &Data) {
  unsigned N = P.Cells.size();
  HolderSet All = ValidityMap::devices(N);
  HolderSet Wanted = P.Owner ? ValidityMap::device(*P.Owner) : O.Target ? O.Target & All : All;
  if (N <= 1 || !(Wanted & ~P.Devices))
    return llvm::Error::success();
  const Mapping *Missing = nullptr;
  for (const Mapping *M : P.Used)
    if (Wanted & ~M->Home) {
      Missing = M;
      break;
    }
  std::string What = useOf(Info, Args, ArgMapping, Missing, Data);
  std::string Runs = whereItRuns(P, O, Wanted), Fix;
  if (P.Owner)
    Fix = "pass device memory of a device under its location";
  else
    Fix = "target a location inside '" + Missing->Location + "' (#pragma jacc location(" +
          Missing->Location + ") above the construct, or jacc_set_location), or map " + What +
          " at a location covering the kernel's (jacc_set_data_location before it is mapped)";
  return makeError(ErrorCode::InvalidArgument,
                   "jacc_kernel_push: " + Info.Name.where() + " " + Runs + ", but " + What + " " +
                       PresentTable::describe(*Missing) + " lives at " +
                       DataEnvironment::describeHome(*Missing) + ": " +
                       DataEnvironment::describeDevices(Wanted & ~Missing->Home) +
                       (__builtin_popcountll(Wanted & ~Missing->Home) == 1 ? " has" : " have") +
                       " no copy of it; " + Fix);
}

} // namespace jacc
