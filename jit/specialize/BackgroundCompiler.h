// A thread that compiles off the launch path: kernel variants are built there while
// pushes keep running the generic kernel. The thread runs at idle priority (SCHED_IDLE, else
// nice 19: support/IdlePriority.h), so it only takes CPU time the program's threads leave;
// its host compiles go to a compile server at idle priority too (CompileServer.h).
#ifndef JACC_JIT_BACKGROUNDCOMPILER_H
#define JACC_JIT_BACKGROUNDCOMPILER_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include <sys/types.h>

namespace jacc::jit {

class BackgroundCompiler {
public:
  BackgroundCompiler();
  /// Runs what is queued, then stops the thread.
  ~BackgroundCompiler();
  BackgroundCompiler(const BackgroundCompiler &) = delete;
  BackgroundCompiler &operator=(const BackgroundCompiler &) = delete;

  /// Queue Job (run in order, one at a time, on the compiler's thread, started on first use).
  void enqueue(std::function<void()> Job);
  /// Wait until every queued job has run (jacc_finalize, tests, JACC_SPECIALIZE_WAIT).
  void drain();
  /// drain() for at most Timeout; false when jobs were still queued or running then.
  bool drainFor(std::chrono::milliseconds Timeout);
  /// Drop the jobs not started; the thread and the running job go on.
  void dropQueued();
  /// Drop the jobs not started, wait for the running one, stop the thread. Also done at exit
  /// (atexit, registered at the first job after building clang's driver state, so that it runs
  /// before that state is destroyed; see BackgroundCompiler.cpp).
  void stop();
  /// The compiler thread's kernel thread id once it started (0 before): tests read its policy.
  pid_t threadId() const;
  /// What makes the running job end early (the runtime's: cancel the compile in the idle
  /// compile server); stop() calls it, so that exit never waits for a compile.
  void setCanceller(std::function<void()> Cancel);
  /// Drop the jobs not started and make the running one end early (the canceller).
  void cancel();
  /// On a compiler's thread: whether its running job was asked to end early (cancel, stop), so
  /// that it starts no further step; false on other threads.
  static bool jobCancelled();

private:
  void run();

  mutable std::mutex M;
  std::condition_variable Wake, Idle;
  std::deque<std::function<void()>> Jobs;
  bool Running = false; ///< a job is running
  bool Stop = false;
  pid_t Tid = 0; ///< the worker's thread id, once it runs
  std::function<void()> Canceller;
  std::atomic<bool> CancelJob{false}; ///< the running job should end early
  std::thread Worker;
};

} // namespace jacc::jit

#endif
