// Whether the program's memory at an address can be read (see ReadableMemory.h).
#include "support/ReadableMemory.h"

#include <cerrno>

#include <sys/uio.h>
#include <unistd.h>

namespace jacc {

/// Read one byte at P through the kernel, which reports EFAULT instead of raising SIGSEGV.
static bool byteReadable(const void *P) {
  char Byte;
  iovec Local{&Byte, 1}, Remote{const_cast<void *>(P), 1};
  ssize_t N = process_vm_readv(::getpid(), &Local, 1, &Remote, 1, 0);
  // Where the call itself is refused (seccomp, an old kernel), the pointer is given the benefit
  // of the doubt: this check only turns crashes into errors.
  return N == 1 || (N < 0 && errno != EFAULT);
}

bool endsReadable(const void *P, size_t Bytes) {
  const char *First = static_cast<const char *>(P);
  return byteReadable(First) && (Bytes <= 1 || byteReadable(First + (Bytes - 1)));
}

} // namespace jacc
