// Noticing a fork: a pthread_atfork handler marks the child, which forkedChild() then reports.
#include "support/Fork.h"

#include <atomic>
#include <mutex>

#include <pthread.h>

namespace jacc {

namespace {
std::atomic<bool> Child{false};
} // namespace

void watchForks() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    ::pthread_atfork(nullptr, nullptr, [] { Child.store(true, std::memory_order_relaxed); });
  });
}

bool forkedChild() {
  return Child.load(std::memory_order_relaxed);
}

} // namespace jacc
