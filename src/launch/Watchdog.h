// JACC_KERNEL_WARN: launches that have not finished some seconds after they were submitted are
// named once on stderr (which kernel, on which device), so that a runaway kernel (an endless
// loop, a wait that never ends) can be found while the program still runs.
#ifndef JACC_SRC_LAUNCH_WATCHDOG_H
#define JACC_SRC_LAUNCH_WATCHDOG_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace jacc {

class Watchdog {
public:
  /// The process's watchdog (never destroyed: its thread may outlive static destructors).
  static Watchdog &instance();

  /// Warn about launches unfinished after Seconds (0: off; launches are then not watched).
  void setThreshold(double Seconds);
  /// Whether launches are watched (one relaxed load: the push path asks it first).
  bool enabled() const { return On.load(std::memory_order_relaxed); }
  /// Watch a launch just submitted; 0 when off. What names the work, Device the device.
  uint64_t watch(std::string What, const std::string &Device);
  /// The watched launch Token (0: none) has finished.
  void done(uint64_t Token);
  /// Warnings printed so far (tests).
  unsigned warnings() const;

private:
  Watchdog() = default;
  void run();

  struct Entry {
    std::string Text; ///< "kernel '...' on host:1"
    double Submitted; ///< seconds, steady clock
    bool Warned = false;
  };
  mutable std::mutex M;
  std::condition_variable Wake;
  std::map<uint64_t, Entry> Watched;
  uint64_t Next = 1;
  double Threshold = 0;
  std::atomic<bool> On{false};
  bool ThreadStarted = false;
  unsigned Warnings = 0;
};

} // namespace jacc

#endif
