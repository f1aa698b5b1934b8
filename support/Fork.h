// Whether this process is a child forked from one that had started jacc. The parent's threads
// (the devices' teams, the compilers, the profilers' tickers) do not come along with a fork, so
// the child may neither use jacc nor, at its exit, wait for them or undo the parent's files.
#ifndef JACC_SUPPORT_FORK_H
#define JACC_SUPPORT_FORK_H

namespace jacc {

/// Start watching fork() (idempotent): called before jacc starts its first thread.
void watchForks();

/// Whether this process was forked after watchForks() was called in its parent.
bool forkedChild();

} // namespace jacc

#endif
