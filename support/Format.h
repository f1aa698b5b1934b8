// Small text forms used in messages and traces across the layers.
#ifndef JACC_SUPPORT_FORMAT_H
#define JACC_SUPPORT_FORMAT_H

#include <llvm/ADT/StringExtras.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace jacc {

/// "0x7f12a0", the lowercase hexadecimal form of an address.
inline std::string hexAddress(const void *P) {
  return "0x" + llvm::utohexstr(reinterpret_cast<uintptr_t>(P), /*LowerCase=*/true);
}

/// "812 B", "32.0 KiB", "64.0 MiB", "1.50 GiB": a byte count with a binary unit.
inline std::string formatBytes(uint64_t Bytes) {
  const char *Units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (Bytes < 1024)
    return std::to_string(Bytes) + " B";
  double V = double(Bytes) / 1024;
  unsigned U = 0;
  for (; V >= 1024 && U + 1 < sizeof(Units) / sizeof(*Units); ++U)
    V /= 1024;
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), V < 100 ? "%.2f %s" : "%.1f %s", V, Units[U]);
  return Buf;
}

/// "850 ns", "12.5 us", "3.20 ms", "1.25 s": a duration with its unit (three figures).
inline std::string formatSeconds(double Seconds) {
  struct Unit {
    double Scale;
    const char *Name;
  };
  const Unit Units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
  const Unit *U = &Units[3];
  for (const Unit &X : Units)
    if (Seconds >= X.Scale) {
      U = &X;
      break;
    }
  double V = Seconds / U->Scale;
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), V < 10 ? "%.2f %s" : V < 100 ? "%.1f %s" : "%.0f %s", V,
                U->Name);
  return Buf;
}

} // namespace jacc

#endif
