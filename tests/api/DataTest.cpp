// End to end: data mapping. Reference counts, presence of sub-ranges, updates of interior
// sub-ranges, separate device memory and the byte counters.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace {

using jacc_test::stats;

class DataTest : public DeviceTest {};

/// y[i] = x[i] for i < n, on the device copies.
const char *CopySrc = "#pragma acc parallel loop present(x, y)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  y[i] = x[i];\n";
/// x[i] = x[i] * 2 + 1 on the device copy.
const char *BumpSrc = "#pragma acc parallel loop present(x)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  x[i] = x[i] * 2 + 1;\n";

void copyOnDevice(int n, int *x, int *y) {
  jacc_arg args[] = {{"int n", &n}, {"const int *x", &x}, {"int *y", &y}};
  ASSERT_JACC(jacc_kernel_push(CopySrc, 3, args, JACC_DEFAULT));
}

void bumpOnDevice(int n, int *x) {
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  ASSERT_JACC(jacc_kernel_push(BumpSrc, 2, args, JACC_DEFAULT));
}

std::vector<int> iota(int n, int start) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

TEST_P(DataTest, CopyinKernelCopyout) {
  int n = 1000;
  std::vector<int> xv = iota(n, -300), ref = xv;
  for (int &v : ref)
    v = v * 2 + 1;
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  EXPECT_EQ(jacc_is_present(x, n * sizeof(int)), 1);
  bumpOnDevice(n, x);
  EXPECT_EQ(xv, iota(n, -300)) << "the kernel ran on the device copy, not on the host array";
  ASSERT_JACC(jacc_copyout(x, n * sizeof(int)));
  EXPECT_EQ(xv, ref);
  EXPECT_EQ(jacc_is_present(x, n * sizeof(int)), 0);
}

TEST_P(DataTest, NestedCopyinCopyoutReferenceCounts) {
  int n = 500;
  size_t bytes = n * sizeof(int);
  std::vector<int> xv = iota(n, 1), ref = xv;
  for (int &v : ref)
    v = v * 2 + 1;
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, bytes));
  ASSERT_JACC(jacc_copyin(x, bytes)); // present: count 2, no copy
  bumpOnDevice(n, x);
  ASSERT_JACC(jacc_copyout(x, bytes)); // count 1: stays, no copy back
  EXPECT_EQ(jacc_is_present(x, bytes), 1);
  EXPECT_EQ(xv, iota(n, 1)) << "the first copyout must not copy back";
  ASSERT_JACC(jacc_copyout(x, bytes)); // count 0: copy back and unmap
  EXPECT_EQ(jacc_is_present(x, bytes), 0);
  EXPECT_EQ(xv, ref);
}

TEST_P(DataTest, PresentCopyinDoesNotCopyAgain) {
  int n = 300;
  size_t bytes = n * sizeof(int);
  std::vector<int> xv = iota(n, 0), yv(n, 0);
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, bytes));
  for (int &v : xv)
    v = -7; // host changes after the mapping
  ASSERT_JACC(jacc_copyin(x, bytes)); // present-or-copyin: present, so no copy
  ASSERT_JACC(jacc_create(y, bytes));
  copyOnDevice(n, x, y);
  ASSERT_JACC(jacc_copyout(y, bytes));
  EXPECT_EQ(yv, iota(n, 0));
  ASSERT_JACC(jacc_delete(x, bytes));
  ASSERT_JACC(jacc_delete(x, bytes));
  EXPECT_EQ(jacc_is_present(x, bytes), 0);
  EXPECT_EQ(xv, std::vector<int>(n, -7)) << "delete never copies back";
}

TEST_P(DataTest, CreateThenCopyinCountsAndCopyoutCopiesBack) {
  int n = 256;
  size_t bytes = n * sizeof(int);
  std::vector<int> xv(n, 0), yv = iota(n, 1000);
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_create(x, bytes));
  ASSERT_JACC(jacc_copyin(x, bytes)); // present: count 2
  ASSERT_JACC(jacc_copyin(y, bytes));
  copyOnDevice(n, y, x); // x's device copy = y
  ASSERT_JACC(jacc_delete(x, bytes));
  EXPECT_EQ(jacc_is_present(x, bytes), 1);
  EXPECT_EQ(xv, std::vector<int>(n, 0));
  ASSERT_JACC(jacc_copyout(x, bytes));
  EXPECT_EQ(xv, iota(n, 1000));
  ASSERT_JACC(jacc_delete(y, bytes));
}

TEST_P(DataTest, DeleteDiscardsDeviceResults) {
  int n = 128;
  std::vector<int> xv = iota(n, 5);
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  bumpOnDevice(n, x);
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
  EXPECT_EQ(xv, iota(n, 5));
  EXPECT_EQ(jacc_is_present(x, n * sizeof(int)), 0);
  // Mapping again copies the (unchanged) host data in afresh.
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_copyout(x, n * sizeof(int)));
  EXPECT_EQ(xv, iota(n, 5));
}

TEST_P(DataTest, IsPresentOnSubRanges) {
  std::vector<double> buf(300);
  double *x = buf.data() + 100; // mapped: [x, x + 100)
  ASSERT_JACC(jacc_copyin(x, 100 * sizeof(double)));
  EXPECT_EQ(jacc_is_present(x, 100 * sizeof(double)), 1);
  EXPECT_EQ(jacc_is_present(x + 10, 20 * sizeof(double)), 1);
  EXPECT_EQ(jacc_is_present(x + 99, sizeof(double)), 1);
  EXPECT_EQ(jacc_is_present(reinterpret_cast<char *>(x) + 1, 8), 1); // unaligned inside
  EXPECT_EQ(jacc_is_present(x + 90, 20 * sizeof(double)), 0);        // runs past the end
  EXPECT_EQ(jacc_is_present(x - 1, 2 * sizeof(double)), 0);          // starts before
  EXPECT_EQ(jacc_is_present(x - 10, 200 * sizeof(double)), 0);       // covers it
  EXPECT_EQ(jacc_is_present(x + 100, sizeof(double)), 0);            // just past the end
  EXPECT_EQ(jacc_is_present(x - 1, sizeof(double)), 0);              // just before
  EXPECT_EQ(jacc_is_present(nullptr, 8), 0);
  ASSERT_JACC(jacc_delete(x, 100 * sizeof(double)));
  EXPECT_EQ(jacc_is_present(x + 10, 20 * sizeof(double)), 0);
}

TEST_P(DataTest, AdjacentMappingsStaySeparate) {
  int n = 200;
  std::vector<int> buf = iota(2 * n, 0);
  int *lo = buf.data(), *hi = buf.data() + n;
  ASSERT_JACC(jacc_copyin(lo, n * sizeof(int)));
  ASSERT_JACC(jacc_copyin(hi, n * sizeof(int)));
  EXPECT_EQ(jacc_is_present(lo, 2 * n * sizeof(int)), 0) << "two mappings are not one range";
  EXPECT_EQ(jacc_is_present(hi - 1, 2 * sizeof(int)), 0);
  bumpOnDevice(n, hi);
  ASSERT_JACC(jacc_copyout(lo, n * sizeof(int)));
  EXPECT_EQ(jacc_is_present(hi, n * sizeof(int)), 1);
  ASSERT_JACC(jacc_copyout(hi, n * sizeof(int)));
  for (int i = 0; i < 2 * n; i++)
    ASSERT_EQ(buf[i], i < n ? i : 2 * i + 1) << i;
}

TEST_P(DataTest, UpdateSelfOfInteriorSubRange) {
  int n = 100;
  std::vector<int> xv = iota(n, 0);
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  bumpOnDevice(n, x); // every device element changes
  ASSERT_JACC(jacc_update_self(x + 10, 5 * sizeof(int)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(xv[i], i >= 10 && i < 15 ? 2 * i + 1 : i) << i;
  EXPECT_EQ(jacc_is_present(x, n * sizeof(int)), 1);
  ASSERT_JACC(jacc_update_self(x + 99, sizeof(int))); // the last element
  EXPECT_EQ(xv[99], 2 * 99 + 1);
  EXPECT_EQ(xv[98], 98);
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
}

TEST_P(DataTest, UpdateDeviceOfInteriorSubRange) {
  int n = 100;
  std::vector<int> xv = iota(n, 0), yv(n, -1);
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_create(y, n * sizeof(int)));
  for (int &v : xv)
    v += 1000;
  ASSERT_JACC(jacc_update_device(x + 20, 5 * sizeof(int)));
  copyOnDevice(n, x, y);
  ASSERT_JACC(jacc_copyout(y, n * sizeof(int)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], i >= 20 && i < 25 ? i + 1000 : i) << i;
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
}

TEST_P(DataTest, HostWritesAreInvisibleUntilUpdateDevice) {
  int n = 400;
  size_t bytes = n * sizeof(int);
  std::vector<int> xv = iota(n, 0), yv(n, 0);
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_copyin(x, bytes));
  ASSERT_JACC(jacc_create(y, bytes));
  for (int &v : xv)
    v = -v;
  copyOnDevice(n, x, y);
  ASSERT_JACC(jacc_update_self(y, bytes));
  EXPECT_EQ(yv, iota(n, 0)) << "the device copy must not alias the host array";
  ASSERT_JACC(jacc_update_device(x, bytes));
  copyOnDevice(n, x, y);
  ASSERT_JACC(jacc_update_self(y, bytes));
  EXPECT_EQ(yv, xv);
  ASSERT_JACC(jacc_delete(x, bytes));
  ASSERT_JACC(jacc_delete(y, bytes));
}

TEST_P(DataTest, EveryDeviceUpdatesItsOwnCopy) {
  // Each device runs the whole kernel on its own copy: a shared copy would be bumped once per
  // device per push. The result must be the same for any number of devices.
  int n = 333, pushes = 4;
  std::vector<int> xv = iota(n, 1), ref = xv;
  for (int p = 0; p < pushes; p++)
    for (int &v : ref)
      v = v * 2 + 1;
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  for (int p = 0; p < pushes; p++)
    bumpOnDevice(n, x);
  ASSERT_JACC(jacc_copyout(x, n * sizeof(int)));
  EXPECT_EQ(xv, ref);
}

TEST_P(DataTest, UpdateDeviceReachesEveryDevice) {
  // After update_device, every device computes from the new data; device 0's result is checked
  // here, and the next push (which reads x on every device) must agree with it.
  int n = 64;
  size_t bytes = n * sizeof(int);
  std::vector<int> xv(n, 0), yv(n, 0);
  int *x = xv.data(), *y = yv.data();
  ASSERT_JACC(jacc_create(x, bytes));
  ASSERT_JACC(jacc_create(y, bytes));
  std::iota(xv.begin(), xv.end(), 50); // in place: x must keep pointing at the mapped array
  ASSERT_JACC(jacc_update_device(x, bytes));
  bumpOnDevice(n, x);
  copyOnDevice(n, x, y);
  ASSERT_JACC(jacc_copyout(y, bytes));
  ASSERT_JACC(jacc_copyout(x, bytes));
  for (int i = 0; i < n; i++) {
    ASSERT_EQ(xv[i], 2 * (50 + i) + 1) << i;
    ASSERT_EQ(yv[i], xv[i]) << i;
  }
}

TEST_P(DataTest, NullPointerAndZeroSizeAreNoOps) {
  int x[4] = {1, 2, 3, 4};
  EXPECT_JACC(jacc_copyin(nullptr, 16));
  EXPECT_JACC(jacc_create(nullptr, 16));
  EXPECT_JACC(jacc_copyout(nullptr, 16));
  EXPECT_JACC(jacc_delete(nullptr, 16));
  EXPECT_JACC(jacc_update_device(nullptr, 16));
  EXPECT_JACC(jacc_update_self(nullptr, 16));
  EXPECT_JACC(jacc_copyin(x, 0));
  EXPECT_EQ(jacc_is_present(x, sizeof x), 0);
  EXPECT_JACC(jacc_copyout(x, 0));
  EXPECT_JACC(jacc_update_self(x, 0));
  jacc_stats s = stats();
  EXPECT_EQ(s.bytes_host_to_device, 0u);
  EXPECT_EQ(s.bytes_device_to_host, 0u);
}

TEST_P(DataTest, ByteCounters) {
  const unsigned D = devices();
  ASSERT_GE(D, 1u);
  int n = 1000;
  size_t bytes = n * sizeof(int);
  std::vector<int> xv = iota(n, 0), yv(n, 0);
  int *x = xv.data(), *y = yv.data();

  jacc_reset_stats();
  ASSERT_JACC(jacc_copyin(x, bytes));
  jacc_stats s = stats();
  EXPECT_EQ(s.bytes_host_to_device, bytes * D) << "a copyin writes every device";
  EXPECT_EQ(s.bytes_device_to_host, 0u);

  jacc_reset_stats();
  ASSERT_JACC(jacc_copyin(x, bytes)); // present: nothing moves
  ASSERT_JACC(jacc_create(y, bytes)); // create: nothing moves
  s = stats();
  EXPECT_EQ(s.bytes_host_to_device, 0u);
  EXPECT_EQ(s.bytes_device_to_host, 0u);

  jacc_reset_stats();
  ASSERT_JACC(jacc_update_device(x + 100, 40 * sizeof(int)));
  ASSERT_JACC(jacc_update_self(x + 200, 30 * sizeof(int)));
  s = stats();
  EXPECT_EQ(s.bytes_host_to_device, 40 * sizeof(int) * D);
  EXPECT_EQ(s.bytes_device_to_host, 30 * sizeof(int));

  jacc_reset_stats();
  ASSERT_JACC(jacc_copyout(x, bytes)); // count 2 -> 1: nothing moves
  s = stats();
  EXPECT_EQ(s.bytes_device_to_host, 0u);
  ASSERT_JACC(jacc_copyout(x, bytes)); // count 1 -> 0: copied back from device 0 only
  s = stats();
  EXPECT_EQ(s.bytes_device_to_host, bytes);
  EXPECT_EQ(s.bytes_host_to_device, 0u);

  jacc_reset_stats();
  ASSERT_JACC(jacc_delete(y, bytes));
  s = stats();
  EXPECT_EQ(s.bytes_device_to_host, 0u);
  EXPECT_EQ(s.bytes_host_to_device, 0u);
  EXPECT_EQ(s.bytes_device_to_device, 0u);
}

TEST_P(DataTest, StatsResetAndKernelCounters) {
  int n = 10;
  std::vector<int> xv(n, 0);
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  jacc_reset_stats();
  jacc_stats s = stats();
  EXPECT_EQ(s.kernels_pushed, 0u);
  EXPECT_EQ(s.bytes_host_to_device, 0u);
  bumpOnDevice(n, x);
  bumpOnDevice(n, x);
  s = stats();
  EXPECT_EQ(s.kernels_pushed, 2u);
  EXPECT_EQ(s.duplicate_launches + s.split_launches, 2u);
  if (devices() == 1) {
    EXPECT_EQ(s.split_launches, 0u);
  }
  EXPECT_EQ(s.kernels_compiled + s.memory_cache_hits + s.disk_cache_hits, 2u);
  EXPECT_EQ(jacc_get_stats(nullptr), JACC_ERROR_INVALID_ARGUMENT);
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
}

TEST_P(DataTest, FinalizeReleasesMappings) {
  int n = 16;
  std::vector<int> xv(n, 3);
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_finalize());
  // The next call re-initialises with nothing mapped.
  EXPECT_EQ(jacc_is_present(x, n * sizeof(int)), 0);
  EXPECT_EQ(jacc_get_num_devices(), jacc_test::configuredDevices(GetParam()));
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
}

JACC_DEVICE_CONFIGS(DataTest);

} // namespace
