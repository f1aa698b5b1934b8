// Small text forms used in messages and traces across the layers.
#ifndef JACC_SUPPORT_FORMAT_H
#define JACC_SUPPORT_FORMAT_H

#include <llvm/ADT/StringExtras.h>

#include <cstdint>
#include <string>

namespace jacc {

/// "0x7f12a0", the lowercase hexadecimal form of an address.
inline std::string hexAddress(const void *P) {
  return "0x" + llvm::utohexstr(reinterpret_cast<uintptr_t>(P), /*LowerCase=*/true);
}

} // namespace jacc

#endif
