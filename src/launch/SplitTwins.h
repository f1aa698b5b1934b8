// Which of a kernel and its split twin (analysis/SplitTwin.h) a split launch runs: the form
// whose split axes agree most with how the other kernels split the same arrays. Every split
// launch records, for each array argument it splits or reads along its split loop, the axis it
// cuts it along (the dimension its split loop indexes); a kernel with a twin runs the form whose
// axes more of the other kernels share, each agreement weighed by the array's bytes, and keeps
// its form on a tie. The choices only ever increase the agreement, so they settle: the kernels of
// a solver building work arrays along its sweep's axis and sweeping them along another come to
// build them along the axis the sweep can split (NPB BT's x_solve, y_solve and z_solve).
#ifndef JACC_SRC_LAUNCH_SPLITTWINS_H
#define JACC_SRC_LAUNCH_SPLITTWINS_H

#include "jacc/jacc.h"
#include "jit/CompiledKernel.h"
#include "src/launch/LaunchPlan.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jacc {

class SplitTwins {
public:
  /// The twin's source a split launch of K with the arguments Args runs instead of K, or
  /// nullopt (K itself); the launch's axes recorded either way.
  std::optional<std::string> choose(const std::shared_ptr<const jit::CompiledKernel> &K,
                                    const jacc_arg *Args);
  /// A split launch of K was bound as Plan: the bytes of the arrays its arguments point into.
  void bound(const jit::CompiledKernel &K, const LaunchPlan &Plan);
  /// K's twin could not be compiled: K runs as written from now on.
  void refuse(const jit::CompiledKernel &K);
  /// Forget K (it left the kernel cache), or everything (the runtime was finalized).
  void forget(const jit::CompiledKernel &K);
  void clear();

private:
  /// An axis as the other kernels compare it: the dimension and the subscripts.
  using Cut = std::pair<unsigned, unsigned>;
  struct Kernel {
    std::weak_ptr<const void> Owner; ///< the kernel (another at its address is another kernel)
    std::vector<analysis::SplitAxis> Axes[2]; ///< as written, and the twin's
    bool HasTwin = false;
    std::vector<uint64_t> Bytes; ///< by argument: the bytes of the array it points into
    unsigned Current = 0;
  };
  /// The agreement of form F of K, whose arguments point at Hosts, with the other kernels.
  double agreement(const Kernel &K, const void *Self, unsigned F,
                   const std::vector<const void *> &Hosts) const;

  static constexpr size_t MaxKernels = 4096; ///< beyond, everything is forgotten
  std::mutex M;
  std::unordered_map<const void *, Kernel> Kernels;
  /// By the host address an array argument points to: each kernel's cut of it at its last
  /// split launch.
  std::unordered_map<const void *, std::vector<std::pair<const void *, Cut>>> Cuts;
};

} // namespace jacc

#endif
