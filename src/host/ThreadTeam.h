// A fork-join team of threads, the host device's execution engine.
#ifndef JACC_SRC_HOST_THREADTEAM_H
#define JACC_SRC_HOST_THREADTEAM_H

#include <llvm/ADT/STLFunctionalExtras.h>

#include <chrono>
#include <memory>

namespace jacc {

/// run(Fn) calls Fn(Tid) once on each of size() threads, the calling thread being Tid 0, and returns
/// when all calls have returned. Idle helper threads spin (a fast fork for back-to-back launches,
/// as OpenMP's blocktime does) for at most SpinTime, less when the gaps between runs are longer
/// and not at all when the cores are taken, and then block, so an idle team costs no CPU.
/// One run() at a time: concurrent callers are serialised by an internal mutex.
class ThreadTeam {
public:
  /// Throws std::system_error when the system refuses a thread (none is left running then).
  ThreadTeam(unsigned Size, std::chrono::microseconds SpinTime);
  ~ThreadTeam();
  ThreadTeam(const ThreadTeam &) = delete;
  ThreadTeam &operator=(const ThreadTeam &) = delete;

  unsigned size() const;
  void run(llvm::function_ref<void(unsigned Tid)> Fn);
  /// Barrier across all size() members; only valid inside Fn of run(). Spins, then yields.
  void barrier();

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace jacc

#endif
