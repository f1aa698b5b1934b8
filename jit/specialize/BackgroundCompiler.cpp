// The background compile thread: a job queue run at idle priority, cancelling and draining it, and
// stopping every compiler at exit before clang's static state is destroyed.
#include "jit/specialize/BackgroundCompiler.h"

#include "support/ClangInvocation.h"
#include "support/Fork.h"
#include "support/IdlePriority.h"
#include "support/SpinWait.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace jacc::jit {

namespace {
// The compilers with a thread, stopped at exit: a compile must not run on while exit destroys
// LLVM's and clang's static state.
std::mutex RegistryMutex;
std::vector<BackgroundCompiler *> &registry() {
  static auto *R = new std::vector<BackgroundCompiler *>; // never destroyed: used at exit
  return *R;
}
void stopAllAtExit() {
  if (forkedChild())
    return; // the compilers' threads stayed in the parent
  std::lock_guard<std::mutex> L(RegistryMutex);
  for (BackgroundCompiler *C : registry())
    C->stop();
}

/// exit() runs the atexit hooks and the destructors of function-local statics in the reverse
/// order of their registration, so stopAllAtExit stops the compiles before every static built
/// before it was registered is destroyed, and after every one built later. A compile builds
/// clang's driver state (the cc1 arguments, the driver's option tables) on first use; when the
/// kernels came from the disk cache the first use was a background compile, racing the hook's
/// registration, and a program exiting during that compile destroyed the driver state under it
/// ("pure virtual method called"). Building that state here, on the enqueuing thread before the
/// hook is registered, puts its destructors after the hook. (An atexit hook registered early,
/// at load time, would run last: after those destructors.)
/// The compiler whose thread this is (null on other threads).
thread_local BackgroundCompiler *Current = nullptr;

void buildCompilerStateBeforeTheHook() {
  for (ClangPurpose P : {ClangPurpose::Analysis, ClangPurpose::HostCodegen})
    if (auto Args = cc1Arguments(P); !Args)
      llvm::consumeError(Args.takeError()); // the compile reports it
}
} // namespace

BackgroundCompiler::BackgroundCompiler() {
  // Known to the exit hook from the start: no thread of it can start unseen.
  std::lock_guard<std::mutex> L(RegistryMutex);
  registry().push_back(this);
}

BackgroundCompiler::~BackgroundCompiler() {
  {
    std::lock_guard<std::mutex> L(RegistryMutex);
    auto &R = registry();
    R.erase(std::remove(R.begin(), R.end(), this), R.end());
  }
  stop();
}

void BackgroundCompiler::setCanceller(std::function<void()> Cancel) {
  std::lock_guard<std::mutex> L(M);
  Canceller = std::move(Cancel);
}

void BackgroundCompiler::cancel() {
  std::function<void()> Cancel;
  {
    std::lock_guard<std::mutex> L(M);
    Jobs.clear();
    if (Running) {
      CancelJob = true;
      Cancel = Canceller;
    }
  }
  Idle.notify_all();
  if (Cancel)
    Cancel();
}

bool BackgroundCompiler::jobCancelled() {
  return Current && Current->CancelJob.load(std::memory_order_relaxed);
}

void BackgroundCompiler::stop() {
  std::function<void()> Cancel;
  {
    std::lock_guard<std::mutex> L(M);
    Jobs.clear();
    Stop = true;
    if (Running) {
      CancelJob = true;
      Cancel = Canceller;
    }
  }
  if (Cancel) // exit must not wait for a compile at idle priority
    Cancel();
  Wake.notify_all();
  if (Worker.joinable() && Worker.get_id() != std::this_thread::get_id())
    Worker.join();
  Idle.notify_all();
}

void BackgroundCompiler::enqueue(std::function<void()> Job) {
  static std::once_flag AtExit;
  std::call_once(AtExit, [] {
    buildCompilerStateBeforeTheHook();
    std::atexit(stopAllAtExit);
  });
  {
    std::lock_guard<std::mutex> L(M);
    if (Stop)
      return; // stopped (exiting): the generic kernel keeps running
    Jobs.push_back(std::move(Job));
    if (!Worker.joinable())
      Worker = std::thread([this] { run(); });
  }
  Wake.notify_one();
}

void BackgroundCompiler::drain() {
  std::unique_lock<std::mutex> L(M);
  Idle.wait(L, [this] { return (Jobs.empty() && !Running) || Stop; });
}

bool BackgroundCompiler::drainFor(std::chrono::milliseconds Timeout) {
  std::unique_lock<std::mutex> L(M);
  return Idle.wait_for(L, Timeout, [this] { return (Jobs.empty() && !Running) || Stop; });
}

void BackgroundCompiler::dropQueued() {
  {
    std::lock_guard<std::mutex> L(M);
    Jobs.clear();
  }
  Idle.notify_all();
}

pid_t BackgroundCompiler::threadId() const {
  std::lock_guard<std::mutex> L(M);
  return Tid;
}

void BackgroundCompiler::run() {
  // Idle priority before the first job: a compile then runs only on a core no thread of the
  // program (a host device's team, the pushing thread) wants, and yields it at once when one
  // wakes up. Denied: it runs as it is (nice 19 when only that is allowed).
  lowerThisThreadToIdle();
  Current = this;
  std::unique_lock<std::mutex> L(M);
  Tid = thisThreadId();
  for (;;) {
    Wake.wait(L, [this] { return Stop || !Jobs.empty(); });
    if (Jobs.empty()) // stopping, nothing left
      break;
    std::function<void()> Job = std::move(Jobs.front());
    Jobs.pop_front();
    Running = true;
    CancelJob = false;
    L.unlock();
    {
      IdleWorkMark Mark; // it yields its core to any other thread: no reason not to spin
      Job();
    }
    L.lock();
    Running = false;
    if (Jobs.empty())
      Idle.notify_all();
  }
  Running = false;
  Idle.notify_all();
}

} // namespace jacc::jit
