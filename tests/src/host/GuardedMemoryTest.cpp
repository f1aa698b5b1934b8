// Tests of guarded host device memory (JACC_CHECK=bounds): usable bytes, aligned, ending next to
// an inaccessible page, and the SIGSEGV report naming the running kernel.
#include "src/host/GuardedMemory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include <unistd.h>

namespace {

using namespace jacc;

TEST(GuardedMemoryTest, BytesAreUsableAlignedAndReleased) {
  for (size_t Bytes : {0ul, 1ul, 100ul, 4096ul, 100000ul}) {
    auto *P = static_cast<char *>(allocateGuarded(Bytes, 64));
    ASSERT_NE(P, nullptr) << Bytes;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 64, 0u);
    std::memset(P, 1, Bytes);
    releaseGuarded(P, Bytes, 64);
  }
}

TEST(GuardedMemoryDeathTest, AnAccessPastTheEndFaultsAndNamesTheKernel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        installKernelFaultReport();
        auto *P = static_cast<volatile char *>(allocateGuarded(128, 64));
        RunningKernel K("kernel 'for (int i = 0; i <= n; i++)' on device 1");
        P[128] = 1; // the first byte of the guard page
      },
      "segmentation fault in kernel 'for \\(int i = 0; i <= n; i\\+\\+\\)' on device 1");
}

TEST(GuardedMemoryDeathTest, AnAccessBeforeTheFirstPageFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  long Page = sysconf(_SC_PAGESIZE);
  EXPECT_DEATH(
      {
        auto *P = static_cast<volatile char *>(allocateGuarded(Page, 64));
        P[-1] = 1; // the data is one whole page: the guard page is right before it
      },
      "");
}

} // namespace
