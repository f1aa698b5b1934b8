// End to end: JACC_ASYNC pushes and the async clause. Queued kernels run in push order, data calls
// on arrays they use wait for them, and reductions are written back by jacc_wait.
#include "tests/ScopedEnv.h"
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"
#include "jacc/openacc.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using jacc_test::stats;

class AsyncTest : public DeviceTest {};

/// a[i] = a[i] * 3 + k: the result depends on the order of the pushes (and on k's value at push).
const char *StepSrc = "#pragma acc parallel loop present(a)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  a[i] = a[i] * 3 + k + i % 5;\n";

/// Enough work per push that later pushes are still queued when the host goes on.
constexpr int N = 200003;

std::vector<long long> stepReference(std::vector<long long> a, const std::vector<int> &Ks) {
  for (int k : Ks)
    for (size_t i = 0; i < a.size(); i++)
      a[i] = a[i] * 3 + k + static_cast<long long>(i % 5);
  return a;
}

/// The array of N elements that StepSrc updates, with the kernel's other arguments; records the
/// k of each push for the reference.
struct StepArray {
  int n = N, k = 0;
  const long long Init;
  std::vector<long long> av;
  long long *a;
  std::vector<int> Ks;

  explicit StepArray(long long Init) : Init(Init), av(N, Init), a(av.data()) {}
  size_t bytes() const { return n * sizeof(long long); }
  jacc_status copyIn() { return jacc_copyin(a, bytes()); }
  /// Pushes Src (StepSrc or a kernel of the same arguments and body) with k = K.
  jacc_status push(int K, unsigned Flags, const char *Src = StepSrc) {
    k = K;
    Ks.push_back(K);
    jacc_arg Args[] = {{"int n", &n}, {"int k", &k}, {"long long *a", &a}};
    return jacc_kernel_push(Src, 3, Args, Flags);
  }
  /// What the array holds after the pushes so far.
  std::vector<long long> reference() const {
    return stepReference(std::vector<long long>(n, Init), Ks);
  }
};

TEST_P(AsyncTest, PushReturnsAndWaitMakesResultsVisible) {
  StepArray S(1);
  ASSERT_JACC(S.copyIn());
  ASSERT_JACC(S.push(7, JACC_ASYNC));
  ASSERT_JACC(jacc_wait());
  ASSERT_JACC(jacc_update_self(S.a, S.bytes()));
  EXPECT_EQ(S.av, S.reference());
  ASSERT_JACC(jacc_delete(S.a, S.bytes()));
  EXPECT_EQ(stats().kernels_pushed, 1u);
}

TEST_P(AsyncTest, AsyncPushesRunInOrderWithArgumentsTakenAtPush) {
  StepArray S(2);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 12; p++) // the same variable k for every push: its value is read at the push
    ASSERT_JACC(S.push(10 * p + 1, JACC_ASYNC));
  S.k = -1000000;
  ASSERT_JACC(jacc_wait());
  ASSERT_JACC(jacc_copyout(S.a, S.bytes()));
  EXPECT_EQ(S.av, S.reference());
}

TEST_P(AsyncTest, SyncPushAfterAsyncPushesRunsAfterThem) {
  StepArray S(0);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 6; p++)
    ASSERT_JACC(S.push(p + 3, p % 3 == 2 ? JACC_DEFAULT : JACC_ASYNC));
  // No jacc_wait: the copyout waits for the queued kernels that use a.
  ASSERT_JACC(jacc_copyout(S.a, S.bytes()));
  EXPECT_EQ(S.av, S.reference());
}

/// b[i] = a[i] + 1 and friends: a chain through three arrays.
const char *ChainSrc = "#pragma acc parallel loop present(src, dst)\n"
                       "for (int i = 0; i < n; i++)\n"
                       "  dst[i] = 2 * src[n - 1 - i] + 1;\n";

TEST_P(AsyncTest, ChainOfAsyncPushesEachReadingThePreviousResult) {
  int n = N;
  std::vector<long long> av(n), bv(n, 0), cv(n, 0);
  for (int i = 0; i < n; i++)
    av[i] = i % 1000;
  long long *a = av.data(), *b = bv.data(), *c = cv.data();
  size_t bytes = n * sizeof(long long);
  ASSERT_JACC(jacc_copyin(a, bytes));
  ASSERT_JACC(jacc_create(b, bytes));
  ASSERT_JACC(jacc_create(c, bytes));
  jacc_arg ab[] = {{"int n", &n}, {"const long long *src", &a}, {"long long *dst", &b}};
  jacc_arg bc[] = {{"int n", &n}, {"const long long *src", &b}, {"long long *dst", &c}};
  jacc_arg ca[] = {{"int n", &n}, {"const long long *src", &c}, {"long long *dst", &a}};
  ASSERT_JACC(jacc_kernel_push(ChainSrc, 3, ab, JACC_ASYNC));
  ASSERT_JACC(jacc_kernel_push(ChainSrc, 3, bc, JACC_ASYNC));
  ASSERT_JACC(jacc_kernel_push(ChainSrc, 3, ca, JACC_ASYNC));
  std::vector<long long> ra(av), rb(n), rc(n);
  for (int i = 0; i < n; i++)
    rb[i] = 2 * ra[n - 1 - i] + 1;
  for (int i = 0; i < n; i++)
    rc[i] = 2 * rb[n - 1 - i] + 1;
  for (int i = 0; i < n; i++)
    ra[i] = 2 * rc[n - 1 - i] + 1;
  // update_self waits for the kernels that use each array.
  ASSERT_JACC(jacc_update_self(a, bytes));
  ASSERT_JACC(jacc_update_self(c, bytes));
  ASSERT_JACC(jacc_update_self(b, bytes));
  EXPECT_EQ(av, ra);
  EXPECT_EQ(bv, rb);
  EXPECT_EQ(cv, rc);
  ASSERT_JACC(jacc_delete(a, bytes));
  ASSERT_JACC(jacc_delete(b, bytes));
  ASSERT_JACC(jacc_delete(c, bytes));
}

TEST_P(AsyncTest, CopyoutWaitsForPendingKernel) {
  StepArray S(3);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 4; p++)
    ASSERT_JACC(S.push(5, JACC_ASYNC));
  ASSERT_JACC(jacc_copyout(S.a, S.bytes()));
  EXPECT_EQ(S.av, stepReference(std::vector<long long>(N, 3), {5, 5, 5, 5}));
}

TEST_P(AsyncTest, UpdateSelfWaitsForPendingKernel) {
  StepArray S(4);
  ASSERT_JACC(S.copyIn());
  ASSERT_JACC(S.push(9, JACC_ASYNC));
  ASSERT_JACC(S.push(9, JACC_ASYNC));
  // An interior sub-range: still the same mapping, so it waits too.
  int n = S.n;
  ASSERT_JACC(jacc_update_self(S.a + n / 2, 1000 * sizeof(long long)));
  std::vector<long long> ref = stepReference(std::vector<long long>(n, 4), {9, 9});
  for (int i = 0; i < n; i++)
    ASSERT_EQ(S.av[i], i >= n / 2 && i < n / 2 + 1000 ? ref[i] : 4) << i;
  ASSERT_JACC(jacc_update_self(S.a, S.bytes()));
  EXPECT_EQ(S.av, ref);
  ASSERT_JACC(jacc_delete(S.a, S.bytes()));
}

// A kernel given the device copy of mapped data (deviceptr) uses that mapping: an update of it
// on the same queue waits for the kernel. With one device the kernel is queued like any other,
// so the mapping must still get its ticket (it once read the copy before the kernel ran).
TEST_P(AsyncTest, UpdateSelfWaitsForPendingDeviceptrKernel) {
  const char *Src = "#pragma acc parallel loop deviceptr(a)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  a[i] = a[i] * 3 + k + i % 5;\n";
  StepArray S(2);
  ASSERT_JACC(S.copyIn());
  long long *Host = S.a;
  S.a = static_cast<long long *>(acc_deviceptr(Host));
  ASSERT_NE(S.a, nullptr);
  for (int p = 0; p < 3; p++)
    ASSERT_JACC(S.push(p + 1, JACC_ASYNC, Src));
  S.a = Host;
  ASSERT_JACC(jacc_update_self(S.a, S.bytes()));
  EXPECT_EQ(S.av, S.reference());
  ASSERT_JACC(jacc_delete(S.a, S.bytes()));
}

TEST_P(AsyncTest, AKernelStillRunningAfterJaccKernelWarnIsNamed) {
  ASSERT_JACC(jacc_finalize());
  jacc::ScopedEnv Warn("JACC_KERNEL_WARN", "0.05");
  ASSERT_JACC(jacc_init());
  // The kernel spins until another host thread releases it through the program's own memory
  // (deviceptr: host devices reach it; the kernel then runs on device 0 alone, and with several
  // devices the push waits for it).
  static std::atomic<int> Release;
  Release = 0;
  volatile int *flag = reinterpret_cast<volatile int *>(&Release);
  jacc_arg Args[] = {{"volatile int *flag", &flag}};
  testing::internal::CaptureStderr();
  std::thread Releaser([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    Release = 1;
  });
  jacc_status Pushed = jacc_kernel_push("#pragma acc serial deviceptr(flag)\n"
                                        "{ while (!flag[0]) ; }\n",
                                        1, Args, JACC_ASYNC);
  Releaser.join();
  ASSERT_JACC(Pushed);
  ASSERT_JACC(jacc_wait());
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("jacc: warning: kernel "), std::string::npos) << Err;
  EXPECT_NE(Err.find(" on host:0 has not finished "), std::string::npos) << Err;
  EXPECT_EQ(Err.find("has not finished", Err.find("has not finished") + 1), std::string::npos)
      << "once: " << Err;
  ASSERT_JACC(jacc_finalize());
}

TEST_P(AsyncTest, UpdateDeviceWaitsForPendingKernel) {
  // The host data sent by update_device must not be overwritten by a kernel queued before it.
  StepArray S(0);
  int n = S.n;
  std::vector<long long> bv(n, 0);
  long long *a = S.a, *b = bv.data();
  ASSERT_JACC(S.copyIn());
  ASSERT_JACC(jacc_create(b, n * sizeof(long long)));
  for (int p = 0; p < 3; p++)
    ASSERT_JACC(S.push(1, JACC_ASYNC));
  for (int i = 0; i < n; i++)
    S.av[i] = -i;
  ASSERT_JACC(jacc_update_device(a, n * sizeof(long long)));
  jacc_arg copy[] = {{"int n", &n}, {"const long long *src", &a}, {"long long *dst", &b}};
  ASSERT_JACC(jacc_kernel_push(ChainSrc, 3, copy, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(b, n * sizeof(long long)));
  for (int i = 0; i < n; i++)
    ASSERT_EQ(bv[i], 2 * -(n - 1 - i) + 1) << i;
  ASSERT_JACC(jacc_delete(a, n * sizeof(long long)));
}

TEST_P(AsyncTest, DeleteWaitsForPendingKernel) {
  // Freeing device memory under a queued kernel would crash or corrupt; the delete waits.
  StepArray S(1);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 3; p++)
    ASSERT_JACC(S.push(2, JACC_ASYNC));
  ASSERT_JACC(jacc_delete(S.a, S.bytes()));
  EXPECT_EQ(jacc_is_present(S.a, S.bytes()), 0);
  EXPECT_EQ(S.av, std::vector<long long>(N, 1));
  ASSERT_JACC(jacc_wait());
}

const char *AsyncSumSrc = "#pragma acc parallel loop present(x) reduction(+:s) reduction(max:mx)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  s += x[i];\n"
                          "  mx = x[i] > mx ? x[i] : mx;\n"
                          "}\n";

TEST_P(AsyncTest, AsyncReductionIsWrittenByWait) {
  int n = N;
  std::vector<long long> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 7919) % 10007 - 5000;
  long long s = 1000, mx = -100000, rs = s, rmx = mx;
  for (int i = 0; i < n; i++) {
    rs += xv[i];
    rmx = xv[i] > rmx ? xv[i] : rmx;
  }
  long long *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(long long)));
  jacc_arg args[] = {
      {"int n", &n}, {"const long long *x", &x}, {"long long s", &s}, {"long long mx", &mx}};
  ASSERT_JACC(jacc_kernel_push(AsyncSumSrc, 4, args, JACC_ASYNC));
  ASSERT_JACC(jacc_wait());
  EXPECT_EQ(s, rs);
  EXPECT_EQ(mx, rmx);
  ASSERT_JACC(jacc_delete(x, n * sizeof(long long)));
}

TEST_P(AsyncTest, SeveralAsyncReductionsIntoSeparateVariables) {
  int n = 50000;
  std::vector<long long> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = i % 101;
  long long *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(long long)));
  long long s[4], mx[4];
  long long ref = 0;
  for (int i = 0; i < n; i++)
    ref += xv[i];
  for (int r = 0; r < 4; r++) {
    s[r] = r;
    mx[r] = 1000 * r;
    jacc_arg args[] = {{"int n", &n},
                       {"const long long *x", &x},
                       {"long long s", &s[r]},
                       {"long long mx", &mx[r]}};
    ASSERT_JACC(jacc_kernel_push(AsyncSumSrc, 4, args, JACC_ASYNC));
  }
  ASSERT_JACC(jacc_wait());
  for (int r = 0; r < 4; r++) {
    EXPECT_EQ(s[r], ref + r) << r;
    EXPECT_EQ(mx[r], r == 0 ? 100 : 1000 * r) << r;
  }
  ASSERT_JACC(jacc_delete(x, n * sizeof(long long)));
}

const char *AsyncClauseSrc = "#pragma acc parallel loop present(a) async\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  a[i] = a[i] * 3 + k + i % 5;\n";
const char *AsyncClauseWithQueueSrc = "#pragma acc parallel loop present(a) async(1)\n"
                                      "for (int i = 0; i < n; i++)\n"
                                      "  a[i] = a[i] * 3 + k + i % 5;\n";

TEST_P(AsyncTest, AsyncClauseBehavesLikeTheFlag) {
  StepArray S(1);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 6; p++)
    ASSERT_JACC(S.push(4 * p - 7, JACC_DEFAULT, p % 2 ? AsyncClauseSrc : AsyncClauseWithQueueSrc));
  ASSERT_JACC(jacc_wait());
  ASSERT_JACC(jacc_update_self(S.a, S.bytes()));
  EXPECT_EQ(S.av, S.reference());
  ASSERT_JACC(jacc_delete(S.a, S.bytes()));
}

const char *AsyncClauseSumSrc = "#pragma acc parallel loop present(x) reduction(+:s) async\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  s += x[i];\n";

TEST_P(AsyncTest, AsyncClauseReductionIsWrittenByWait) {
  int n = 30011;
  std::vector<int> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = i % 13 - 6;
  int s = 100, ref = 100;
  for (int i = 0; i < n; i++)
    ref += xv[i];
  int *x = xv.data();
  ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
  jacc_arg args[] = {{"int n", &n}, {"const int *x", &x}, {"int s", &s}};
  ASSERT_JACC(jacc_kernel_push(AsyncClauseSumSrc, 3, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_wait());
  EXPECT_EQ(s, ref);
  ASSERT_JACC(jacc_delete(x, n * sizeof(int)));
}

const char *WaitClauseSrc = "#pragma acc parallel loop present(a) wait\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  a[i] = a[i] * 3 + k + i % 5;\n";

TEST_P(AsyncTest, WaitClauseAfterAsyncPushes) {
  StepArray S(5);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 3; p++)
    ASSERT_JACC(S.push(p, JACC_ASYNC));
  ASSERT_JACC(S.push(42, JACC_DEFAULT, WaitClauseSrc));
  ASSERT_JACC(jacc_copyout(S.a, S.bytes()));
  EXPECT_EQ(S.av, S.reference());
}

TEST_P(AsyncTest, WaitWithNothingQueuedAndFinalizeWithWorkQueued) {
  ASSERT_JACC(jacc_wait());
  ASSERT_JACC(jacc_wait());
  StepArray S(1);
  ASSERT_JACC(S.copyIn());
  for (int p = 0; p < 3; p++)
    ASSERT_JACC(S.push(3, JACC_ASYNC));
  // finalize waits for the queue, then frees the mapping (the host copy stays as it was).
  ASSERT_JACC(jacc_finalize());
  EXPECT_EQ(S.av, std::vector<long long>(N, 1));
  EXPECT_EQ(jacc_is_present(S.a, S.bytes()), 0);
}

const char *SplittableSrc = "#pragma acc parallel loop present(x)\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  x[i] = 2u * x[i] + 1u;\n";

TEST_P(AsyncTest, ManyTinyAlternatingAsyncAndSyncPushesLoseNoWakeUp) {
  // The hand-offs between this thread and the devices' stream threads (spinning or sleeping)
  // on 20,000 tiny pushes, async and sync, split and not, with waits between: a lost wake-up
  // hangs (meson's timeout fails the suite), a lost or doubled push changes the result.
#ifdef __SANITIZE_ADDRESS__
  // Instrumented pushes are ten times slower; the normal pass runs the full count.
  const int Pushes = 2000;
#else
  const int Pushes = 20000;
#endif
  StepArray S(0);
  S.n = 64; // tiny: the launch path is all there is
  ASSERT_JACC(jacc_copyin(S.a, S.bytes()));
  const char *AddSrc = "#pragma acc parallel loop present(a)\n"
                       "for (int i = 0; i < n; i++)\n"
                       "  a[i] = a[i] + k + i % 5;\n";
  for (int P = 0; P < Pushes; ++P) {
    unsigned Flags = (P % 2 ? JACC_ASYNC : JACC_DEFAULT) | (P % 4 < 2 ? JACC_FORCE_SPLIT : 0);
    S.k = P % 7;
    jacc_arg Args[] = {{"int n", &S.n}, {"int k", &S.k}, {"long long *a", &S.a}};
    ASSERT_JACC(jacc_kernel_push(AddSrc, 3, Args, Flags));
    if (P % 8 == 7) {
      ASSERT_JACC(jacc_wait());
    }
  }
  ASSERT_JACC(jacc_copyout(S.a, S.bytes()));
  long long K = 0;
  for (int P = 0; P < Pushes; ++P)
    K += P % 7;
  for (int I = 0; I < S.n; ++I)
    ASSERT_EQ(S.av[I], K + static_cast<long long>(Pushes) * (I % 5)) << "element " << I;
}

TEST_P(AsyncTest, ConcurrentPushesFromSeveralThreadsInBothModes) {
  // Every device must run the launches of concurrent pushes in one order: split launches meet
  // across devices, and opposite orders on two devices would deadlock. A watchdog turns a hang
  // into a failure.
  const int Threads = 4, Pushes = 60;
  std::atomic<int> Finished{0};
  std::vector<int> Bad(Threads, 0);
  std::vector<std::string> Errors(Threads);
  std::vector<std::thread> Pool;
  for (int t = 0; t < Threads; t++)
    Pool.emplace_back([&, t] {
      int n = 512 + t;
      std::vector<unsigned> v(n, t);
      unsigned *x = v.data();
      if (jacc_copyin(x, n * sizeof(unsigned)) != JACC_SUCCESS) {
        Errors[t] = jacc_last_error();
      } else {
        jacc_arg args[] = {{"int n", &n}, {"unsigned *x", &x}};
        for (int p = 0; p < Pushes && Errors[t].empty(); p++) {
          unsigned Flags = p % 3 == 0 ? JACC_FORCE_SPLIT : p % 3 == 1 ? JACC_FORCE_DUPLICATE : 0;
          if (p % 4 == 3)
            Flags |= JACC_ASYNC;
          if (jacc_kernel_push(SplittableSrc, 2, args, Flags) != JACC_SUCCESS)
            Errors[t] = jacc_last_error();
        }
        if (jacc_copyout(x, n * sizeof(unsigned)) != JACC_SUCCESS && Errors[t].empty())
          Errors[t] = jacc_last_error();
        // x -> 2x + 1, Pushes times (wrapping).
        unsigned want = static_cast<unsigned>(t);
        for (int p = 0; p < Pushes; p++)
          want = 2 * want + 1;
        for (int i = 0; i < n; i++)
          if (v[i] != want)
            Bad[t]++;
      }
      Finished.fetch_add(1);
    });
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (Finished.load() < Threads) {
    if (std::chrono::steady_clock::now() > Deadline) {
      std::fprintf(stderr,
                   "AsyncTest.ConcurrentPushesFromSeveralThreadsInBothModes: %d of %d "
                   "threads still pushing after 120 s: deadlock\n",
                   Threads - Finished.load(), Threads);
      std::abort();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (std::thread &T : Pool)
    T.join();
  for (int t = 0; t < Threads; t++) {
    EXPECT_EQ(Errors[t], "") << "thread " << t;
    EXPECT_EQ(Bad[t], 0) << "thread " << t;
  }
}

TEST_P(AsyncTest, FinalizeReturnsWhileOtherThreadsKeepCalling) {
  // jacc_finalize waits for the calls in progress, not for every call other threads start after
  // it: it must not starve while four threads keep mapping and unmapping.
  std::atomic<bool> Stop{false}, Finalized{false};
  std::vector<std::thread> Pool;
  for (int t = 0; t < 4; t++)
    Pool.emplace_back([&] {
      std::vector<double> V(1024);
      while (!Stop.load()) {
        (void)jacc_copyin(V.data(), V.size() * sizeof(double));
        (void)jacc_delete(V.data(), V.size() * sizeof(double));
      }
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread Finalizer([&] {
    (void)jacc_finalize();
    Finalized.store(true);
  });
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!Finalized.load() && std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(Finalized.load()) << "jacc_finalize still waiting after 60 s";
  Stop.store(true); // the finalize then returns in any case
  for (std::thread &T : Pool)
    T.join();
  Finalizer.join();
}

JACC_DEVICE_CONFIGS(AsyncTest);

} // namespace
