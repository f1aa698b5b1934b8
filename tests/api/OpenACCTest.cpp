// End to end: the OpenACC runtime API (include/jacc/openacc.h) on jacc's devices. Device
// selection and types, reference counts and finalize, acc_map_data with acc_malloc'ed memory,
// acc_deviceptr / acc_hostptr, the acc_memcpy_* copies, async queues, properties, and the error
// convention (abort by default; a handler or JACC_ACC_ERRORS=return makes routines return).
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/openacc.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <vector>

extern "C" int jacc_test_openacc_from_c(void); // OpenACCCheck.c

namespace {

using jacc_test::configuredDevices;
using jacc_test::lastError;

/// An error an acc_* routine reported to the handler.
struct Reported {
  std::string Routine;
  jacc_status Status;
  std::string Message;
};

std::mutex ReportedM;
std::vector<Reported> ReportedErrors;

void recordError(const char *Routine, jacc_status Status, const char *Message) {
  std::lock_guard<std::mutex> L(ReportedM);
  ReportedErrors.push_back({Routine, Status, Message});
}

/// Every routine's errors go to recordError (so a wrong error fails the test instead of aborting
/// the suite); TearDown fails the test on any error it did not take with expectError.
class OpenACCTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    unsetenv("JACC_ACC_ERRORS");
    ReportedErrors.clear();
    jacc_set_acc_error_handler(recordError);
    acc_set_device_num(0, acc_device_default);
  }
  void TearDown() override {
    for (const Reported &R : ReportedErrors)
      ADD_FAILURE() << "unexpected OpenACC error: " << R.Routine << ": " << R.Message;
    jacc_set_acc_error_handler(nullptr);
    DeviceTest::TearDown();
  }

  /// Exactly one error since the last check, from Routine, with Status and Part in its message.
  void expectError(const char *Routine, jacc_status Status, const std::string &Part) {
    std::vector<Reported> Got;
    {
      std::lock_guard<std::mutex> L(ReportedM);
      Got.swap(ReportedErrors);
    }
    ASSERT_EQ(Got.size(), 1u) << "expected one error from " << Routine;
    EXPECT_EQ(Got[0].Routine, Routine);
    EXPECT_EQ(Got[0].Status, Status) << Got[0].Message;
    EXPECT_NE(Got[0].Message.find(Part), std::string::npos)
        << "message lacks \"" << Part << "\": " << Got[0].Message;
    EXPECT_EQ(Got[0].Message, lastError()) << "jacc_last_error() holds the same message";
  }

  int n() const { return devices(); }
};

/// x[i] = x[i] * 2 + 1 on the device copies.
const char *BumpSrc = "#pragma acc parallel loop present(x)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  x[i] = x[i] * 2 + 1;\n";

void bump(int N, int *x) {
  jacc_arg args[] = {{"int n", &N}, {"int *x", &x}};
  ASSERT_JACC(jacc_kernel_push(BumpSrc, 2, args, JACC_DEFAULT));
}

std::vector<int> iota(int N, int Start) {
  std::vector<int> V(N);
  std::iota(V.begin(), V.end(), Start);
  return V;
}

std::vector<int> bumped(std::vector<int> V) {
  for (int &X : V)
    X = X * 2 + 1;
  return V;
}

/// Device Dev's copy of the mapped x (n elements), read through the OpenACC routines.
template <typename T> std::vector<T> deviceCopy(int Dev, T *x, int N) {
  int Saved = acc_get_device_num(acc_device_default);
  acc_set_device_num(Dev, acc_device_default);
  std::vector<T> Out(N, T(-12345));
  acc_memcpy_from_device(Out.data(), acc_deviceptr(x), N * sizeof(T));
  acc_set_device_num(Saved, acc_device_default);
  return Out;
}

// ---- devices ------------------------------------------------------------------------------------

TEST_P(OpenACCTest, DeviceCountsTypesAndNumbers) {
  EXPECT_EQ(_OPENACC, 202211);
  int N = n();
  ASSERT_EQ(N, configuredDevices(GetParam()));
  EXPECT_EQ(acc_get_num_devices(acc_device_host), N);
  EXPECT_EQ(acc_get_num_devices(acc_device_default), N);
  EXPECT_EQ(acc_get_num_devices(acc_device_current), N);
  EXPECT_EQ(acc_get_num_devices(acc_device_not_host), 0);
  EXPECT_EQ(acc_get_num_devices(acc_device_nvidia), 0);
  EXPECT_EQ(acc_get_num_devices(acc_device_radeon), 0);
  EXPECT_EQ(acc_get_num_devices(acc_device_none), 0);
  EXPECT_EQ(acc_get_device_type(), acc_device_host);
  for (int D = 0; D < N; D++) {
    acc_set_device_num(D, acc_device_host);
    EXPECT_EQ(acc_get_device_num(acc_device_host), D);
    EXPECT_EQ(acc_get_device_num(acc_device_default), D);
    EXPECT_EQ(acc_get_device_type(), acc_device_host);
  }
  acc_set_device_num(-1, acc_device_host); // negative: the default device, the first
  EXPECT_EQ(acc_get_device_num(acc_device_host), 0);
  acc_set_device_num(N - 1, acc_device_default);
  acc_set_device_type(acc_device_host); // already a host device: kept
  EXPECT_EQ(acc_get_device_num(acc_device_host), N - 1);
  acc_init(acc_device_host);
  acc_init(acc_device_default);
  EXPECT_EQ(acc_get_device_num(acc_device_host), N - 1);
  EXPECT_EQ(acc_on_device(acc_device_host), 1);
  EXPECT_EQ(acc_on_device(acc_device_not_host), 0);
  EXPECT_EQ(acc_on_device(acc_device_nvidia), 0);
}

TEST_P(OpenACCTest, CurrentDeviceIsPerHostThread) {
  acc_set_device_num(n() - 1, acc_device_host);
  int Other = -2;
  std::thread T([&] {
    Other = acc_get_device_num(acc_device_host);
    acc_set_device_num(0, acc_device_host);
  });
  T.join();
  EXPECT_EQ(Other, 0) << "a new thread starts on device 0";
  EXPECT_EQ(acc_get_device_num(acc_device_host), n() - 1) << "the other thread's choice is its own";
}

TEST_P(OpenACCTest, DeviceSelectionErrors) {
  int N = n();
  acc_set_device_num(N - 1, acc_device_host);
  acc_set_device_num(N, acc_device_host);
  expectError("acc_set_device_num", JACC_ERROR_INVALID_ARGUMENT,
              "device number " + std::to_string(N) + " of type acc_device_host does not exist");
  EXPECT_EQ(acc_get_device_num(acc_device_host), N - 1) << "a failed selection changes nothing";
  acc_set_device_num(0, acc_device_none);
  expectError("acc_set_device_num", JACC_ERROR_INVALID_ARGUMENT, "acc_device_none");
  acc_set_device_type(acc_device_nvidia);
  expectError("acc_set_device_type", JACC_ERROR_INVALID_ARGUMENT,
              "there is no acc_device_nvidia device");
  EXPECT_EQ(acc_get_device_num(acc_device_nvidia), -1);
  expectError("acc_get_device_num", JACC_ERROR_INVALID_ARGUMENT, "no acc_device_nvidia device");
  EXPECT_EQ(acc_get_num_devices(static_cast<acc_device_t>(42)), 0);
  expectError("acc_get_num_devices", JACC_ERROR_INVALID_ARGUMENT, "device type 42 is not valid");
  acc_init(acc_device_not_host);
  expectError("acc_init", JACC_ERROR_INVALID_ARGUMENT, "no acc_device_not_host device");
  acc_shutdown(acc_device_nvidia);
  expectError("acc_shutdown", JACC_ERROR_INVALID_ARGUMENT, "no acc_device_nvidia device");
  EXPECT_EQ(acc_get_device_num(acc_device_host), N - 1);
}

TEST_P(OpenACCTest, ShutdownReleasesEverythingAndReinitialises) {
  int N = 64;
  std::vector<int> xv = iota(N, 0), hv = iota(N, 100);
  ASSERT_NE(acc_copyin(xv.data(), N * sizeof(int)), nullptr);
  acc_set_device_num(n() - 1, acc_device_host);
  void *Block = acc_malloc(N * sizeof(int));
  void *Mapped = acc_malloc(N * sizeof(int));
  ASSERT_TRUE(Block && Mapped);
  acc_map_data(hv.data(), Mapped, N * sizeof(int));
  acc_shutdown(acc_device_host); // frees the copies, the acc_malloc blocks (mapped or not)
  EXPECT_EQ(acc_get_device_num(acc_device_host), 0) << "shutdown resets the thread's device";
  EXPECT_EQ(acc_get_num_devices(acc_device_host), n()) << "the next call re-initialises";
  EXPECT_EQ(acc_is_present(xv.data(), N * sizeof(int)), 0);
  EXPECT_EQ(acc_is_present(hv.data(), N * sizeof(int)), 0);
  acc_free(Block);
  expectError("acc_free", JACC_ERROR_INVALID_ARGUMENT, "was not returned by acc_malloc");
}

// ---- data ---------------------------------------------------------------------------------------

TEST_P(OpenACCTest, CopyinKernelCopyout) {
  int N = 10007;
  float a = 2.5f;
  std::vector<float> xv(N), yv(N), ref(N);
  for (int i = 0; i < N; i++) {
    xv[i] = 0.5f * i;
    yv[i] = 3.0f - i;
    ref[i] = a * xv[i] + yv[i];
  }
  float *x = xv.data(), *y = yv.data();
  void *Dx = acc_copyin(x, N * sizeof(float));
  void *Dy = acc_copyin(y, N * sizeof(float));
  ASSERT_TRUE(Dx && Dy);
  EXPECT_NE(Dx, static_cast<void *>(x)) << "the device has a copy of its own";
  EXPECT_EQ(acc_deviceptr(x), Dx);
  jacc_arg args[] = {{"int n", &N}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(x, y)\n"
                               "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
                               4, args, JACC_DEFAULT));
  EXPECT_EQ(yv[1], 2.0f) << "the kernel ran on the device copy";
  acc_copyout(y, N * sizeof(float));
  acc_delete(x, N * sizeof(float));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(yv[i], ref[i]) << i;
  EXPECT_EQ(acc_is_present(x, N * sizeof(float)), 0);
  EXPECT_EQ(acc_is_present(y, N * sizeof(float)), 0);
}

TEST_P(OpenACCTest, AccOnDeviceInAKernelAnswersForItsDevice) {
  int N = 1001;
  std::vector<int> rv(N, -1);
  int *r = rv.data();
  acc_create(r, N * sizeof(int));
  jacc_arg args[] = {{"int n", &N}, {"int *r", &r}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(r)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  r[i] = 100 * acc_on_device(2) + 10 * acc_on_device(3) +\n"
                               "         acc_on_device(4);\n",
                               2, args, JACC_DEFAULT))
      << jacc_last_error();
  acc_copyout(r, N * sizeof(int));
  for (int i = 0; i < N; i++)
    ASSERT_EQ(rv[i], 100) << "a host device is acc_device_host only; element " << i;
}

TEST_P(OpenACCTest, ReferenceCounts) {
  int N = 500;
  size_t Bytes = N * sizeof(int);
  std::vector<int> xv = iota(N, 1);
  int *x = xv.data();
  void *D1 = acc_copyin(x, Bytes);
  void *D2 = acc_copyin(x, Bytes); // present: count 2, no allocation, no copy
  EXPECT_EQ(D1, D2);
  bump(N, x);
  acc_copyout(x, Bytes); // count 1: stays, no copy back
  EXPECT_EQ(acc_is_present(x, Bytes), 1);
  EXPECT_EQ(xv, iota(N, 1));
  acc_copyout(x, Bytes); // count 0: copied back, unmapped
  EXPECT_EQ(acc_is_present(x, Bytes), 0);
  EXPECT_EQ(xv, bumped(iota(N, 1)));

  // create, then a present copyin does not copy; delete never copies back.
  std::vector<int> yv(N, 7);
  int *y = yv.data();
  ASSERT_NE(acc_create(y, Bytes), nullptr);
  std::vector<int> Zero(N, 0);
  for (int D = 0; D < n(); D++) {
    acc_set_device_num(D, acc_device_host);
    acc_memcpy_to_device(acc_deviceptr(y), Zero.data(), Bytes);
  }
  acc_copyin(y, Bytes);
  EXPECT_EQ(deviceCopy(0, y, N), Zero) << "copyin of present data must not copy";
  bump(N, y);
  acc_delete(y, Bytes);
  acc_delete(y, Bytes);
  EXPECT_EQ(acc_is_present(y, Bytes), 0);
  EXPECT_EQ(yv, std::vector<int>(N, 7)) << "delete does not copy back";
}

TEST_P(OpenACCTest, FinalizeAndExitsOfAbsentData) {
  int N = 300;
  size_t Bytes = N * sizeof(int);
  std::vector<int> xv = iota(N, -5), yv = iota(N, 50);
  int *x = xv.data(), *y = yv.data();
  for (int I = 0; I < 3; I++)
    acc_copyin(x, Bytes);
  bump(N, x);
  acc_copyout_finalize(x, Bytes); // count 3 -> 0: copied back and unmapped
  EXPECT_EQ(acc_is_present(x, Bytes), 0);
  EXPECT_EQ(xv, bumped(iota(N, -5)));

  acc_create(y, Bytes);
  acc_copyin(y, Bytes);
  bump(N, y);
  acc_delete_finalize(y, Bytes);
  EXPECT_EQ(acc_is_present(y, Bytes), 0);
  EXPECT_EQ(yv, iota(N, 50));

  // OpenACC: an exit of data that is not present does nothing.
  acc_copyout(x, Bytes);
  acc_delete(x, Bytes);
  acc_copyout_finalize(x, Bytes);
  acc_delete_finalize(x, Bytes);
  acc_copyout(nullptr, Bytes);
  acc_delete(x, 0);
  EXPECT_EQ(xv, bumped(iota(N, -5)));

  // A range straddling a mapping's end is an error; the mapping stays as it was.
  acc_copyin(x, Bytes / 2);
  acc_copyout(x + N / 4, Bytes / 2);
  expectError("acc_copyout", JACC_ERROR_PARTIALLY_PRESENT, "is partially present");
  acc_delete_finalize(x + N / 4, Bytes / 2);
  expectError("acc_delete_finalize", JACC_ERROR_PARTIALLY_PRESENT, "is partially present");
  EXPECT_EQ(acc_is_present(x, Bytes / 2), 1);
  acc_delete(x, Bytes / 2);
  EXPECT_EQ(acc_is_present(x, Bytes / 2), 0);
}

TEST_P(OpenACCTest, IsPresentOnSubRanges) {
  int N = 100;
  std::vector<int> xv = iota(N, 0);
  int *x = xv.data();
  acc_copyin(x, N * sizeof(int));
  EXPECT_EQ(acc_is_present(x, N * sizeof(int)), 1);
  EXPECT_EQ(acc_is_present(x + 10, 20 * sizeof(int)), 1);
  EXPECT_EQ(acc_is_present(x + 99, sizeof(int)), 1);
  EXPECT_EQ(acc_is_present(x, 0), 1) << "bytes 0 is looked up as one byte";
  EXPECT_EQ(acc_is_present(x + 90, 20 * sizeof(int)), 0) << "only partly present";
  EXPECT_EQ(acc_is_present(x + 100, sizeof(int)), 0);
  EXPECT_EQ(acc_is_present(x + 100, 0), 0);
  EXPECT_EQ(acc_is_present(nullptr, 0), 0);
  EXPECT_EQ(acc_is_present(nullptr, 4), 0);
  acc_delete(x, N * sizeof(int));
  EXPECT_EQ(acc_is_present(x + 10, 20 * sizeof(int)), 0);
}

TEST_P(OpenACCTest, DeviceptrHostptrRoundTrip) {
  int N = 256;
  std::vector<int> xv = iota(N, 0), yv(N);
  int *x = xv.data();
  acc_copyin(x, N * sizeof(int));
  std::set<void *> Seen;
  for (int D = 0; D < n(); D++) {
    acc_set_device_num(D, acc_device_host);
    char *P = static_cast<char *>(acc_deviceptr(x));
    ASSERT_NE(P, nullptr);
    EXPECT_NE(static_cast<void *>(P), static_cast<void *>(x));
    EXPECT_TRUE(Seen.insert(P).second) << "device " << D << " shares another device's copy";
    EXPECT_EQ(acc_hostptr(P), x);
    EXPECT_EQ(acc_deviceptr(x + 7), P + 7 * sizeof(int)) << "interior pointers translate";
    EXPECT_EQ(acc_hostptr(P + 7 * sizeof(int)), x + 7);
    EXPECT_EQ(acc_hostptr(P + N * sizeof(int)), nullptr) << "one past the end";
    EXPECT_EQ(acc_copyin(x, N * sizeof(int)), P) << "present copyin: the current device's copy";
    acc_delete(x, N * sizeof(int));
  }
  EXPECT_EQ(acc_deviceptr(yv.data()), nullptr) << "not present";
  EXPECT_EQ(acc_deviceptr(nullptr), nullptr);
  EXPECT_EQ(acc_hostptr(yv.data()), nullptr) << "not a device address";
  EXPECT_EQ(acc_hostptr(nullptr), nullptr);
  acc_delete(x, N * sizeof(int));
  EXPECT_EQ(acc_deviceptr(x), nullptr);
}

TEST_P(OpenACCTest, UpdatesAndCopiesOfEachDeviceCopy) {
  int N = 128;
  size_t Bytes = N * sizeof(int);
  std::vector<int> xv(N, 0);
  int *x = xv.data();
  acc_copyin(x, Bytes);
  // Each device's copy is its own: write a different pattern into each.
  for (int D = 0; D < n(); D++) {
    acc_set_device_num(D, acc_device_host);
    std::vector<int> Pattern = iota(N, 1000 * D);
    acc_memcpy_to_device(acc_deviceptr(x), Pattern.data(), Bytes);
  }
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceCopy(D, x, N), iota(N, 1000 * D)) << "device " << D;
  // A sub-range, through an interior device address.
  acc_set_device_num(n() - 1, acc_device_host);
  std::vector<int> Four = {-1, -2, -3, -4};
  acc_memcpy_to_device(static_cast<int *>(acc_deviceptr(x)) + 10, Four.data(), 4 * sizeof(int));
  std::vector<int> Got(4);
  acc_memcpy_from_device(Got.data(), static_cast<int *>(acc_deviceptr(x)) + 10, 4 * sizeof(int));
  EXPECT_EQ(Got, Four);
  // update device writes every device's copy; update self reads the primary device's.
  std::vector<int> Five = iota(N, 5);
  std::copy(Five.begin(), Five.end(), xv.begin()); // in place: x stays valid
  acc_update_device(x, Bytes);
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceCopy(D, x, N), iota(N, 5)) << "device " << D;
  bump(N, x);
  acc_update_self(x + 8, 8 * sizeof(int));
  EXPECT_EQ(xv[7], 12);
  EXPECT_EQ(xv[8], 2 * 13 + 1);
  EXPECT_EQ(xv[16], 21);
  acc_update_self(x, Bytes);
  EXPECT_EQ(xv, bumped(iota(N, 5)));
  std::vector<int> Absent(4);
  acc_update_device(Absent.data(), 4 * sizeof(int));
  expectError("acc_update_device", JACC_ERROR_NOT_PRESENT, "is not mapped on the devices");
  acc_update_self(x + N - 2, 4 * sizeof(int));
  expectError("acc_update_self", JACC_ERROR_PARTIALLY_PRESENT, "is partially present");
  acc_delete(x, Bytes);
}

TEST_P(OpenACCTest, MallocFreeAndDeviceCopies) {
  int N = 1000;
  size_t Bytes = N * sizeof(int);
  EXPECT_EQ(acc_malloc(0), nullptr);
  acc_free(nullptr);
  std::vector<int> Src = iota(N, 3), Out(N);
  for (int D = 0; D < n(); D++) {
    acc_set_device_num(D, acc_device_host);
    int *A = static_cast<int *>(acc_malloc(Bytes));
    int *B = static_cast<int *>(acc_malloc(Bytes));
    ASSERT_TRUE(A && B);
    acc_memcpy_to_device(A, Src.data(), Bytes);
    acc_memcpy_device(B, A, Bytes);
    acc_memcpy_from_device(Out.data(), B, Bytes);
    EXPECT_EQ(Out, Src) << "device " << D;
    acc_memcpy_device(B + 1, A + 500, 10 * sizeof(int)); // sub-ranges of the blocks
    acc_memcpy_from_device(Out.data(), B, 12 * sizeof(int));
    EXPECT_EQ(Out[0], 3);
    EXPECT_EQ(Out[1], 503);
    EXPECT_EQ(Out[10], 512);
    EXPECT_EQ(Out[11], 14);
    EXPECT_EQ(acc_hostptr(A), nullptr) << "acc_malloc memory maps no host data";
    acc_free(A);
    acc_free(B);
  }
}

// JACC_MALLOC=one: deviceptr memory is one device's: the kernel runs there alone (an in-place
// update applied once, not once per device), and the mapped arrays it wrote reach every device's
// copy.
TEST_P(OpenACCTest, KernelsOnDeviceptrMemoryRunOnItsDeviceOnce) {
  jacc::ScopedEnv Malloc("JACC_MALLOC", "one");
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  int N = 1000;
  size_t Bytes = N * sizeof(int);
  const char *Src = "#pragma acc parallel loop deviceptr(a)\n"
                    "for (int i = 0; i < n; i++) { a[i] += 1; x[i] = 2 * a[i]; }\n";
  std::vector<int> xv(N, 0), Out(N);
  int *x = xv.data();
  acc_copyin(x, Bytes);
  for (int D = 0; D < n(); D++) {
    acc_set_device_num(D, acc_device_host);
    int *A = static_cast<int *>(acc_malloc(Bytes));
    ASSERT_NE(A, nullptr);
    std::vector<int> Init = iota(N, 10 * D);
    acc_memcpy_to_device(A, Init.data(), Bytes);
    jacc_arg args[] = {{"int n", &N}, {"int *a", &A}, {"int *x", &x}};
    ASSERT_JACC(jacc_kernel_push(Src, 3, args, JACC_DEFAULT));
    acc_memcpy_from_device(Out.data(), A, Bytes);
    EXPECT_EQ(Out, iota(N, 10 * D + 1)) << "acc_malloc on device " << D;
    std::vector<int> Twice = iota(N, 10 * D + 1);
    for (int &V : Twice)
      V *= 2;
    for (int E = 0; E < n(); E++)
      EXPECT_EQ(deviceCopy(E, x, N), Twice)
          << "x on device " << E << " after the kernel on device " << D;
    acc_free(A);
  }
  // acc_deviceptr of mapped data: the kernel updates that device's copy, then every copy.
  int *y = Out.data();
  std::vector<int> Zero(N, 0);
  std::copy(Zero.begin(), Zero.end(), Out.begin());
  acc_copyin(y, Bytes);
  acc_set_device_num(n() - 1, acc_device_host);
  int *Dy = static_cast<int *>(acc_deviceptr(y));
  jacc_arg args[] = {{"int n", &N}, {"int *a", &Dy}, {"int *x", &x}};
  ASSERT_JACC(jacc_kernel_push(Src, 3, args, JACC_DEFAULT));
  for (int E = 0; E < n(); E++)
    EXPECT_EQ(deviceCopy(E, y, N), std::vector<int>(N, 1)) << "y on device " << E;
  acc_copyout(y, Bytes);
  EXPECT_EQ(Out, std::vector<int>(N, 1));
  acc_delete(x, Bytes);
  if (n() < 2)
    return;
  // Memory of two devices in one kernel: no device can run it.
  acc_set_device_num(0, acc_device_host);
  int *A0 = static_cast<int *>(acc_malloc(Bytes));
  acc_set_device_num(1, acc_device_host);
  int *A1 = static_cast<int *>(acc_malloc(Bytes));
  jacc_arg two[] = {{"int n", &N}, {"int *a", &A0}, {"int *b", &A1}};
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop deviceptr(a, b)\n"
                             "for (int i = 0; i < n; i++) a[i] = b[i];\n",
                             3, two, JACC_DEFAULT),
            JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("'a' and 'b' are memory of devices 0 and 1"), std::string::npos)
      << lastError();
  acc_free(A0);
  acc_free(A1);
}

// JACC_MALLOC=every (and auto on host devices): an acc_malloc block has a copy on every device, so
// kernels given it by deviceptr split as over mapped data. Scratch written and read in place by
// split kernels moves nothing; the routines see one block: acc_memcpy_from_device gathers the
// devices' parts onto the block's device, what acc_memcpy_to_device writes there is fetched by the
// devices that read it, and acc_map_data takes the block whole.
TEST_P(OpenACCTest, MallocMemoryWithCopiesSplitsDeviceptrKernels) {
  // every, and auto (the default: code outside jacc writes no host device's memory).
  for (const char *Setting : {"every", static_cast<const char *>(nullptr)}) {
    SCOPED_TRACE(Setting ? Setting : "JACC_MALLOC unset");
    jacc::ScopedEnv Malloc("JACC_MALLOC", Setting);
    ASSERT_JACC(jacc_finalize());
    ASSERT_JACC(jacc_init());
    int N = 3000;
    size_t Bytes = N * sizeof(int);
    // What the other devices' equal shares of N elements hold.
    uint64_t Others = Bytes - uint64_t(N / n()) * sizeof(int);
    const char *Fill = "#pragma acc parallel loop deviceptr(t) present(x)\n"
                       "for (int i = 0; i < n; i++) t[i] = 3 * x[i];\n";
    const char *Use = "#pragma acc parallel loop deviceptr(t) present(y)\n"
                      "for (int i = 0; i < n; i++) y[i] = t[i] + 1;\n";
    std::vector<int> xv = iota(N, 1), yv(N, 0), Out(N, 0);
    int *x = xv.data(), *y = yv.data();
    acc_copyin(x, Bytes);
    acc_create(y, Bytes);
    int *T = static_cast<int *>(acc_malloc(Bytes));
    ASSERT_NE(T, nullptr);
    jacc_arg FillArgs[] = {{"int n", &N}, {"int *t", &T}, {"const int *x", &x}};
    jacc_arg UseArgs[] = {{"int n", &N}, {"const int *t", &T}, {"int *y", &y}};
    std::vector<int> Tripled(N);
    for (int I = 0; I < N; ++I)
      Tripled[I] = 3 * xv[I];
    auto Plus1 = [](std::vector<int> V) {
      for (int &E : V)
        ++E;
      return V;
    };

    jacc_stats B = jacc_test::stats();
    ASSERT_JACC(jacc_kernel_push(Fill, 3, FillArgs, JACC_FORCE_SPLIT));
    ASSERT_JACC(jacc_kernel_push(Use, 3, UseArgs, JACC_FORCE_SPLIT));
    jacc_stats A = jacc_test::stats();
    if (n() > 1) {
      EXPECT_EQ(A.split_launches - B.split_launches, 2u);
    }
    EXPECT_EQ(A.bytes_device_to_device - B.bytes_device_to_device, 0u)
        << "each device reads the part of t it wrote";
    acc_update_self(y, Bytes);
    EXPECT_EQ(yv, Plus1(Tripled));

    B = jacc_test::stats();
    acc_memcpy_from_device(Out.data(), T, Bytes);
    EXPECT_EQ(Out, Tripled);
    EXPECT_EQ(jacc_test::stats().bytes_device_to_device - B.bytes_device_to_device, Others)
        << "the other devices' parts, gathered onto device 0";

    std::vector<int> Hundreds = iota(N, 100);
    acc_memcpy_to_device(T, Hundreds.data(), Bytes);
    B = jacc_test::stats();
    ASSERT_JACC(jacc_kernel_push(Use, 3, UseArgs, JACC_FORCE_SPLIT));
    EXPECT_EQ(jacc_test::stats().bytes_device_to_device - B.bytes_device_to_device, Others)
        << "each other device fetches its part of what device 0 was given";
    acc_copyout(y, Bytes);
    EXPECT_EQ(yv, iota(N, 101));

    // Split again, then mapped: the host array's copy on device 0 is the whole block.
    ASSERT_JACC(jacc_kernel_push(Fill, 3, FillArgs, JACC_FORCE_SPLIT));
    std::vector<int> Host(N, -1);
    acc_map_data(Host.data(), T, Bytes);
    acc_update_self(Host.data(), Bytes);
    EXPECT_EQ(Host, Tripled);
    acc_unmap_data(Host.data());
    acc_free(T);
    acc_delete(x, Bytes);
    // A block left to finalize is freed with its copies (the next restart, TearDown's finalize).
    EXPECT_NE(acc_malloc(Bytes), nullptr);
  }
}

TEST_P(OpenACCTest, MallocSettingIsCheckedAtInit) {
  jacc::ScopedEnv Malloc("JACC_MALLOC", "all");
  ASSERT_JACC(jacc_finalize());
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("JACC_MALLOC"), std::string::npos) << lastError();
  EXPECT_NE(lastError().find("one, every or auto"), std::string::npos) << lastError();
}

TEST_P(OpenACCTest, MallocAndMemcpyErrors) {
  int N = 64;
  size_t Bytes = N * sizeof(int);
  std::vector<int> Host(N), Other(N);
  int *A = static_cast<int *>(acc_malloc(Bytes));
  ASSERT_NE(A, nullptr);
  acc_free(Host.data());
  expectError("acc_free", JACC_ERROR_INVALID_ARGUMENT, "was not returned by acc_malloc");
  acc_memcpy_to_device(Other.data(), Host.data(), Bytes);
  expectError("acc_memcpy_to_device", JACC_ERROR_INVALID_ARGUMENT,
              "is not memory of the current device host:0");
  acc_memcpy_from_device(Host.data(), A + 1, Bytes);
  expectError("acc_memcpy_from_device", JACC_ERROR_INVALID_ARGUMENT, "the source");
  acc_memcpy_device(A + 8, A, 16 * sizeof(int));
  expectError("acc_memcpy_device", JACC_ERROR_INVALID_ARGUMENT, "overlap");
  acc_memcpy_to_device(nullptr, Host.data(), Bytes);
  expectError("acc_memcpy_to_device", JACC_ERROR_INVALID_ARGUMENT, "the destination is NULL");
  acc_memcpy_to_device(A, Host.data(), 0); // nothing to copy
  if (n() > 1) {
    acc_set_device_num(1, acc_device_host); // A lives on device 0
    acc_memcpy_to_device(A, Host.data(), Bytes);
    expectError("acc_memcpy_to_device", JACC_ERROR_INVALID_ARGUMENT,
                "is not memory of the current device host:1");
  }
  acc_free(A); // from any current device
  acc_free(A);
  expectError("acc_free", JACC_ERROR_INVALID_ARGUMENT, "or was freed already");
}

TEST_P(OpenACCTest, MapDataWithMallocedMemory) {
  int N = 2000;
  size_t Bytes = N * sizeof(int);
  int Dev = n() - 1; // not the primary device when there are several
  acc_set_device_num(Dev, acc_device_host);
  std::vector<int> hv(N, -1), Init = iota(N, 10), Out(N);
  int *h = hv.data();
  void *d = acc_malloc(Bytes);
  ASSERT_NE(d, nullptr);
  acc_memcpy_to_device(d, Init.data(), Bytes);
  acc_map_data(h, d, Bytes);
  EXPECT_EQ(acc_is_present(h, Bytes), 1);
  EXPECT_EQ(acc_deviceptr(h), d);
  EXPECT_EQ(acc_hostptr(d), h);
  for (int D = 0; D < n(); D++) {
    EXPECT_EQ(deviceCopy(D, h, N), Init) << "device " << D << " starts from the mapped memory";
    if (D != Dev) {
      acc_set_device_num(D, acc_device_host);
      EXPECT_NE(acc_deviceptr(h), d) << "device " << D << " has a copy of its own";
      acc_set_device_num(Dev, acc_device_host);
    }
  }
  EXPECT_EQ(hv, std::vector<int>(N, -1)) << "mapping copies nothing from the host";

  bump(N, h); // on every device; on Dev, in the program's memory
  acc_memcpy_from_device(Out.data(), d, Bytes);
  EXPECT_EQ(Out, bumped(Init));
  acc_update_self(h, Bytes);
  EXPECT_EQ(hv, bumped(Init));

  // Reference counts: copyin counts up; no exit may take it to zero.
  EXPECT_EQ(acc_copyin(h, Bytes), d);
  acc_delete(h, Bytes);
  acc_delete(h, Bytes);
  expectError("acc_delete", JACC_ERROR_INVALID_ARGUMENT, "was mapped by acc_map_data");
  acc_copyout_finalize(h, Bytes);
  expectError("acc_copyout_finalize", JACC_ERROR_INVALID_ARGUMENT,
              "end the mapping with acc_unmap_data");
  EXPECT_EQ(acc_is_present(h, Bytes), 1);

  // Misuse leaves the mapping alone.
  void *d2 = acc_malloc(Bytes);
  acc_map_data(h + 10, d2, 16);
  expectError("acc_map_data", JACC_ERROR_INVALID_ARGUMENT, "is already present");
  acc_map_data(Out.data(), static_cast<char *>(d) + 4, 16);
  expectError("acc_map_data", JACC_ERROR_INVALID_ARGUMENT, "overlaps the copy of the mapped");
  acc_map_data(Out.data(), d2, Bytes + 4);
  expectError("acc_map_data", JACC_ERROR_INVALID_ARGUMENT, "run past the end of its acc_malloc");
  acc_map_data(nullptr, d2, Bytes);
  expectError("acc_map_data", JACC_ERROR_INVALID_ARGUMENT, "the host address is NULL");
  acc_map_data(Out.data(), d2, 0);
  expectError("acc_map_data", JACC_ERROR_INVALID_ARGUMENT, "bytes is 0");
  acc_free(d);
  expectError("acc_free", JACC_ERROR_INVALID_ARGUMENT, "call acc_unmap_data first");
  acc_unmap_data(h + 1);
  expectError("acc_unmap_data", JACC_ERROR_INVALID_ARGUMENT,
              "pass the address given to acc_map_data");
  acc_unmap_data(Out.data());
  expectError("acc_unmap_data", JACC_ERROR_NOT_PRESENT, "is not mapped");
  std::vector<int> Copied(8);
  acc_copyin(Copied.data(), 8 * sizeof(int));
  acc_unmap_data(Copied.data());
  expectError("acc_unmap_data", JACC_ERROR_INVALID_ARGUMENT, "was not mapped by acc_map_data");
  acc_delete(Copied.data(), 8 * sizeof(int));
  if (n() > 1) {
    acc_set_device_num(0, acc_device_host); // d2 lives on Dev
    acc_map_data(Out.data(), d2, Bytes);
    expectError("acc_map_data", JACC_ERROR_INVALID_ARGUMENT, "not on the current device host:0");
    acc_set_device_num(Dev, acc_device_host);
  }

  acc_unmap_data(h);
  EXPECT_EQ(acc_is_present(h, Bytes), 0);
  acc_memcpy_from_device(Out.data(), d, Bytes);
  EXPECT_EQ(Out, bumped(Init)) << "unmapping keeps the program's memory and its data";
  // The memory can be mapped again, now to other host data.
  acc_map_data(Out.data(), d, Bytes);
  EXPECT_EQ(acc_hostptr(d), Out.data());
  acc_unmap_data(Out.data());
  acc_free(d);
  acc_free(d2);
}

TEST_P(OpenACCTest, MemcpyBetweenDevices) {
  int N = 96;
  size_t Bytes = N * sizeof(int);
  std::vector<int> xv(N, 0), yv(N, 0), Pattern = iota(N, 77);
  int *x = xv.data(), *y = yv.data();
  acc_copyin(x, Bytes);
  acc_copyin(y, Bytes);
  acc_memcpy_to_device(acc_deviceptr(x), Pattern.data(), Bytes); // device 0's copy of x
  int Last = n() - 1;
  acc_memcpy_d2d(y, x, Bytes, Last, 0); // x on device 0 -> y on the last device
  EXPECT_EQ(deviceCopy(Last, y, N), Pattern);
  acc_memcpy_d2d(x + 8, x, 4 * sizeof(int), Last, 0);
  EXPECT_EQ(deviceCopy(Last, x, N)[11], 80);
  acc_memcpy_d2d(x, x, Bytes, 0, 0); // the same copy: nothing to do
  acc_memcpy_d2d_async(y, x, Bytes, 0, 0, 1);
  EXPECT_EQ(deviceCopy(0, y, N), deviceCopy(0, x, N));
  std::vector<int> Absent(N);
  acc_memcpy_d2d(Absent.data(), x, Bytes, 0, 0);
  expectError("acc_memcpy_d2d", JACC_ERROR_NOT_PRESENT, "is not mapped");
  acc_memcpy_d2d(y, x, Bytes, n(), 0);
  expectError("acc_memcpy_d2d", JACC_ERROR_INVALID_ARGUMENT, "does not exist");
  acc_memcpy_d2d(x + 1, x, Bytes / 2, 0, 0);
  expectError("acc_memcpy_d2d", JACC_ERROR_INVALID_ARGUMENT, "overlap");
  acc_delete(x, Bytes);
  acc_delete(y, Bytes);
}

// ---- async --------------------------------------------------------------------------------------

/// Spins until the device's copy of *flag is set: keeps its device's queue busy on demand.
const char *SpinSrc = "#pragma acc serial present(flag)\n"
                      "{ while (*flag == 0) { } }\n";

TEST_P(OpenACCTest, AsyncTestSeesPendingWorkAndWaitCompletesIt) {
  std::vector<int> Flag(1, 0);
  int *flag = Flag.data();
  acc_copyin_async(flag, sizeof(int), 1);
  EXPECT_EQ(acc_async_test(1), 1) << "nothing queued yet";
  EXPECT_EQ(acc_async_test_all(), 1);
  jacc_arg args[] = {{"volatile int *flag", &flag}};
  ASSERT_JACC(jacc_kernel_push(SpinSrc, 1, args, JACC_ASYNC));
  EXPECT_EQ(acc_async_test(1), 0) << "the kernel spins until released";
  EXPECT_EQ(acc_async_test(acc_async_noval), 0);
  EXPECT_EQ(acc_async_test_all(), 0);
  // Host devices' memory is this process's: release every device's kernel directly.
  for (int D = 0; D < n(); D++) {
    acc_set_device_num(D, acc_device_host);
    reinterpret_cast<std::atomic<int> *>(acc_deviceptr(flag))->store(1);
  }
  acc_wait(1);
  EXPECT_EQ(acc_async_test(1), 1);
  EXPECT_EQ(acc_async_test_all(), 1);
  acc_delete_async(flag, sizeof(int), acc_async_sync);
  EXPECT_EQ(acc_is_present(flag, sizeof(int)), 0);
}

TEST_P(OpenACCTest, AsyncDataRoutinesCompleteAtOnce) {
  int N = 4096;
  size_t Bytes = N * sizeof(int);
  std::vector<int> xv = iota(N, 0), yv = iota(N, 9);
  int *x = xv.data(), *y = yv.data();
  acc_copyin_async(x, Bytes, 1);
  acc_create_async(y, Bytes, acc_async_noval);
  EXPECT_EQ(acc_is_present(x, Bytes), 1);
  EXPECT_EQ(acc_is_present(y, Bytes), 1);
  jacc_arg args[] = {{"int n", &N}, {"int *x", &x}};
  ASSERT_JACC(jacc_kernel_push(BumpSrc, 2, args, JACC_ASYNC));
  acc_wait_async(1, 2); // one in-order queue: nothing to order
  acc_wait_all_async(3);
  acc_update_self_async(x, Bytes, 2); // waits for the kernel using x
  EXPECT_EQ(xv, bumped(iota(N, 0)));
  std::vector<int> One = iota(N, 1);
  std::copy(One.begin(), One.end(), xv.begin()); // in place: x stays valid
  acc_update_device_async(x, Bytes, 2);
  EXPECT_EQ(deviceCopy(n() - 1, x, N), iota(N, 1));
  acc_copyin_async(x, Bytes, 4); // count 2
  acc_copyout_async(x, Bytes, 4);
  EXPECT_EQ(acc_is_present(x, Bytes), 1);
  bump(N, x);
  acc_copyout_finalize_async(x, Bytes, 5);
  EXPECT_EQ(acc_is_present(x, Bytes), 0);
  EXPECT_EQ(xv, bumped(iota(N, 1)));
  acc_create_async(y, Bytes, 0); // count 2
  acc_delete_async(y, Bytes, 0);
  EXPECT_EQ(acc_is_present(y, Bytes), 1);
  acc_delete_finalize_async(y, Bytes, 0);
  EXPECT_EQ(acc_is_present(y, Bytes), 0);
  EXPECT_EQ(yv, iota(N, 9));

  void *A = acc_malloc(Bytes);
  void *B = acc_malloc(Bytes);
  std::vector<int> Out(N);
  acc_memcpy_to_device_async(A, yv.data(), Bytes, 1);
  acc_memcpy_device_async(B, A, Bytes, 2);
  acc_memcpy_from_device_async(Out.data(), B, Bytes, 3);
  EXPECT_EQ(Out, yv);
  acc_free(A);
  acc_free(B);
  acc_wait(acc_async_sync);
  acc_wait(acc_async_noval);
  acc_wait_all();
}

TEST_P(OpenACCTest, InvalidAsyncArguments) {
  std::vector<int> xv(16);
  acc_copyin_async(xv.data(), 16 * sizeof(int), -7);
  expectError("acc_copyin_async", JACC_ERROR_INVALID_ARGUMENT, "async argument -7 is not valid");
  EXPECT_EQ(acc_is_present(xv.data(), sizeof(int)), 0) << "nothing done";
  acc_wait(-5);
  expectError("acc_wait", JACC_ERROR_INVALID_ARGUMENT, "async argument -5");
  EXPECT_EQ(acc_async_test(-4), 0);
  expectError("acc_async_test", JACC_ERROR_INVALID_ARGUMENT, "async argument -4");
  acc_wait_async(1, -9);
  expectError("acc_wait_async", JACC_ERROR_INVALID_ARGUMENT, "async argument -9");
}

// ---- properties ---------------------------------------------------------------------------------

TEST_P(OpenACCTest, Properties) {
  for (int D = 0; D < n(); D++) {
    size_t Memory = acc_get_property(D, acc_device_host, acc_property_memory);
    size_t Free = acc_get_property(D, acc_device_host, acc_property_free_memory);
    EXPECT_GT(Memory, 0u);
    EXPECT_GT(Free, 0u);
    EXPECT_LE(Free, Memory);
    EXPECT_EQ(acc_get_property(D, acc_device_default, acc_property_memory), Memory);
    EXPECT_EQ(acc_get_property(D, acc_device_host, acc_property_shared_memory_support), 0u);
    const char *Name = acc_get_property_string(D, acc_device_host, acc_property_name);
    ASSERT_NE(Name, nullptr);
    EXPECT_EQ(std::string(Name), "host:" + std::to_string(D));
    EXPECT_EQ(acc_get_property_string(D, acc_device_host, acc_property_name), Name)
        << "the string stays valid: the same pointer";
    const char *Vendor = acc_get_property_string(D, acc_device_host, acc_property_vendor);
    const char *Driver = acc_get_property_string(D, acc_device_host, acc_property_driver);
    ASSERT_TRUE(Vendor && Driver);
    EXPECT_STREQ(Vendor, "jacc");
    EXPECT_NE(std::string(Driver).find("jacc"), std::string::npos) << Driver;
    // A property of the other kind, or an unknown one: 0 / NULL, no error.
    EXPECT_EQ(acc_get_property(D, acc_device_host, acc_property_name), 0u);
    EXPECT_EQ(acc_get_property_string(D, acc_device_host, acc_property_memory), nullptr);
    EXPECT_EQ(acc_get_property(D, acc_device_host, static_cast<acc_device_property_t>(2360)), 0u);
    EXPECT_EQ(acc_get_property_string(D, acc_device_host, static_cast<acc_device_property_t>(7)),
              nullptr);
  }
  // A host device's free memory is the machine's less what the device holds: acc_malloc and
  // acc_free show in it (on the current device only, without copies on the others), as on a GPU.
  jacc::ScopedEnv Malloc("JACC_MALLOC", "one");
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  int Last = n() - 1;
  size_t Before = acc_get_property(Last, acc_device_host, acc_property_free_memory);
  size_t Other = acc_get_property(0, acc_device_host, acc_property_free_memory);
  acc_set_device_num(Last, acc_device_host);
  void *Block = acc_malloc(1 << 20);
  EXPECT_EQ(acc_get_property(Last, acc_device_host, acc_property_free_memory), Before - (1 << 20));
  if (Last > 0) {
    EXPECT_EQ(acc_get_property(0, acc_device_host, acc_property_free_memory), Other);
  }
  acc_free(Block);
  EXPECT_EQ(acc_get_property(Last, acc_device_host, acc_property_free_memory), Before);
  acc_set_device_num(0, acc_device_host);
  EXPECT_EQ(acc_get_property(n(), acc_device_host, acc_property_memory), 0u);
  expectError("acc_get_property", JACC_ERROR_INVALID_ARGUMENT, "does not exist");
  EXPECT_EQ(acc_get_property_string(-1, acc_device_host, acc_property_name), nullptr);
  expectError("acc_get_property_string", JACC_ERROR_INVALID_ARGUMENT, "is negative");
  EXPECT_EQ(acc_get_property(0, acc_device_nvidia, acc_property_memory), 0u);
  expectError("acc_get_property", JACC_ERROR_INVALID_ARGUMENT, "no acc_device_nvidia device");
}

// ---- errors -------------------------------------------------------------------------------------

TEST_P(OpenACCTest, HandlerGetsRoutineStatusAndMessage) {
  EXPECT_EQ(jacc_set_acc_error_handler(recordError), recordError) << "returns the previous one";
  int v[4] = {1, 2, 3, 4};
  acc_copyin(v, sizeof v);
  EXPECT_EQ(acc_copyin(v + 2, sizeof v), nullptr);
  expectError("acc_copyin", JACC_ERROR_PARTIALLY_PRESENT, "is partially present");
  acc_delete(v, sizeof v);
}

TEST_P(OpenACCTest, ReturnModeRecordsTheErrorAndReturns) {
  jacc_set_acc_error_handler(nullptr);
  jacc::ScopedEnv Errors("JACC_ACC_ERRORS", " Return ");
  int v[4] = {1, 2, 3, 4};
  acc_copyin(v, sizeof v);
  EXPECT_EQ(acc_create(v + 2, sizeof v), nullptr);
  EXPECT_NE(lastError().find("acc_create: "), std::string::npos) << lastError();
  EXPECT_NE(lastError().find("is partially present"), std::string::npos) << lastError();
  acc_set_device_num(99, acc_device_host);
  EXPECT_NE(lastError().find("device number 99"), std::string::npos) << lastError();
  // A routine that succeeds empties the error: a void routine's caller can tell.
  acc_update_device(v, sizeof v);
  EXPECT_EQ(lastError(), "");
  acc_update_self(v + 2, sizeof v);
  EXPECT_NE(lastError().find("acc_update_self: "), std::string::npos) << lastError();
  EXPECT_EQ(acc_get_device_num(acc_device_host), 0);
  EXPECT_EQ(lastError(), "");
  EXPECT_EQ(acc_is_present(v, sizeof v), 1) << "the failed calls changed nothing";
  acc_delete(v, sizeof v);
  jacc_set_acc_error_handler(recordError);
}

TEST_P(OpenACCTest, CallableFromC) {
  EXPECT_EQ(jacc_test_openacc_from_c(), 0);
}

// ---- attached pointers, zeroed data, OpenACC exits ---------------------------------------------

struct Box {
  int *v;
  int n;
};

/// Device Dev's copy of the mapped *B, read through the OpenACC routines.
Box deviceBox(int Dev, Box *B) {
  acc_set_device_num(Dev, acc_device_default);
  Box Out{nullptr, -1};
  acc_memcpy_from_device(&Out, acc_deviceptr(B), sizeof Out);
  acc_set_device_num(0, acc_device_default);
  return Out;
}

/// Device Dev's address of the mapped host address P.
void *deviceAddress(int Dev, void *P) {
  acc_set_device_num(Dev, acc_device_default);
  void *A = acc_deviceptr(P);
  acc_set_device_num(0, acc_device_default);
  return A;
}

const char *BoxDecl = "typedef struct { int *v; int n; } Box;\n";

TEST_P(OpenACCTest, AttachPointsEachDeviceCopyAtItsOwnTarget) {
  int N = 64;
  std::vector<int> Data = iota(N, 1);
  Box B{Data.data(), N}, *Bp = &B;
  acc_copyin(Data.data(), N * sizeof(int));
  acc_copyin(&B, sizeof B);
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceBox(D, &B).v, Data.data()) << "copied in: the host's pointer";
  acc_attach(reinterpret_cast<void **>(&B.v));
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceBox(D, &B).v, deviceAddress(D, Data.data())) << "device " << D;
  EXPECT_EQ(B.v, Data.data()) << "the host's pointer is unchanged";

  // Kernels follow the attached pointer into their device's copy: through a pointer to the
  // struct, and given the present struct by value (each device its own copy).
  std::string ByPointer = std::string(BoxDecl) + "#pragma acc parallel loop present(b)\n"
                                                 "for (int i = 0; i < n; i++) b->v[i] += 10;\n";
  jacc_arg PArgs[] = {{"int n", &N}, {"Box *b", &Bp}};
  ASSERT_JACC(jacc_kernel_push(ByPointer.c_str(), 2, PArgs, JACC_DEFAULT));
  std::string ByValue = std::string(BoxDecl) + "#pragma acc parallel loop\n"
                                               "for (int i = 0; i < n; i++) b.v[i] *= 2;\n";
  jacc_arg VArgs[] = {{"int n", &N}, {"Box b", &B}};
  ASSERT_JACC(jacc_kernel_push(ByValue.c_str(), 2, VArgs, JACC_DEFAULT));
  std::vector<int> Want(N);
  for (int I = 0; I < N; I++)
    Want[I] = (I + 1 + 10) * 2;
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceCopy(D, Data.data(), N), Want) << "device " << D;
  EXPECT_EQ(Data, iota(N, 1)) << "the host's data is untouched";

  // The attachment counter: a second attach needs two detaches.
  acc_attach(reinterpret_cast<void **>(&B.v));
  acc_detach(reinterpret_cast<void **>(&B.v));
  EXPECT_EQ(deviceBox(n() - 1, &B).v, deviceAddress(n() - 1, Data.data()));
  acc_update_self(&B, sizeof B);
  EXPECT_EQ(B.v, Data.data()) << "copying the struct back keeps the host's pointer";
  acc_detach(reinterpret_cast<void **>(&B.v));
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceBox(D, &B).v, Data.data()) << "detached: the host's value again";
  acc_detach(reinterpret_cast<void **>(&B.v)); // not attached: nothing to do

  // _finalize detaches whatever the count; the _async forms check their queue.
  acc_attach_async(reinterpret_cast<void **>(&B.v), 1);
  acc_attach(reinterpret_cast<void **>(&B.v));
  acc_detach_async(reinterpret_cast<void **>(&B.v), acc_async_noval);
  acc_detach_finalize_async(reinterpret_cast<void **>(&B.v), 2);
  EXPECT_EQ(deviceBox(0, &B).v, Data.data());
  acc_detach_finalize(reinterpret_cast<void **>(&B.v));
  acc_attach_async(reinterpret_cast<void **>(&B.v), -9);
  expectError("acc_attach_async", JACC_ERROR_INVALID_ARGUMENT, "async argument -9");

  // Still attached when the struct is copied out: the host keeps its own pointer.
  acc_attach(reinterpret_cast<void **>(&B.v));
  acc_copyout(&B, sizeof B);
  EXPECT_EQ(B.v, Data.data());
  EXPECT_EQ(B.n, N);
  acc_copyout(Data.data(), N * sizeof(int));
  EXPECT_EQ(Data, Want);
}

// A struct given by value while it is not present (OpenACC copies it; nothing attaches its
// pointers): each device's kernel reaches its own copies of the mapped data its pointers point
// into, through members, a nested struct and an array of pointers; the host's data and struct
// are untouched until the copyout.
TEST_P(OpenACCTest, NotPresentStructReachesEachDevicesCopiesOfItsTargets) {
  int N = 64;
  std::vector<int> A = iota(N, 1), B = iota(N, 100), C = iota(N, 1000);
  struct Holder {
    int *a;
    int n;
    struct {
      int k;
      int *b;
    } inner;
    int *rows[2];
  } H{A.data(), N, {7, B.data()}, {C.data(), A.data()}};
  for (std::vector<int> *V : {&A, &B, &C})
    ASSERT_JACC(jacc_copyin(V->data(), N * sizeof(int)));
  std::string Kernel = "typedef struct { int *a; int n; struct { int k; int *b; } inner; "
                       "int *rows[2]; } Holder;\n"
                       "#pragma acc parallel loop\n"
                       "for (int i = 0; i < h.n; i++) {\n"
                       "  h.a[i] += h.inner.k;\n"
                       "  h.inner.b[i] *= 2;\n"
                       "  h.rows[0][i] = h.rows[1][i] + h.inner.b[i];\n"
                       "}\n";
  jacc_arg Args[] = {{"Holder h", &H}};
  ASSERT_JACC(jacc_kernel_push(Kernel.c_str(), 1, Args, JACC_DEFAULT));
  std::vector<int> WantA(N), WantB(N), WantC(N);
  for (int I = 0; I < N; I++) {
    WantA[I] = I + 1 + 7;
    WantB[I] = (I + 100) * 2;
    WantC[I] = WantA[I] + WantB[I];
  }
  for (int D = 0; D < n(); D++) {
    EXPECT_EQ(deviceCopy(D, A.data(), N), WantA) << "device " << D;
    EXPECT_EQ(deviceCopy(D, B.data(), N), WantB) << "device " << D;
    EXPECT_EQ(deviceCopy(D, C.data(), N), WantC) << "device " << D;
  }
  EXPECT_EQ(A, iota(N, 1)) << "the host's data is untouched";
  EXPECT_EQ(H.a, A.data());
  EXPECT_EQ(H.rows[0], C.data());
  for (std::vector<int> *V : {&A, &B, &C})
    ASSERT_JACC(jacc_copyout(V->data(), N * sizeof(int)));
  EXPECT_EQ(A, WantA);
  EXPECT_EQ(B, WantB);
  EXPECT_EQ(C, WantC);
}

// A pointer to pointers whose rows are mapped and attached (what a translated
// `copyin(a[0:n][0:m])` does): a kernel given it reads and writes each device's own rows, and
// writing through the rows runs duplicated, so every device's copy holds every row's result.
TEST_P(OpenACCTest, PointerToAttachedRowsReachesEachDevicesRows) {
  const int N = 5, M = 7;
  std::vector<std::vector<double>> Rows(N);
  double *Ptrs[N];
  for (int I = 0; I < N; I++) {
    Rows[I].resize(M);
    for (int J = 0; J < M; J++)
      Rows[I][J] = I * 10 + J;
    Ptrs[I] = Rows[I].data();
  }
  std::vector<double> Sums(N, 0);
  ASSERT_TRUE(mapRows(Ptrs, N, M));
  ASSERT_JACC(jacc_create(Sums.data(), N * sizeof(double)));
  double **A = Ptrs, *S = Sums.data();
  int Nv = N, Mv = M;
  jacc_arg Args[] = {{"int n", &Nv}, {"int m", &Mv}, {"double **a", &A}, {"double *s", &S}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  for (int j = 0; j < m; j++) a[i][j] = 2 * a[i][j] + i;\n"
                               "  double t = 0;\n"
                               "  for (int j = 0; j < m; j++) t += a[i][j];\n"
                               "  s[i] = t;\n"
                               "}\n",
                               4, Args, JACC_ASYNC));
  // Queued: updating a row waits for the kernel, which uses the rows through a's mapping.
  ASSERT_JACC(jacc_update_self(Rows[3].data(), M * sizeof(double)));
  EXPECT_EQ(Rows[3][2], 2 * 32.0 + 3);
  EXPECT_EQ(Rows[1][1], 11.0) << "the other rows are untouched on the host";
  for (int I = 0; I < N; I++) {
    std::vector<double> Want(M);
    double Sum = 0;
    for (int J = 0; J < M; J++)
      Sum += Want[J] = 2 * (I * 10 + J) + I;
    for (int D = 0; D < n(); D++)
      EXPECT_EQ(deviceCopy(D, Rows[I].data(), M), Want) << "row " << I << ", device " << D;
    EXPECT_EQ(deviceCopy(n() - 1, Sums.data(), N)[I], Sum) << "row " << I;
  }
  ASSERT_TRUE(unmapRows(Ptrs, N, M));
  EXPECT_EQ(Ptrs[2], Rows[2].data());
  ASSERT_JACC(jacc_delete(Sums.data(), N * sizeof(double)));
  EXPECT_EQ(Rows[4][6], 2 * 46.0 + 4);
}

// A deviceptr kernel also given attached rows runs on the memory's device alone, then every
// device gets its rows and its copy of the pointer array holds its own row addresses again.
TEST_P(OpenACCTest, DeviceptrKernelWithAttachedRowsRefreshesEveryDevice) {
  const int N = 4, M = 3;
  std::vector<std::vector<double>> Rows(N, std::vector<double>(M, 0));
  double *Ptrs[N];
  for (int I = 0; I < N; I++)
    Ptrs[I] = Rows[I].data();
  ASSERT_TRUE(mapRows(Ptrs, N, M));
  acc_set_device_num(n() - 1, acc_device_host);
  std::vector<double> Init = {5, 6, 7, 8};
  auto *P = static_cast<double *>(acc_malloc(N * sizeof(double)));
  acc_memcpy_to_device(P, Init.data(), N * sizeof(double));
  acc_set_device_num(0, acc_device_host);
  double **A = Ptrs;
  int Nv = N, Mv = M;
  jacc_arg Args[] = {{"int n", &Nv}, {"int m", &Mv}, {"double **a", &A}, {"double *p", &P}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop deviceptr(p)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  for (int j = 0; j < m; j++) a[i][j] = p[i] + j;\n",
                               4, Args, JACC_DEFAULT));
  for (int D = 0; D < n(); D++) {
    double *Copy[N];
    acc_set_device_num(D, acc_device_host);
    acc_memcpy_from_device(Copy, acc_deviceptr(Ptrs), sizeof Copy);
    acc_set_device_num(0, acc_device_host);
    for (int I = 0; I < N; I++) {
      EXPECT_EQ(Copy[I], deviceAddress(D, Rows[I].data())) << "row " << I << ", device " << D;
      EXPECT_EQ(deviceCopy(D, Rows[I].data(), M), (std::vector<double>{5.0 + I, 6.0 + I, 7.0 + I}))
          << "row " << I << ", device " << D;
    }
  }
  acc_free(P);
  ASSERT_TRUE(unmapRows(Ptrs, N, M));
}

TEST_P(OpenACCTest, AttachWithoutMappedPointerOrTargetDoesNothing) {
  std::vector<int> Data(8, 1);
  Box B{Data.data(), 8};
  acc_attach(nullptr);
  acc_attach(reinterpret_cast<void **>(&B.v)); // the struct is not present
  acc_copyin(&B, sizeof B);
  acc_attach(reinterpret_cast<void **>(&B.v)); // its target is not present
  EXPECT_EQ(deviceBox(0, &B).v, Data.data());
  Box Null{nullptr, 0};
  acc_copyin(&Null, sizeof Null);
  acc_attach(reinterpret_cast<void **>(&Null.v));
  EXPECT_EQ(deviceBox(0, &Null).v, nullptr);
  acc_delete(&Null, sizeof Null);
  acc_delete(&B, sizeof B);
  // A pointer straddling the end of a mapping is partially present.
  std::vector<char> Bytes(16);
  acc_copyin(Bytes.data(), 12);
  acc_attach(reinterpret_cast<void **>(Bytes.data() + 8));
  expectError("acc_attach", JACC_ERROR_PARTIALLY_PRESENT, "partially present");
  acc_delete(Bytes.data(), 12);
}

TEST_P(OpenACCTest, CreateZeroZeroesNewCopiesOnly) {
  int N = 100;
  std::vector<int> X(N, 7), Y(N, 5);
  // Freed copies of non-zero data first: the allocator is likely to hand their memory back.
  acc_copyin(X.data(), N * sizeof(int));
  acc_delete(X.data(), N * sizeof(int));
  ASSERT_JACC(jacc_create_zero(X.data(), N * sizeof(int)));
  for (int D = 0; D < n(); D++)
    EXPECT_EQ(deviceCopy(D, X.data(), N), std::vector<int>(N, 0)) << "device " << D;
  acc_copyin(Y.data(), N * sizeof(int));
  ASSERT_JACC(jacc_create_zero(Y.data(), N * sizeof(int))); // present: count + 1 only
  EXPECT_EQ(deviceCopy(n() - 1, Y.data(), N), std::vector<int>(N, 5));
  ASSERT_JACC(jacc_exit_data(Y.data(), N * sizeof(int), 1, 1)); // finalize: both references
  EXPECT_EQ(acc_is_present(Y.data(), N * sizeof(int)), 0);
  ASSERT_JACC(jacc_exit_data(X.data(), N * sizeof(int), 1, 0));
  EXPECT_EQ(X, std::vector<int>(N, 0));
  // OpenACC exits of data no longer present do nothing.
  ASSERT_JACC(jacc_exit_data(X.data(), N * sizeof(int), 1, 0));
  ASSERT_JACC(jacc_exit_data(X.data(), N * sizeof(int), 0, 1));
  EXPECT_EQ(jacc_copyout(X.data(), N * sizeof(int)), JACC_ERROR_NOT_PRESENT)
      << "jacc_copyout keeps jacc's rule";
}

// ---- default async, wait_any, the _device forms, init/shutdown of one device ------------------

TEST_P(OpenACCTest, DefaultAsyncIsPerThreadAndNonNegative) {
  EXPECT_EQ(acc_get_default_async(), 0);
  acc_set_default_async(3);
  EXPECT_EQ(acc_get_default_async(), 3);
  std::thread([] { EXPECT_EQ(acc_get_default_async(), 0); }).join();
  acc_set_default_async(acc_async_sync);
  EXPECT_EQ(acc_get_default_async(), acc_async_sync);
  acc_set_default_async(acc_async_noval);
  EXPECT_EQ(acc_get_default_async(), 0) << "acc_async_noval: the initial value";
  acc_set_default_async(7);
  acc_set_default_async(acc_async_default);
  EXPECT_EQ(acc_get_default_async(), 0) << "acc_async_default: the initial value too";
  acc_async_test(acc_async_default); // a valid queue argument
  acc_wait(acc_async_default);
  acc_set_default_async(-5);
  expectError("acc_set_default_async", JACC_ERROR_INVALID_ARGUMENT, "async argument -5");
  EXPECT_EQ(acc_get_default_async(), 0);
}

TEST_P(OpenACCTest, WaitAnyAndTheDeviceForms) {
  std::vector<int> Flag(1, 0);
  int *flag = Flag.data();
  acc_copyin(flag, sizeof(int));
  jacc_arg args[] = {{"volatile int *flag", &flag}};
  ASSERT_JACC(jacc_kernel_push(SpinSrc, 1, args, JACC_ASYNC));
  int Last = n() - 1;
  EXPECT_EQ(acc_async_test_device(1, Last), 0);
  EXPECT_EQ(acc_async_test_all_device(0), 0);
  for (int D = 0; D < n(); D++)
    reinterpret_cast<std::atomic<int> *>(deviceAddress(D, flag))->store(1);
  int Queues[] = {acc_async_sync, 4, 2};
  EXPECT_EQ(acc_wait_any(3, Queues), 1) << "the first queue: all are complete";
  EXPECT_EQ(acc_async_test_all(), 1);
  int None[] = {acc_async_sync, acc_async_sync};
  EXPECT_EQ(acc_wait_any(2, None), -1);
  EXPECT_EQ(acc_wait_any(0, None), -1);
  EXPECT_EQ(acc_wait_any_device(3, Queues, Last), 1);
  acc_wait_device(1, Last);
  acc_wait_device_async(1, 2, 0);
  acc_wait_all_device(Last);
  acc_wait_all_device_async(acc_async_noval, 0);
  acc_async_wait(7);
  acc_async_wait_all();
  EXPECT_EQ(acc_async_test_device(acc_async_noval, 0), 1);
  EXPECT_EQ(acc_async_test_all_device(Last), 1);
  acc_wait_all_device(n());
  expectError("acc_wait_all_device", JACC_ERROR_INVALID_ARGUMENT, "does not exist");
  int Bad[] = {-7};
  EXPECT_EQ(acc_wait_any(1, Bad), -1);
  expectError("acc_wait_any", JACC_ERROR_INVALID_ARGUMENT, "async argument -7");
  acc_delete(flag, sizeof(int));
}

TEST_P(OpenACCTest, InitAndShutdownOfOneDevice) {
  acc_device_t T = acc_get_device_type();
  int Last = acc_get_num_devices(T) - 1;
  acc_init_device(Last, T);
  acc_init_device(Last + 1, T);
  expectError("acc_init_device", JACC_ERROR_INVALID_ARGUMENT, "does not exist");
  acc_init_device(-1, T);
  expectError("acc_init_device", JACC_ERROR_INVALID_ARGUMENT, "is negative");
  std::vector<int> X(8, 1);
  acc_copyin(X.data(), 8 * sizeof(int));
  acc_set_device_num(Last, T);
  acc_shutdown_device(Last + 1, T);
  expectError("acc_shutdown_device", JACC_ERROR_INVALID_ARGUMENT, "does not exist");
  EXPECT_EQ(acc_is_present(X.data(), 8 * sizeof(int)), 1);
  // jacc cannot release one device alone: every device goes, as with acc_shutdown.
  acc_shutdown_device(Last, T);
  EXPECT_EQ(acc_get_device_num(T), 0);
  EXPECT_EQ(acc_is_present(X.data(), 8 * sizeof(int)), 0) << "reinitialised without the data";
}

TEST_P(OpenACCTest, DeprecatedPresentOrNames) {
  std::vector<int> X = iota(16, 0), Y(16, 0);
  size_t Bytes = 16 * sizeof(int);
  void *D = acc_present_or_copyin(X.data(), Bytes);
  EXPECT_EQ(D, acc_deviceptr(X.data()));
  EXPECT_EQ(acc_pcopyin(X.data(), Bytes), D) << "present: the same copy";
  void *E = acc_present_or_create(Y.data(), Bytes);
  EXPECT_EQ(acc_pcreate(Y.data(), Bytes), E);
  acc_delete(X.data(), Bytes);
  EXPECT_EQ(acc_is_present(X.data(), Bytes), 1) << "two references: one left";
  acc_delete_finalize(X.data(), Bytes);
  acc_delete_finalize(Y.data(), Bytes);
  EXPECT_EQ(acc_is_present(Y.data(), Bytes), 0);
}

// With several devices, acc_set_device_num(n) addresses device n alone: its memory, its copies.
TEST_P(OpenACCTest, CurrentDeviceAddressesOneDevicesMemory) {
  int Last = n() - 1;
  std::vector<int> Src = iota(32, 4), Out(32, 0);
  acc_set_device_num(Last, acc_device_default);
  int *A = static_cast<int *>(acc_malloc(32 * sizeof(int)));
  acc_memcpy_to_device(A, Src.data(), 32 * sizeof(int));
  acc_memcpy_device(A + 16, A, 16 * sizeof(int));
  acc_memcpy_from_device(Out.data(), A + 16, 16 * sizeof(int));
  EXPECT_EQ(std::vector<int>(Out.begin(), Out.begin() + 16), iota(16, 4));
  if (n() > 1) {
    acc_set_device_num(0, acc_device_default);
    acc_memcpy_from_device(Out.data(), A, sizeof(int));
    expectError("acc_memcpy_from_device", JACC_ERROR_INVALID_ARGUMENT,
                "is not memory of the current device");
    acc_set_device_num(Last, acc_device_default);
  }
  acc_free(A);
}

/// jacc_init's error with ACC_DEVICE_TYPE and ACC_DEVICE_NUM set so (null: unset); "" when it
/// succeeds. The runtime is finalised again either way.
std::string accVarsInitError(const char *Type, const char *Num) {
  jacc::ScopedEnv T("ACC_DEVICE_TYPE", Type), N("ACC_DEVICE_NUM", Num);
  EXPECT_EQ(jacc_finalize(), JACC_SUCCESS);
  std::string Error = jacc_init() == JACC_SUCCESS ? "" : jacc_last_error();
  EXPECT_EQ(jacc_finalize(), JACC_SUCCESS);
  return Error;
}

TEST_P(OpenACCTest, AccDeviceNumIsTheCurrentDeviceOfThreadsThatChoseNone) {
  int Last = n() - 1;
  jacc::ScopedEnv Num("ACC_DEVICE_NUM", std::to_string(Last).c_str());
  jacc::ScopedEnv Type("ACC_DEVICE_TYPE", "HOST");
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  int Seen = -1;
  std::thread([&] { Seen = acc_get_device_num(acc_device_host); }).join();
  EXPECT_EQ(Seen, Last);
  // A thread's own choice wins, as acc_set_device_num's does over ACC_DEVICE_NUM.
  std::thread([&] {
    acc_set_device_num(0, acc_device_host);
    Seen = acc_get_device_num(acc_device_default);
  }).join();
  EXPECT_EQ(Seen, 0);
}

TEST_P(OpenACCTest, BadAccDeviceVariablesFailInitNamingThem) {
  EXPECT_EQ(accVarsInitError("multicore", "0"), "");
  EXPECT_EQ(accVarsInitError("bogus", nullptr),
            "ACC_DEVICE_TYPE='bogus' is not a device type: use host or multicore (the CPU) or "
            "nvidia (NVIDIA GPUs), or unset it");
  EXPECT_EQ(accVarsInitError("nvidia", nullptr),
            "ACC_DEVICE_TYPE=nvidia names no device of JACC_DEVICES: it has no nvidia device; "
            "change one of the two");
  std::string Count = std::to_string(n());
  EXPECT_EQ(accVarsInitError(nullptr, Count.c_str()),
            "ACC_DEVICE_NUM=" + Count + " is out of range: JACC_DEVICES has " + Count +
                " host device(s), numbered 0 to " + std::to_string(n() - 1));
  EXPECT_EQ(accVarsInitError("host", "-1"),
            "ACC_DEVICE_NUM='-1' is not a device number: use 0, 1, ... (jacc-info lists the "
            "devices)");
  ASSERT_JACC(jacc_init()); // TearDown finalises
}

JACC_DEVICE_CONFIGS(OpenACCTest);

// Abort by default: in a child process (death tests), once rather than per configuration.
class OpenACCDeathTest : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe"); // jacc runs device threads
    setenv("JACC_DEVICES", "host:2", 1);
    ASSERT_JACC(jacc_finalize());
  }
  void TearDown() override { EXPECT_JACC(jacc_finalize()); }

  /// A partially present copyout, with the error convention as the environment sets it.
  static void failingCopyout(const char *Mode) {
    jacc_set_acc_error_handler(nullptr);
    if (Mode)
      setenv("JACC_ACC_ERRORS", Mode, 1);
    else
      unsetenv("JACC_ACC_ERRORS");
    static int v[4];
    acc_copyin(v, sizeof v);
    acc_copyout(v + 2, sizeof v);
  }
};

TEST_F(OpenACCDeathTest, ErrorsAbortByDefault) {
  EXPECT_DEATH(failingCopyout(nullptr),
               "OpenACC runtime error: acc_copyout: \\[0x[0-9a-f]+,\\+16\\] is partially present");
  EXPECT_DEATH(failingCopyout("abort"), "OpenACC runtime error: acc_copyout: ");
  EXPECT_DEATH(failingCopyout("sometimes"), "JACC_ACC_ERRORS='sometimes' is not valid");
  EXPECT_DEATH(
      {
        jacc_set_acc_error_handler(nullptr);
        unsetenv("JACC_ACC_ERRORS");
        acc_set_device_type(acc_device_nvidia);
      },
      "OpenACC runtime error: acc_set_device_type: there is no acc_device_nvidia device");
}

} // namespace
