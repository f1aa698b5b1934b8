// Bounded spinning: the adaptive spin budget and the process's spin slots.
#include "support/SpinWait.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace jacc {

SpinPolicy::SpinPolicy(std::chrono::nanoseconds Limit)
    : LimitNs(std::max<int64_t>(0, Limit.count())) {}

std::chrono::nanoseconds SpinPolicy::budget(Clock::time_point Now) const {
  if (Now.time_since_epoch().count() < NoSpinUntilNs.load(std::memory_order_relaxed))
    return std::chrono::nanoseconds(0);
  // After long waits still a short spin: it catches launches back to back again (a wait that
  // blocks measures the wake-up latency too, which may exceed the limit on its own).
  bool Recent = AverageNs.load(std::memory_order_relaxed) <= LimitNs;
  return std::chrono::nanoseconds(Recent ? LimitNs : LimitNs / ShortSpinDivisor);
}

void SpinPolicy::preempted(Clock::time_point Now) {
  int64_t T = std::chrono::nanoseconds(Now.time_since_epoch()).count();
  int64_t P = PenaltyNs.load(std::memory_order_relaxed);
  int64_t First = std::chrono::nanoseconds(FirstPenalty).count();
  int64_t Max = std::chrono::nanoseconds(MaxPenalty).count();
  bool Recent = P > 0 && T - LastPreemptedNs.load(std::memory_order_relaxed) <= 4 * P;
  P = Recent ? std::min(2 * P, Max) : First;
  // Racing spinners may lose an update: the penalty only steers a heuristic.
  PenaltyNs.store(P, std::memory_order_relaxed);
  LastPreemptedNs.store(T, std::memory_order_relaxed);
  NoSpinUntilNs.store(T + P, std::memory_order_relaxed);
}

void SpinPolicy::record(std::chrono::nanoseconds Waited) {
  // An exponential moving average (weight 1/8) of waits capped at twice the limit: one long
  // gap does not stop the spinning, a few in a row do, and a few short waits restart it.
  int64_t W = std::min<int64_t>(Waited.count(), 2 * LimitNs);
  int64_t A = AverageNs.load(std::memory_order_relaxed);
  // Racing waiters may lose an update: the average only steers a heuristic.
  AverageNs.store(A + (W - A) / 8, std::memory_order_relaxed);
}

SpinSlots &SpinSlots::process() {
  static SpinSlots Slots(std::max(1u, std::thread::hardware_concurrency()),
                         /*WatchMachine=*/true);
  return Slots;
}

namespace {

/// The machine's runnable threads now (this one included), from /proc/loadavg's
/// "runnable/total" field; 0 when unknown.
unsigned runnableThreads() {
  static int Fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  char Text[128];
  ssize_t N = Fd < 0 ? -1 : ::pread(Fd, Text, sizeof Text - 1, 0);
  if (N <= 0)
    return 0;
  Text[N] = 0;
  double Avg1, Avg5, Avg15;
  unsigned Runnable = 0, Total = 0;
  if (std::sscanf(Text, "%lf %lf %lf %u/%u", &Avg1, &Avg5, &Avg15, &Runnable, &Total) != 5)
    return 0;
  return Runnable;
}

/// jacc's idle-priority threads at work (IdleWorkMark).
std::atomic<unsigned> IdleWork{0};

/// How long a reading of the machine's runnable threads stands.
constexpr std::chrono::milliseconds MachineReadInterval{5};

} // namespace

bool SpinSlots::machineFits() {
  if (!WatchMachine)
    return true;
  int64_t Now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  int64_t Read = MachineReadNs.load(std::memory_order_relaxed);
  if (Now - Read < std::chrono::nanoseconds(MachineReadInterval).count() ||
      !MachineReadNs.compare_exchange_strong(Read, Now, std::memory_order_relaxed))
    return MachineFits.load(std::memory_order_relaxed);
  unsigned Threads = Runnable ? Runnable() : runnableThreads();
  unsigned Idle = IdleWork.load(std::memory_order_relaxed);
  bool Over = Threads - std::min(Threads, Idle) > Cores;
  // Overloaded only when two readings in a row say so: one is an instant's count, which a
  // short-lived thread of another process (a monitor's sampling, a shell) tips over on a
  // machine of two cores, and stopping the spin then costs every launch of the next readings a
  // futex wake-up (tens of microseconds on a VM). A real overload (a build beside the program)
  // shows in every reading.
  bool WasOver = LastOver.exchange(Over, std::memory_order_relaxed);
  bool Fits = !(Over && WasOver);
  MachineFits.store(Fits, std::memory_order_relaxed);
  return Fits;
}

IdleWorkMark::IdleWorkMark() {
  IdleWork.fetch_add(1, std::memory_order_relaxed);
}
IdleWorkMark::~IdleWorkMark() {
  IdleWork.fetch_sub(1, std::memory_order_relaxed);
}

} // namespace jacc
