// End to end: the kernel cache. The key is the exact text of the source and of the argument
// declarations; a new kernel compiles once even when several threads push it at the same time.
// The cache lives for the whole process (across configurations), so kernels that must start cold
// are made unique to the running test with jacc_test::uniqueKernel().
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

using jacc_test::stats;
using jacc_test::uniqueKernel;

class CacheTest : public DeviceTest {};

const char *AddBody = "#pragma acc parallel loop present(x)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  x[i] += 2 * i + 1;\n";

/// Pushes Src with args (n, x) on a fresh array and checks the result.
void pushAndCheck(const char *Src, const char *NDecl = "int n", const char *XDecl = "int *x") {
  int n = 1001;
  std::vector<int> v(n, 10);
  int *x = v.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  jacc_arg args[] = {{NDecl, &n}, {XDecl, &x}};
  ASSERT_JACC(jacc_kernel_push(Src, 2, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(x, n * sizeof(int)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(v[i], 10 + 2 * i + 1) << i;
}

TEST_P(CacheTest, SecondPushOfTheSameTextIsAHit) {
  std::string Src = uniqueKernel("same-text", AddBody);
  jacc_stats s0 = stats();
  pushAndCheck(Src.c_str());
  jacc_stats s1 = stats();
  EXPECT_EQ(s1.kernels_compiled, s0.kernels_compiled + 1);
  EXPECT_EQ(s1.memory_cache_hits, s0.memory_cache_hits);
  pushAndCheck(Src.c_str());
  jacc_stats s2 = stats();
  EXPECT_EQ(s2.kernels_compiled, s1.kernels_compiled);
  EXPECT_EQ(s2.memory_cache_hits, s1.memory_cache_hits + 1);
  EXPECT_EQ(s2.kernels_pushed, s0.kernels_pushed + 2);
}

TEST_P(CacheTest, SameContentInADifferentBufferIsAHit) {
  std::string Src = uniqueKernel("other-buffer", AddBody);
  pushAndCheck(Src.c_str());
  // Another allocation with the same characters, and a decl from another buffer too.
  std::vector<char> Copy(Src.begin(), Src.end());
  Copy.push_back('\0');
  std::string NDecl = std::string("int ") + "n", XDecl = std::string("int *") + "x";
  ASSERT_NE(Copy.data(), Src.c_str());
  jacc_stats s0 = stats();
  pushAndCheck(Copy.data(), NDecl.c_str(), XDecl.c_str());
  jacc_stats s1 = stats();
  EXPECT_EQ(s1.kernels_compiled, s0.kernels_compiled);
  EXPECT_EQ(s1.memory_cache_hits, s0.memory_cache_hits + 1);
}

TEST_P(CacheTest, DifferentTextCompiles) {
  std::string A = uniqueKernel("text-a", AddBody);
  std::string B = uniqueKernel("text-b", AddBody);
  std::string C = A + "\n"; // a single character more is another kernel
  jacc_stats s0 = stats();
  pushAndCheck(A.c_str());
  pushAndCheck(B.c_str());
  pushAndCheck(C.c_str());
  jacc_stats s1 = stats();
  EXPECT_EQ(s1.kernels_compiled, s0.kernels_compiled + 3);
  EXPECT_EQ(s1.memory_cache_hits, s0.memory_cache_hits);
}

TEST_P(CacheTest, SameTextWithDifferentDeclarationsIsAnotherKernel) {
  std::string Src = uniqueKernel("decls", AddBody);
  jacc_stats s0 = stats();
  pushAndCheck(Src.c_str(), "int n", "int *x");
  pushAndCheck(Src.c_str(), "unsigned n", "int *x");
  pushAndCheck(Src.c_str(), "int n", "int *restrict x");
  jacc_stats s1 = stats();
  EXPECT_EQ(s1.kernels_compiled, s0.kernels_compiled + 3);
  EXPECT_EQ(s1.memory_cache_hits, s0.memory_cache_hits);
  // Each of them is cached under its own declarations.
  pushAndCheck(Src.c_str(), "unsigned n", "int *x");
  pushAndCheck(Src.c_str(), "int n", "int *x");
  jacc_stats s2 = stats();
  EXPECT_EQ(s2.kernels_compiled, s1.kernels_compiled);
  EXPECT_EQ(s2.memory_cache_hits, s1.memory_cache_hits + 2);
}

TEST_P(CacheTest, KernelsStayCachedAcrossFinalize) {
  std::string Src = uniqueKernel("finalize", AddBody);
  pushAndCheck(Src.c_str());
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  jacc_stats s0 = stats();
  pushAndCheck(Src.c_str());
  jacc_stats s1 = stats();
  EXPECT_EQ(s1.kernels_compiled, s0.kernels_compiled);
  EXPECT_EQ(s1.memory_cache_hits, s0.memory_cache_hits + 1);
}

/// What each thread of pushConcurrently got, and the counters before and after the pushes.
struct ConcurrentPushes {
  std::vector<jacc_status> Status;   ///< its push's status (its copyin's, had that failed)
  std::vector<std::string> Messages; ///< its jacc_last_error() after the push
  std::vector<int> Bad;              ///< wrong elements of its array afterwards (-1: no copyout)
  jacc_stats Before, After;
};

/// Runs Threads threads that each map their own array and push Src once, all released together.
ConcurrentPushes pushConcurrently(const std::string &Src, int Threads) {
  ConcurrentPushes R;
  R.Status.assign(Threads, JACC_SUCCESS);
  R.Messages.assign(Threads, "");
  R.Bad.assign(Threads, 0);
  R.Before = stats();
  std::atomic<int> Ready{0};
  std::vector<std::thread> Pool;
  for (int t = 0; t < Threads; t++)
    Pool.emplace_back([&, t] {
      int n = 2000 + 37 * t;
      std::vector<int> v(n, t);
      int *x = v.data();
      jacc_status S = jacc_copyin(x, n * sizeof(int));
      Ready.fetch_add(1);
      while (Ready.load() < Threads)
        std::this_thread::yield();
      jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
      if (S == JACC_SUCCESS)
        S = jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT);
      R.Status[t] = S;
      R.Messages[t] = jacc_last_error();
      if (jacc_is_present(x, n * sizeof(int))) {
        if (jacc_copyout(x, n * sizeof(int)) != JACC_SUCCESS)
          R.Bad[t] = -1;
      }
      // After a failed push the device copy (copied back here) must be as it was.
      for (int i = 0; i < n; i++)
        if (v[i] != (S == JACC_SUCCESS ? t + 2 * i + 1 : t))
          R.Bad[t]++;
    });
  for (std::thread &T : Pool)
    T.join();
  R.After = stats();
  return R;
}

TEST_P(CacheTest, BeyondJaccKernelsInMemoryTheLeastRecentlyPushedKernelGoes) {
  ASSERT_JACC(jacc_finalize());
  setenv("JACC_KERNELS_IN_MEMORY", "2", 1);
  jacc_status Init = jacc_init();
  unsetenv("JACC_KERNELS_IN_MEMORY");
  ASSERT_JACC(Init);
  std::string A = uniqueKernel("lru-a", AddBody), B = uniqueKernel("lru-b", AddBody),
              C = uniqueKernel("lru-c", AddBody);
  pushAndCheck(A.c_str());
  pushAndCheck(B.c_str()); // the cache holds A and B alone (kernels outlive jacc_finalize)
  jacc_stats s0 = stats();
  pushAndCheck(A.c_str()); // A more recent than B
  pushAndCheck(C.c_str()); // B goes
  jacc_stats s1 = stats();
  EXPECT_EQ(s1.kernel_cache_evictions, s0.kernel_cache_evictions + 1);
  EXPECT_EQ(s1.memory_cache_hits, s0.memory_cache_hits + 1);
  // A stayed; B is compiled or loaded from disk again (and A goes), with the right results on
  // every device, split or not: what the choosers learnt of the old B is forgotten.
  pushAndCheck(A.c_str());
  for (int I = 0; I < 3; ++I)
    pushAndCheck(B.c_str());
  jacc_stats s2 = stats();
  EXPECT_EQ(s2.memory_cache_hits, s1.memory_cache_hits + 3);
  EXPECT_EQ(s2.kernels_compiled + s2.disk_cache_hits, s1.kernels_compiled + s1.disk_cache_hits + 1);
  EXPECT_EQ(s2.kernel_cache_evictions, s1.kernel_cache_evictions + 1);
}

TEST_P(CacheTest, ConcurrentPushesOfANewKernelCompileItOnce) {
  const int Threads = 6;
  std::string Src = uniqueKernel("concurrent", AddBody);
  ConcurrentPushes R = pushConcurrently(Src, Threads);
  for (int t = 0; t < Threads; t++) {
    EXPECT_EQ(R.Status[t], JACC_SUCCESS) << "thread " << t << ": " << R.Messages[t];
    EXPECT_EQ(R.Bad[t], 0) << "thread " << t << " got wrong results";
  }
  EXPECT_EQ(R.After.kernels_compiled, R.Before.kernels_compiled + 1);
  EXPECT_EQ(R.After.memory_cache_hits, R.Before.memory_cache_hits + Threads - 1);
  EXPECT_EQ(R.After.kernels_pushed, R.Before.kernels_pushed + Threads);
  EXPECT_EQ(R.After.duplicate_launches + R.After.split_launches,
            R.Before.duplicate_launches + R.Before.split_launches + Threads);
}

TEST_P(CacheTest, ConcurrentPushesOfABadKernelAllReportTheError) {
  // A failed compile is not cached: every thread gets the error in its own jacc_last_error().
  const int Threads = 4;
  std::string Src = uniqueKernel("concurrent-bad", "#pragma acc parallel loop present(x)\n"
                                                   "for (int i = 0; i < n; i++)\n"
                                                   "  x[i] += undeclared_thing;\n");
  ConcurrentPushes R = pushConcurrently(Src, Threads);
  for (int t = 0; t < Threads; t++) {
    EXPECT_EQ(R.Status[t], JACC_ERROR_COMPILE) << "thread " << t;
    EXPECT_NE(R.Messages[t].find("undeclared identifier 'undeclared_thing'"), std::string::npos)
        << "thread " << t << ": " << R.Messages[t];
    EXPECT_EQ(R.Bad[t], 0) << "thread " << t << ": the data must be intact";
  }
  EXPECT_EQ(R.After.kernels_compiled, R.Before.kernels_compiled);
  EXPECT_EQ(R.After.duplicate_launches, R.Before.duplicate_launches);
  EXPECT_EQ(R.After.split_launches, R.Before.split_launches);
}

JACC_DEVICE_CONFIGS(CacheTest);

} // namespace
