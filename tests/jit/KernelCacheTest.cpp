// Tests of the in-memory kernel cache: one compilation per key, distinct keys for distinct
// declarations and flags, failures not cached, single-flight compilation under concurrency, and
// its bound (the least recently used kernel goes, its code unloaded with its last holder).
#include "jit/KernelCache.h"

#include "jit/host/HostJIT.h"
#include "support/Error.h"
#include "support/Stats.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace jacc;
using namespace jacc::jit;

namespace {

using Kernel = std::shared_ptr<const CompiledKernel>;

const char *const Fill = "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) x[i] = 1;\n";

/// A successful get(); nullptr (reported) on failure.
Kernel get(KernelCache &C, llvm::StringRef Src, std::vector<const char *> Decls, unsigned Flags,
           KernelCache::Outcome &Result) {
  auto K = C.get(Src, Decls, Flags, Result);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return nullptr;
  }
  EXPECT_NE(*K, nullptr);
  return *K;
}

TEST(KernelCacheTest, CompilesOnceThenHits) {
  KernelCache C;
  EXPECT_EQ(C.size(), 0u);
  KernelCache::Outcome R = KernelCache::Outcome::Hit;
  Kernel A = get(C, Fill, {"int *x", "int n"}, 0, R);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  EXPECT_EQ(C.size(), 1u);
  EXPECT_NE(A->Entry, nullptr);
  EXPECT_EQ(A->Info.Args.size(), 2u);
  for (int I = 0; I < 3; ++I) {
    R = KernelCache::Outcome::Compiled;
    Kernel B = get(C, Fill, {"int *x", "int n"}, 0, R);
    EXPECT_EQ(R, KernelCache::Outcome::Hit);
    EXPECT_EQ(B, A); // the very same compiled kernel
  }
  EXPECT_EQ(C.size(), 1u);
}

TEST(KernelCacheTest, KeyIsTheContentNotThePointers) {
  KernelCache C;
  KernelCache::Outcome R;
  std::string Src1 = Fill, Src2 = Fill;
  std::string D1 = "int *x", D2 = "int *x";
  Kernel A = get(C, Src1, {D1.c_str(), "int n"}, 0, R);
  Kernel B = get(C, Src2, {D2.c_str(), "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Hit);
  EXPECT_EQ(A, B);
}

TEST(KernelCacheTest, DifferentDeclarationsAreDifferentEntries) {
  KernelCache C;
  KernelCache::Outcome R;
  Kernel Int = get(C, Fill, {"int *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  Kernel Double = get(C, Fill, {"double *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  Kernel Long = get(C, Fill, {"int *x", "long n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  ASSERT_TRUE(Int && Double && Long);
  EXPECT_NE(Int, Double);
  EXPECT_NE(Int, Long);
  EXPECT_EQ(Double->Info.Args[0].PointeeSize, 8u);
  EXPECT_EQ(Long->Info.Args[1].Scalar, analysis::ScalarType::I64);
  EXPECT_EQ(C.size(), 3u);
  // Declarations are not concatenated ambiguously: {"int *x", "int n"} is not {"int *x int n"}.
  auto Joined = C.get(Fill, {"int *x int n"}, 0, R);
  EXPECT_FALSE(static_cast<bool>(Joined));
  llvm::consumeError(Joined.takeError());
  EXPECT_EQ(C.size(), 3u);
}

TEST(KernelCacheTest, DifferentSourcesAreDifferentEntries) {
  KernelCache C;
  KernelCache::Outcome R;
  Kernel A = get(C, Fill, {"int *x", "int n"}, 0, R);
  Kernel B = get(C, std::string(Fill) + "\n", {"int *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  EXPECT_NE(A, B);
  EXPECT_EQ(C.size(), 2u);
}

TEST(KernelCacheTest, DifferentFlagsAreDifferentEntries) {
  KernelCache C;
  KernelCache::Outcome R;
  Kernel A = get(C, Fill, {"int *x", "int n"}, 0, R);
  Kernel B = get(C, Fill, {"int *x", "int n"}, 1, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  Kernel D = get(C, Fill, {"int *x", "int n"}, 0x100, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  EXPECT_NE(A, B);
  EXPECT_NE(B, D);
  EXPECT_EQ(C.size(), 3u);
  Kernel B2 = get(C, Fill, {"int *x", "int n"}, 1, R);
  EXPECT_EQ(R, KernelCache::Outcome::Hit);
  EXPECT_EQ(B2, B);
}

TEST(KernelCacheTest, FailuresAreNotCached) {
  KernelCache C;
  const char *Bad = "#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++) x[i] = 1 +;\n";
  std::string First;
  for (int Round = 0; Round < 2; ++Round) {
    KernelCache::Outcome R = KernelCache::Outcome::Hit;
    auto K = C.get(Bad, {"int *x", "int n"}, 0, R);
    ASSERT_FALSE(static_cast<bool>(K));
    std::string Msg;
    EXPECT_EQ(takeError(K.takeError(), Msg), ErrorCode::Compile);
    EXPECT_NE(Msg.find("kernel:2:39: error: expected expression"), std::string::npos) << Msg;
    // Compiled (again) each time: nothing was kept.
    EXPECT_EQ(R, KernelCache::Outcome::Compiled) << "round " << Round;
    EXPECT_EQ(C.size(), 0u);
    if (Round == 0)
      First = Msg;
    else
      EXPECT_EQ(Msg, First);
  }
  // A good kernel afterwards is unaffected.
  KernelCache::Outcome R;
  EXPECT_NE(get(C, Fill, {"int *x", "int n"}, 0, R), nullptr);
  EXPECT_EQ(C.size(), 1u);
}

TEST(KernelCacheTest, ClearForgetsEverything) {
  KernelCache C;
  KernelCache::Outcome R;
  Kernel A = get(C, Fill, {"int *x", "int n"}, 0, R);
  C.clear();
  EXPECT_EQ(C.size(), 0u);
  // The kernel handed out stays valid.
  EXPECT_NE(A->Entry, nullptr);
  Kernel B = get(C, Fill, {"int *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(C.size(), 1u);
}

/// The fill kernel with its constant changed: a distinct kernel per Value.
std::string fillWith(int Value) {
  return "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = " + std::to_string(Value) +
         ";\n";
}

TEST(KernelCacheTest, BeyondItsCapacityTheLeastRecentlyUsedKernelGoes) {
  KernelCache C;
  C.setCapacity(2);
  std::vector<const CompiledKernel *> Gone;
  C.watchEvictions([&](const CompiledKernel &K) { Gone.push_back(&K); });
  uint64_t EvictionsBefore = stats().KernelCacheEvictions.load();
  KernelCache::Outcome R;
  Kernel K0 = get(C, fillWith(0), {"int *x", "int n"}, 0, R);
  Kernel K1 = get(C, fillWith(1), {"int *x", "int n"}, 0, R);
  ASSERT_TRUE(K0 && K1);
  get(C, fillWith(0), {"int *x", "int n"}, 0, R); // 0 is now more recent than 1
  EXPECT_EQ(R, KernelCache::Outcome::Hit);
  Kernel K2 = get(C, fillWith(2), {"int *x", "int n"}, 0, R);
  ASSERT_NE(K2, nullptr);
  EXPECT_EQ(C.size(), 2u);
  ASSERT_EQ(Gone.size(), 1u);
  EXPECT_EQ(Gone[0], K1.get()) << "kernel 1 was the least recently used";
  EXPECT_EQ(stats().KernelCacheEvictions.load(), EvictionsBefore + 1);
  // Kernel 0 stayed; kernel 1 comes back compiled anew (the test has no disk cache), and makes
  // kernel 0 go, as kernel 2 was got after it.
  get(C, fillWith(0), {"int *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Hit);
  Kernel Again = get(C, fillWith(1), {"int *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  ASSERT_NE(Again, nullptr);
  EXPECT_NE(Again, K1);
  ASSERT_EQ(Gone.size(), 2u);
  EXPECT_EQ(Gone[1], K2.get());
}

TEST(KernelCacheTest, AKernelLetGoUnloadsItsCodeWithItsLastHolder) {
  KernelCache C;
  C.setCapacity(1);
  KernelCache::Outcome R;
  size_t WithOne; // code loaded with one kernel of this cache held (and whatever else is)
  {
    Kernel K0 = get(C, fillWith(10), {"int *x", "int n"}, 0, R);
    ASSERT_NE(K0, nullptr);
    WithOne = loadedHostObjects();
    get(C, fillWith(11), {"int *x", "int n"}, 0, R); // kernel 10 goes, held here
    EXPECT_EQ(loadedHostObjects(), WithOne + 1);
  }
  // The cache (and this thread's last hit) hold kernel 11 alone: 10's code is gone.
  EXPECT_EQ(loadedHostObjects(), WithOne);
  for (int I = 12; I < 18; ++I)
    ASSERT_NE(get(C, fillWith(I), {"int *x", "int n"}, 0, R), nullptr);
  EXPECT_EQ(C.size(), 1u);
  EXPECT_EQ(loadedHostObjects(), WithOne) << "memory grows with every distinct kernel";
}

TEST(KernelCacheTest, AThreadsLastKernelLetGoIsAskedForAgain) {
  // The last kernel a thread got is found again without a lookup; once it left the cache, the
  // thread gets it from the cache again (here compiled anew), so that the cache stays the one
  // place that decides which kernels are kept.
  KernelCache C;
  C.setCapacity(1);
  KernelCache::Outcome R;
  Kernel Mine = get(C, fillWith(50), {"int *x", "int n"}, 0, R);
  std::thread Other([&] {
    KernelCache::Outcome OR;
    get(C, fillWith(51), {"int *x", "int n"}, 0, OR);
  });
  Other.join();
  Kernel Again = get(C, fillWith(50), {"int *x", "int n"}, 0, R);
  EXPECT_EQ(R, KernelCache::Outcome::Compiled);
  EXPECT_NE(Again, Mine);
  EXPECT_EQ(C.size(), 1u);
}

TEST(KernelCacheTest, AThreadCyclingThroughMoreKernelsThanItRemembersGetsEachItsOwn) {
  // A wavefront loop pushes the same few kernels in turn: each comes back as itself, from the
  // thread's recent hits or from the table, whether or not the thread still remembers it.
  KernelCache C;
  KernelCache::Outcome R;
  std::vector<Kernel> First;
  for (int I = 0; I < 11; ++I)
    First.push_back(get(C, fillWith(60 + I), {"int *x", "int n"}, 0, R));
  for (int Round = 0; Round < 3; ++Round)
    for (int I = 0; I < 11; I += 1 + Round) {
      Kernel K = get(C, fillWith(60 + I), {"int *x", "int n"}, 0, R);
      EXPECT_EQ(R, KernelCache::Outcome::Hit);
      EXPECT_EQ(K, First[I]) << "kernel " << I << " in round " << Round;
    }
  // The same text with other declarations or flags is another kernel.
  get(C, fillWith(60), {"int *x", "long n"}, 0, R);
  EXPECT_NE(R, KernelCache::Outcome::Hit);
}

TEST(KernelCacheTest, CapacityZeroKeepsEveryKernel) {
  KernelCache C;
  C.setCapacity(0);
  KernelCache::Outcome R;
  for (int I = 60; I < 66; ++I)
    ASSERT_NE(get(C, fillWith(I), {"int *x", "int n"}, 0, R), nullptr);
  EXPECT_EQ(C.size(), 6u);
}

/// Run Fn on Threads threads released together.
template <typename F> void together(unsigned Threads, F Fn) {
  std::atomic<unsigned> Ready{0};
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      Ready.fetch_add(1);
      while (Ready.load() < Threads)
        std::this_thread::yield();
      Fn(T);
    });
  for (std::thread &T : Pool)
    T.join();
}

TEST(KernelCacheTest, ConcurrentGetsOfANewKeyCompileOnce) {
  KernelCache C;
  constexpr unsigned N = 4;
  std::vector<Kernel> Got(N);
  std::vector<KernelCache::Outcome> Outcomes(N, KernelCache::Outcome::Hit);
  std::vector<std::string> Errors(N);
  together(N, [&](unsigned T) {
    auto K = C.get("#pragma acc parallel loop\n"
                   "for (int i = 0; i < n; i++) x[i] = 2 * i;\n",
                   {"long *x", "int n"}, 7, Outcomes[T]);
    if (K)
      Got[T] = *K;
    else
      Errors[T] = llvm::toString(K.takeError());
  });
  unsigned Compiled = 0;
  for (unsigned T = 0; T < N; ++T) {
    EXPECT_EQ(Errors[T], "") << "thread " << T;
    ASSERT_NE(Got[T], nullptr) << "thread " << T;
    EXPECT_EQ(Got[T], Got[0]) << "thread " << T;
    Compiled += Outcomes[T] == KernelCache::Outcome::Compiled;
  }
  EXPECT_EQ(Compiled, 1u);
  EXPECT_EQ(C.size(), 1u);
}

TEST(KernelCacheTest, ConcurrentGetsOfAFailingKeyAllFail) {
  KernelCache C;
  constexpr unsigned N = 4;
  std::vector<std::string> Errors(N);
  std::vector<int> Codes(N, 0);
  together(N, [&](unsigned T) {
    KernelCache::Outcome R;
    auto K = C.get("#pragma acc parallel loop\n"
                   "for (int i = 0; i < n; i++) x[i] = undeclared;\n",
                   {"int *x", "int n"}, 0, R);
    if (!K)
      Codes[T] = static_cast<int>(takeError(K.takeError(), Errors[T]));
  });
  for (unsigned T = 0; T < N; ++T) {
    EXPECT_EQ(Codes[T], static_cast<int>(ErrorCode::Compile)) << "thread " << T;
    EXPECT_NE(Errors[T].find("use of undeclared identifier 'undeclared'"), std::string::npos)
        << "thread " << T << ": " << Errors[T];
  }
  EXPECT_EQ(C.size(), 0u);
}

} // namespace
