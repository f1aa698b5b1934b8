// A native part's launch: the argument and reduction pointers the function sees, its iterations
// from the read probe's loop words, and the call whose nonzero result fails it.
#include "src/launch/NativeLaunch.h"

#include "jit/ReadProbe.h"
#include "jit/host/HostABI.h"
#include "src/launch/Reduction.h"

namespace jacc {

using analysis::ArgInfo;

NativeLaunch::NativeLaunch(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                           AggregateArgs Aggregates, NativeImpl Impl, NativeDevice On)
    : KernelLaunch(std::move(K), std::move(Cells), std::move(Aggregates)), Impl(Impl),
      On(std::move(On)) {
  const analysis::KernelInfo &Info = this->K->Info;
  // One partial: each reduction variable's private copy, from the operator's identity.
  Partials = 1;
  Slots.assign(NumReductions, 0);
  ArgValues.assign(Info.Args.size(), nullptr);
  for (const ArgInfo &A : Info.Args) {
    bool Bytes = A.ArgKind == ArgInfo::Kind::Aggregate ||
                 (A.ArgKind == ArgInfo::Kind::Scalar && A.Size > ArgCellBytes);
    ArgValues[A.Position] = Bytes && this->Aggregates
                                ? const_cast<char *>((*this->Aggregates)[A.Param].data())
                                : static_cast<void *>(&this->Cells[2 * A.Param]);
  }
  for (const analysis::ReductionVar &R : Info.Reductions) {
    reductionIdentity(R.Op, R.Type, &Slots[R.Slot]);
    ArgValues[Info.Args[R.Arg].Position] = &Slots[R.Slot];
  }
  Part.device = static_cast<int>(this->On.Index);
  Part.kind = nativeKindName(Impl.Type);
  Part.compute_units = static_cast<int>(this->On.ComputeUnits);
  Part.args = ArgValues.data();
  Part.nargs = static_cast<int>(ArgValues.size());
}

llvm::Error NativeLaunch::prepare(llvm::ArrayRef<void *> ArgHosts, bool Disjoint) {
  // The probe gives the iterations; a launch the scheduler probed already keeps its words.
  if (!Split || (ReadInfo.empty() && !probe(ArgHosts)))
    return makeError(ErrorCode::Internal,
                     "the " + std::string(Part.kind) + " native implementation of " +
                         KernelLaunch::describe() + " on " + On.Name +
                         " has no share: the kernel's host split code could not be had");
  const long long *L = ReadInfo.data() + jit::loopInfoOffset(K->Info);
  long long First = L[0], Step = L[1], Db = L[3], De = L[4], Sb = L[5], Se = L[6];
  if (Disjoint) {
    Db = Sb;
    De = Se;
  }
  Part.begin = First + Db * Step;
  Part.end = First + De * Step;
  Part.step = Step;
  Part.reduce_begin = First + Sb * Step;
  Part.reduce_end = First + Se * Step;
  return llvm::Error::success();
}

llvm::Error NativeLaunch::call(void *Stream) {
  // Nothing to compute (a device outside the targeted location, `any` choosing another): as
  // MCtrl deploys only parts with threads mapped, the function is not called.
  if (Part.begin == Part.end && Part.reduce_begin == Part.reduce_end)
    return llvm::Error::success();
  Part.stream = Stream;
  int Result = Impl.Fn(&Part, Impl.User);
  if (Result == 0)
    return llvm::Error::success();
  return makeError(ErrorCode::Device, "the " + std::string(Part.kind) +
                                          " native implementation of " +
                                          KernelLaunch::describe() + " returned " +
                                          std::to_string(Result) + " on " + On.Name);
}

llvm::Error NativeLaunch::takeFailure() {
  llvm::Error Base = KernelLaunch::takeFailure();
  if (!Failure)
    return Base;
  llvm::consumeError(std::move(Base)); // the function's failure is the one to report
  return Failure.take();
}

std::string NativeLaunch::describe() const {
  return "the " + std::string(Part.kind) + " native implementation of " +
         KernelLaunch::describe();
}

} // namespace jacc
