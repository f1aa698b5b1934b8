// Fork-join team: helpers wait for a new "generation" of work on an atomic counter, spinning first
// (a warm fork costs a cache-line transfer, not a syscall) and then blocking on a condition
// variable (an idle team costs no CPU). How long they spin adapts to the gaps between runs
// (support/SpinWait.h's SpinPolicy, at most SpinTime), and they spin only while jacc's busy
// threads and the application's fit on the cores.
#include "src/host/ThreadTeam.h"

#include "support/SpinWait.h"

#include <atomic>
#include <cassert>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include <sched.h>

namespace jacc {

namespace {

/// Keeps contended atomics on separate cache lines so that helpers polling one do not slow down
/// writers of another.
constexpr size_t CacheLine = 64;

/// Spin briefly, then give the core away on every further iteration. Waits inside a run
/// (completion, barriers) are normally short, but with more threads than cores the thread we wait
/// for may not be running at all; yielding lets it run instead of livelocking until the scheduler's
/// time slice ends.
class Backoff {
public:
  void pause() {
    if (Spins < SpinsBeforeYield) {
      ++Spins;
      cpuRelax();
      return;
    }
    sched_yield();
  }

private:
  // A pause costs 10 to 150 cycles depending on the microarchitecture: a few microseconds at most.
  static constexpr unsigned SpinsBeforeYield = 64;
  unsigned Spins = 0;
};

} // namespace

struct ThreadTeam::Impl {
  Impl(unsigned Size, std::chrono::microseconds SpinTime)
      : Size(Size), Spin(SpinTime), Done(Size) {}

  void helperMain(unsigned Tid);
  /// Stop every helper started and wait for it to end.
  void stopHelpers();
  uint64_t waitForWork(uint64_t Seen, BusyMark &Busy);

  const unsigned Size;
  /// The helpers' spin for the next run, shared: they all see the same gaps between runs.
  SpinPolicy Spin;

  /// Serialises run(): the team has a single set of work slots. On its own cache line, since the
  /// caller writes it on every run while helpers read the fork line below.
  alignas(CacheLine) std::mutex RunMutex;

  /// The fork line, written only by run() (and the destructor), so a helper picks up the new
  /// generation and its work with one cache-line transfer. Fn is written before Generation is
  /// published and only read by helpers after they observed it, so it needs no lock.
  alignas(CacheLine) std::atomic<uint64_t> Generation{0};
  llvm::function_ref<void(unsigned)> Fn;
  std::atomic<bool> Stop{false};

  /// Join: each helper publishes the generation it finished on its own line. Unlike a shared
  /// countdown, run() need not reset anything and helpers do not contend with each other.
  struct alignas(CacheLine) Slot {
    std::atomic<uint64_t> DoneGeneration{0};
  };
  std::vector<Slot> Done; // index 0 unused

  /// Barrier: arrivals in the current phase, and the phase number (the "sense"; a counter rather
  /// than a flag so no member needs a thread-local copy of it).
  alignas(CacheLine) std::atomic<unsigned> BarrierCount{0};
  alignas(CacheLine) std::atomic<unsigned> BarrierPhase{0};

  /// Blocking, for helpers idle longer than SpinTime. Sleepers lets run() skip the mutex and the
  /// notification when every helper is still spinning (the common, warm case).
  alignas(CacheLine) std::atomic<unsigned> Sleepers{0};
  std::mutex SleepMutex;
  std::condition_variable SleepCV;

  std::vector<std::thread> Helpers;
};

uint64_t ThreadTeam::Impl::waitForWork(uint64_t Seen, BusyMark &Busy) {
  auto Published = [&] { return Generation.load(std::memory_order_acquire) != Seen; };
  // Dekker-style handshake with run(): we publish Sleepers then read Generation, run()
  // publishes Generation then reads Sleepers (all seq_cst), so either we see the new generation
  // or run() sees us and notifies under SleepMutex, which we hold until wait() releases it.
  auto Sleep = [&] {
    std::unique_lock<std::mutex> Lock(SleepMutex);
    Sleepers.fetch_add(1, std::memory_order_seq_cst);
    SleepCV.wait(Lock, [&] { return Generation.load(std::memory_order_seq_cst) != Seen; });
    Sleepers.fetch_sub(1, std::memory_order_relaxed);
  };
  spinThenBlock(Spin, Published, Sleep, &Busy);
  return Generation.load(std::memory_order_acquire);
}

void ThreadTeam::Impl::helperMain(unsigned Tid) {
  uint64_t Seen = 0;
  BusyMark Busy; // busy while working or spinning, not while asleep
  for (;;) {
    // run() waits for every helper before returning, so each generation is seen exactly once.
    Seen = waitForWork(Seen, Busy);
    if (Stop.load(std::memory_order_acquire))
      return;
    Fn(Tid);
    Done[Tid].DoneGeneration.store(Seen, std::memory_order_release);
  }
}

ThreadTeam::ThreadTeam(unsigned Size, std::chrono::microseconds SpinTime)
    : P(std::make_unique<Impl>(Size == 0 ? 1 : Size, SpinTime)) {
  assert(Size >= 1 && "a team has at least its calling thread");
  P->Helpers.reserve(P->Size - 1);
  try {
    for (unsigned Tid = 1; Tid < P->Size; ++Tid)
      P->Helpers.emplace_back([this, Tid] { P->helperMain(Tid); });
  } catch (...) {
    // The system refused a thread: the helpers started so far must end before P does.
    P->stopHelpers();
    throw;
  }
}

void ThreadTeam::Impl::stopHelpers() {
  {
    // Under SleepMutex so that a helper between its predicate check and wait() cannot miss it.
    std::lock_guard<std::mutex> Lock(SleepMutex);
    Stop.store(true, std::memory_order_release);
    Generation.fetch_add(1, std::memory_order_seq_cst);
  }
  SleepCV.notify_all();
  for (std::thread &T : Helpers)
    T.join();
}

ThreadTeam::~ThreadTeam() {
  P->stopHelpers();
}

unsigned ThreadTeam::size() const {
  return P->Size;
}

void ThreadTeam::run(llvm::function_ref<void(unsigned Tid)> Fn) {
  std::lock_guard<std::mutex> RunLock(P->RunMutex);
  if (P->Size == 1) {
    Fn(0);
    return;
  }

  P->Fn = Fn;
  // Only run() and the destructor write Generation, and never concurrently.
  uint64_t G = P->Generation.load(std::memory_order_relaxed) + 1;
  // seq_cst (not just release): it is half of the sleep handshake in waitForWork().
  P->Generation.store(G, std::memory_order_seq_cst);
  if (P->Sleepers.load(std::memory_order_seq_cst) != 0) {
    std::lock_guard<std::mutex> Lock(P->SleepMutex);
    P->SleepCV.notify_all();
  }

  Fn(0);

  Backoff B;
  for (unsigned Tid = 1; Tid < P->Size; ++Tid)
    while (P->Done[Tid].DoneGeneration.load(std::memory_order_acquire) != G)
      B.pause();
}

void ThreadTeam::barrier() {
  if (P->Size == 1)
    return;
  // The phase cannot advance before this member arrives, so reading it first is race-free.
  unsigned Phase = P->BarrierPhase.load(std::memory_order_acquire);
  if (P->BarrierCount.fetch_add(1, std::memory_order_acq_rel) + 1 == P->Size) {
    // Last to arrive: reset the count before opening the barrier; members only arrive at the next
    // barrier after seeing the new phase, so they see the reset.
    P->BarrierCount.store(0, std::memory_order_relaxed);
    P->BarrierPhase.store(Phase + 1, std::memory_order_release);
    return;
  }
  Backoff B;
  while (P->BarrierPhase.load(std::memory_order_acquire) == Phase)
    B.pause();
}

} // namespace jacc
