// Whether a range of addresses is memory the program has mapped for reading or writing, asked of
// the kernel instead of by touching it: a bad pointer given to jacc is an error, not a crash
// inside the runtime.
#ifndef JACC_SUPPORT_PROGRAMMEMORY_H
#define JACC_SUPPORT_PROGRAMMEMORY_H

#include <cstddef>

namespace jacc {

enum class MemoryAccess { Read, Write };

/// Whether every byte of [P, P + Bytes) lies in the program's mappings with Access (Bytes > 0),
/// as /proc/self/maps lists them. The list is kept and read again only for a range it does not
/// show allowed, so a range in memory seen before costs a lookup. Where the list cannot be read,
/// the first and last bytes are probed for reading instead.
bool programMemoryAllows(const void *P, size_t Bytes, MemoryAccess Access);

} // namespace jacc

#endif
