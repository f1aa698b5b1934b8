// Whether a host device forks its thread team for a run, or its launching thread runs the team's
// members one after another: a fork and a join cost about a microsecond (cache lines crossing
// cores twice, more on a VM), more than a kernel of a few dozen iterations computes.
#ifndef JACC_SRC_HOST_FORKCHOICE_H
#define JACC_SRC_HOST_FORKCHOICE_H

#include <array>
#include <chrono>
#include <cstdint>

namespace jacc {

/// When ForkChoice changes a kernel's mode (see below).
struct ForkLimits {
  std::chrono::nanoseconds ShortTeamRun{2000};
  std::chrono::nanoseconds LongRunInTurn{4000};
};

/// Learns per kernel (named by the code it calls) from measured runs: a team run shorter than
/// ForkLimits::ShortTeamRun makes the next runs run in turn; a run in turn longer than
/// ForkLimits::LongRunInTurn sends the kernel back to the team. Runs in turn use the team's
/// partition, member by member, so they compute exactly what the team would (reductions'
/// partial results included). A new kernel runs on the team; its first runs after each change
/// are timed, then one in SampleEvery.
///
/// Not thread-safe: a device's runs are one at a time, in ticket order, each starting after the
/// previous one completed (which orders their accesses).
class ForkChoice {
public:
  using Limits = ForkLimits;
  static constexpr uint32_t TimedAfterChange = 4, SampleEvery = 32;

  explicit ForkChoice(Limits L = Limits()) : L(L) {}

  struct Choice {
    bool InTurn = false; ///< run the members one after another on the launching thread
    bool Timed = false;  ///< time the run and record() it
  };
  /// How to run Code next.
  Choice choose(const void *Code);
  /// A timed run of Code, in turn or not, took Took.
  void record(const void *Code, bool InTurn, std::chrono::nanoseconds Took);

private:
  struct Slot {
    const void *Code = nullptr;
    bool InTurn = false;
    uint32_t Runs = 0; ///< since the last change of mode
  };
  /// Direct-mapped by Code: a kernel that collides with another starts over, on the team.
  Slot &slotOf(const void *Code);

  const Limits L;
  std::array<Slot, 64> Slots;
};

} // namespace jacc

#endif
