// Whether the program's memory at an address can be read, asked of the kernel instead of by
// touching it: a bad pointer given to jacc is an error, not a crash inside the runtime.
#ifndef JACC_SUPPORT_READABLEMEMORY_H
#define JACC_SUPPORT_READABLEMEMORY_H

#include <cstddef>

namespace jacc {

/// Whether the first and the last byte of [P, P + Bytes) are readable (Bytes > 0). The bytes
/// between are not probed: a range that starts and ends inside memory the program owns is
/// almost always one object.
bool endsReadable(const void *P, size_t Bytes);

} // namespace jacc

#endif
