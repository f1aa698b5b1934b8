// Tests of the small text forms: addresses, byte counts and durations with their units.
#include "support/Format.h"

#include <gtest/gtest.h>

using namespace jacc;

TEST(FormatTest, BytesTakeABinaryUnit) {
  EXPECT_EQ(formatBytes(0), "0 B");
  EXPECT_EQ(formatBytes(1023), "1023 B");
  EXPECT_EQ(formatBytes(1024), "1.00 KiB");
  EXPECT_EQ(formatBytes(32768), "32.00 KiB");
  EXPECT_EQ(formatBytes(200 * 1024), "200.0 KiB");
  EXPECT_EQ(formatBytes(uint64_t(64) << 20), "64.00 MiB");
  EXPECT_EQ(formatBytes(uint64_t(3) << 29), "1.50 GiB");
  EXPECT_EQ(formatBytes(uint64_t(5) << 50), "5120.0 TiB");
}

TEST(FormatTest, SecondsTakeTheirLargestUnit) {
  EXPECT_EQ(formatSeconds(0), "0.00 ns");
  EXPECT_EQ(formatSeconds(850e-9), "850 ns");
  EXPECT_EQ(formatSeconds(12.5e-6), "12.5 us");
  EXPECT_EQ(formatSeconds(3.2e-3), "3.20 ms");
  EXPECT_EQ(formatSeconds(1.25), "1.25 s");
  EXPECT_EQ(formatSeconds(4000), "4000 s");
}

TEST(FormatTest, AddressesAreLowercaseHex) {
  EXPECT_EQ(hexAddress(reinterpret_cast<const void *>(0x7F12A0)), "0x7f12a0");
}
