// Counting the clang uses in progress, and the exit hook that closes the gate and waits for them.
#include "support/ClangUse.h"

#include "support/ClangInvocation.h"
#include "support/Error.h"
#include "support/Fork.h"

#include <condition_variable>
#include <cstdlib>
#include <mutex>

namespace jacc {

namespace {

struct Uses {
  std::mutex M;
  std::condition_variable Done;
  unsigned InFlight = 0;
  bool Exiting = false;
};

/// Never destroyed: exit's destructors must not take it from under a use.
Uses &uses() {
  static Uses *U = new Uses;
  return *U;
}

/// The exit hook: close the gate, then wait (bounded) for the uses in progress.
void waitForUsesAtExit() {
  if (forkedChild())
    return; // the parent's threads, not the child's
  Uses &U = uses();
  std::unique_lock<std::mutex> L(U.M);
  U.Exiting = true;
  U.Done.wait_for(L, ClangUse::ExitWait, [&] { return U.InFlight == 0; });
}

} // namespace

void ClangUse::prepare() {
  static std::once_flag Hook;
  std::call_once(Hook, [] {
    // clang's driver tables are built by the first cc1 arguments: the hook registered after
    // them runs before their destructors (exit runs both in the reverse order of registration).
    for (ClangPurpose P : {ClangPurpose::Analysis, ClangPurpose::HostCodegen})
      if (auto Args = cc1Arguments(P); !Args)
        llvm::consumeError(Args.takeError()); // the use reports it
    std::atexit(waitForUsesAtExit);
  });
}

ClangUse::ClangUse() {
  prepare();
  Uses &U = uses();
  std::lock_guard<std::mutex> L(U.M);
  if (U.Exiting)
    return;
  ++U.InFlight;
  Entered = true;
}

llvm::Error ClangUse::refused(const char *What) {
  return makeError(ErrorCode::Unsupported, llvm::Twine(What) +
                                               " did not start: the process is exiting (exit() was "
                                               "called on another thread)");
}

ClangUse::~ClangUse() {
  if (!Entered)
    return;
  Uses &U = uses();
  std::lock_guard<std::mutex> L(U.M);
  if (--U.InFlight == 0)
    U.Done.notify_all();
}

} // namespace jacc
