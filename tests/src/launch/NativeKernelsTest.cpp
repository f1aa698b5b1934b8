// Tests of the registry of native implementations (src/launch/NativeKernels.h): kinds, the
// choice per device, replacement, removal, and bad registrations that change nothing.
#include "src/launch/NativeKernels.h"

#include <gtest/gtest.h>

using namespace jacc;

namespace {

int hostFn(const jacc_native_part *, void *) { return 0; }
int otherHostFn(const jacc_native_part *, void *) { return 1; }
int gpuFn(const jacc_native_part *, void *) { return 2; }

const char *const Saxpy = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) y[i] += x[i];\n";
const acc_device_t Mixed[] = {acc_device_nvidia, acc_device_host, acc_device_nvidia};

/// Asserts that a registration succeeded.
void ok(llvm::Error E) { ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E)); }

TEST(NativeKernelsTest, KindsAreOpenAccDeviceTypeNames) {
  EXPECT_EQ(*nativeDeviceType("host"), acc_device_host);
  EXPECT_EQ(*nativeDeviceType("multicore"), acc_device_host);
  EXPECT_EQ(*nativeDeviceType("nvidia"), acc_device_nvidia);
  EXPECT_STREQ(nativeKindName(acc_device_host), "host");
  EXPECT_STREQ(nativeKindName(acc_device_nvidia), "nvidia");
  for (const char *Bad : {"cuda", "radeon", "", "*", "Host"}) {
    auto T = nativeDeviceType(Bad);
    ASSERT_FALSE(bool(T)) << Bad;
    std::string M = llvm::toString(T.takeError());
    EXPECT_NE(M.find("unknown device kind '" + std::string(Bad) + "'"), std::string::npos) << M;
    EXPECT_NE(M.find("\"nvidia\""), std::string::npos) << M;
  }
  auto Null = nativeDeviceType(nullptr);
  ASSERT_FALSE(bool(Null));
  EXPECT_NE(llvm::toString(Null.takeError()).find("NULL"), std::string::npos);
}

TEST(NativeKernelsTest, EachDeviceGetsItsKindsImplementation) {
  NativeKernels R;
  EXPECT_TRUE(R.choose(Saxpy, Mixed).empty()) << "nothing registered";
  int User = 0;
  ok(R.set(Saxpy, "multicore", hostFn, &User));
  NativeChoice C = R.choose(Saxpy, Mixed);
  ASSERT_EQ(C.size(), 3u);
  EXPECT_EQ(C[0].Fn, nullptr);
  EXPECT_EQ(C[1].Fn, hostFn);
  EXPECT_EQ(C[1].User, &User);
  EXPECT_EQ(C[2].Fn, nullptr);
  EXPECT_EQ(nativeKinds(C), "host devices");
  ok(R.set(Saxpy, "nvidia", gpuFn, nullptr));
  C = R.choose(Saxpy, Mixed);
  EXPECT_EQ(C[0].Fn, gpuFn);
  EXPECT_EQ(C[0].Type, acc_device_nvidia);
  EXPECT_EQ(C[2].Fn, gpuFn);
  EXPECT_EQ(nativeKinds(C), "host and nvidia devices");
  // Only the exact text: another source, or the same with a space more, has none.
  EXPECT_TRUE(R.choose("#pragma acc parallel loop\n", Mixed).empty());
  EXPECT_TRUE(R.choose((std::string(Saxpy) + " ").c_str(), Mixed).empty());
  // Devices of no registered kind: none.
  const acc_device_t HostOnly[] = {acc_device_host};
  ok(R.set(Saxpy, "host", nullptr, nullptr));
  EXPECT_TRUE(R.choose(Saxpy, HostOnly).empty());
}

TEST(NativeKernelsTest, ARegistrationReplacesTheKindsAndANullFunctionRemovesIt) {
  NativeKernels R;
  ok(R.set(Saxpy, "host", hostFn, nullptr));
  ok(R.set(Saxpy, "host", otherHostFn, nullptr));
  EXPECT_EQ(R.choose(Saxpy, Mixed)[1].Fn, otherHostFn);
  ok(R.set(Saxpy, "nvidia", gpuFn, nullptr));
  ok(R.set(Saxpy, "multicore", nullptr, nullptr)); // host devices' one goes, nvidia's stays
  NativeChoice C = R.choose(Saxpy, Mixed);
  ASSERT_EQ(C.size(), 3u);
  EXPECT_EQ(C[1].Fn, nullptr);
  EXPECT_EQ(C[0].Fn, gpuFn);
  ok(R.set(Saxpy, "nvidia", nullptr, nullptr));
  EXPECT_TRUE(R.choose(Saxpy, Mixed).empty());
  // Removing what is not there changes nothing and is no error.
  ok(R.set(Saxpy, "nvidia", nullptr, nullptr));
  EXPECT_TRUE(R.choose(Saxpy, Mixed).empty());
}

TEST(NativeKernelsTest, BadRegistrationsChangeNothing) {
  NativeKernels R;
  ok(R.set(Saxpy, "host", hostFn, nullptr));
  llvm::Error E = R.set(nullptr, "host", otherHostFn, nullptr);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("the source is NULL"), std::string::npos);
  E = R.set(Saxpy, "cuda", otherHostFn, nullptr);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("unknown device kind 'cuda'"), std::string::npos);
  E = R.set(Saxpy, nullptr, nullptr, nullptr);
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  NativeChoice C = R.choose(Saxpy, Mixed);
  ASSERT_EQ(C.size(), 3u);
  EXPECT_EQ(C[1].Fn, hostFn);
  EXPECT_EQ(C[0].Fn, nullptr);
}

} // namespace
