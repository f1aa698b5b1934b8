// Choosing a kernel's form for its split launches by the axes the other kernels split the same
// arrays along.
#include "src/launch/SplitTwins.h"

#include "analysis/SplitTwin.h"
#include "support/Debug.h"

namespace jacc {

double SplitTwins::agreement(const Kernel &K, const void *Self, unsigned F,
                             const std::vector<const void *> &Hosts) const {
  double Sum = 0;
  for (const analysis::SplitAxis &A : K.Axes[F]) {
    if (A.Arg >= Hosts.size() || A.Arg >= K.Bytes.size())
      continue;
    auto It = Cuts.find(Hosts[A.Arg]);
    if (It == Cuts.end())
      continue;
    for (const auto &[Other, C] : It->second)
      if (Other != Self && C == Cut{A.Dim, A.Rank})
        Sum += double(K.Bytes[A.Arg]);
  }
  return Sum;
}

std::optional<std::string> SplitTwins::choose(const std::shared_ptr<const jit::CompiledKernel> &K,
                                              const jacc_arg *Args) {
  const analysis::KernelInfo &Info = K->Info;
  std::lock_guard<std::mutex> G(M);
  auto It = Kernels.find(K.get());
  if (It == Kernels.end() || It->second.Owner.lock() != K) {
    if (Kernels.size() >= MaxKernels) {
      Kernels.clear();
      Cuts.clear();
    }
    Kernel New;
    New.Owner = K;
    New.Axes[0] = analysis::splitAxes(Info);
    New.HasTwin = !Info.Split.Twin.empty();
    New.Axes[1] = Info.Split.TwinAxes;
    It = Kernels.insert_or_assign(K.get(), std::move(New)).first;
  }
  Kernel &E = It->second;
  // The host addresses the array arguments point at, by argument.
  std::vector<const void *> Hosts(Info.Args.size(), nullptr);
  for (unsigned I = 0; I < Info.Args.size(); ++I)
    if (Info.Args[I].ArgKind == analysis::ArgInfo::Kind::Pointer)
      Hosts[I] = *static_cast<void *const *>(Args[Info.Args[I].Position].value);
  if (E.HasTwin) {
    double Written = agreement(E, K.get(), 0, Hosts), Twin = agreement(E, K.get(), 1, Hosts);
    unsigned Was = E.Current;
    E.Current = Twin > Written ? 1 : Written > Twin ? 0 : Was;
    if (E.Current != Was)
      debugLog("launch", Info.Name.Site + ": split " + (E.Current ? "as its twin" : "as written") +
                             " (its arrays' bytes split alike by other kernels: " +
                             llvm::Twine(uint64_t(E.Current ? Twin : Written)) + " against " +
                             llvm::Twine(uint64_t(E.Current ? Written : Twin)) + ")");
  }
  // Its cuts now: those of its form, none of the other's.
  for (unsigned F : {1 - E.Current, E.Current})
    for (const analysis::SplitAxis &A : E.Axes[F]) {
      if (A.Arg >= Hosts.size() || !Hosts[A.Arg])
        continue;
      auto &List = Cuts[Hosts[A.Arg]];
      auto Mine = llvm::find_if(List, [&](const auto &P) { return P.first == K.get(); });
      if (F != E.Current) {
        if (Mine != List.end())
          List.erase(Mine);
      } else if (Mine != List.end()) {
        Mine->second = {A.Dim, A.Rank};
      } else {
        List.push_back({K.get(), {A.Dim, A.Rank}});
      }
    }
  if (E.Current == 0)
    return std::nullopt;
  return Info.Split.Twin;
}

void SplitTwins::refuse(const jit::CompiledKernel &K) {
  std::lock_guard<std::mutex> G(M);
  auto It = Kernels.find(&K);
  if (It == Kernels.end())
    return;
  It->second.HasTwin = false;
  It->second.Current = 0; // its next launch records its own cuts again
}

void SplitTwins::forget(const jit::CompiledKernel &K) {
  std::lock_guard<std::mutex> G(M);
  if (!Kernels.erase(&K))
    return;
  for (auto &[Host, List] : Cuts)
    llvm::erase_if(List, [&](const auto &P) { return P.first == &K; });
}

void SplitTwins::clear() {
  std::lock_guard<std::mutex> G(M);
  Kernels.clear();
  Cuts.clear();
}

void SplitTwins::bound(const jit::CompiledKernel &K, const LaunchPlan &Plan) {
  std::lock_guard<std::mutex> G(M);
  auto It = Kernels.find(&K);
  if (It == Kernels.end())
    return;
  const analysis::KernelInfo &Info = K.Info;
  std::vector<uint64_t> &Bytes = It->second.Bytes;
  Bytes.assign(Info.Args.size(), 0);
  for (unsigned I = 0; I < Info.Args.size(); ++I)
    if (const Mapping *Map = Plan.ArgMappings[Info.Args[I].Position])
      Bytes[I] = Map->bytes();
}

} // namespace jacc
