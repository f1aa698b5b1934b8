// Binding a push to the devices: arguments, deviceptr owners, split targets, reductions.
#include "src/launch/LaunchPlan.h"

#include "jit/EntryCodegen.h"
#include "src/launch/LaunchDevices.h"
#include "support/Debug.h"

#include <llvm/ADT/STLExtras.h>

#include <climits>
#include <cstring>

namespace jacc {

using analysis::ArgInfo;

namespace {

/// Write a value into cell Cell of every device's argument cells.
template <typename T> void setAll(LaunchPlan &P, unsigned Cell, const T &Value) {
  for (ArgCells &C : P.Cells)
    std::memcpy(&C[2 * Cell], &Value, sizeof Value);
}

/// The kernel may also use what the pointers attached in M point to (the rows of a `double **`
/// argument, a struct's member arrays): their updates and exits wait for the launch too.
void useAttachedTargets(DataEnvironment &Data, const Mapping &M, LaunchPlan &P) {
  for (const auto &[Addr, A] : M.Attachments)
    if (PresentTable::Lookup T = Data.table().lookup(A.HostValue, 1);
        T.State == PresentTable::Presence::Contained)
      P.Used.push_back(T.M);
}

/// Keep a copy of argument A's bytes (a struct, a scalar wider than a cell) for the launches.
void keepBytes(std::shared_ptr<std::vector<std::vector<char>>> &Aggregates,
               const analysis::KernelInfo &Info, const ArgInfo &A, const void *Value) {
  if (!Aggregates)
    Aggregates = std::make_shared<std::vector<std::vector<char>>>(Info.Args.size());
  (*Aggregates)[A.Param].assign(static_cast<const char *>(Value),
                                static_cast<const char *>(Value) + A.Size);
}

/// Struct arguments that are present, with their mappings: each device gets its own copy.
using PresentAggregates = llvm::SmallVector<std::pair<const ArgInfo *, Mapping *>, 2>;

/// A pointer inside a struct argument that is not present, pointing into mapped data: each
/// device gets the struct with that pointer translated to its copy, as attached pointers are.
struct MemberPointer {
  const ArgInfo *Arg;
  uint64_t Offset; ///< in the struct's bytes
  Mapping *Target;
};
using MemberPointers = llvm::SmallVector<MemberPointer, 4>;

/// The pointers of struct argument A (Bytes: its value) that point into mapped data: the launch
/// uses that data, and translates them.
void findMemberPointers(DataEnvironment &Data, const ArgInfo &A, const void *Bytes, LaunchPlan &P,
                        MemberPointers &Members) {
  for (uint64_t Off : A.PointerOffsets) {
    void *Target;
    std::memcpy(&Target, static_cast<const char *>(Bytes) + Off, sizeof Target);
    if (!Target)
      continue;
    if (PresentTable::Lookup T = Data.table().lookup(Target, 1);
        T.State == PresentTable::Presence::Contained) {
      P.Used.push_back(T.M);
      Members.push_back({&A, Off, T.M});
    }
  }
}

/// Pointer argument A, pointing at Host inside M: each device gets its copy's address (null
/// without one), and the launch uses M.
void bindMapped(LaunchPlan &P, const ArgInfo &A, const void *Host, Mapping &M,
                llvm::SmallVectorImpl<Mapping *> &ArgMapping) {
  for (unsigned D = 0; D < P.Cells.size(); ++D) {
    void *Dev = M.hasCopy(D) ? M.translate(Host, D) : nullptr;
    std::memcpy(&P.Cells[D][2 * A.Param], &Dev, sizeof Dev);
  }
  ArgMapping[A.Position] = &M;
  P.Used.push_back(&M);
}

/// The argument cells of every device; pointers translated (to null on a device without a copy),
/// deviceptr owners found. Aggregates: the struct arguments' bytes (null when none).
llvm::Error bindArguments(const analysis::KernelInfo &Info, const jacc_arg *Args,
                          DataEnvironment &Data, LaunchPlan &P,
                          llvm::SmallVectorImpl<Mapping *> &ArgMapping,
                          llvm::SmallVectorImpl<void *> &ArgHost,
                          std::shared_ptr<std::vector<std::vector<char>>> &Aggregates,
                          PresentAggregates &Present, MemberPointers &Members) {
  unsigned N = P.Cells.size();
  for (const ArgInfo &A : Info.Args) {
    const void *Value = Args[A.Position].value;
    switch (A.ArgKind) {
    case ArgInfo::Kind::Scalar:
      if (A.Size > ArgCellBytes) {
        keepBytes(Aggregates, Info, A, Value);
        break;
      }
      for (ArgCells &C : P.Cells)
        std::memcpy(&C[2 * A.Param], Value, A.Size);
      break;
    case ArgInfo::Kind::Aggregate:
      keepBytes(Aggregates, Info, A, Value);
      // OpenACC: a struct that is present is the device's copy in the kernel.
      if (PresentTable::Lookup F = Data.table().lookup(Value, A.Size);
          F.State == PresentTable::Presence::Contained) {
        Present.push_back({&A, F.M});
        useAttachedTargets(Data, *F.M, P);
      } else {
        findMemberPointers(Data, A, Value, P, Members);
      }
      break;
    case ArgInfo::Kind::Pointer: {
      void *Host;
      std::memcpy(&Host, Value, sizeof Host);
      ArgHost[A.Position] = Host;
      // acc_malloc memory with a copy on every device is bound as mapped data is.
      Mapping *Block = Host && A.Deviceptr ? Data.userBlockCopies(Host) : nullptr;
      if (Block) {
        bindMapped(P, A, Host, *Block, ArgMapping);
        break;
      }
      if (!Host || A.Deviceptr) {
        setAll(P, A.Param, Host);
        if (!Host)
          break;
        Mapping *In = nullptr;
        // Memory jacc does not know (the program's own) is reachable from the host devices:
        // device 0 runs the kernel then.
        unsigned Dev = Data.deviceOwning(Host, &In).value_or(0);
        // The mapping the pointer is a copy of is used: its updates and exits wait for this
        // launch's ticket, even on one device where the kernel is queued like any other.
        if (In)
          P.Used.push_back(In);
        if (N == 1)
          break;
        if (P.Owner && *P.Owner != Dev)
          return makeError(ErrorCode::InvalidArgument,
                           "jacc_kernel_push: deviceptr arguments '" + P.OwnerArg + "' and '" +
                               A.Name + "' are memory of devices " + llvm::Twine(*P.Owner) +
                               " and " + llvm::Twine(Dev) +
                               ": a kernel given device memory runs on that device alone; pass "
                               "memory of one device (acc_malloc / acc_deviceptr after one "
                               "acc_set_device_num)");
        P.Owner = Dev;
        P.OwnerArg = A.Name;
        break;
      }
      PresentTable::Lookup F = Data.table().lookup(Host, 1);
      if (F.State != PresentTable::Presence::Contained &&
          Info.arrayReductionOf(&A - Info.Args.data())) {
        // The kernel reduces into its private copy; the result goes to the host array.
        setAll(P, A.Param, Host);
        break;
      }
      if (F.State != PresentTable::Presence::Contained)
        return makeError(ErrorCode::NotPresent,
                         "jacc_kernel_push: argument " + llvm::Twine(A.Position + 1) + " ('" +
                             A.Decl + "') = 0x" +
                             llvm::utohexstr(reinterpret_cast<uintptr_t>(Host), true) +
                             " does not point into mapped data; map the array first with "
                             "jacc_copyin or jacc_create (or pass it in a deviceptr clause)");
      bindMapped(P, A, Host, *F.M, ArgMapping);
      useAttachedTargets(Data, *F.M, P);
      break;
    }
    }
  }
  return llvm::Error::success();
}

/// Each launching device's struct arguments: present ones are that device's copies, others
/// the program's with their pointers into mapped data translated.
llvm::Error bindAggregates(const jacc_arg *Args, DataEnvironment &Data, LaunchPlan &P,
                           const std::shared_ptr<std::vector<std::vector<char>>> &Aggregates,
                           const PresentAggregates &Present, const MemberPointers &Members) {
  unsigned N = P.Cells.size();
  P.Aggregates.assign(N, Aggregates);
  for (unsigned D = 0; D < N && !(Present.empty() && Members.empty()); ++D) {
    if (!(P.Devices >> D & 1))
      continue;
    auto Own = std::make_shared<std::vector<std::vector<char>>>(*Aggregates);
    for (auto [A, M] : Present)
      if (auto E = Data.readCopy(*M, Args[A->Position].value, A->Size, D,
                                 (*Own)[A->Param].data()))
        return E;
    for (const MemberPointer &Ptr : Members) {
      if (!Ptr.Target->hasCopy(D))
        continue; // the program's value stays
      char *At = (*Own)[Ptr.Arg->Param].data() + Ptr.Offset;
      void *Host;
      std::memcpy(&Host, At, sizeof Host);
      void *Dev = Ptr.Target->translate(Host, D);
      std::memcpy(At, &Dev, sizeof Dev);
    }
    P.Aggregates[D] = std::move(Own);
  }
  return llvm::Error::success();
}

/// Mark split target I as computed whole by every device: no exchange, no narrowing.
void unsplit(const analysis::KernelInfo &Info, LaunchPlan &P, size_t I) {
  P.Targets[I].Split = false;
  setAll(P, jit::splitBoundsCell(Info, I), jit::NotSplitBounds[0]);
  setAll(P, jit::splitBoundsCell(Info, I) + 1, jit::NotSplitBounds[1]);
  P.Narrow = false; // a whole array needs every iteration on every device
}

/// Whether argument Other is read after a write only at the element its statement writes
/// through argument Written.
bool readsOwnElement(const analysis::KernelInfo &Info, unsigned Other, unsigned Written) {
  auto It = Info.Split.Plan.ReadsOwnElement.find(Other);
  return It != Info.Split.Plan.ReadsOwnElement.end() && It->second.count(Written);
}

/// Split targets: each written array's mapping, unless another pointer argument into the same
/// mapping is read after a write of the iteration where it may read what the kernel writes
/// (aliasing: a device that runs the iteration without owning the element skips the write the
/// read must see; that array is then computed whole by every device). Reads before the writes
/// see the values from before the kernel, fetched as any read is; the array itself under
/// another name, read only where its statement writes it (`resid(u, r, r)`), is a self-read;
/// other reads are left to the probes when the kernel has exact ones (SplitTarget::AliasReads),
/// as they usually read another part of the allocation (a coarse grid written from a fine one).
void chooseSplitTargets(const analysis::KernelInfo &Info, llvm::ArrayRef<Mapping *> ArgMapping,
                        llvm::ArrayRef<void *> ArgHost, LaunchPlan &P) {
  const auto &SplitArrays = Info.Split.Plan.Arrays;
  for (size_t I = 0; I < SplitArrays.size(); ++I) {
    unsigned Arg = SplitArrays[I].Arg;
    SplitTarget T;
    T.Info = I;
    T.Pointer = reinterpret_cast<uintptr_t>(ArgHost[Arg]);
    Mapping *M = ArgMapping[Arg];
    T.Split = M != nullptr;
    for (unsigned Other = 0; Other < Info.Args.size() && T.Split; ++Other)
      if (Other != Arg && ArgMapping[Other] == M && Info.Split.Plan.ReadAfterWrite.count(Other)) {
        if (ArgHost[Other] == ArgHost[Arg] && readsOwnElement(Info, Other, Arg))
          continue; // the array itself, read where its statement writes it, before the store
        // The probes tell whether those reads meet the writes (the scheduler checks). Not in
        // one memory, where an array computed whole must be computed by one device (settle).
        if (Info.Split.ProbeExact && !M->Unified) {
          T.AliasReads.push_back(Other);
          continue;
        }
        T.Split = false;
        debugLog("launch", "'" + Info.Args[Arg].Name + "' and '" + Info.Args[Other].Name +
                               "' reach one array, one written and one read after a write: "
                               "not split");
      }
    if (T.Split) {
      T.Map = M;
      T.Begin = M->Begin;
      T.End = M->End;
      T.DevicePtrs = M->DevicePtrs;
      setAll(P, jit::splitBoundsCell(Info, I), static_cast<long long>(M->Begin - T.Pointer));
      setAll(P, jit::splitBoundsCell(Info, I) + 1, static_cast<long long>(M->End - T.Pointer));
    }
    P.Targets.push_back(std::move(T));
    if (!P.Targets.back().Split)
      unsplit(Info, P, I);
  }
  // Several written pointers into one mapping must own the same bytes on each device: only
  // when they cut it alike (rows of one size, pointers a whole number of rows apart). Otherwise
  // every device computes that array whole.
  std::vector<SplitTarget> &Targets = P.Targets;
  for (size_t I = 0; I < Targets.size(); ++I) {
    const ArgInfo &AI = Info.Args[SplitArrays[I].Arg];
    for (size_t J = I + 1; J < Targets.size(); ++J) {
      if (!Targets[I].Split || !Targets[J].Split || Targets[I].Begin != Targets[J].Begin)
        continue;
      const ArgInfo &AJ = Info.Args[SplitArrays[J].Arg];
      uint64_t Delta = Targets[I].Pointer > Targets[J].Pointer
                           ? Targets[I].Pointer - Targets[J].Pointer
                           : Targets[J].Pointer - Targets[I].Pointer;
      bool Alike = SplitArrays[I].Dim == 0 && SplitArrays[J].Dim == 0 && AI.PointeeKnown &&
                   AJ.PointeeKnown && AI.PointeeSize == AJ.PointeeSize &&
                   Delta % AI.PointeeSize == 0;
      if (Alike)
        continue;
      debugLog("launch", "'" + AI.Name + "' and '" + AJ.Name +
                             "' write one array cut differently: not split");
      uintptr_t Begin = Targets[I].Begin;
      for (size_t K = 0; K < Targets.size(); ++K)
        if (Targets[K].Begin == Begin)
          unsplit(Info, P, K);
    }
  }
}

/// JACC_CHECK=bounds: what each pointer parameter may reach, relative to the pointer: its
/// mapping; nothing for a null pointer (OpenACC lets it through a data clause untouched);
/// anything for other memory jacc does not map (deviceptr, an array reduction's host array).
std::vector<long long> mappingBounds(const analysis::KernelInfo &Info,
                                     llvm::ArrayRef<Mapping *> ArgMapping,
                                     llvm::ArrayRef<void *> ArgHost) {
  std::vector<long long> B(2 * Info.Args.size());
  for (const ArgInfo &A : Info.Args) {
    const Mapping *M = ArgMapping[A.Position];
    auto Host = reinterpret_cast<uintptr_t>(ArgHost[A.Position]);
    bool Null = !M && Host == 0 && A.ArgKind == ArgInfo::Kind::Pointer;
    B[2 * A.Param] = M ? static_cast<long long>(M->Begin - Host) : Null ? 0 : LLONG_MIN;
    B[2 * A.Param + 1] = M ? static_cast<long long>(M->End - Host) : Null ? 0 : LLONG_MAX;
  }
  return B;
}

/// Whether each pointer argument of Info points into a mapping of its own: then no two of them
/// reach the same memory (mappings do not overlap), which is what `restrict` promises. Memory
/// the present table does not know (a null pointer, an array reduction's host array) proves
/// nothing.
bool pointersDisjoint(const analysis::KernelInfo &Info, llvm::ArrayRef<Mapping *> ArgMapping) {
  llvm::SmallVector<const Mapping *, 8> Seen;
  for (unsigned I = 0; I < Info.Args.size(); ++I) {
    const ArgInfo &A = Info.Args[I];
    if (A.ArgKind != ArgInfo::Kind::Pointer || Info.arrayReductionOf(I))
      continue;
    const Mapping *M = ArgMapping[A.Position];
    if (!M || llvm::is_contained(Seen, M))
      return false;
    Seen.push_back(M);
  }
  return true;
}

/// Whether every device's copy of each pointer argument of Info is at a 64-byte boundary (the
/// pointers the cells hold; a null one is).
bool pointersAligned(const analysis::KernelInfo &Info, const LaunchPlan &P) {
  for (unsigned I = 0; I < Info.Args.size(); ++I) {
    const ArgInfo &A = Info.Args[I];
    if (A.ArgKind != ArgInfo::Kind::Pointer || Info.arrayReductionOf(I))
      continue;
    for (const ArgCells &C : P.Cells)
      if (C[2 * A.Param] % jit::AssumedPointerAlignment != 0)
        return false;
  }
  return true;
}

/// Reductions: the initial values now, and where each result goes.
ReductionResults bindReductions(const analysis::KernelInfo &Info, const jacc_arg *Args) {
  ReductionResults R;
  R.Initial.resize(Info.Reductions.size());
  R.Results.resize(Info.Reductions.size());
  for (size_t I = 0; I < Info.Reductions.size(); ++I) {
    const analysis::ReductionVar &V = Info.Reductions[I];
    void *Value = Args[Info.Args[V.Arg].Position].value;
    if (V.isArray()) { // the host array: the pointer's value
      std::memcpy(&R.Results[I], Value, sizeof(void *));
      continue;
    }
    R.Results[I] = Value;
    std::memcpy(&R.Initial[I], Value, Info.Args[V.Arg].Size);
  }
  return R;
}

} // namespace

LaunchCode codeOn(const LaunchCode &Code, const NativeChoice &Natives, unsigned D) {
  LaunchCode C = Code;
  if (D < Natives.size() && Natives[D].Fn)
    C.Native = &Natives[D];
  return C;
}

LaunchCode LaunchPlan::codeOn(const LaunchCode &Code, unsigned D) const {
  return jacc::codeOn(Code, Natives, D);
}

llvm::Expected<LaunchPlan> planLaunch(const analysis::KernelInfo &Info, const jacc_arg *Args,
                                      unsigned NDevices, const PlanOptions &O,
                                      DataEnvironment &Data) {
  LaunchPlan P;
  unsigned NCells = Info.Args.size() + (O.Split ? 2 * Info.Split.Plan.Arrays.size() : 0);
  P.Cells.assign(NDevices, ArgCells(2 * NCells, 0));
  llvm::SmallVector<Mapping *, 16> ArgMapping(Info.Args.size(), nullptr);
  llvm::SmallVector<void *, 16> ArgHost(Info.Args.size(), nullptr);
  std::shared_ptr<std::vector<std::vector<char>>> Aggregates;
  PresentAggregates Present;
  MemberPointers Members;
  if (auto E =
          bindArguments(Info, Args, Data, P, ArgMapping, ArgHost, Aggregates, Present, Members))
    return E;
  // Data living at a location: the kernel runs on the devices holding all of it, which must
  // include every device it targets.
  P.Devices = devicesHolding(P.Used, NDevices);
  if (auto E = checkLaunchDevices(Info, Args, P, O, ArgMapping, Data))
    return E;
  if (O.OneDevice)
    P.Devices &= ~(P.Devices - 1);
  if (auto E = bindAggregates(Args, Data, P, Aggregates, Present, Members))
    return E;
  P.Narrow = O.Narrow && Info.Split.Plan.Narrowable;
  if (O.Split)
    chooseSplitTargets(Info, ArgMapping, ArgHost, P);
  P.Reductions = bindReductions(Info, Args);
  if (O.CheckBounds)
    P.Bounds = mappingBounds(Info, ArgMapping, ArgHost);
  P.Pointers.Disjoint = Info.MayRestrict && pointersDisjoint(Info, ArgMapping);
  P.Pointers.Aligned = Info.MayAlign && pointersAligned(Info, P);
  P.ArgMappings = std::move(ArgMapping);
  P.ArgHosts = std::move(ArgHost);
  return P;
}

} // namespace jacc
