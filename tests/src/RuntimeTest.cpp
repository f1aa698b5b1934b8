// Tests of the runtime's lifecycle with the compile server: jacc_finalize does not wait for a
// stuck background compile, and the runtime works after it. Background variants: a
// warm run of a multi-kernel program loads every variant from the disk cache and compiles none;
// the compile budget stops variant compiles. A program starts in the regime its last run chose.
#include "src/Runtime.h"

#include "jit/server/CompileServer.h"
#include "support/Stats.h"

#include "../ScopedEnv.h"

#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

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

namespace {

/// Kernel K of a multi-kernel program (Tag makes it unique to a test): x[i] = a * i + K.
std::string programKernel(const std::string &Tag, int K) {
  return "/* " + Tag + " kernel " + std::to_string(K) +
         " */\n#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = a * i + " +
         std::to_string(K) + ";\n";
}

/// One run of a program of NKernels kernels, each pushed once per time step with the same
/// scalars (so that auto specializes each), stepping until Settled variants were compiled,
/// loaded or stopped by the budget (at most a minute); then jacc_finalize.
void runProgram(const std::string &Tag, int NKernels, uint64_t Settled) {
  Runtime &R = Runtime::instance();
  ASSERT_FALSE(bool(R.init()));
  float X[64] = {};
  float *XP = X;
  int n = 64;
  float a = 2;
  jacc_arg Args[] = {{"float *x", &XP}, {"int n", &n}, {"float a", &a}};
  ASSERT_FALSE(bool(R.enterData(X, sizeof X, true, "test"))) << "copyin";
  auto Settling = [&] {
    return stats().VariantsCompiled.load() + stats().VariantsOverBudget.load() < Settled;
  };
  for (int Step = 0; Step < 6000 && (Step < 4 || Settling()); ++Step) {
    for (int K = 0; K < NKernels; ++K) {
      llvm::Error E = R.push(programKernel(Tag, K).c_str(), 3, Args, 0);
      ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10)); // the program's host work
  }
  ASSERT_FALSE(bool(R.exitData(X, sizeof X, true, "test"))) << "copyout";
  for (int I = 0; I < n; ++I)
    ASSERT_EQ(X[I], 2.0f * I + float(NKernels - 1)) << I;
  ASSERT_FALSE(bool(R.finalize()));
}

/// The background variants of a run: "compiled C loaded L over-budget B".
std::string variantCounts() {
  Stats &S = stats();
  return "compiled " + std::to_string(S.VariantsCompiled - S.VariantsLoaded) + " loaded " +
         std::to_string(S.VariantsLoaded) + " over-budget " +
         std::to_string(S.VariantsOverBudget);
}

} // namespace

// The disk cache is opened once per process: the two runs happen in a child of the test's own,
// which reports the counts of each run.
TEST(RuntimeTest, AWarmRunLoadsEveryVariantAndCompilesNone) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-warm-variants", Dir));
  ScopedEnv Dev("JACC_DEVICES", "host:1"), Cache("JACC_CACHE", "on"),
      CacheDir("JACC_CACHE_DIR", Dir.c_str()), Spec("JACC_SPECIALIZE", "auto"),
      Wait("JACC_SPECIALIZE_WAIT", nullptr), Budget("JACC_SPECIALIZE_BUDGET", "600"),
      Payback("JACC_SPECIALIZE_PAYBACK", "0"), Mode("JACC_COMPILE", nullptr);
  EXPECT_EXIT(
      {
        Runtime &R = Runtime::instance();
        (void)R.finalize();
        for (const char *Run : {"cold", "warm"}) {
          R.kernelCache().clear(); // a new process: kernels and variants from the disk only
          stats().reset();
          runProgram("warm-run", 5, 5);
          std::fprintf(stderr, "%s: %s\n", Run, variantCounts().c_str());
        }
        // The child made a directory of its own (a threadsafe death test runs the test again).
        llvm::sys::fs::remove_directories(Dir);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0),
      "cold: compiled 5 loaded 0 over-budget 0\nwarm: compiled 0 loaded 5 over-budget 0");
  llvm::sys::fs::remove_directories(Dir);
}

// JACC_SPECIALIZE_BUDGET: 0 compiles no variant; a budget the first compile spends lets only
// that one be compiled. The generic kernels run the others.
TEST(RuntimeTest, TheBudgetStopsVariantCompiles) {
  ScopedEnv Dev("JACC_DEVICES", "host:1"), Cache("JACC_CACHE", "off"),
      Spec("JACC_SPECIALIZE", "auto"), Wait("JACC_SPECIALIZE_WAIT", nullptr),
      Budget("JACC_SPECIALIZE_BUDGET", "0"), Payback("JACC_SPECIALIZE_PAYBACK", "0"),
      Mode("JACC_COMPILE", nullptr);
  Runtime &R = Runtime::instance();
  ASSERT_FALSE(bool(R.finalize()));
  stats().reset();
  runProgram("budget-0", 4, 4);
  EXPECT_EQ(variantCounts(), "compiled 0 loaded 0 over-budget 4");
  EXPECT_EQ(stats().SpecializedLaunches, 0u);
  Budget.set("0.000001");
  stats().reset();
  runProgram("budget-tiny", 4, 4);
  EXPECT_EQ(variantCounts(), "compiled 1 loaded 0 over-budget 3")
      << "the variants queued after the first compile are not compiled";
  Budget.set("nonsense");
  llvm::Error E = R.init();
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("JACC_SPECIALIZE_BUDGET='nonsense'"), std::string::npos) << Message;
}

namespace {

/// One run of a program pushing Kernel N times over 64 floats; its split launches.
uint64_t splitLaunchesOfARun(int N) {
  Runtime &R = Runtime::instance();
  stats().reset();
  float X[64] = {};
  float *XP = X;
  int n = 64;
  jacc_arg Args[] = {{"float *x", &XP}, {"int n", &n}};
  if (R.enterData(X, sizeof X, true, "test"))
    return ~0ull;
  for (int I = 0; I < N; ++I)
    if (llvm::Error E = R.push(Kernel, 2, Args, 0)) {
      llvm::consumeError(std::move(E));
      return ~0ull;
    }
  uint64_t Split = stats().SplitLaunches;
  bool Failed = bool(R.exitData(X, sizeof X, true, "test")) || bool(R.finalize());
  return Failed ? ~0ull : Split;
}

std::string readWhole(const std::string &Path) {
  std::ifstream In(Path);
  return std::string(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
}

} // namespace

// A run keeps the regime it chose in the kernel cache's directory, and the next run of the
// program on the same devices starts in it: its first launch splits where, without the record
// (none, a damaged one, JACC_PROGRAM_CACHE=off), devices sharing their cores start on one.
TEST(RuntimeTest, AProgramStartsInTheRegimeItsLastRunChose) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-program-cache", Dir));
  ScopedEnv Dev("JACC_DEVICES", "host:2"), Cache("JACC_CACHE", "on"),
      CacheDir("JACC_CACHE_DIR", Dir.c_str()), Split("JACC_SPLIT", nullptr),
      Spec("JACC_SPECIALIZE", "off"), Memory("JACC_PROGRAM_CACHE", nullptr);
  std::string Records = std::string(Dir) + "/records";
  EXPECT_EXIT(
      {
        (void)Runtime::instance().finalize();
        // Enough launches to time both regimes and choose (whichever this machine favours).
        std::fprintf(stderr, "first run: %s\n",
                     splitLaunchesOfARun(400) == ~0ull ? "failed" : "ok");
        std::error_code EC;
        llvm::sys::fs::directory_iterator It(Records, EC);
        std::string Record = EC ? "" : It->path();
        std::string Kept = readWhole(Record);
        std::fprintf(stderr, "kept: %s\n",
                     Kept.find("\"regime\":") != std::string::npos ? "a regime" : "nothing");
        // The record says spread, re-checked much later: the next run splits from its first push.
        std::string Spread = Kept;
        for (const char *Chosen : {"\"one device\"", "\"spread\""})
          if (size_t At = Spread.find(Chosen); At != std::string::npos)
            Spread.replace(At, std::strlen(Chosen), "\"spread\"");
        std::ofstream(Record, std::ios::trunc) << Spread;
        std::fprintf(stderr, "recalled: %llu\n", (unsigned long long)splitLaunchesOfARun(10));
        std::ofstream(Record, std::ios::trunc) << "{\"format\":1,\"regime\":";
        std::fprintf(stderr, "damaged: %llu\n", (unsigned long long)splitLaunchesOfARun(10));
        std::ofstream(Record, std::ios::trunc) << Spread;
        Memory.set("off");
        std::fprintf(stderr, "off: %llu\n", (unsigned long long)splitLaunchesOfARun(10));
        llvm::sys::fs::remove_directories(Dir);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0),
      "first run: ok\nkept: a regime\nrecalled: 10\ndamaged: 0\noff: 0");
  llvm::sys::fs::remove_directories(Dir);
}
