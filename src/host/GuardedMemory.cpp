// Allocations between guard pages (the block ends at the upper guard, so an overrun faults at
// once), and the SIGSEGV handler that names the kernel the faulting thread was running.
#include "src/host/GuardedMemory.h"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <mutex>

#include <sys/mman.h>
#include <unistd.h>

#include "llvm/Support/MathExtras.h"

namespace jacc {

namespace {

size_t pageSize() {
  static const size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return Page;
}

/// The data pages of an allocation of Bytes (at least one).
size_t dataBytes(size_t Bytes, size_t Alignment) {
  return llvm::alignTo(std::max<size_t>(llvm::alignTo(Bytes, Alignment), 1), pageSize());
}

thread_local const char *Running = nullptr;

/// Async-signal-safe: the pieces joined in a buffer, written with one write(2).
void say(std::initializer_list<const char *> Pieces) {
  char Buf[1024];
  size_t N = 0;
  for (const char *P : Pieces)
    for (; *P && N < sizeof Buf; ++P)
      Buf[N++] = *P;
  ssize_t Ignored = write(STDERR_FILENO, Buf, N);
  (void)Ignored;
}

void onSegv(int Signal) {
  // Devices fault together when they run the same kernel: one message, from the first.
  static std::atomic<bool> Reporting{false};
  if (Reporting.exchange(true))
    for (;;)
      pause(); // the process ends with the first thread's signal
  if (const char *K = Running)
    say({"jacc: segmentation fault in ", K,
         " (JACC_CHECK=bounds: an access outside the device's copy of an array, through a "
         "pointer the checks do not see)\n"});
  std::signal(Signal, SIG_DFL);
  std::raise(Signal);
}

} // namespace

void *allocateGuarded(size_t Bytes, size_t Alignment) {
  size_t Page = pageSize(), Data = dataBytes(Bytes, Alignment);
  void *Base = mmap(nullptr, Data + 2 * Page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Base == MAP_FAILED)
    return nullptr;
  char *First = static_cast<char *>(Base) + Page;
  if (mprotect(First, Data, PROT_READ | PROT_WRITE) != 0) {
    munmap(Base, Data + 2 * Page);
    return nullptr;
  }
  return First + Data - llvm::alignTo(std::max<size_t>(Bytes, 1), Alignment);
}

void releaseGuarded(void *P, size_t Bytes, size_t Alignment) {
  size_t Page = pageSize(), Data = dataBytes(Bytes, Alignment);
  auto Start = reinterpret_cast<uintptr_t>(P) / Page * Page;
  munmap(reinterpret_cast<void *>(Start - Page), Data + 2 * Page);
}

void installKernelFaultReport() {
  static std::once_flag Once;
  std::call_once(Once, [] { std::signal(SIGSEGV, onSegv); });
}

RunningKernel::RunningKernel(const char *Description) : Previous(Running) {
  Running = Description;
}

RunningKernel::~RunningKernel() { Running = Previous; }

} // namespace jacc
