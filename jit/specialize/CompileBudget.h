// The background compile budget (JACC_SPECIALIZE_BUDGET): the seconds of variant
// compiles a runtime may spend, from jacc_init to jacc_finalize. Once spent, no variant is
// created any more and the queued compiles are dropped: the generic kernels run. Loading a
// variant from the disk cache is not a compile and costs nothing here, so a warm run (every
// variant on disk) is never stopped by what its cold run spent.
#ifndef JACC_JIT_COMPILEBUDGET_H
#define JACC_JIT_COMPILEBUDGET_H

#include <atomic>
#include <cstdint>

namespace jacc::jit {

class CompileBudget {
public:
  /// Start over with Seconds to spend (negative: no limit).
  void reset(double Seconds);
  /// Whether the budget is spent: no compile may start.
  bool spent() const;
  /// A background compile took Seconds.
  void charge(double Seconds);
  /// A variant was not created or compiled because the budget was spent; true the first time
  /// (the one debug message).
  bool refuse();

  double limitSeconds() const;
  double spentSeconds() const;
  /// Background compiles charged, and variants refused.
  uint64_t compiles() const { return Compiles.load(std::memory_order_relaxed); }
  uint64_t refused() const { return Refused.load(std::memory_order_relaxed); }

private:
  std::atomic<int64_t> LimitUs{-1};
  std::atomic<int64_t> SpentUs{0};
  std::atomic<uint64_t> Compiles{0}, Refused{0};
};

} // namespace jacc::jit

#endif
