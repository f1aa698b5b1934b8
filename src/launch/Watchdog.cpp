// The launch watchdog (see Watchdog.h): a thread that wakes a few times per threshold and names,
// once each, the launches still unfinished.
#include "src/launch/Watchdog.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace jacc {

namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

Watchdog &Watchdog::instance() {
  static Watchdog *W = new Watchdog; // leaked on purpose, see the header
  return *W;
}

void Watchdog::setThreshold(double Seconds) {
  std::lock_guard<std::mutex> L(M);
  Threshold = Seconds;
  On.store(Seconds > 0, std::memory_order_relaxed);
  Wake.notify_all();
}

uint64_t Watchdog::watch(std::string What, const std::string &Device) {
  std::lock_guard<std::mutex> L(M);
  if (Threshold <= 0)
    return 0;
  if (!ThreadStarted) {
    ThreadStarted = true;
    std::thread([this] { run(); }).detach();
  }
  uint64_t Token = Next++;
  Watched.emplace(Token, Entry{std::move(What) + " on " + Device, nowSeconds()});
  return Token;
}

void Watchdog::done(uint64_t Token) {
  if (!Token)
    return;
  std::lock_guard<std::mutex> L(M);
  Watched.erase(Token);
}

unsigned Watchdog::warnings() const {
  std::lock_guard<std::mutex> L(M);
  return Warnings;
}

void Watchdog::run() {
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    // A few checks per threshold: a warning comes at most a quarter late (and off: rarely).
    double Period = Threshold > 0 ? std::clamp(Threshold / 4, 0.01, 1.0) : 1.0;
    Wake.wait_for(L, std::chrono::duration<double>(Period));
    if (Threshold <= 0)
      continue;
    double Now = nowSeconds();
    for (auto &[Token, E] : Watched)
      if (!E.Warned && Now - E.Submitted >= Threshold) {
        E.Warned = true;
        ++Warnings;
        std::fprintf(stderr,
                     "jacc: warning: %s has not finished %.1f s after its launch "
                     "(JACC_KERNEL_WARN=%g): it may never end\n",
                     E.Text.c_str(), Now - E.Submitted, Threshold);
        std::fflush(stderr);
      }
  }
}

} // namespace jacc
