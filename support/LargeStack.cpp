// Run a function on a thread with a large stack (see LargeStack.h).
#include "support/LargeStack.h"

#include <clang/Basic/Stack.h>

#include <pthread.h>
#include <signal.h>

namespace jacc {

static void *runNoted(void *Arg) {
  clang::noteBottomOfStack();
  // LLVM gives the thread that first registers its signal handlers an alternate signal stack
  // of its own, from malloc; the sanitizers unmap a thread's alternate stack when it exits and
  // abort when that fails. Hand back the one the thread started with.
  stack_t Before;
  bool Saved = sigaltstack(nullptr, &Before) == 0;
  (*static_cast<llvm::function_ref<void()> *>(Arg))();
  stack_t After;
  if (Saved && sigaltstack(nullptr, &After) == 0 && After.ss_sp != Before.ss_sp) {
    Before.ss_flags &= SS_DISABLE; // only SS_DISABLE may be given back
    sigaltstack(&Before, nullptr);
  }
  return nullptr;
}

void runWithLargeStack(llvm::function_ref<void()> Fn) {
  pthread_attr_t Attr;
  pthread_t T;
  bool Started = pthread_attr_init(&Attr) == 0 &&
                 pthread_attr_setstacksize(&Attr, LargeStackBytes) == 0 &&
                 pthread_create(&T, &Attr, runNoted, &Fn) == 0;
  pthread_attr_destroy(&Attr);
  if (Started)
    pthread_join(T, nullptr);
  else
    Fn(); // no thread (resources exhausted): the caller's stack is the best there is
}

} // namespace jacc
