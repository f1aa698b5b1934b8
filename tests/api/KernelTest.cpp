#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(KernelTest, SaxpySmoke) {
  int n = 1000;
  float a = 2.0f;
  std::vector<float> xv(n, 1.0f), yv(n, 3.0f);
  float *x = xv.data(), *y = yv.data();
  ASSERT_EQ(jacc_copyin(x, n * sizeof(float)), JACC_SUCCESS) << jacc_last_error();
  ASSERT_EQ(jacc_copyin(y, n * sizeof(float)), JACC_SUCCESS) << jacc_last_error();
  jacc_arg args[] = {{"int n", &n}, {"float a", &a}, {"float *x", &x}, {"float *y", &y}};
  ASSERT_EQ(jacc_kernel_push("#pragma acc parallel loop\n"
                             "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
                             4, args, JACC_DEFAULT),
            JACC_SUCCESS)
      << jacc_last_error();
  ASSERT_EQ(jacc_copyout(y, n * sizeof(float)), JACC_SUCCESS) << jacc_last_error();
  ASSERT_EQ(jacc_delete(x, n * sizeof(float)), JACC_SUCCESS) << jacc_last_error();
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], 5.0f) << i;
}

} // namespace
