// Waiting for another thread without a sleep on the fast path: bounded spinning with a pause
// instruction, then the caller's blocking wait (a condition variable, that is a futex).
#ifndef JACC_SUPPORT_SPINWAIT_H
#define JACC_SUPPORT_SPINWAIT_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace jacc {

/// Tell the core we are spinning: saves power and frees the pipeline for a sibling hyperthread.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

/// Tries of lockSpinning() before it sleeps (a pause is ~40 cycles on recent x86, up to ~140).
constexpr unsigned LockSpinTries = 128;

/// Takes Lock's mutex, spinning a little (about a microsecond) before sleeping on it: the
/// hand-off mutexes guard a few stores, and a thread that finds one held otherwise sleeps on a
/// futex whose wake-up costs tens of microseconds on a VM (an idle vCPU is halted), as glibc's
/// default mutex does not spin (its adaptive kind does, but std::condition_variable needs
/// std::mutex).
inline void lockSpinning(std::unique_lock<std::mutex> &Lock) {
  for (unsigned Try = 0; Try < LockSpinTries; ++Try) {
    if (Lock.try_lock())
      return;
    cpuRelax();
  }
  Lock.lock();
}

/// How long the next wait of one waiter spins before it blocks. Waits as long as the limit or
/// shorter (launches back to back) are caught spinning; once the recent waits (a moving average,
/// spin and sleep together) are longer than the limit, the waiter spins only an eighth of it, so
/// an idle device costs next to no CPU; short waits again bring the whole spin back. A spinner
/// that was preempted (other processes want the cores: it held one for a whole time slice while
/// the thread it waits for queued for another) makes the waits of the next millisecond sleep at
/// once, and of twice as long each time it happens again soon after. Safe to share between
/// threads.
class SpinPolicy {
public:
  using Clock = std::chrono::steady_clock;
  explicit SpinPolicy(std::chrono::nanoseconds Limit);
  /// The spin budget of a wait starting Now: the limit, an eighth of it, or zero after a
  /// preemption.
  std::chrono::nanoseconds budget(Clock::time_point Now) const;
  /// Records how long a wait took in all.
  void record(std::chrono::nanoseconds Waited);
  /// The spinner was descheduled (noticed at Now): the waits of the next while sleep at once.
  void preempted(Clock::time_point Now);

  static constexpr int64_t ShortSpinDivisor = 8;
  /// No spinning this long after a first preemption; doubled by each preemption within four
  /// times the current penalty of the last one, up to the max.
  static constexpr std::chrono::milliseconds FirstPenalty{1}, MaxPenalty{100};

private:
  const int64_t LimitNs;
  std::atomic<int64_t> AverageNs{0};
  /// Clock times in nanoseconds since its epoch.
  std::atomic<int64_t> PenaltyNs{0}, LastPreemptedNs{0}, NoSpinUntilNs{0};
};

/// The busy threads of jacc's own (device stream threads working or spinning) against the cores:
/// spinning is fine while they and the application's thread fit on the cores, so that a spinner
/// never holds a core the thread it waits for, or the application, needs.
class SpinSlots {
public:
  /// WatchMachine: also count the machine's runnable threads (other processes' too), so that
  /// nothing spins while the machine has more of them than cores (in two readings in a row, a
  /// few milliseconds apart). Runnable: how they are counted (tests); /proc/loadavg's by default.
  explicit SpinSlots(unsigned Cores, bool WatchMachine = false,
                     unsigned (*Runnable)() = nullptr)
      : Cores(Cores), WatchMachine(WatchMachine), Runnable(Runnable) {}
  /// The process's: as many cores as hardware threads, the machine watched.
  static SpinSlots &process();
  void enter() { Busy.fetch_add(1, std::memory_order_relaxed); }
  void leave() { Busy.fetch_sub(1, std::memory_order_relaxed); }
  /// Whether the busy threads and the application's thread fit on the cores.
  bool fit() { return Busy.load(std::memory_order_relaxed) + 1 <= Cores && machineFits(); }
  /// Whether the application's thread may spin for a busy thread: one is busy, and they fit.
  bool fitWithWorker() {
    unsigned B = Busy.load(std::memory_order_relaxed);
    return B >= 1 && B + 1 <= Cores && machineFits();
  }

private:
  /// Whether the machine's runnable threads fit on the cores: read from the kernel at most
  /// every few milliseconds (a read costs a system call).
  bool machineFits();

  const unsigned Cores;
  const bool WatchMachine;
  unsigned (*const Runnable)();
  std::atomic<unsigned> Busy{0};
  std::atomic<bool> MachineFits{true};
  std::atomic<bool> LastOver{false}; ///< the last reading had more runnable threads than cores
  std::atomic<int64_t> MachineReadNs{0}; ///< when MachineFits was read (steady clock)
};

/// While alive, one of jacc's threads at idle priority is at work (a background compile, in
/// the thread or in its compile server): the machine watch does not count it, since it gives
/// its core up as soon as any other thread wants one. Counted, it would stop the spinning of a
/// team whose cores it never takes.
class IdleWorkMark {
public:
  IdleWorkMark();
  ~IdleWorkMark();
  IdleWorkMark(const IdleWorkMark &) = delete;
  IdleWorkMark &operator=(const IdleWorkMark &) = delete;
};

/// A jacc thread's mark in the slots while it is busy: from when it wakes (or starts to spin)
/// until it sleeps. A stream thread between launches that spinning keeps awake stays busy.
class BusyMark {
public:
  explicit BusyMark(SpinSlots &Slots = SpinSlots::process()) : Slots(Slots) {}
  ~BusyMark() { leave(); }
  BusyMark(const BusyMark &) = delete;
  BusyMark &operator=(const BusyMark &) = delete;
  void enter() {
    if (!In)
      Slots.enter();
    In = true;
  }
  void leave() {
    if (In)
      Slots.leave();
    In = false;
  }
  SpinSlots &slots() { return Slots; }

private:
  SpinSlots &Slots;
  bool In = false;
};

/// A gap this long between two looks at the clock while spinning means the spinner was
/// descheduled for another thread's time slice (the looks are a few pause instructions apart).
/// Shorter gaps are the hypervisor's or an interrupt's (tens of microseconds on a VM): they say
/// nothing about the cores being oversubscribed, and backing off for them made a tiny split push
/// cost a futex wake-up (~40 us) for seconds at a time.
constexpr std::chrono::microseconds PreemptedGap{250};

/// Returns once Ready() holds: spins for Policy's budget and then calls Block(), which must
/// return only once Ready() holds (it typically waits on a condition variable whose notifier
/// makes Ready() true first). Records the wait in Policy. A jacc thread passes its Mark: it
/// spins if the busy threads fit on the cores, and is not busy while Block() sleeps. Without a
/// mark the caller is the application's thread, which spins only while a busy jacc thread (the
/// one it waits for, presumably) and it fit on the cores.
template <typename ReadyFn, typename BlockFn>
void spinThenBlock(SpinPolicy &Policy, ReadyFn &&Ready, BlockFn &&Block, BusyMark *Mark = nullptr) {
  using Clock = std::chrono::steady_clock;
  if (Mark)
    Mark->enter();
  if (Ready())
    return;
  const Clock::time_point Start = Clock::now();
  const std::chrono::nanoseconds Budget = Policy.budget(Start);
  bool Caught = false;
  bool Fit = Mark ? Mark->slots().fit() : SpinSlots::process().fitWithWorker();
  if (Budget.count() > 0 && Fit) {
    Clock::time_point Last = Start;
    // Reading the clock costs about as much as a pause: only every few iterations.
    for (unsigned Iter = 1; !(Caught = Ready()); ++Iter) {
      cpuRelax();
      if (Iter % 32 != 0)
        continue;
      Clock::time_point Now = Clock::now();
      if (Now - Last >= PreemptedGap) {
        Policy.preempted(Now);
        break;
      }
      if (Now - Start >= Budget)
        break;
      Last = Now;
    }
  }
  if (!Caught) {
    if (Mark)
      Mark->leave();
    Block();
    if (Mark)
      Mark->enter();
  }
  Policy.record(Clock::now() - Start);
}

/// A device thread's wait for work (a stream thread, an event poller): spins without Lock until
/// HasWork() (read without it), else sleeps on CV under Lock until Queued() (read under it), with
/// Awake false meanwhile. Returns with Lock held.
template <typename HasWorkFn, typename QueuedFn>
void waitForWork(SpinPolicy &Policy, BusyMark &Busy, std::atomic<bool> &Awake,
                 std::unique_lock<std::mutex> &Lock, std::condition_variable &CV,
                 HasWorkFn &&HasWork, QueuedFn &&Queued) {
  Busy.enter();
  if (!HasWork()) {
    if (Lock.owns_lock())
      Lock.unlock();
    auto Sleep = [&] {
      lockSpinning(Lock);
      Awake.store(false, std::memory_order_relaxed);
      CV.wait(Lock, Queued);
      Awake.store(true, std::memory_order_relaxed);
    };
    spinThenBlock(Policy, HasWork, Sleep, &Busy);
  }
  if (!Lock.owns_lock())
    lockSpinning(Lock);
}

} // namespace jacc

#endif
