// Run a function on a thread with a large stack (see LargeStack.h).
#include "support/LargeStack.h"

#include <clang/Basic/Stack.h>

#include <pthread.h>

namespace jacc {

static void *runNoted(void *Arg) {
  clang::noteBottomOfStack();
  (*static_cast<llvm::function_ref<void()> *>(Arg))();
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
