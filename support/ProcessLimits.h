// A process's memory and time limits, watched from the inside: the compile server's client
// polls a server's resident memory, and a tool that has no server (jacc-translate) watches its
// own and ends itself with a clear error instead of being killed by the kernel's OOM killer.
#ifndef JACC_SUPPORT_PROCESSLIMITS_H
#define JACC_SUPPORT_PROCESSLIMITS_H

#include <cstdint>
#include <functional>
#include <string>

namespace jacc {

/// The resident memory of process Pid (0: this one), in bytes; 0 when it cannot be read.
uint64_t residentBytes(int Pid = 0);

/// Bytes as "1.5 GiB" or "300 MiB".
std::string sizeText(uint64_t Bytes);
/// Seconds as "60" or "0.5".
std::string secondsText(double Seconds);

/// Which limit a watched process exceeded.
enum class ProcessLimit { Time, Memory };

/// Watch this process from a thread of its own: once it has run Seconds (0: no limit) or its
/// resident memory exceeds Bytes (0: no limit), call OnExceeded with the limit and what was
/// exceeded ("used more than 2.0 GiB of memory", "ran longer than 60 s"). OnExceeded must end
/// the process.
void watchThisProcess(double Seconds, uint64_t Bytes,
                      std::function<void(ProcessLimit, const std::string &What)> OnExceeded);

} // namespace jacc

#endif
