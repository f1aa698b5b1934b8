// Whether a range of addresses is memory of the program (see ProgramMemory.h).
#include "support/ProgramMemory.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

#include <sys/uio.h>
#include <unistd.h>

namespace jacc {

namespace {

/// One line of /proc/self/maps: [Begin, End) and its read and write permissions.
struct Region {
  uintptr_t Begin, End;
  bool Read, Write;
};

/// The program's mappings, sorted by address; nullopt when /proc/self/maps cannot be read.
std::optional<std::vector<Region>> readMappings() {
  FILE *F = std::fopen("/proc/self/maps", "re");
  if (!F)
    return std::nullopt;
  std::vector<Region> Regions;
  char Line[512];
  while (std::fgets(Line, sizeof Line, F)) {
    unsigned long long B = 0, E = 0;
    char Perms[5] = {};
    if (std::sscanf(Line, "%llx-%llx %4s", &B, &E, Perms) == 3)
      Regions.push_back({uintptr_t(B), uintptr_t(E), Perms[0] == 'r', Perms[1] == 'w'});
    // A line longer than the buffer (a long path) continues in the next read: skip its rest.
    while (!std::strchr(Line, '\n') && std::fgets(Line, sizeof Line, F)) {
    }
  }
  std::fclose(F);
  std::sort(Regions.begin(), Regions.end(),
            [](const Region &A, const Region &B) { return A.Begin < B.Begin; });
  return Regions;
}

/// Whether consecutive regions of Regions cover [Begin, End) with Access.
bool covered(const std::vector<Region> &Regions, uintptr_t Begin, uintptr_t End,
             MemoryAccess Access) {
  auto It = std::upper_bound(Regions.begin(), Regions.end(), Begin,
                             [](uintptr_t A, const Region &R) { return A < R.Begin; });
  if (It == Regions.begin())
    return false;
  for (--It; Begin < End; ++It) {
    if (It == Regions.end() || It->Begin > Begin || It->End <= Begin)
      return false;
    if (!(Access == MemoryAccess::Read ? It->Read : It->Write))
      return false;
    Begin = It->End;
  }
  return true;
}

/// Read one byte at P through the kernel, which reports EFAULT instead of raising SIGSEGV.
bool byteReadable(const void *P) {
  char Byte;
  iovec Local{&Byte, 1}, Remote{const_cast<void *>(P), 1};
  ssize_t N = process_vm_readv(::getpid(), &Local, 1, &Remote, 1, 0);
  // Where the call itself is refused (seccomp, an old kernel), the pointer is given the benefit
  // of the doubt: this check only turns crashes into errors.
  return N == 1 || (N < 0 && errno != EFAULT);
}

} // namespace

bool programMemoryAllows(const void *P, size_t Bytes, MemoryAccess Access) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(P);
  if (Bytes == 0 || Bytes > UINTPTR_MAX - Begin)
    return Bytes == 0;
  static std::mutex Mutex;
  // The last list read (mappings rarely go away); never destroyed: a static destructor of the
  // program may still map data after this file's statics would have gone.
  static std::vector<Region> &Known = *new std::vector<Region>;
  std::lock_guard<std::mutex> Lock(Mutex);
  if (covered(Known, Begin, Begin + Bytes, Access))
    return true;
  std::optional<std::vector<Region>> Now = readMappings();
  if (!Now) {
    const char *First = static_cast<const char *>(P);
    return byteReadable(First) && (Bytes <= 1 || byteReadable(First + (Bytes - 1)));
  }
  Known = std::move(*Now);
  return covered(Known, Begin, Begin + Bytes, Access);
}

} // namespace jacc
