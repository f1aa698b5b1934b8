// Tests of the runtime's lifecycle with the compile server: jacc_finalize does not wait for a
// stuck background compile, and the runtime works after it.
#include "src/Runtime.h"

#include "jit/server/CompileServer.h"

#include "../ScopedEnv.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace jacc;

namespace {

const char *Kernel = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = 2 * i;\n";

/// Push Kernel over x[0:n] (mapped for the push) and check its result.
void pushAndCheck(int n) {
  Runtime &R = Runtime::instance();
  float X[64] = {};
  float *XP = X;
  jacc_arg Args[] = {{"float *x", &XP}, {"int n", &n}};
  ASSERT_FALSE(bool(R.enterData(X, sizeof X, true, "test"))) << "copyin";
  llvm::Error E = R.push(Kernel, 2, Args, 0);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  ASSERT_FALSE(bool(R.exitData(X, sizeof X, true, "test"))) << "copyout";
  for (int I = 0; I < n; ++I)
    ASSERT_EQ(X[I], 2.0f * I) << I;
}

} // namespace

TEST(RuntimeTest, FinalizeCancelsAStuckBackgroundCompile) {
  // The generic kernel compiles; its specialized variant (the only code holding a folded
  // argument's marker) hangs in the server, with no timeout.
  ScopedEnv Dev("JACC_DEVICES", "host:2"), Cache("JACC_CACHE", "off"),
      Spec("JACC_SPECIALIZE", "always"), Wait("JACC_SPECIALIZE_WAIT", nullptr),
      Timeout("JACC_COMPILE_TIMEOUT", "0"), Mode("JACC_COMPILE", nullptr),
      Fault("JACC_TEST_COMPILE_FAULT", "hang:__jacc_spec_unused_");
  Runtime &R = Runtime::instance();
  ASSERT_FALSE(bool(R.finalize()));
  ASSERT_FALSE(bool(R.init()));
  jit::CompileConfig C = jit::compileConfig();
  C.FinalizeWaitSeconds = 0.5;
  jit::configureCompiles(C);
  pushAndCheck(64); // the generic kernel; the variant is queued
  auto Start = std::chrono::steady_clock::now();
  EXPECT_FALSE(bool(R.finalize()));
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(5));
  // Working again, without the fault.
  Fault.set(nullptr);
  Spec.set("off");
  ASSERT_FALSE(bool(R.init()));
  pushAndCheck(33);
  EXPECT_FALSE(bool(R.finalize()));
}
