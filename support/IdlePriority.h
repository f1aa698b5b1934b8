// Idle scheduling priority for work that must only use CPU time nobody else wants: the background
// compiles of kernel variants. Linux's SCHED_IDLE gives a thread a core only when no
// normal thread wants it, and a normal thread waking up preempts it at once; where SCHED_IDLE is
// denied, nice 19 is the fallback. Both are per thread on Linux and inherited by the threads it
// creates (clang's large-stack thread). Neither can be undone without privilege (RLIMIT_NICE),
// so only threads and processes that do nothing else are lowered.
#ifndef JACC_SUPPORT_IDLEPRIORITY_H
#define JACC_SUPPORT_IDLEPRIORITY_H

#include <sys/types.h>

namespace jacc {

/// How a thread is scheduled, as far as jacc lowers it.
enum class ThreadPriority {
  Normal, ///< neither of the below
  Nice19, ///< SCHED_OTHER at nice 19 (SCHED_IDLE was denied)
  Idle,   ///< SCHED_IDLE
};

/// Lower the calling thread to SCHED_IDLE, else to nice 19; silently leaves it as it is when
/// both are denied. Returns what it runs at now.
ThreadPriority lowerThisThreadToIdle();

/// What thread Tid (a thread id of this process, or a process id) runs at; Normal when it cannot
/// be read.
ThreadPriority threadPriority(pid_t Tid);

/// What the calling thread runs at.
ThreadPriority thisThreadPriority();

/// Whether lowerThisThreadToIdle was called on the calling thread (whatever it obtained): its
/// work is background work. A program run whole under `nice` is not.
bool thisThreadWasLowered();

/// The calling thread's kernel thread id (gettid).
pid_t thisThreadId();

} // namespace jacc

#endif
