// A shared mutex whose exclusive lockers are not starved by a stream of shared ones: a waiting
// exclusive locker closes a gate to new shared lockers (glibc's rwlock lets readers in while a
// writer waits, so a jacc_finalize among threads that keep pushing could wait forever).
#ifndef JACC_SUPPORT_FAIRSHAREDMUTEX_H
#define JACC_SUPPORT_FAIRSHAREDMUTEX_H

#include <mutex>
#include <shared_mutex>

namespace jacc {

/// Meets the SharedMutex requirements (std::shared_lock, std::unique_lock). A thread that already
/// holds it shared takes it shared again without the gate, so that nested shared locking (an API
/// call from inside a push) cannot wait on an exclusive locker that waits on it.
class FairSharedMutex {
public:
  void lock() {
    std::lock_guard<std::mutex> G(Gate);
    M.lock();
  }
  bool try_lock() { return M.try_lock(); }
  void unlock() { M.unlock(); }
  void lock_shared() {
    if (SharedDepth++ > 0) {
      M.lock_shared();
      return;
    }
    std::lock_guard<std::mutex> G(Gate);
    M.lock_shared();
  }
  bool try_lock_shared() {
    if (!M.try_lock_shared())
      return false;
    ++SharedDepth;
    return true;
  }
  void unlock_shared() {
    --SharedDepth;
    M.unlock_shared();
  }

private:
  std::mutex Gate;
  std::shared_mutex M;
  /// This thread's shared holds (of any FairSharedMutex: one is all the runtime has).
  static thread_local unsigned SharedDepth;
};

inline thread_local unsigned FairSharedMutex::SharedDepth = 0;

} // namespace jacc

#endif
