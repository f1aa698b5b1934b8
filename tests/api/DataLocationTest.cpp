// End to end: Gecko's memory at a location (docs/locations.md, "Memory at a location"). Data
// mapped while a data location is chosen has copies on the devices under it only; kernels on
// those devices compute with it, a kernel whose devices include one without a copy fails naming
// the array. The copies are seen per device (acc_deviceptr, acc_is_present) and in the bytes
// copied in (jacc_get_stats), exactly.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/openacc.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

using jacc_test::lastError;
using jacc_test::stats;

constexpr int N = 1000;
constexpr size_t Bytes = N * sizeof(float);

const char *const Fill = "#pragma acc parallel loop present(x)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  x[i] = 2.0f * i;\n";
const char *const AddOne = "#pragma acc parallel loop present(x, y)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  y[i] = x[i] + 1.0f;\n";
const char *const Sum = "#pragma acc parallel loop present(x) reduction(+:s)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  s += x[i];\n";

/// Which devices hold a copy of P: acc_deviceptr on each as the current device (which also
/// makes that copy current), then device 0 current again.
std::vector<bool> copiesOf(void *P, int Devices) {
  std::vector<bool> Has;
  for (int D = 0; D < Devices; ++D) {
    acc_set_device_num(D, acc_device_host);
    Has.push_back(acc_deviceptr(P) != nullptr);
    EXPECT_EQ(acc_is_present(P, Bytes), Has.back() ? 1 : 0) << "device " << D;
  }
  acc_set_device_num(0, acc_device_host);
  return Has;
}

/// Devices First..Devices-1 have a copy, the others none.
std::vector<bool> from(int First, int Devices) {
  std::vector<bool> V(Devices, false);
  for (int D = First; D < Devices; ++D)
    V[D] = true;
  return V;
}

/// Whether Message holds Part (printing the message when not).
::testing::AssertionResult names(const std::string &Message, const std::string &Part) {
  if (Message.find(Part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << Message << "\" lacks \"" << Part << "\"";
}

/// A `double **` argument: Rows rows of Cols ones and the array of pointers to them.
struct RowsOfOnes {
  static constexpr int Rows = 4, Cols = 8;
  std::vector<std::vector<double>> Data{Rows, std::vector<double>(Cols, 1.0)};
  double *Ptrs[Rows];
  RowsOfOnes() {
    for (int I = 0; I < Rows; ++I)
      Ptrs[I] = Data[I].data();
  }
  /// Every element is V.
  void expectAll(double V) const {
    for (int I = 0; I < Rows; ++I)
      for (int J = 0; J < Cols; ++J)
        ASSERT_EQ(Data[I][J], V) << I << ", " << J;
  }
};

/// host:1 to host:4 and the locations of the devices' own hierarchy (one per device under
/// "devices"), with "tail" (virtual, under the root) over every device but the first.
class DataLocationTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    X.assign(N, 0);
    Y.assign(N, 0);
  }
  void TearDown() override {
    jacc_set_data_location(nullptr);
    jacc_set_location(nullptr);
    DeviceTest::TearDown();
  }
  /// "tail": host:1 .. host:N-1.
  void makeTail() {
    ASSERT_JACC(jacc_location_add("tail"));
    ASSERT_JACC(jacc_location_add_child("devices", "tail"));
    for (int D = 1; D < devices(); ++D)
      ASSERT_JACC(jacc_location_add_child("tail", ("host:" + std::to_string(D)).c_str()));
  }
  /// Source (which uses x, and y when it names it) pushed with Flags.
  jacc_status push(const std::string &Source, unsigned Flags = JACC_FORCE_SPLIT) {
    float *x = X.data(), *y = Y.data();
    jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}, {"float *y", &y}};
    int Used = Source.find("y[") == std::string::npos ? 2 : 3;
    return jacc_kernel_push(Source.c_str(), Used, Args, Flags);
  }
  /// x = 2i, then y = x + 1, both pushed with Flags (over copies of -1, so that a kernel that
  /// did not run shows); y copied back and checked.
  void fillAndAddOne(unsigned Flags) {
    std::fill(X.begin(), X.end(), -1.0f);
    std::fill(Y.begin(), Y.end(), -1.0f);
    ASSERT_JACC(jacc_update_device(X.data(), Bytes));
    ASSERT_JACC(jacc_update_device(Y.data(), Bytes));
    ASSERT_JACC(push(Fill, Flags));
    ASSERT_JACC(push(AddOne, Flags));
    ASSERT_JACC(jacc_wait());
    ASSERT_JACC(jacc_update_self(Y.data(), Bytes));
    for (int I = 0; I < N; ++I)
      ASSERT_EQ(Y[I], 2.0f * I + 1) << "y[" << I << "]";
  }

  /// "tail", chosen for new data, and x and y copied in there.
  void mapBothAtTail() {
    ASSERT_NO_FATAL_FAILURE(makeTail());
    ASSERT_JACC(jacc_set_data_location("tail"));
    ASSERT_JACC(jacc_copyin(X.data(), Bytes));
    ASSERT_JACC(jacc_copyin(Y.data(), Bytes));
  }
  /// fillAndAddOne split, then duplicated, at "tail"; x and y deleted after.
  void computeAtTailThenDelete() {
    ASSERT_JACC(jacc_set_location("tail"));
    ASSERT_NO_FATAL_FAILURE(fillAndAddOne(JACC_FORCE_SPLIT));
    ASSERT_NO_FATAL_FAILURE(fillAndAddOne(JACC_FORCE_DUPLICATE));
    ASSERT_JACC(jacc_delete(X.data(), Bytes));
    ASSERT_JACC(jacc_delete(Y.data(), Bytes));
  }

  int n = N;
  std::vector<float> X, Y;
};

/// The same on host:2 to host:4, where "tail" leaves device 0 out.
class DataLocationSubsetTest : public DataLocationTest {};

// Copies only under the location: the bytes copied in are those of its devices, each of them
// has an address for the data and the others none; the data is mapped all the same.
TEST_P(DataLocationSubsetTest, CopiesExistOnlyUnderTheLocation) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  ASSERT_JACC(jacc_set_data_location("tail"));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes));
  EXPECT_EQ(stats().bytes_host_to_device, Bytes * (devices() - 1));
  EXPECT_EQ(jacc_is_present(X.data(), Bytes), 1);
  EXPECT_EQ(copiesOf(X.data(), devices()), from(1, devices()));
  // acc_copyin of it (present) gives no address on device 0, which has no copy.
  EXPECT_EQ(acc_copyin(X.data(), Bytes), nullptr);
  acc_set_device_num(1, acc_device_host);
  EXPECT_NE(acc_copyin(X.data(), Bytes), nullptr);
  acc_set_device_num(0, acc_device_host);
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  EXPECT_EQ(jacc_is_present(X.data(), Bytes), 0);
}

// Kernels targeting the location compute the right result, split among its devices only: the
// second kernel, on host:1 alone, fetches exactly the part of x the other devices of "tail"
// wrote (their even shares).
TEST_P(DataLocationSubsetTest, KernelsAtTheLocationSplitAmongItsDevices) {
  ASSERT_NO_FATAL_FAILURE(mapBothAtTail());
  ASSERT_JACC(jacc_set_data_location(nullptr));
  ASSERT_JACC(jacc_set_location("tail"));
  ASSERT_JACC(push(Fill));
  jacc_reset_stats();
  ASSERT_JACC(jacc_set_location("host:1"));
  ASSERT_JACC(push(AddOne));
  int Tail = devices() - 1;
  EXPECT_EQ(stats().bytes_device_to_device, (N - N / Tail) * sizeof(float));
  EXPECT_EQ(stats().split_launches, 1u);
  ASSERT_JACC(jacc_copyout(Y.data(), Bytes));
  ASSERT_JACC(jacc_copyout(X.data(), Bytes));
  for (int I = 0; I < N; ++I) {
    ASSERT_EQ(X[I], 2.0f * I) << "x[" << I << "]";
    ASSERT_EQ(Y[I], 2.0f * I + 1) << "y[" << I << "]";
  }
}

// Split, duplicate and asynchronous launches and reductions, each on the location's devices.
TEST_P(DataLocationSubsetTest, EveryKindOfLaunchWorksAtTheLocation) {
  ASSERT_NO_FATAL_FAILURE(mapBothAtTail());
  ASSERT_JACC(jacc_set_location("tail"));
  for (unsigned Flags : {unsigned(JACC_FORCE_SPLIT), unsigned(JACC_FORCE_DUPLICATE),
                         unsigned(JACC_FORCE_SPLIT | JACC_ASYNC),
                         unsigned(JACC_FORCE_DUPLICATE | JACC_ASYNC), 0u}) {
    SCOPED_TRACE("flags " + std::to_string(Flags));
    ASSERT_NO_FATAL_FAILURE(fillAndAddOne(Flags));
    for (unsigned Mode : {JACC_FORCE_SPLIT, JACC_FORCE_DUPLICATE}) {
      double s = 0;
      float *x = X.data();
      jacc_arg Args[] = {{"int n", &n}, {"const float *x", &x}, {"double s", &s}};
      ASSERT_JACC(jacc_kernel_push(Sum, 3, Args, Mode));
      EXPECT_EQ(s, double(N) * (N - 1)) << "mode " << Mode;
    }
  }
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  ASSERT_JACC(jacc_delete(Y.data(), Bytes));
}

// A kernel whose devices include one without a copy fails, naming the array, where it lives,
// the device and the fix; nothing changed: the kernel at the location then works.
TEST_P(DataLocationSubsetTest, AKernelOnADeviceWithoutACopyFailsNamingTheArray) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  ASSERT_JACC(jacc_copyin(Y.data(), Bytes)); // everywhere
  ASSERT_JACC(jacc_set_data_location("tail"));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes));
  // No location targeted: the root, every device.
  EXPECT_EQ(push(Fill), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = lastError();
  EXPECT_TRUE(names(Message, "targets location 'devices' (device")); // the root
  EXPECT_TRUE(names(Message, "'x' [0x"));
  EXPECT_TRUE(names(Message, "lives at location 'tail' (device"));
  EXPECT_TRUE(names(Message, "device 0 has no copy of it"));
  EXPECT_TRUE(names(Message, "#pragma jacc location(tail)"));
  EXPECT_TRUE(names(Message, "jacc_set_data_location"));
  // The kernel's own location, outside: named too.
  EXPECT_EQ(push("#pragma jacc location(host:0)\n" + std::string(Fill)),
            JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "targets location 'host:0' (device 0)"));
  // Inside: the kernel runs, with y (everywhere) too, whatever the mode.
  ASSERT_NO_FATAL_FAILURE(computeAtTailThenDelete());
}

// Data the kernel writes at the location that also lives elsewhere (y, everywhere) is current
// on the location's devices only afterwards: a kernel on every device then reads their result,
// whether the writer ran split (probed, or with the eager exchange) or duplicated.
TEST_P(DataLocationSubsetTest, DataWrittenAtTheLocationIsFetchedFromItElsewhere) {
  for (unsigned Flags : {unsigned(JACC_FORCE_SPLIT), unsigned(JACC_FORCE_DUPLICATE)})
    for (const char *Exchange : {"demand", "eager"}) {
      SCOPED_TRACE(std::string(Exchange) + ", flags " + std::to_string(Flags));
      jacc::ScopedEnv E("JACC_EXCHANGE", Exchange);
      ASSERT_JACC(jacc_finalize());
      ASSERT_JACC(jacc_init());
      ASSERT_NO_FATAL_FAILURE(makeTail());
      std::vector<float> Z(N, -1);
      std::fill(Y.begin(), Y.end(), 0.0f);
      ASSERT_JACC(jacc_copyin(Y.data(), Bytes)); // everywhere: y = 0
      ASSERT_JACC(jacc_copyin(Z.data(), Bytes));
      ASSERT_JACC(jacc_set_data_location("tail"));
      ASSERT_JACC(jacc_copyin(X.data(), Bytes));
      ASSERT_JACC(jacc_set_data_location(nullptr));
      ASSERT_JACC(jacc_set_location("tail"));
      ASSERT_NO_FATAL_FAILURE(fillAndAddOne(Flags)); // y = 2i + 1 on tail's devices
      ASSERT_JACC(jacc_set_location(nullptr));
      float *y = Y.data(), *z = Z.data();
      jacc_arg Args[] = {{"int n", &n}, {"float *x", &y}, {"float *y", &z}};
      ASSERT_JACC(jacc_kernel_push(AddOne, 3, Args, JACC_FORCE_SPLIT)); // z = y + 1
      ASSERT_JACC(jacc_copyout(Z.data(), Bytes));
      for (int I = 0; I < N; ++I)
        ASSERT_EQ(Z[I], 2.0f * I + 2) << "z[" << I << "]";
      ASSERT_JACC(jacc_delete(X.data(), Bytes));
      ASSERT_JACC(jacc_delete(Y.data(), Bytes));
    }
}

// Updates, copyout and delete act on the location's copies only.
TEST_P(DataLocationSubsetTest, UpdatesAndExitsUseTheLocationsCopies) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  ASSERT_JACC(jacc_set_data_location("tail"));
  ASSERT_JACC(jacc_create(X.data(), Bytes));
  ASSERT_JACC(jacc_create(Y.data(), Bytes));
  EXPECT_EQ(stats().bytes_host_to_device, 0u);
  for (int I = 0; I < N; ++I)
    X[I] = 2.0f * I;
  ASSERT_JACC(jacc_update_device(X.data(), Bytes));
  EXPECT_EQ(stats().bytes_host_to_device, Bytes * (devices() - 1));
  ASSERT_JACC(jacc_set_location("tail"));
  ASSERT_JACC(push(AddOne));
  jacc_reset_stats();
  ASSERT_JACC(jacc_update_self(Y.data(), Bytes));
  EXPECT_EQ(stats().bytes_device_to_host, Bytes);
  EXPECT_EQ(stats().bytes_device_to_device, 0u);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 2.0f * I + 1);
  std::fill(Y.begin(), Y.end(), 0.0f);
  ASSERT_JACC(jacc_copyout(Y.data(), Bytes));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 2.0f * I + 1);
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  EXPECT_EQ(jacc_is_present(X.data(), 1), 0);
}

// Mapping present data at a location that has a device without its copy is an error (the
// mapping keeps its devices; its count is unchanged); at a location inside it, or with no
// location chosen, it is counted as OpenACC's present-or.
TEST_P(DataLocationSubsetTest, PresentDataAtAnotherLocationIsAnError) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  ASSERT_JACC(jacc_set_data_location("tail"));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes));
  ASSERT_JACC(jacc_set_data_location("devices"));
  EXPECT_EQ(jacc_copyin(X.data(), Bytes), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = lastError();
  EXPECT_TRUE(names(Message, "jacc_copyin: [0x"));
  EXPECT_TRUE(names(Message, "is present at location 'tail'"));
  EXPECT_TRUE(names(Message, "no copy on device 0 of location 'devices'"));
  EXPECT_TRUE(names(Message, "exit it first"));
  ASSERT_JACC(jacc_set_data_location(("host:" + std::to_string(devices() - 1)).c_str()));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes)); // inside: counted
  ASSERT_JACC(jacc_set_data_location(nullptr));
  ASSERT_JACC(jacc_create(X.data(), Bytes)); // no location chosen: counted
  EXPECT_EQ(copiesOf(X.data(), devices()), from(1, devices()));
  for (int I = 0; I < 3; ++I) {
    EXPECT_EQ(jacc_is_present(X.data(), Bytes), 1) << I;
    ASSERT_JACC(jacc_delete(X.data(), Bytes));
  }
  EXPECT_EQ(jacc_is_present(X.data(), Bytes), 0);
}

// The hierarchy changing after the data was mapped: the data keeps its devices. A device put
// under its location has no copy (a kernel there fails naming it); one taken out still has its
// copy, and kernels at the location run without it. Data mapped afterwards follows the new
// hierarchy.
TEST_P(DataLocationSubsetTest, DataKeepsItsDevicesWhenTheHierarchyChanges) {
  ASSERT_NO_FATAL_FAILURE(mapBothAtTail());
  ASSERT_JACC(jacc_location_add_child("tail", "host:0"));
  ASSERT_JACC(jacc_set_location("tail"));
  EXPECT_EQ(push(Fill), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "device 0 has no copy of it"));
  std::vector<float> Z(N, 0);
  ASSERT_JACC(jacc_copyin(Z.data(), Bytes)); // tail now has every device
  EXPECT_EQ(copiesOf(Z.data(), devices()), from(0, devices()));
  ASSERT_JACC(jacc_delete(Z.data(), Bytes));
  ASSERT_JACC(jacc_location_add_child("devices", "host:0")); // back out
  std::string Last = "host:" + std::to_string(devices() - 1);
  if (devices() > 2) { // tail keeps a device
    ASSERT_JACC(jacc_location_add_child("devices", Last.c_str()));
  }
  ASSERT_NO_FATAL_FAILURE(fillAndAddOne(JACC_FORCE_SPLIT));
  EXPECT_EQ(copiesOf(X.data(), devices()), from(1, devices()));
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  ASSERT_JACC(jacc_delete(Y.data(), Bytes));
}

// A thread's own data location (what jaccc brackets a directive's clauses with) wins over the
// process's, nests, and is the thread's alone.
TEST_P(DataLocationSubsetTest, AThreadsDataLocationWinsAndNests) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  std::vector<float> A(N), B(N), C(N), D(N);
  ASSERT_JACC(jacc_set_data_location("tail"));
  ASSERT_JACC(jacc_data_location_begin("host:0"));
  ASSERT_JACC(jacc_copyin(A.data(), Bytes));
  std::thread Other([&] { EXPECT_JACC(jacc_copyin(D.data(), Bytes)); });
  Other.join();
  ASSERT_JACC(jacc_data_location_begin(nullptr));
  ASSERT_JACC(jacc_copyin(B.data(), Bytes));
  ASSERT_JACC(jacc_data_location_end());
  ASSERT_JACC(jacc_data_location_end());
  ASSERT_JACC(jacc_copyin(C.data(), Bytes));
  std::vector<bool> OnlyFirst(devices(), false);
  OnlyFirst[0] = true;
  EXPECT_EQ(copiesOf(A.data(), devices()), OnlyFirst);
  EXPECT_EQ(copiesOf(B.data(), devices()), from(0, devices()));
  EXPECT_EQ(copiesOf(C.data(), devices()), from(1, devices()));
  EXPECT_EQ(copiesOf(D.data(), devices()), from(1, devices()));
  for (std::vector<float> *V : {&A, &B, &C, &D})
    ASSERT_JACC(jacc_delete(V->data(), Bytes));
}

// OpenACC routines on data at a location: copies between devices need both copies, host_data
// needs the current device's, and acc_map_data maps on the location's devices (the current
// device among them).
TEST_P(DataLocationSubsetTest, OpenACCRoutinesNeedTheCurrentDevicesCopy) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  ASSERT_JACC(jacc_set_data_location("tail"));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes));
  jacc::ScopedEnv Errors("JACC_ACC_ERRORS", "return");
  acc_memcpy_d2d(X.data(), X.data(), Bytes, 0, 1);
  EXPECT_TRUE(names(lastError(), "acc_memcpy_d2d's destination: [0x"));
  EXPECT_TRUE(names(lastError(), "has no copy on device 0"));
  void *Device = nullptr;
  EXPECT_EQ(jacc_use_device(X.data(), &Device), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(Device, nullptr);
  EXPECT_TRUE(names(lastError(), "host_data use_device on the current device"));
  acc_set_device_num(1, acc_device_host);
  ASSERT_JACC(jacc_use_device(X.data(), &Device));
  EXPECT_EQ(Device, acc_deviceptr(X.data()));
  // acc_map_data: device 1's memory, copies on the other devices of tail only.
  void *Mine = acc_malloc(Bytes);
  ASSERT_NE(Mine, nullptr);
  jacc_reset_stats();
  acc_map_data(Y.data(), Mine, Bytes);
  EXPECT_EQ(lastError(), "");
  EXPECT_EQ(copiesOf(Y.data(), devices()), from(1, devices()));
  EXPECT_EQ(stats().bytes_device_to_device, Bytes * (devices() - 2));
  acc_unmap_data(Y.data());
  acc_set_device_num(0, acc_device_host);
  acc_map_data(Y.data(), Mine, Bytes); // the current device is not under tail
  EXPECT_TRUE(names(lastError(), "the current device 0 is not under location 'tail'"));
  EXPECT_EQ(jacc_is_present(Y.data(), Bytes), 0);
  acc_set_device_num(1, acc_device_host);
  acc_free(Mine);
  acc_set_device_num(0, acc_device_host);
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
}

// Pointers attached in data that lives everywhere to rows that live at a location: a kernel on
// every device fails naming where it reaches them; at the location it follows them.
TEST_P(DataLocationSubsetTest, AttachedRowsAtALocationLimitTheKernel) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  RowsOfOnes R;
  constexpr int Rows = RowsOfOnes::Rows, Cols = RowsOfOnes::Cols;
  double **Ptrs = R.Ptrs;
  ASSERT_JACC(jacc_data_location_begin("tail"));
  for (int I = 0; I < Rows; ++I)
    ASSERT_JACC(jacc_copyin(Ptrs[I], Cols * sizeof(double)));
  ASSERT_JACC(jacc_data_location_end());
  ASSERT_JACC(jacc_copyin(Ptrs, sizeof R.Ptrs));
  for (int I = 0; I < Rows; ++I)
    ASSERT_JACC(jacc_attach(reinterpret_cast<void **>(&Ptrs[I])));
  const char *Scale = "#pragma acc parallel loop present(a)\n"
                      "for (int i = 0; i < r; i++)\n"
                      "  for (int j = 0; j < c; j++) a[i][j] *= 3;\n";
  int r = Rows, c = Cols;
  double **a = Ptrs;
  jacc_arg Args[] = {{"int r", &r}, {"int c", &c}, {"double **a", &a}};
  EXPECT_EQ(jacc_kernel_push(Scale, 3, Args, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "what a pointer in 'a' points to"));
  ASSERT_JACC(jacc_set_location("tail"));
  ASSERT_JACC(jacc_kernel_push(Scale, 3, Args, JACC_DEFAULT));
  ASSERT_TRUE(unmapRows(Ptrs, Rows, Cols));
  R.expectAll(3.0);
}

// A kernel at the location writes rows attached in a pointer array, both mapped everywhere
// (with data of its own at the location): afterwards only the location's devices hold them. A
// kernel on every device then fetches the pointer array too, and each device's copy must point
// at its own rows again, not at those of the device it was fetched from.
TEST_P(DataLocationSubsetTest, AttachedPointersFetchedFromAnotherDevicePointAtTheirOwnRows) {
  ASSERT_NO_FATAL_FAILURE(makeTail());
  RowsOfOnes R;
  constexpr int Rows = RowsOfOnes::Rows, Cols = RowsOfOnes::Cols;
  double **Ptrs = R.Ptrs;
  ASSERT_TRUE(mapRows(Ptrs, Rows, Cols));
  std::vector<double> Factor(1, 3.0);
  ASSERT_JACC(jacc_data_location_begin("tail"));
  ASSERT_JACC(jacc_copyin(Factor.data(), sizeof(double)));
  ASSERT_JACC(jacc_data_location_end());
  int r = Rows, c = Cols;
  double **a = Ptrs, *f = Factor.data();
  jacc_arg Args[] = {{"int r", &r}, {"int c", &c}, {"double **a", &a}, {"const double *f", &f}};
  ASSERT_JACC(jacc_set_location("tail"));
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(a, f)\n"
                               "for (int i = 0; i < r; i++)\n"
                               "  for (int j = 0; j < c; j++) a[i][j] *= f[0];\n",
                               4, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_set_location(nullptr));
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(a)\n"
                               "for (int i = 0; i < r; i++)\n"
                               "  for (int j = 0; j < c; j++) a[i][j] += 1;\n",
                               3, Args, JACC_DEFAULT));
  ASSERT_TRUE(unmapRows(Ptrs, Rows, Cols));
  R.expectAll(4.0);
  ASSERT_JACC(jacc_delete(Factor.data(), sizeof(double)));
}

// One memory for every device (JACC_MEMORY=unified): the same rule, so that a program behaves
// alike in both modes. The devices without a copy have no address for the data.
TEST_P(DataLocationSubsetTest, UnifiedMemoryKeepsTheRule) {
  jacc::ScopedEnv Memory("JACC_MEMORY", "unified");
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  ASSERT_NO_FATAL_FAILURE(mapBothAtTail());
  EXPECT_EQ(stats().bytes_host_to_device, 0u); // the program's memory, shared
  EXPECT_EQ(copiesOf(X.data(), devices()), from(1, devices()));
  EXPECT_EQ(push(Fill), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "device 0 has no copy of it"));
  ASSERT_NO_FATAL_FAILURE(computeAtTailThenDelete());
}

// Unknown and empty locations: errors that map nothing and change no setting.
TEST_P(DataLocationTest, UnknownOrEmptyLocationsAreErrors) {
  EXPECT_EQ(jacc_set_data_location("nowhere"), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "jacc_set_data_location: no location is named 'nowhere'"));
  EXPECT_EQ(jacc_data_location_begin("nowhere"), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "jacc_data_location_begin: no location is named 'nowhere'"));
  EXPECT_EQ(jacc_data_location_end(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "no jacc_data_location_begin to end"));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes)); // still everywhere
  EXPECT_EQ(copiesOf(X.data(), devices()), from(0, devices()));
  ASSERT_JACC(jacc_location_add("empty"));
  ASSERT_JACC(jacc_set_data_location("empty"));
  EXPECT_EQ(jacc_copyin(Y.data(), Bytes), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "jacc_copyin: location 'empty', where new data is to live, "
                                 "has no device under it"));
  EXPECT_EQ(jacc_is_present(Y.data(), Bytes), 0);
  // Present data is only counted, wherever it lives (its location is not asked for again).
  ASSERT_JACC(jacc_set_data_location(nullptr));
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
}

// The last device's own location, on any number of devices (host:1: every device): data and
// kernels there, the result right, the copy only there.
TEST_P(DataLocationTest, DataAndKernelsAtOneDevice) {
  std::string Last = "host:" + std::to_string(devices() - 1);
  ASSERT_JACC(jacc_set_data_location(Last.c_str()));
  ASSERT_JACC(jacc_copyin(X.data(), Bytes));
  ASSERT_JACC(jacc_copyin(Y.data(), Bytes));
  EXPECT_EQ(stats().bytes_host_to_device, 2 * Bytes);
  ASSERT_JACC(jacc_set_location(Last.c_str()));
  ASSERT_NO_FATAL_FAILURE(fillAndAddOne(0));
  EXPECT_EQ(copiesOf(X.data(), devices()), from(devices() - 1, devices()));
  ASSERT_JACC(jacc_delete(X.data(), Bytes));
  ASSERT_JACC(jacc_delete(Y.data(), Bytes));
}

INSTANTIATE_TEST_SUITE_P(Devices, DataLocationTest,
                         ::testing::Values("host:1", "host:2", "host:3", "host:4"),
                         deviceConfigName);
INSTANTIATE_TEST_SUITE_P(Devices, DataLocationSubsetTest,
                         ::testing::Values("host:2", "host:3", "host:4"), deviceConfigName);

// The paper's Figure 4 (docs/locations.md) on host:6: data allocated at LocG lives on the four
// "GPUs" (host:2 to host:5); kernels at the root reach it through LocB. Once the sockets join
// LocB (Figure 3e), kernels there fail naming them; kernels at LocG still run. Data at the root
// memory LocA lives on the devices of its sub-tree.
TEST(DataLocationFigure4Test, DataAtLocGLivesOnTheGpus) {
  std::string File = ::testing::TempDir() + "jacc-figure4-data.conf";
  {
    std::FILE *F = std::fopen(File.c_str(), "w");
    ASSERT_TRUE(F);
    std::fputs(jacc_test::Figure4Config, F);
    std::fclose(F);
  }
  ASSERT_JACC(jacc_finalize());
  jacc::ScopedEnv Devices("JACC_DEVICES", "host:6");
  jacc::ScopedEnv Config("JACC_CONFIG", File.c_str());
  ASSERT_JACC(jacc_init());
  jacc_reset_stats();
  int n = N;
  std::vector<float> X(N), Y(N), Z(N);
  float *x = X.data(), *y = Y.data();
  jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}, {"float *y", &y}};
  jacc_arg FillArgs[] = {{"int n", &n}, {"float *x", &x}};
  ASSERT_JACC(jacc_set_data_location("LocG"));
  ASSERT_JACC(jacc_copyin(x, Bytes));
  ASSERT_JACC(jacc_copyin(y, Bytes));
  EXPECT_EQ(stats().bytes_host_to_device, 2 * 4 * Bytes);
  EXPECT_EQ(copiesOf(x, 6), from(2, 6));
  ASSERT_JACC(jacc_kernel_push(Fill, 2, FillArgs, JACC_FORCE_SPLIT)); // at the root, LocA
  ASSERT_JACC(jacc_kernel_push(AddOne, 3, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_location_add_child("LocB", "LocN"));
  ASSERT_JACC(jacc_set_location("LocB"));
  EXPECT_EQ(jacc_kernel_push(Fill, 2, FillArgs, JACC_FORCE_SPLIT), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(names(lastError(), "targets location 'LocB' (devices 0, 1, 2, 3, 4, 5)"));
  EXPECT_TRUE(names(lastError(), "lives at location 'LocG' (devices 2, 3, 4, 5)"));
  EXPECT_TRUE(names(lastError(), "devices 0, 1 have no copy of it"));
  ASSERT_JACC(jacc_set_location("LocG"));
  ASSERT_JACC(jacc_kernel_push(AddOne, 3, Args, JACC_FORCE_SPLIT));
  ASSERT_JACC(jacc_copyout(y, Bytes));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 2.0f * I + 1) << I;
  // LocA, a memory: the devices of its sub-tree, now the sockets too.
  ASSERT_JACC(jacc_set_data_location("LocA"));
  ASSERT_JACC(jacc_copyin(Z.data(), Bytes));
  EXPECT_EQ(copiesOf(Z.data(), 6), from(0, 6));
  ASSERT_JACC(jacc_delete(Z.data(), Bytes));
  ASSERT_JACC(jacc_delete(x, Bytes));
  ASSERT_JACC(jacc_finalize());
  std::remove(File.c_str());
}

} // namespace
