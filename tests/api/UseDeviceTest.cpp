// host_data use_device (jacc_use_device, which jaccc's translation calls): the program writes a
// device's copy through the address it gets, as MPI_Recv into it does, and the split kernels
// that follow read those bytes on every device, not the copies the other devices held before.
#include "tests/api/Fixture.h"

#include "jacc/jacc.h"
#include "jacc/openacc.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

class UseDeviceTest : public DeviceTest {};

/// b = a on every device, split (each device reads its share of a).
void copySplit(int N, int *A, int *B) {
  jacc_arg Args[] = {{"int n", &N}, {"const int *a", &A}, {"int *b", &B}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(a, b)\n"
                               "for (int i = 0; i < n; i++) b[i] = a[i];\n",
                               3, Args, JACC_FORCE_SPLIT));
}

TEST_P(UseDeviceTest, WritesThroughTheDeviceCopyReachEveryDevicesKernel) {
  int N = 1000;
  std::vector<int> Av(N, 0), Bv(N, -1);
  int *A = Av.data(), *B = Bv.data();
  ASSERT_JACC(jacc_copyin(A, N * sizeof(int)));
  ASSERT_JACC(jacc_copyin(B, N * sizeof(int)));
  // Written from each device in turn: the last one's copy is the one the kernels read.
  for (int D = 0; D < devices(); D++) {
    acc_set_device_num(D, acc_device_host);
    void *Dev = nullptr;
    ASSERT_JACC(jacc_use_device(A + 1, &Dev)); // an interior address: the whole mapping
    ASSERT_EQ(Dev, static_cast<int *>(acc_deviceptr(A)) + 1);
    for (int I = 0; I < N; I++) // what an MPI_Recv into the device copy does
      static_cast<int *>(Dev)[I - 1] = 10 * I + D;
    copySplit(N, A, B);
    ASSERT_JACC(jacc_update_self(B, N * sizeof(int)));
    for (int I = 0; I < N; I++)
      ASSERT_EQ(Bv[I], 10 * I + D) << "element " << I << " written on device " << D;
  }
  acc_set_device_num(0, acc_device_host);
  ASSERT_JACC(jacc_delete(B, N * sizeof(int)));
  // The host gets the written copy back too.
  ASSERT_JACC(jacc_copyout(A, N * sizeof(int)));
  EXPECT_EQ(Av[N - 1], 10 * (N - 1) + devices() - 1);
}

TEST_P(UseDeviceTest, AbsentDataAndErrorsChangeNothing) {
  int X[8] = {0};
  void *Dev = &X[0];
  ASSERT_JACC(jacc_use_device(X, &Dev));
  EXPECT_EQ(Dev, nullptr) << "not mapped: null, as acc_deviceptr";
  ASSERT_JACC(jacc_copyin(X, sizeof X));
  EXPECT_EQ(jacc_use_device(X, nullptr), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(jacc_last_error()).find("jacc_use_device"), std::string::npos)
      << jacc_last_error();
  // The failed call left every copy current: device 0's copy written behind jacc's back is not
  // what the other devices read.
  int *D0 = static_cast<int *>(acc_deviceptr(X));
  D0[3] = 7;
  if (devices() > 1) {
    acc_set_device_num(devices() - 1, acc_device_host);
    EXPECT_EQ(static_cast<int *>(acc_deviceptr(X))[3], 0);
    acc_set_device_num(0, acc_device_host);
  }
  ASSERT_JACC(jacc_delete(X, sizeof X));
}

JACC_DEVICE_CONFIGS(UseDeviceTest);

} // namespace
