// Lowering the calling thread to SCHED_IDLE, else nice 19, and reading a thread's priority back.
#include "support/IdlePriority.h"

#include <cerrno>

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace jacc {

namespace {
thread_local bool Lowered = false;
} // namespace

pid_t thisThreadId() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

bool thisThreadWasLowered() { return Lowered; }

ThreadPriority lowerThisThreadToIdle() {
  Lowered = true;
  // sched_setscheduler and setpriority with a thread id act on that thread alone (Linux).
  pid_t Tid = thisThreadId();
  sched_param Param{};
  Param.sched_priority = 0;
  if (::sched_setscheduler(Tid, SCHED_IDLE, &Param) == 0)
    return ThreadPriority::Idle;
  // Denied (a seccomp profile, an unusual kernel): nice 19 still yields to every normal thread
  // most of the time.
  if (::setpriority(PRIO_PROCESS, static_cast<id_t>(Tid), 19) == 0)
    return ThreadPriority::Nice19;
  return thisThreadPriority();
}

ThreadPriority threadPriority(pid_t Tid) {
  int Policy = ::sched_getscheduler(Tid);
  if (Policy == SCHED_IDLE)
    return ThreadPriority::Idle;
  errno = 0;
  int Nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(Tid));
  if (errno == 0 && Nice >= 19)
    return ThreadPriority::Nice19;
  return ThreadPriority::Normal;
}

ThreadPriority thisThreadPriority() { return threadPriority(thisThreadId()); }

} // namespace jacc
