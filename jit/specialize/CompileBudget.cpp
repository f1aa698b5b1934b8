// The budget's lock-free accounting: compile seconds charged against the limit, whether it is
// spent, and the first refusal told apart so that only it is logged.
#include "jit/specialize/CompileBudget.h"

namespace jacc::jit {

void CompileBudget::reset(double Seconds) {
  LimitUs.store(Seconds < 0 ? -1 : int64_t(Seconds * 1e6), std::memory_order_relaxed);
  SpentUs.store(0, std::memory_order_relaxed);
  Compiles.store(0, std::memory_order_relaxed);
  Refused.store(0, std::memory_order_relaxed);
}

bool CompileBudget::spent() const {
  int64_t Limit = LimitUs.load(std::memory_order_relaxed);
  return Limit >= 0 && SpentUs.load(std::memory_order_relaxed) >= Limit;
}

void CompileBudget::charge(double Seconds) {
  SpentUs.fetch_add(int64_t(Seconds * 1e6), std::memory_order_relaxed);
  Compiles.fetch_add(1, std::memory_order_relaxed);
}

bool CompileBudget::refuse() {
  return Refused.fetch_add(1, std::memory_order_relaxed) == 0;
}

double CompileBudget::limitSeconds() const {
  return double(LimitUs.load(std::memory_order_relaxed)) * 1e-6;
}

double CompileBudget::spentSeconds() const {
  return double(SpentUs.load(std::memory_order_relaxed)) * 1e-6;
}

} // namespace jacc::jit
