// A process's memory and time limits, watched from the inside (see ProcessLimits.h).
#include "support/ProcessLimits.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include <unistd.h>

namespace jacc {

uint64_t residentBytes(int Pid) {
  char Path[64];
  if (Pid > 0)
    std::snprintf(Path, sizeof Path, "/proc/%d/statm", Pid);
  else
    std::snprintf(Path, sizeof Path, "/proc/self/statm");
  FILE *F = std::fopen(Path, "r");
  if (!F)
    return 0;
  unsigned long long Size = 0, Resident = 0;
  int Got = std::fscanf(F, "%llu %llu", &Size, &Resident);
  std::fclose(F);
  return Got == 2 ? Resident * uint64_t(::sysconf(_SC_PAGESIZE)) : 0;
}

std::string sizeText(uint64_t Bytes) {
  char Buf[32];
  if (Bytes >= (uint64_t(1) << 30))
    std::snprintf(Buf, sizeof Buf, "%.1f GiB", double(Bytes) / double(1u << 30));
  else
    std::snprintf(Buf, sizeof Buf, "%.0f MiB", double(Bytes) / double(1u << 20));
  return Buf;
}

std::string secondsText(double Seconds) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%g", Seconds);
  return Buf;
}

void watchThisProcess(double Seconds, uint64_t Bytes,
                      std::function<void(ProcessLimit, const std::string &What)> OnExceeded) {
  if (Seconds <= 0 && Bytes == 0)
    return;
  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(Seconds));
  std::thread([=] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (Seconds > 0 && Clock::now() >= Deadline)
        OnExceeded(ProcessLimit::Time, "ran longer than " + secondsText(Seconds) + " s");
      if (Bytes > 0 && residentBytes() > Bytes)
        OnExceeded(ProcessLimit::Memory, "used more than " + sizeText(Bytes) + " of memory");
    }
  }).detach();
}

} // namespace jacc
