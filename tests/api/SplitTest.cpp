// End to end: multi-device split mode. Every case computes a serial reference here, then runs the
// kernel with JACC_FORCE_SPLIT, with the default flags (adaptive choice) and with
// JACC_FORCE_DUPLICATE (the baseline), on host:1 .. host:4, and compares. Each push also checks
// the launch counters (a forced split counts as a split launch, a forced duplicate as a duplicate
// one without device-to-device bytes), and most cases check every device's copy of the written
// arrays, not only the primary one that jacc_copyout reads (EXPECT_WRITTEN). Variants of the
// fixture run some cases with JACC_NARROW=off, and check JACC_SPLIT=always / never.
//
// Floating-point results are compared exactly with the serial reference wherever the kernel's
// expressions cannot be contracted into an FMA (the JIT compiles at -O3 for the native CPU with
// clang's default -ffp-contract=on, which fuses a*b+c only within one expression), or where the
// product is exact (x * 2.0): the same C expression is then evaluated in the same order, with the
// same rounding. Kernels with a contractible, inexact a*b+c (saxpy, the matrix-vector product)
// are compared exactly with the result of jacc on host:1 (same source, so the same contraction)
// and within a tight tolerance with the serial reference.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using jacc_test::configuredDevices;
using jacc_test::stats;

// ---- fixtures ----------------------------------------------------------------------------------

/// JACC_SPLIT, JACC_NARROW and JACC_EXCHANGE as a suite sets them; null leaves a variable unset
/// (its default).
struct SplitPolicy {
  const char *Split = nullptr;
  const char *Narrow = nullptr;
  const char *Exchange = nullptr;
};

/// The running suite exchanges eagerly (JACC_EXCHANGE=eager): every split launch sends each
/// device's owned and written ranges to every other device. Else (demand) a launch fetches only
/// what its devices read and do not hold.
bool EagerExchange = false;
/// The running suite sets JACC_NARROW=off: every device runs every iteration.
bool NarrowOff = false;

/// The bytes a split launch moves between devices: EagerBytes under JACC_EXCHANGE=eager,
/// DemandBytes under demand.
uint64_t exchanged(uint64_t EagerBytes, uint64_t DemandBytes) {
  // JACC_MEMORY=unified (the api-unified run): the devices share one memory, nothing moves.
  const char *Memory = std::getenv("JACC_MEMORY");
  if (Memory && std::string(Memory) == "unified")
    return 0;
  return EagerExchange ? EagerBytes : DemandBytes;
}

/// DeviceTest over host:1 .. host:4 with the split policy variables at their defaults (a variant
/// overrides policy()). The variables are read by jacc_init, so they are set before DeviceTest's
/// SetUp re-initialises, and restored after its TearDown has finalised.
class SplitTest : public DeviceTest {
protected:
  virtual SplitPolicy policy() const { return {}; }
  void SetUp() override {
    SplitPolicy P = policy();
    Split.emplace("JACC_SPLIT", P.Split);
    Narrow.emplace("JACC_NARROW", P.Narrow);
    Exchange.emplace("JACC_EXCHANGE", P.Exchange);
    EagerExchange = P.Exchange && std::string(P.Exchange) == "eager";
    NarrowOff = P.Narrow && std::string(P.Narrow) == "off";
    DeviceTest::SetUp();
  }
  void TearDown() override {
    DeviceTest::TearDown();
    Exchange.reset();
    Narrow.reset();
    Split.reset();
  }
  uint64_t ndev() const { return static_cast<uint64_t>(configuredDevices(GetParam())); }

  /// Runs Fn with jacc re-initialised on one device, then restores this test's configuration
  /// (nothing may stay mapped across the switch).
  template <typename Fn> void onHost1(Fn F) {
    ASSERT_JACC(jacc_finalize());
    {
      jacc::ScopedEnv OneDevice("JACC_DEVICES", "host:1");
      ASSERT_JACC(jacc_init());
      F();
      EXPECT_JACC(jacc_finalize());
    }
    ASSERT_JACC(jacc_init());
    jacc_reset_stats();
  }

private:
  std::optional<jacc::ScopedEnv> Split, Narrow, Exchange;
};

/// JACC_EXCHANGE=eager: the paper's exchange after every split launch.
class SplitEagerTest : public SplitTest {
protected:
  SplitPolicy policy() const override { return {nullptr, nullptr, "eager"}; }
};

/// Iteration narrowing disabled: every device runs every iteration, predicates alone decide.
class SplitNoNarrowTest : public SplitTest {
protected:
  SplitPolicy policy() const override { return {nullptr, "off"}; }
};

/// JACC_SPLIT=always: pushes with the default flags split whenever there are several devices.
class SplitAlwaysTest : public SplitTest {
protected:
  SplitPolicy policy() const override { return {"always", nullptr}; }
};

/// JACC_SPLIT=never: pushes with the default flags always duplicate.
class SplitNeverTest : public SplitTest {
protected:
  SplitPolicy policy() const override { return {"never", nullptr}; }
};

// ---- helpers -----------------------------------------------------------------------------------

const unsigned Modes[] = {JACC_FORCE_SPLIT, JACC_DEFAULT, JACC_FORCE_DUPLICATE};

std::string modeName(unsigned Flags) {
  std::string S = Flags & JACC_FORCE_SPLIT       ? "JACC_FORCE_SPLIT"
                  : Flags & JACC_FORCE_DUPLICATE ? "JACC_FORCE_DUPLICATE"
                                                 : "JACC_DEFAULT";
  return Flags & JACC_ASYNC ? S + "|JACC_ASYNC" : S;
}

/// Runs Case(Flags) for each mode, stopping at the first fatal failure.
template <typename Fn> void eachMode(Fn Case, unsigned Extra = 0) {
  for (unsigned M : Modes) {
    SCOPED_TRACE("flags " + modeName(M | Extra));
    Case(M | Extra);
    if (::testing::Test::HasFatalFailure())
      return;
  }
}

/// Pushes a kernel and checks the launch counters: JACC_FORCE_SPLIT counts one split launch and
/// no duplicate one; JACC_FORCE_DUPLICATE the reverse and, under the eager exchange, no
/// device-to-device bytes (on demand it first fetches what split launches left on one device);
/// the default exactly one of the two.
void push(const char *Src, std::vector<jacc_arg> Args, unsigned Flags) {
  jacc_stats B = stats();
  ASSERT_EQ(jacc_kernel_push(Src, static_cast<int>(Args.size()), Args.data(), Flags), JACC_SUCCESS)
      << modeName(Flags) << ": " << jacc_last_error() << "\nkernel:\n"
      << Src;
  jacc_stats A = stats();
  EXPECT_EQ(A.kernels_pushed, B.kernels_pushed + 1);
  if (Flags & JACC_FORCE_SPLIT) {
    EXPECT_EQ(A.split_launches, B.split_launches + 1) << "not run split:\n" << Src;
    EXPECT_EQ(A.duplicate_launches, B.duplicate_launches) << Src;
  } else if (Flags & JACC_FORCE_DUPLICATE) {
    EXPECT_EQ(A.duplicate_launches, B.duplicate_launches + 1) << Src;
    EXPECT_EQ(A.split_launches, B.split_launches) << Src;
    if (!(Flags & JACC_ASYNC) && EagerExchange) {
      EXPECT_EQ(A.bytes_device_to_device, B.bytes_device_to_device) << Src;
    }
  } else {
    EXPECT_EQ(A.split_launches + A.duplicate_launches, B.split_launches + B.duplicate_launches + 1)
        << Src;
  }
}
#define PUSH(...) ASSERT_NO_FATAL_FAILURE(push(__VA_ARGS__))

uint64_t d2d() {
  return stats().bytes_device_to_device;
}

/// push(), and with JACC_FORCE_SPLIT, checks that the exchange moved Bytes between the devices.
void pushExchanging(const char *Src, std::vector<jacc_arg> Args, unsigned Flags, uint64_t Bytes) {
  uint64_t Before = d2d();
  ASSERT_NO_FATAL_FAILURE(push(Src, std::move(Args), Flags));
  if (Flags & JACC_FORCE_SPLIT) {
    EXPECT_EQ(d2d() - Before, Bytes) << Src;
  }
}

/// Pushes a kernel once with JACC_FORCE_SPLIT from zeroed counters: one split launch, no duplicate
/// one, and the exchange moved Bytes between the devices.
void splitOnceExchanging(const char *Src, std::vector<jacc_arg> Args, uint64_t Bytes) {
  jacc_reset_stats();
  ASSERT_NO_FATAL_FAILURE(push(Src, std::move(Args), JACC_FORCE_SPLIT));
  jacc_stats S = stats();
  EXPECT_EQ(S.bytes_device_to_device, Bytes) << Src;
  EXPECT_EQ(S.split_launches, 1u);
  EXPECT_EQ(S.duplicate_launches, 0u);
}

/// Runs Step(T, In, Out) for T = 0 .. Iters-1 over two buffers that swap roles after each step
/// (U is read and V written first), stopping at the first fatal failure: the ping-pong of the
/// iterated stencils, for their serial references and their pushes alike.
template <typename B, typename Fn> void pingPong(int Iters, B &U, B &V, Fn Step) {
  for (int T = 0; T < Iters && !::testing::Test::HasFatalFailure(); T++)
    Step(T, T % 2 ? V : U, T % 2 ? U : V);
}

/// Element-wise exact comparison; reports the number of differences and the first one.
template <typename T>
::testing::AssertionResult sameArray(const std::vector<T> &Got, const std::vector<T> &Want) {
  if (Got.size() != Want.size())
    return ::testing::AssertionFailure() << "size " << Got.size() << " instead of " << Want.size();
  size_t Bad = 0, First = 0;
  for (size_t I = 0; I < Got.size(); ++I)
    if (!(Got[I] == Want[I]) && Bad++ == 0)
      First = I;
  if (!Bad)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << Bad << " of " << Got.size() << " elements differ; first at " << First << ": got "
         << Got[First] << ", want " << Want[First];
}
#define EXPECT_SAME(Got, Want) EXPECT_TRUE(sameArray((Got), (Want))) << #Got

template <typename T> size_t bytesOf(const std::vector<T> &V) {
  return V.size() * sizeof(T);
}

/// The number of devices jacc runs on now.
uint64_t ndevOf() {
  return static_cast<uint64_t>(jacc_get_num_devices());
}

/// A host array as the cases map it: whole, from its first element (kernels may get pointers
/// into it).
struct WholeArray {
  template <typename T> WholeArray(std::vector<T> &V) : Data(V.data()), Bytes(bytesOf(V)) {}
  void *Data;
  size_t Bytes;
};

/// Copies each array in, in order.
void copyIn(std::initializer_list<WholeArray> Arrays) {
  for (const WholeArray &A : Arrays)
    ASSERT_JACC(jacc_copyin(A.Data, A.Bytes));
}
#define COPYIN(...) ASSERT_NO_FATAL_FAILURE(copyIn({__VA_ARGS__}))

/// Deletes each array's mapping (the arrays a case only reads), in order.
void release(std::initializer_list<WholeArray> Arrays) {
  for (const WholeArray &A : Arrays)
    ASSERT_JACC(jacc_delete(A.Data, A.Bytes));
}
#define RELEASE(...) ASSERT_NO_FATAL_FAILURE(release({__VA_ARGS__}))

template <typename T> const char *cType();
template <> const char *cType<int>() {
  return "int";
}
template <> const char *cType<long long>() {
  return "long long";
}
template <> const char *cType<double>() {
  return "double";
}

/// Checks every device's copy of the mapped array [Mapped, Mapped + Want.size()), not just the
/// primary device's (which is all that jacc_copyout reads): a split copy kernel makes device d
/// copy its own copy into block d of a snapshot array (the owned ranges of an array of N * L
/// elements are exactly the N blocks of L), and the snapshot is copied out.
template <typename T> void expectEveryDeviceHolds(const T *Mapped, const std::vector<T> &Want) {
  int Len = static_cast<int>(Want.size());
  int N = jacc_get_num_devices();
  int Total = Len * N;
  std::vector<T> Snap(static_cast<size_t>(Total));
  T *Out = Snap.data();
  ASSERT_JACC(jacc_create(Out, bytesOf(Snap)));
  std::string Src = "#pragma acc parallel loop present(in, out)\n"
                    "for (int t = 0; t < total; t++)\n"
                    "  out[t] = in[t % len];\n";
  std::string InDecl = std::string("const ") + cType<T>() + " *in";
  std::string OutDecl = std::string(cType<T>()) + " *out";
  jacc_arg Args[] = {
      {"int total", &Total}, {"int len", &Len}, {InDecl.c_str(), &Mapped}, {OutDecl.c_str(), &Out}};
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 4, Args, JACC_FORCE_SPLIT));
  ASSERT_JACC(jacc_copyout(Out, bytesOf(Snap)));
  for (int D = 0; D < N; D++) {
    std::vector<T> Copy(Snap.begin() + static_cast<size_t>(D) * Len,
                        Snap.begin() + static_cast<size_t>(D + 1) * Len);
    EXPECT_TRUE(sameArray(Copy, Want)) << "the copy on device " << D;
  }
}

/// Copies Host (mapped whole) out, which ends its mapping, and compares it with Want.
template <typename T>
void expectCopiedOut(std::vector<T> &Host, const std::vector<T> &Want, const char *Name) {
  ASSERT_JACC(jacc_copyout(Host.data(), bytesOf(Host))) << " (" << Name << ")";
  EXPECT_TRUE(sameArray(Host, Want)) << Name;
}
#define EXPECT_COPIED_OUT(Host, Want)                                                              \
  ASSERT_NO_FATAL_FAILURE(expectCopiedOut((Host), (Want), #Host))

/// The end of an array a case writes: every device holds Want (checked before the copyout ends
/// the mapping), and so does the host after the copyout.
template <typename T>
void expectWritten(std::vector<T> &Host, const std::vector<T> &Want, const char *Name) {
  SCOPED_TRACE(Name);
  ASSERT_NO_FATAL_FAILURE(expectEveryDeviceHolds(Host.data(), Want));
  expectCopiedOut(Host, Want, Name);
}
#define EXPECT_WRITTEN(Host, Want) ASSERT_NO_FATAL_FAILURE(expectWritten((Host), (Want), #Host))

// ---- saxpy (contractible: reference is jacc on host:1) ----------------------------------------

/// The arguments of jacc_test::SaxpyKernel.
std::vector<jacc_arg> saxpyArgs(int &n, float &a, float *&x, float *&y) {
  return {{"int n", &n}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}};
}

struct SaxpyInput {
  std::vector<float> x, y;
  explicit SaxpyInput(int n) : x(n), y(n) {
    for (int i = 0; i < n; i++) {
      x[i] = 0.001f * (i % 1000) + 0.37f;
      y[i] = static_cast<float>(i % 7) - 3.0f + 0.1f * (i % 3);
    }
  }
};

void runSaxpy(int n, float a, unsigned Flags, std::vector<float> &Out) {
  SaxpyInput D(n);
  float *x = D.x.data(), *y = D.y.data();
  COPYIN(D.x, D.y);
  PUSH(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), Flags);
  ASSERT_JACC(jacc_copyout(y, bytesOf(D.y)));
  RELEASE(D.x);
  Out = D.y;
}

TEST_P(SplitTest, RunsOnTheConfiguredDevices) {
  EXPECT_EQ(static_cast<uint64_t>(devices()), ndev());
}

TEST_P(SplitTest, Saxpy) {
  int n = 10007; // not a multiple of 2, 3 or 4
  float a = 2.5f;
  std::vector<float> Host1;
  onHost1([&] { runSaxpy(n, a, JACC_DEFAULT, Host1); });
  ASSERT_FALSE(HasFatalFailure());
  SaxpyInput In(n);
  for (int i = 0; i < n; i++)
    ASSERT_REL(Host1[i], a * In.x[i] + In.y[i], 1e-6) << "host:1, i=" << i;
  eachMode([&](unsigned Flags) {
    std::vector<float> Got;
    ASSERT_NO_FATAL_FAILURE(runSaxpy(n, a, Flags, Got));
    EXPECT_SAME(Got, Host1);
  });
}

TEST_P(SplitTest, SaxpyFewerElementsThanDevices) {
  // Some devices own nothing. Data chosen so that a*x+y is exact whether fused or not.
  for (int n : {1, 2, 3, 5, 7}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    eachMode([&](unsigned Flags) {
      float a = 2.0f;
      std::vector<float> xv(n), yv(n), ref(n);
      for (int i = 0; i < n; i++) {
        xv[i] = 0.5f * i;
        yv[i] = static_cast<float>(i + 1);
        ref[i] = a * xv[i] + yv[i];
      }
      float *x = xv.data(), *y = yv.data();
      COPYIN(xv, yv);
      ASSERT_NO_FATAL_FAILURE(pushExchanging(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), Flags,
                                             exchanged((ndev() - 1) * n * sizeof(float), 0)));
      ASSERT_JACC(jacc_copyout(y, bytesOf(yv)));
      RELEASE(xv);
      EXPECT_SAME(yv, ref);
    });
    if (HasFatalFailure())
      return;
  }
}

// ---- in place ----------------------------------------------------------------------------------

const char *InPlaceSrc = "#pragma acc parallel loop present(a)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  a[i] = 2 * a[i];\n";

void caseInPlace(unsigned Flags) {
  int n = 4099;
  std::vector<double> av(n), ref(n);
  for (int i = 0; i < n; i++)
    av[i] = ref[i] = 0.1 * i - 7.3;
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < n; i++)
      ref[i] = 2 * ref[i];
  double *a = av.data();
  COPYIN(av);
  for (int r = 0; r < 3; r++)
    PUSH(InPlaceSrc, {{"int n", &n}, {"double *a", &a}}, Flags);
  EXPECT_WRITTEN(av, ref);
}

TEST_P(SplitTest, InPlaceDouble) {
  eachMode(caseInPlace);
}

// ---- affine write indices: 2*i, 2*i+1, 3*i+1, n-1-i, decreasing loop ---------------------------

const char *InterleaveSrc = "#pragma acc parallel loop present(x, y, out)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  out[2 * i] = x[i];\n"
                            "  out[2 * i + 1] = y[i];\n"
                            "}\n";
const char *Stride3Src = "#pragma acc parallel loop present(x, out)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  out[3 * i + 1] = x[i] * 7;\n";

void caseInterleave(unsigned Flags) {
  int n = 2053;
  std::vector<int> xv(n), yv(n), ov(2 * n, -1), ref(2 * n);
  for (int i = 0; i < n; i++) {
    xv[i] = i * 3 + 1;
    yv[i] = -i * 5 - 2;
    ref[2 * i] = xv[i];
    ref[2 * i + 1] = yv[i];
  }
  int *x = xv.data(), *y = yv.data(), *out = ov.data();
  COPYIN(xv, yv, ov);
  PUSH(InterleaveSrc,
       {{"int n", &n}, {"const int *x", &x}, {"const int *y", &y}, {"int *out", &out}}, Flags);
  EXPECT_WRITTEN(ov, ref);

  // Every third element written; the others (and the two past the end) keep their values.
  std::vector<int> sv(3 * n + 2), sref(3 * n + 2);
  for (int i = 0; i < 3 * n + 2; i++)
    sv[i] = sref[i] = 100000 + i;
  for (int i = 0; i < n; i++)
    sref[3 * i + 1] = xv[i] * 7;
  int *s = sv.data();
  COPYIN(sv);
  PUSH(Stride3Src, {{"int n", &n}, {"const int *x", &x}, {"int *out", &s}}, Flags);
  EXPECT_WRITTEN(sv, sref);
  RELEASE(xv, yv);
}

TEST_P(SplitTest, InterleaveAndStridedWrites) {
  eachMode(caseInterleave);
}

const char *ReverseSrc = "#pragma acc parallel loop present(a, b)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  b[n - 1 - i] = a[i] * 3 + i;\n";
const char *DecreasingSrc = "#pragma acc parallel loop present(a, c)\n"
                            "for (int i = n - 1; i >= 0; i--)\n"
                            "  c[i] = a[n - 1 - i] - 2 * i;\n";

void caseReverse(unsigned Flags) {
  int n = 3001;
  std::vector<int> av(n), bv(n, 0), cv(n, 0), bref(n), cref(n);
  for (int i = 0; i < n; i++)
    av[i] = (i * 7919) % 1009 - 500;
  for (int i = 0; i < n; i++)
    bref[n - 1 - i] = av[i] * 3 + i;
  for (int i = n - 1; i >= 0; i--)
    cref[i] = av[n - 1 - i] - 2 * i;
  int *a = av.data(), *b = bv.data(), *c = cv.data();
  COPYIN(av, bv, cv);
  PUSH(ReverseSrc, {{"int n", &n}, {"const int *a", &a}, {"int *b", &b}}, Flags);
  PUSH(DecreasingSrc, {{"int n", &n}, {"const int *a", &a}, {"int *c", &c}}, Flags);
  EXPECT_WRITTEN(bv, bref);
  EXPECT_WRITTEN(cv, cref);
  RELEASE(av);
}

TEST_P(SplitTest, ReverseAndDecreasingLoop) {
  eachMode(caseReverse);
}

// ---- chains within one iteration ---------------------------------------------------------------

const char *Chain3Src = "#pragma acc parallel loop present(x, a, b, c)\n"
                        "for (int i = 0; i < n; i++) {\n"
                        "  a[i] = x[i] + 1.5;\n"
                        "  b[i] = a[i] * 2.0;\n"
                        "  c[i] = b[i] + a[i];\n"
                        "}\n";

void caseChain3(unsigned Flags) {
  // The three arrays are mapped with different extents around the pointers the kernel gets, so
  // that their owned ranges differ: a device must compute a[i] and b[i] for the c[i] it owns.
  int n = 2999;
  std::vector<double> xv(n), av(n, -1.0), bm(2 * n, -2.0), cm(n + 37, -3.0);
  for (int i = 0; i < n; i++)
    xv[i] = 0.37 * i - 100.0;
  std::vector<double> aref = av, bref = bm, cref = cm;
  for (int i = 0; i < n; i++) {
    aref[i] = xv[i] + 1.5;
    bref[n + i] = aref[i] * 2.0;
    cref[i] = bref[n + i] + aref[i];
  }
  double *x = xv.data(), *a = av.data(), *b = bm.data() + n, *c = cm.data();
  COPYIN(xv, av, bm, cm);
  PUSH(Chain3Src,
       {{"int n", &n},
        {"const double *x", &x},
        {"double *a", &a},
        {"double *b", &b},
        {"double *c", &c}},
       Flags);
  EXPECT_WRITTEN(av, aref);
  EXPECT_WRITTEN(bm, bref);
  EXPECT_WRITTEN(cm, cref);
  RELEASE(xv);
}

TEST_P(SplitTest, ChainAcrossThreeArrays) {
  eachMode(caseChain3);
}

const char *ScalarChainSrc = "#pragma acc parallel loop present(x, y, z)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  double t = x[i] * 2.0;\n"
                             "  double u = t + 1.0;\n"
                             "  y[i] = u;\n"
                             "  z[i] = u * t;\n"
                             "}\n";

void caseScalarChain(unsigned Flags) {
  int n = 3333;
  std::vector<double> xv(n), yv(n, 0.0), zm(n + 500, 9.0);
  for (int i = 0; i < n; i++)
    xv[i] = 0.013 * i - 11.0;
  std::vector<double> yref = yv, zref = zm;
  for (int i = 0; i < n; i++) {
    double t = xv[i] * 2.0;
    double u = t + 1.0;
    yref[i] = u;
    zref[500 + i] = u * t;
  }
  double *x = xv.data(), *y = yv.data(), *z = zm.data() + 500;
  COPYIN(xv, yv, zm);
  PUSH(ScalarChainSrc,
       {{"int n", &n}, {"const double *x", &x}, {"double *y", &y}, {"double *z", &z}}, Flags);
  EXPECT_WRITTEN(yv, yref);
  EXPECT_WRITTEN(zm, zref);
  RELEASE(xv);
}

TEST_P(SplitTest, ScalarChain) {
  eachMode(caseScalarChain);
}

// An inner loop's reduction is per-iteration data: q is longer than the loop's range, so a
// device's owned rows of q and its share of the iterations differ at the boundary, and the device
// that owns q[j] must compute sum for row j itself (it once stored a stale sum there).
const char *InnerReductionSrc = "#pragma acc parallel present(a, q)\n"
                                "{\n"
                                "  #pragma acc loop gang\n"
                                "  for (int r = 0; r < n; r++) {\n"
                                "    sum = 0;\n"
                                "    #pragma acc loop vector reduction(+:sum)\n"
                                "    for (int c = 0; c < m; c++) sum += a[r * m + c];\n"
                                "    q[r] = sum;\n"
                                "  }\n"
                                "}\n";

void caseInnerLoopReduction(unsigned Flags) {
  int n = 100, m = 37;
  std::vector<double> av(n * m), qv(160, -1.0);
  for (int k = 0; k < n * m; k++)
    av[k] = k % 7 + 1;
  std::vector<double> qref = qv;
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < m; i++)
      s += av[j * m + i];
    qref[j] = s;
  }
  double *a = av.data(), *q = qv.data(), sum = 0;
  COPYIN(av, qv);
  PUSH(InnerReductionSrc,
       {{"int n", &n}, {"int m", &m}, {"double sum", &sum}, {"const double *a", &a},
        {"double *q", &q}},
       Flags);
  EXPECT_WRITTEN(qv, qref);
  RELEASE(av);
}

TEST_P(SplitTest, InnerLoopReduction) {
  eachMode(caseInnerLoopReduction);
}

// ---- branches ----------------------------------------------------------------------------------

const char *BranchSrc = "#pragma acc parallel loop present(x, y, z)\n"
                        "for (int i = 0; i < n; i++) {\n"
                        "  if (x[i] > 0)\n"
                        "    y[i] = x[i] * 2;\n"
                        "  else\n"
                        "    z[i] = -x[i] + 1000;\n"
                        "}\n";

void caseBranches(unsigned Flags) {
  int n = 4001;
  std::vector<int> xv(n), yv(n + 11, 7), zm(2 * n, 8);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 37) % 101 - 50;
  std::vector<int> yref = yv, zref = zm;
  for (int i = 0; i < n; i++) {
    if (xv[i] > 0)
      yref[i] = xv[i] * 2;
    else
      zref[n + i] = -xv[i] + 1000;
  }
  int *x = xv.data(), *y = yv.data(), *z = zm.data() + n;
  COPYIN(xv, yv, zm);
  PUSH(BranchSrc, {{"int n", &n}, {"const int *x", &x}, {"int *y", &y}, {"int *z", &z}}, Flags);
  EXPECT_WRITTEN(yv, yref);
  EXPECT_WRITTEN(zm, zref);
  RELEASE(xv);
}

TEST_P(SplitTest, Branches) {
  eachMode(caseBranches);
}

// ---- inner sequential loop: matrix-vector product (contractible) -------------------------------

const char *MatVecSrc = "#pragma acc parallel loop present(A, x, y)\n"
                        "for (int i = 0; i < n; i++) {\n"
                        "  double s = 0.0;\n"
                        "  for (int k = 0; k < m; k++)\n"
                        "    s += A[i][k] * x[k];\n"
                        "  y[i] = s;\n"
                        "}\n";

struct MatVecInput {
  int n, m;
  std::vector<double> A, x;
  MatVecInput(int N, int M) : n(N), m(M), A(N * M), x(M) {
    for (int i = 0; i < n * m; i++)
      A[i] = 0.001 * ((i * 7919) % 2003) - 1.0;
    for (int k = 0; k < m; k++)
      x[k] = 0.5 + 0.01 * k;
  }
};

void runMatVec(int n, int m, unsigned Flags, std::vector<double> &Out) {
  MatVecInput In(n, m);
  std::vector<double> yv(n, -1.0);
  double *A = In.A.data(), *x = In.x.data(), *y = yv.data();
  COPYIN(In.A, In.x);
  ASSERT_JACC(jacc_create(y, bytesOf(yv)));
  PUSH(MatVecSrc,
       {{"int n", &n},
        {"int m", &m},
        {"const double (*A)[m]", &A},
        {"const double *x", &x},
        {"double *y", &y}},
       Flags);
  ASSERT_JACC(jacc_copyout(y, bytesOf(yv)));
  RELEASE(In.A, In.x);
  Out = yv;
}

TEST_P(SplitTest, MatVecInnerSequentialLoop) {
  int n = 301, m = 173;
  std::vector<double> Host1;
  onHost1([&] { runMatVec(n, m, JACC_DEFAULT, Host1); });
  ASSERT_FALSE(HasFatalFailure());
  MatVecInput In(n, m);
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < m; k++)
      s += In.A[i * m + k] * In.x[k];
    ASSERT_REL(Host1[i], s, 1e-12) << "host:1, i=" << i;
  }
  eachMode([&](unsigned Flags) {
    std::vector<double> Got;
    ASSERT_NO_FATAL_FAILURE(runMatVec(n, m, Flags, Got));
    EXPECT_SAME(Got, Host1);
  });
}

// ---- 2-D: split by rows and by columns ---------------------------------------------------------

// a*2.0 is exact, so a fused multiply-add gives the same result as the serial reference.
const char *RowsCollapseSrc = "#pragma acc parallel loop collapse(2) present(a, b)\n"
                              "for (int i = 0; i < r; i++)\n"
                              "  for (int j = 0; j < c; j++)\n"
                              "    b[i][j] = a[i][j] * 2.0 + (i * c + j);\n";
const char *RowsInnerVectorSrc = "#pragma acc parallel loop present(a, b)\n"
                                 "for (int i = 0; i < r; i++) {\n"
                                 "  #pragma acc loop vector\n"
                                 "  for (int j = 0; j < c; j++)\n"
                                 "    a[i][j] = b[i][j] - a[i][j];\n"
                                 "}\n";

void caseRows(unsigned Flags) {
  int r = 61, c = 47;
  std::vector<double> av(r * c), bv(r * c, 0.0);
  for (int i = 0; i < r * c; i++)
    av[i] = 0.01 * ((i * 31) % 977) - 3.0;
  std::vector<double> aref = av, bref = bv;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      bref[i * c + j] = aref[i * c + j] * 2.0 + (i * c + j);
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      aref[i * c + j] = bref[i * c + j] - aref[i * c + j];
  double *a = av.data(), *b = bv.data();
  COPYIN(av, bv);
  std::vector<jacc_arg> Args = {
      {"int r", &r}, {"int c", &c}, {"double (*a)[c]", &a}, {"double (*b)[c]", &b}};
  ASSERT_NO_FATAL_FAILURE(pushExchanging(RowsCollapseSrc, Args, Flags,
                                         exchanged((ndevOf() - 1) * r * c * sizeof(double), 0)));
  PUSH(RowsInnerVectorSrc, Args, Flags);
  EXPECT_WRITTEN(av, aref);
  EXPECT_WRITTEN(bv, bref);
}

TEST_P(SplitTest, Rows2D) {
  eachMode(caseRows);
}

// Interior pointers: a row pointer one row into a mapping with a halo row on each side, written
// at rows -1 .. r (so at negative indices), and a 1-D pointer written at i - off.
const char *HaloRowsSrc = "#pragma acc parallel loop present(a)\n"
                          "for (int i = -1; i <= r; i++) {\n"
                          "  #pragma acc loop vector\n"
                          "  for (int j = 0; j < c; j++)\n"
                          "    a[i][j] = i * 100 + j;\n"
                          "}\n";
const char *NegativeIndexSrc = "#pragma acc parallel loop present(y)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  y[i - off] = i * 7 + 1;\n";

void caseInteriorPointers(unsigned Flags) {
  int r = 29, c = 13;
  std::vector<int> hv((r + 2) * c, -1), href((r + 2) * c);
  for (int i = -1; i <= r; i++)
    for (int j = 0; j < c; j++)
      href[(i + 1) * c + j] = i * 100 + j;
  int *a = hv.data() + c;
  COPYIN(hv);
  PUSH(HaloRowsSrc, {{"int r", &r}, {"int c", &c}, {"int (*a)[c]", &a}}, Flags);
  EXPECT_WRITTEN(hv, href);

  int n = 1003, off = 400;
  std::vector<int> yv(n + 5, -3), yref(n + 5, -3);
  for (int i = 0; i < n; i++)
    yref[i] = i * 7 + 1;
  int *y = yv.data() + off;
  COPYIN(yv);
  PUSH(NegativeIndexSrc, {{"int n", &n}, {"int off", &off}, {"int *y", &y}}, Flags);
  EXPECT_WRITTEN(yv, yref);
}

TEST_P(SplitTest, InteriorPointersAndNegativeIndices) {
  eachMode(caseInteriorPointers);
}

// Column j is the parallel iterator; the inner sequential loop walks down the column and reads
// the element it wrote in the previous step (a prefix sum per column).
const char *ColumnsSrc = "#pragma acc parallel loop present(a, b)\n"
                         "for (int j = 0; j < c; j++) {\n"
                         "  a[0][j] = b[0][j];\n"
                         "  for (int i = 1; i < r; i++)\n"
                         "    a[i][j] = a[i - 1][j] + b[i][j];\n"
                         "}\n";

void caseColumns(unsigned Flags) {
  int r = 37, c = 53;
  std::vector<int> av(r * c, -5), bv(r * c);
  for (int i = 0; i < r * c; i++)
    bv[i] = (i * 7919) % 211 - 100;
  std::vector<int> aref = av;
  for (int j = 0; j < c; j++) {
    aref[j] = bv[j];
    for (int i = 1; i < r; i++)
      aref[i * c + j] = aref[(i - 1) * c + j] + bv[i * c + j];
  }
  int *a = av.data(), *b = bv.data();
  COPYIN(av, bv);
  // Every element is written: eagerly, each device sends its owned columns of every row; on
  // demand, nothing moves (each device reads its own columns).
  ASSERT_NO_FATAL_FAILURE(pushExchanging(
      ColumnsSrc, {{"int r", &r}, {"int c", &c}, {"int (*a)[c]", &a}, {"const int (*b)[c]", &b}},
      Flags, exchanged((ndevOf() - 1) * r * c * sizeof(int), 0)));
  EXPECT_WRITTEN(av, aref);
  RELEASE(bv);
}

TEST_P(SplitTest, Columns2D) {
  eachMode(caseColumns);
}

// ---- indirect writes ---------------------------------------------------------------------------

const char *IndirectSrc = "#pragma acc parallel loop present(idx, x, a, b)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  a[idx[i]] = x[i] * 3 + 1;\n"
                          "  b[i] = a[idx[i]] + i;\n"
                          "}\n";

void caseIndirect(unsigned Flags) {
  int n = 5003;
  std::vector<int> idxv(n), xv(n), av(n, -9), bm(n + 100, -8);
  for (int i = 0; i < n; i++) {
    idxv[i] = i;
    xv[i] = (i * 13) % 1000 - 300;
  }
  std::mt19937 Rng(12345);
  std::shuffle(idxv.begin(), idxv.end(), Rng);
  std::vector<int> aref = av, bref = bm;
  for (int i = 0; i < n; i++) {
    aref[idxv[i]] = xv[i] * 3 + 1;
    bref[100 + i] = aref[idxv[i]] + i;
  }
  int *idx = idxv.data(), *x = xv.data(), *a = av.data(), *b = bm.data() + 100;
  COPYIN(idxv, xv, av, bm);
  uint64_t Before = d2d();
  PUSH(IndirectSrc,
       {{"int n", &n},
        {"const int *idx", &idx},
        {"const int *x", &x},
        {"int *a", &a},
        {"int *b", &b}},
       Flags);
  // At most every device's owned ranges of both mappings.
  if (Flags & JACC_FORCE_SPLIT) {
    EXPECT_LE(d2d() - Before, (ndevOf() - 1) * (bytesOf(av) + bytesOf(bm)));
  }
  EXPECT_WRITTEN(av, aref);
  EXPECT_WRITTEN(bm, bref);
  RELEASE(idxv, xv);
}

TEST_P(SplitTest, IndirectWritesThroughPermutation) {
  eachMode(caseIndirect);
}

// ---- atomics -----------------------------------------------------------------------------------

// Every form but capture on a split kernel: the guard of each atomic wraps the whole operation.
const char *AtomicsSrc = "#pragma acc parallel loop present(x, h, c, w, y)\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  int v;\n"
                         "  #pragma acc atomic update\n"
                         "  h[x[i] % 16] = h[x[i] % 16] + 2;\n"
                         "  #pragma acc atomic\n"
                         "  --c[i % 7];\n"
                         "  #pragma acc atomic write\n"
                         "  w[i] = x[i] * 3;\n"
                         "  #pragma acc atomic read\n"
                         "  v = x[i];\n"
                         "  y[i] = v + 1;\n"
                         "}\n";

void caseAtomics(unsigned Flags) {
  int n = 4099;
  std::vector<int> xv(n), hv(16, 0), cv(7, 5), wv(n, -1), yv(n, -1);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 31) % 1000;
  std::vector<int> href = hv, cref = cv, wref(n), yref(n);
  for (int i = 0; i < n; i++) {
    href[xv[i] % 16] += 2;
    --cref[i % 7];
    wref[i] = xv[i] * 3;
    yref[i] = xv[i] + 1;
  }
  int *x = xv.data(), *h = hv.data(), *c = cv.data(), *w = wv.data(), *y = yv.data();
  COPYIN(xv, hv, cv, wv, yv);
  PUSH(AtomicsSrc,
       {{"int n", &n}, {"const int *x", &x}, {"int *h", &h}, {"int *c", &c}, {"int *w", &w},
        {"int *y", &y}},
       Flags);
  EXPECT_WRITTEN(hv, href);
  EXPECT_WRITTEN(cv, cref);
  EXPECT_WRITTEN(wv, wref);
  EXPECT_WRITTEN(yv, yref);
  RELEASE(xv);
}

TEST_P(SplitTest, AtomicsGuardedWhole) {
  eachMode(caseAtomics);
}

// Captures: each device would capture from its own order of the updates, so the kernel runs
// duplicated, and each group's captured values are exactly 0 .. count - 1 in some order.
const char *CapturesSrc = "#pragma acc parallel loop present(t, y, z)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int v;\n"
                          "  #pragma acc atomic capture\n"
                          "  { v = t[i % 5]; t[i % 5] += 1; }\n"
                          "  y[i] = v;\n"
                          "  #pragma acc atomic capture\n"
                          "  { t[5]++; z[i] = t[5]; }\n"
                          "}\n";

TEST_P(SplitTest, CapturesRunDuplicated) {
  for (unsigned Flags : {JACC_DEFAULT, JACC_FORCE_DUPLICATE}) {
    SCOPED_TRACE(modeName(Flags));
    int n = 1003;
    std::vector<int> tv(6, 0), yv(n, -1), zv(n, -1);
    int *t = tv.data(), *y = yv.data(), *z = zv.data();
    COPYIN(tv, yv, zv);
    PUSH(CapturesSrc, {{"int n", &n}, {"int *t", &t}, {"int *y", &y}, {"int *z", &z}}, Flags);
    EXPECT_EQ(stats().split_launches, 0u);
    ASSERT_JACC(jacc_copyout(tv.data(), bytesOf(tv)));
    ASSERT_JACC(jacc_copyout(yv.data(), bytesOf(yv)));
    ASSERT_JACC(jacc_copyout(zv.data(), bytesOf(zv)));
    std::vector<std::vector<int>> Seen(5);
    for (int i = 0; i < n; i++)
      Seen[i % 5].push_back(yv[i]);
    for (int k = 0; k < 5; k++) {
      std::sort(Seen[k].begin(), Seen[k].end());
      EXPECT_EQ(tv[k], static_cast<int>(Seen[k].size()));
      for (size_t j = 0; j < Seen[k].size(); j++)
        ASSERT_EQ(Seen[k][j], static_cast<int>(j)) << "group " << k;
    }
    std::sort(zv.begin(), zv.end());
    EXPECT_EQ(tv[5], n);
    for (int i = 0; i < n; i++)
      ASSERT_EQ(zv[i], i + 1);
  }
}

// ---- reductions --------------------------------------------------------------------------------

// Pushed with int and with double arguments (the declarations are part of a kernel's identity).
const char *ReduceWriteSrc = "#pragma acc parallel loop present(x, y) reduction(+:sum) "
                             "reduction(max:mx)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  y[i] = x[i] * 2;\n"
                             "  sum += x[i];\n"
                             "  mx = x[i] > mx ? x[i] : mx;\n"
                             "}\n";
const char *ReduceOnlySrc = "#pragma acc parallel loop present(x) reduction(+:sum) "
                            "reduction(max:mx)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  sum += x[i] * x[i];\n"
                            "  mx = x[i] > mx ? x[i] : mx;\n"
                            "}\n";

void caseReductions(unsigned Flags) {
  for (int n : {10007, 3}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    // yi is mapped with 50 elements before the pointer the kernel gets: the owned ranges of y
    // then differ from the devices' shares of the iterations (narrowing runs the union).
    std::vector<int> xi(n), yi(n + 50, 0), yiref(n + 50, 0);
    std::vector<double> xd(n), yd(n, 0.0), ydref(n);
    for (int i = 0; i < n; i++) {
      xi[i] = (i * 37) % 201 - 100;
      xd[i] = 0.25 * xi[i]; // multiples of 1/4: every partial sum is exact in any order
      yiref[50 + i] = xi[i] * 2;
      ydref[i] = xd[i] * 2;
    }
    int *x1 = xi.data(), *y1 = yi.data() + 50;
    double *x2 = xd.data(), *y2 = yd.data();
    COPYIN(xi, yi, xd, yd);
    // The initial value counts once: small, then larger than every element for max.
    for (int mx0 : {-1000000, 1000000}) {
      SCOPED_TRACE("max init " + std::to_string(mx0));
      int isum = 1000, imx = mx0, rsum = 1000, rmx = mx0;
      long long qsum = 1000, rq = 1000;
      int qmx = mx0, rqmx = mx0;
      double dsum = 1000.0, dmx = mx0, rdsum = 1000.0, rdmx = mx0;
      for (int i = 0; i < n; i++) {
        rsum += xi[i];
        rmx = xi[i] > rmx ? xi[i] : rmx;
        rdsum += xd[i];
        rdmx = xd[i] > rdmx ? xd[i] : rdmx;
        rq += static_cast<long long>(xi[i]) * xi[i];
        rqmx = xi[i] > rqmx ? xi[i] : rqmx;
      }
      PUSH(ReduceWriteSrc,
           {{"int n", &n},
            {"const int *x", &x1},
            {"int *y", &y1},
            {"int sum", &isum},
            {"int mx", &imx}},
           Flags);
      EXPECT_EQ(isum, rsum);
      EXPECT_EQ(imx, rmx);
      PUSH(ReduceWriteSrc,
           {{"int n", &n},
            {"const double *x", &x2},
            {"double *y", &y2},
            {"double sum", &dsum},
            {"double mx", &dmx}},
           Flags);
      EXPECT_EQ(dsum, rdsum);
      EXPECT_EQ(dmx, rdmx);
      PUSH(ReduceOnlySrc,
           {{"int n", &n}, {"const int *x", &x1}, {"long long sum", &qsum}, {"int mx", &qmx}},
           Flags);
      EXPECT_EQ(qsum, rq);
      EXPECT_EQ(qmx, rqmx);
    }
    EXPECT_WRITTEN(yi, yiref);
    EXPECT_WRITTEN(yd, ydref);
    RELEASE(xi, xd);
  }
}

TEST_P(SplitTest, ReductionsSumAndMax) {
  eachMode(caseReductions);
}

// ---- aliasing: two pointer arguments into one mapped array --------------------------------------

// dst and src are the same pointer: z[i] must see the value just written through dst.
const char *AliasSameSrc = "#pragma acc parallel loop present(src, dst, z)\n"
                           "for (int i = 0; i < n; i++) {\n"
                           "  dst[i] = src[i] * 2.0;\n"
                           "  z[i] = src[i] + 1.0;\n"
                           "}\n";
// dst = x + 1, src = x: writes the odd elements from the even ones (no element read and written).
const char *AliasOffsetSrc = "#pragma acc parallel loop present(src, dst)\n"
                             "for (int i = 0; i < h; i++)\n"
                             "  dst[2 * i] = src[2 * i] * 3 + 1;\n";
// Disjoint halves of one mapping, one read and one written.
const char *AliasHalvesSrc = "#pragma acc parallel loop present(src, dst)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  dst[i] = src[i] * 3 - i;\n";
// Both halves written through two pointers, neither read.
const char *TwoWritersSrc = "#pragma acc parallel loop present(lo, hi)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  lo[i] = i * 2;\n"
                            "  hi[i] = i * 5 + 1;\n"
                            "}\n";

void caseAliasing(unsigned Flags) {
  int n = 2501;
  {
    // x mapped with 61 elements before the pointer and z exactly: different owned ranges.
    std::vector<double> xm(n + 61), zv(n, 0.0);
    for (int i = 0; i < n + 61; i++)
      xm[i] = 0.3 * i - 50.0;
    std::vector<double> xref = xm, zref = zv;
    for (int i = 0; i < n; i++) {
      xref[61 + i] = xref[61 + i] * 2.0;
      zref[i] = xref[61 + i] + 1.0;
    }
    double *x = xm.data() + 61, *z = zv.data();
    COPYIN(xm, zv);
    PUSH(AliasSameSrc,
         {{"int n", &n}, {"const double *src", &x}, {"double *dst", &x}, {"double *z", &z}}, Flags);
    EXPECT_WRITTEN(xm, xref);
    EXPECT_WRITTEN(zv, zref);
  }
  {
    int h = n / 2;
    std::vector<int> xv(2 * h);
    for (int i = 0; i < 2 * h; i++)
      xv[i] = (i * 7) % 97;
    std::vector<int> ref = xv;
    for (int i = 0; i < h; i++)
      ref[2 * i + 1] = ref[2 * i] * 3 + 1;
    int *src = xv.data(), *dst = xv.data() + 1;
    COPYIN(xv);
    PUSH(AliasOffsetSrc, {{"int h", &h}, {"const int *src", &src}, {"int *dst", &dst}}, Flags);
    EXPECT_WRITTEN(xv, ref);
  }
  {
    std::vector<int> xv(2 * n);
    for (int i = 0; i < 2 * n; i++)
      xv[i] = (i * 11) % 89 - 40;
    std::vector<int> ref = xv;
    for (int i = 0; i < n; i++)
      ref[n + i] = ref[i] * 3 - i;
    int *src = xv.data(), *dst = xv.data() + n;
    COPYIN(xv);
    PUSH(AliasHalvesSrc, {{"int n", &n}, {"const int *src", &src}, {"int *dst", &dst}}, Flags);
    EXPECT_WRITTEN(xv, ref);
  }
  {
    std::vector<int> xv(2 * n, -1), ref(2 * n);
    for (int i = 0; i < n; i++) {
      ref[i] = i * 2;
      ref[n + i] = i * 5 + 1;
    }
    int *lo = xv.data(), *hi = xv.data() + n;
    COPYIN(xv);
    PUSH(TwoWritersSrc, {{"int n", &n}, {"int *lo", &lo}, {"int *hi", &hi}}, Flags);
    EXPECT_WRITTEN(xv, ref);
  }
}

TEST_P(SplitTest, AliasingThroughTwoArguments) {
  eachMode(caseAliasing);
}

// A coarse grid written from a fine one of the same allocation, its reads in the loop that
// writes (so after a write of the iteration): the probes show that they miss the writes, so the
// coarse grid splits, and a kernel reading its rows in reverse order fetches what others wrote.
const char *CoarseFromFineSrc =
    "#pragma acc parallel loop present(fine, coarse)\n"
    "for (int i = 0; i < n; i++)\n"
    "  for (int j = 0; j < m; j++)\n"
    "    coarse[i * m + j] = fine[2 * i * m + j] + fine[(2 * i + 1) * m + j];\n";
const char *ReversedCoarseSrc = "#pragma acc parallel loop present(coarse, out)\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  for (int j = 0; j < m; j++)\n"
                                "    out[i * m + j] = 2 * coarse[(n - 1 - i) * m + j];\n";

// A coarse grid from a fine one through a local index (i = 2 * j, as NPB MG's restriction): the
// reads are bounded, so after a split kernel left each device its part of the fine grid, the
// restriction's devices read exactly their own parts and nothing moves.
const char *DoubleFineSrc = "#pragma acc parallel loop present(fine)\n"
                            "for (int i = 0; i < nf; i++)\n"
                            "  fine[i] = 2 * fine[i];\n";
const char *RestrictSrc = "#pragma acc parallel loop present(fine, coarse)\n"
                          "for (int j = 0; j < nc; j++) {\n"
                          "  int i = 2 * j;\n"
                          "  coarse[j] = fine[i] + fine[i + 1];\n"
                          "}\n";

TEST_P(SplitTest, IndicesThroughLocalsReadOnlyTheirRows) {
  int nc = 600, nf = 2 * nc;
  std::vector<double> F(nf), C(nc, 0.0);
  for (int I = 0; I < nf; I++)
    F[I] = (I * 7) % 13 - 3.0;
  std::vector<double> RefF = F, RefC(nc);
  for (int I = 0; I < nf; I++)
    RefF[I] *= 2;
  for (int J = 0; J < nc; J++)
    RefC[J] = RefF[2 * J] + RefF[2 * J + 1];
  double *fine = F.data(), *coarse = C.data();
  COPYIN(F, C);
  jacc_reset_stats();
  PUSH(DoubleFineSrc, {{"int nf", &nf}, {"double *fine", &fine}}, JACC_FORCE_SPLIT);
  PUSH(RestrictSrc, {{"int nc", &nc}, {"const double *fine", &fine}, {"double *coarse", &coarse}},
       JACC_FORCE_SPLIT);
  EXPECT_EQ(d2d(), 0u) << "device d's coarse rows read the fine rows it owns";
  EXPECT_WRITTEN(F, RefF);
  EXPECT_WRITTEN(C, RefC);
}

// The same array under two names, read only where its statement writes it (NPB MG's
// resid(u, r, r): r = v - a u in place): it splits, and each device reads only its own rows of
// u, which a split kernel left it.
const char *TripleSrc = "#pragma acc parallel loop present(u)\n"
                        "for (int k = 0; k < n * m; k++)\n"
                        "  u[k] = 3 * u[k];\n";
const char *ResidualSrc = "#pragma acc parallel loop present(v, r, u)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    r[i * m + j] = v[i * m + j] - 2 * u[i * m + j];\n";

TEST_P(SplitTest, TheSameArrayUnderTwoNamesReadWhereItIsWrittenSplits) {
  int n = 60, m = 16;
  std::vector<double> A(n * m), U(n * m);
  for (int K = 0; K < n * m; K++) {
    A[K] = (K * 5) % 17;
    U[K] = (K * 3) % 11 - 4.0;
  }
  std::vector<double> RefA = A, RefU = U;
  for (int K = 0; K < n * m; K++) {
    RefU[K] *= 3;
    RefA[K] -= 2 * RefU[K];
  }
  double *r = A.data(), *v = A.data(), *u = U.data();
  COPYIN(A, U);
  jacc_reset_stats();
  PUSH(TripleSrc, {{"int n", &n}, {"int m", &m}, {"double *u", &u}}, JACC_FORCE_SPLIT);
  PUSH(ResidualSrc,
       {{"int n", &n},
        {"int m", &m},
        {"const double *v", &v},
        {"double *r", &r},
        {"const double *u", &u}},
       JACC_FORCE_SPLIT);
  EXPECT_EQ(d2d(), 0u) << "computed whole, every device would read all of u";
  EXPECT_WRITTEN(A, RefA);
  EXPECT_WRITTEN(U, RefU);
}

TEST_P(SplitTest, AliasedReadsThatMissTheWritesSplit) {
  int n = 40, m = 24;
  std::vector<double> All(3 * n * m), Out(n * m, 0.0);
  for (int K = 0; K < 3 * n * m; K++)
    All[K] = (K * 13) % 29 - 7.0;
  std::vector<double> Ref = All, RefOut(n * m);
  for (int I = 0; I < n; I++)
    for (int J = 0; J < m; J++)
      Ref[I * m + J] = Ref[n * m + 2 * I * m + J] + Ref[n * m + (2 * I + 1) * m + J];
  for (int I = 0; I < n; I++)
    for (int J = 0; J < m; J++)
      RefOut[I * m + J] = 2 * Ref[(n - 1 - I) * m + J];
  double *coarse = All.data(), *fine = All.data() + n * m, *out = Out.data();
  COPYIN(All, Out);
  jacc_reset_stats();
  PUSH(CoarseFromFineSrc,
       {{"int n", &n}, {"int m", &m}, {"const double *fine", &fine}, {"double *coarse", &coarse}},
       JACC_FORCE_SPLIT);
  PUSH(ReversedCoarseSrc,
       {{"int n", &n}, {"int m", &m}, {"const double *coarse", &coarse}, {"double *out", &out}},
       JACC_FORCE_SPLIT);
  if (devices() > 1 && exchanged(1, 1) > 0) { // in one memory nothing moves
    EXPECT_GT(d2d(), 0u) << "computed whole, the coarse grid would be on every device";
  }
  EXPECT_WRITTEN(All, Ref);
  EXPECT_WRITTEN(Out, RefOut);
}

// ---- what a device owns: where its iterations write ---------------------------------------

/// The bytes a demand-exchanged split launch moves where every device runs only its own
/// iterations (else: whatever the suite's exchange moves, unchecked: -1).
int64_t narrowDemand(uint64_t Bytes) {
  return EagerExchange || NarrowOff ? -1 : static_cast<int64_t>(exchanged(Bytes, Bytes));
}

/// Pushes a split kernel; checks the bytes it moved unless Bytes is -1.
void pushMoving(const char *Src, std::vector<jacc_arg> Args, int64_t Bytes) {
  uint64_t Before = d2d();
  ASSERT_NO_FATAL_FAILURE(push(Src, std::move(Args), JACC_FORCE_SPLIT));
  if (Bytes >= 0) {
    EXPECT_EQ(d2d() - Before, static_cast<uint64_t>(Bytes)) << Src;
  }
}

const char *HalveRowsSrc = "#pragma acc parallel loop present(fine, coarse)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  for (int j = 0; j < m; j++)\n"
                           "    coarse[i * m + j] = fine[i * m + j] / 2;\n";
const char *CopyRowsSrc = "#pragma acc parallel loop present(coarse, out)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    out[i * m + j] = coarse[i * m + j] + 1;\n";

// A coarse grid at the end of an allocation that also holds a fine one (a multigrid's levels):
// each device owns the coarse rows its iterations write, not its share of the allocation (which
// would put the whole coarse grid on the last device), so a kernel reading them on the same rows
// moves nothing.
TEST_P(SplitTest, ALevelInsideABiggerMappingIsOwnedWhereItIsWritten) {
  int n = 24, m = 10;
  std::vector<double> Levels(5 * n * m), Out(n * m, 0.0);
  for (int K = 0; K < 5 * n * m; K++)
    Levels[K] = K % 17;
  double *fine = Levels.data(), *coarse = Levels.data() + 4 * n * m, *out = Out.data();
  std::vector<double> Ref = Levels, RefOut(n * m);
  for (int K = 0; K < n * m; K++) {
    Ref[4 * n * m + K] = Ref[K] / 2;
    RefOut[K] = Ref[4 * n * m + K] + 1;
  }
  COPYIN(Levels, Out);
  jacc_reset_stats();
  pushMoving(
      HalveRowsSrc,
      {{"int n", &n}, {"int m", &m}, {"const double *fine", &fine}, {"double *coarse", &coarse}},
      narrowDemand(0));
  pushMoving(
      CopyRowsSrc,
      {{"int n", &n}, {"int m", &m}, {"const double *coarse", &coarse}, {"double *out", &out}},
      narrowDemand(0));
  EXPECT_WRITTEN(Levels, Ref);
  EXPECT_WRITTEN(Out, RefOut);
}

const char *FillRowsSrc = "#pragma acc parallel loop present(g)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    g[i * m + j] = i * 100 + j;\n";
const char *WrapRowsSrc = "#pragma acc parallel loop present(g)\n"
                          "for (int j = 0; j < m; j++) {\n"
                          "  g[j] = g[(n - 2) * m + j];\n"
                          "  g[(n - 1) * m + j] = g[m + j];\n"
                          "}\n";

// A periodic boundary (NPB MG's comm3): the first row is written from the last but one and the
// last from the second, one loop over the columns. The two writes lie at the grid's two ends, so
// the devices own shares of what lies between (not of the columns): the first device writes the
// first row and the last device the last, where the rows split by the fill already lie, and each
// fetches the one row it copies.
TEST_P(SplitTest, WritesAtBothEndsAreOwnedWhereTheyLie) {
  int n = 12, m = 16;
  std::vector<double> G(n * m, -1.0);
  std::vector<double> Ref(n * m);
  for (int I = 0; I < n; I++)
    for (int J = 0; J < m; J++)
      Ref[I * m + J] = I * 100 + J;
  for (int J = 0; J < m; J++) {
    Ref[J] = Ref[(n - 2) * m + J];
    Ref[(n - 1) * m + J] = Ref[m + J];
  }
  double *g = G.data();
  COPYIN(G);
  jacc_reset_stats();
  std::vector<jacc_arg> Args = {{"int n", &n}, {"int m", &m}, {"double *g", &g}};
  pushMoving(FillRowsSrc, Args, narrowDemand(0));
  pushMoving(WrapRowsSrc, Args, narrowDemand(devices() > 1 ? 2 * m * sizeof(double) : 0));
  EXPECT_WRITTEN(G, Ref);
}

// ---- helper functions --------------------------------------------------------------------------

const char *HelperWritesSrc = "static void put(double *p, double v) { *p = v; }\n"
                              "\n"
                              "#pragma acc parallel loop present(x, y)\n"
                              "for (int i = 0; i < n; i++)\n"
                              "  put(&y[i], x[i] * 2.0);\n";
const char *PureHelperSrc = "static double sq(double v) { return v * v; }\n"
                            "\n"
                            "#pragma acc parallel loop present(x, y)\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  y[i] = sq(x[i]) + 1.0;\n";

TEST_P(SplitTest, HelperWritingThroughPointerFallsBack) {
  int n = 3001;
  std::vector<double> xv(n), yv(n), y0(n), ref(n);
  for (int i = 0; i < n; i++) {
    xv[i] = 0.7 * i - 3.0;
    yv[i] = y0[i] = -1.0 - i;
    ref[i] = xv[i] * 2.0;
  }
  double *x = xv.data(), *y = yv.data();
  COPYIN(xv, yv);
  jacc_arg Args[] = {{"int n", &n}, {"const double *x", &x}, {"double *y", &y}};
  jacc_stats B = stats();
  EXPECT_EQ(jacc_kernel_push(HelperWritesSrc, 3, Args, JACC_FORCE_SPLIT), JACC_ERROR_UNSUPPORTED);
  std::string Msg = jacc_last_error();
  EXPECT_NE(Msg.find("cannot be split"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("put"), std::string::npos) << "the reason should name the helper: " << Msg;
  jacc_stats A = stats();
  EXPECT_EQ(A.split_launches, B.split_launches);
  EXPECT_EQ(A.duplicate_launches, B.duplicate_launches);
  // The refused push ran nothing.
  ASSERT_JACC(jacc_update_self(y, bytesOf(yv)));
  EXPECT_SAME(yv, y0);

  // The default flags fall back to duplicate mode, whatever the device count.
  PUSH(HelperWritesSrc, std::vector<jacc_arg>(Args, Args + 3), JACC_DEFAULT);
  A = stats();
  EXPECT_EQ(A.split_launches, B.split_launches);
  EXPECT_EQ(A.duplicate_launches, B.duplicate_launches + 1);
  EXPECT_EQ(A.bytes_device_to_device, B.bytes_device_to_device);
  ASSERT_JACC(jacc_update_self(y, bytesOf(yv)));
  EXPECT_SAME(yv, ref);

  // Again from fresh values, with JACC_FORCE_DUPLICATE.
  yv = y0;
  ASSERT_JACC(jacc_update_device(y, bytesOf(yv)));
  PUSH(HelperWritesSrc, std::vector<jacc_arg>(Args, Args + 3), JACC_FORCE_DUPLICATE);
  EXPECT_COPIED_OUT(yv, ref);
  RELEASE(xv);
}

void casePureHelper(unsigned Flags) {
  int n = 3001;
  std::vector<double> xv(n), yv(n, 0.0), ref(n);
  for (int i = 0; i < n; i++) {
    xv[i] = 0.7 * i - 3.0;
    ref[i] = xv[i] * xv[i] + 1.0;
  }
  double *x = xv.data(), *y = yv.data();
  COPYIN(xv, yv);
  PUSH(PureHelperSrc, {{"int n", &n}, {"const double *x", &x}, {"double *y", &y}}, Flags);
  EXPECT_COPIED_OUT(yv, ref);
  RELEASE(xv);
}

TEST_P(SplitTest, PureHelperIsSplittable) {
  eachMode(casePureHelper);
}

// ---- iterated stencils: reads across the split boundaries --------------------------------------

const char *Stencil1DSrc = "#pragma acc parallel loop present(in, out)\n"
                           "for (int i = 1; i < n - 1; i++)\n"
                           "  out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;\n";

/// Two arrays for Stencil1DSrc's ping-pong (u read first), and what they hold after the Iters
/// pushes.
struct Stencil1DInput {
  int n = 1001, Iters = 100;
  std::vector<double> uv, vv, ru, rv;
  Stencil1DInput() : uv(n), vv(n) {
    for (int i = 0; i < n; i++)
      uv[i] = vv[i] = (i * 37 % 101) * 0.5;
    ru = uv;
    rv = vv;
    pingPong(Iters, ru, rv, [&](int, const std::vector<double> &in, std::vector<double> &out) {
      for (int i = 1; i < n - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
    });
  }
  /// The Iters pushes of Src, push T with the flags FlagsOf(T).
  template <typename Fn> void pushIterations(Fn FlagsOf, const char *Src = Stencil1DSrc) {
    double *u = uv.data(), *v = vv.data();
    pingPong(Iters, u, v, [&](int T, double *&in, double *&out) {
      PUSH(Src, {{"int n", &n}, {"const double *in", &in}, {"double *out", &out}}, FlagsOf(T));
    });
  }
};

void caseStencil1D(unsigned Flags) {
  Stencil1DInput S;
  COPYIN(S.uv, S.vv);
  uint64_t Before = d2d();
  ASSERT_NO_FATAL_FAILURE(S.pushIterations([Flags](int) { return Flags; }));
  if ((Flags & JACC_FORCE_SPLIT) && !(Flags & JACC_ASYNC)) {
    // Eager: only the written part [1, n-1) of the owned ranges is exchanged. Demand: from the
    // second iteration on, each internal boundary's two halo elements; without narrowing each
    // device runs (and reads for) every iteration: at most what it does not own.
    uint64_t Eager = S.Iters * (ndevOf() - 1) * (S.n - 2) * sizeof(double);
    if (NarrowOff && !EagerExchange)
      EXPECT_LE(d2d() - Before, (S.Iters - 1) * (ndevOf() - 1) * S.n * sizeof(double));
    else
      EXPECT_EQ(d2d() - Before,
                exchanged(Eager, (S.Iters - 1) * (ndevOf() - 1) * 2 * sizeof(double)));
  }
  ASSERT_JACC(jacc_wait());
  EXPECT_WRITTEN(S.uv, S.ru);
  EXPECT_WRITTEN(S.vv, S.rv);
}

TEST_P(SplitTest, Stencil1D100Iterations) {
  eachMode(caseStencil1D);
}
TEST_P(SplitEagerTest, Stencil1D100Iterations) {
  eachMode(caseStencil1D);
}

TEST_P(SplitTest, Stencil1D100IterationsAsync) {
  eachMode(caseStencil1D, JACC_ASYNC);
}

// The same stencil read by a routine given an element's address (`&in[0]`, as Fortran's routines
// are given arrays): what the call reads is not that element, so a split launch fetches all of
// in that its devices do not hold.
const char *Stencil1DRoutineSrc =
    "#pragma acc routine seq\n"
    "static double mean3(const double *u, int i) { return (u[i - 1] + u[i] + u[i + 1]) / 3.0; }\n"
    "#pragma acc parallel loop present(in, out)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  out[i] = mean3(&in[0], i);\n";

void caseStencil1DThroughAnAddress(unsigned Flags) {
  Stencil1DInput S;
  COPYIN(S.uv, S.vv);
  ASSERT_NO_FATAL_FAILURE(S.pushIterations([Flags](int) { return Flags; }, Stencil1DRoutineSrc));
  ASSERT_JACC(jacc_wait());
  EXPECT_WRITTEN(S.uv, S.ru);
  EXPECT_WRITTEN(S.vv, S.rv);
}

TEST_P(SplitTest, AStencilARoutineReadsThroughAnElementsAddress) {
  eachMode(caseStencil1DThroughAnAddress);
}

const char *JacobiCollapseSrc =
    "#pragma acc parallel loop collapse(2) present(a, b)\n"
    "for (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";
const char *JacobiSweepSrc =
    "#pragma acc parallel loop present(a, b)\n"
    "for (int i = 1; i < n - 1; i++) {\n"
    "  #pragma acc loop vector\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n"
    "}\n";
const char *JacobiCopySrc = "#pragma acc parallel loop present(a, b)\n"
                            "for (int i = 1; i < n - 1; i++) {\n"
                            "  #pragma acc loop vector\n"
                            "  for (int j = 1; j < m - 1; j++)\n"
                            "    a[i][j] = b[i][j];\n"
                            "}\n";

/// An n x m grid for the Jacobi kernels: two equal arrays (fixed boundary, varied interior) and
/// their serial references.
struct JacobiInput {
  int n, m;
  std::vector<double> av, bv, ra, rb;
  JacobiInput(int N, int M) : n(N), m(M), av(N * M) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        av[i * m + j] = (i == 0 || j == 0 || i == n - 1 || j == m - 1) ? 1.0 + 0.001 * (i + 3 * j)
                                                                       : 0.01 * ((i * 7 + j) % 13);
    bv = ra = rb = av;
  }
  /// One serial sweep of the interior: b from a.
  void step(const std::vector<double> &a, std::vector<double> &b) const {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        b[i * m + j] =
            0.25 * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
  }
};

/// Jacobi sweeps ping-pong: the two arrays swap roles between pushes.
void jacobiPingPong(int Iters, unsigned Flags) {
  JacobiInput G(43, 37);
  pingPong(Iters, G.ra, G.rb,
           [&](int, const std::vector<double> &a, std::vector<double> &b) { G.step(a, b); });
  double *a = G.av.data(), *b = G.bv.data();
  COPYIN(G.av, G.bv);
  ASSERT_NO_FATAL_FAILURE(pingPong(Iters, a, b, [&](int, double *&in, double *&out) {
    PUSH(
        JacobiCollapseSrc,
        {{"int n", &G.n}, {"int m", &G.m}, {"const double (*a)[m]", &in}, {"double (*b)[m]", &out}},
        Flags);
  }));
  EXPECT_WRITTEN(G.av, G.ra);
  EXPECT_WRITTEN(G.bv, G.rb);
}

/// Jacobi sweeps into b, each copied back into a by a second kernel.
void jacobiSweepAndCopy(int Iters, unsigned Flags) {
  JacobiInput G(43, 37);
  int n = G.n, m = G.m;
  for (int t = 0; t < Iters; t++) {
    G.step(G.ra, G.rb);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        G.ra[i * m + j] = G.rb[i * m + j];
  }
  double *a = G.av.data(), *b = G.bv.data();
  COPYIN(G.av, G.bv);
  std::vector<jacc_arg> Args = {
      {"int n", &n}, {"int m", &m}, {"double (*a)[m]", &a}, {"double (*b)[m]", &b}};
  for (int t = 0; t < Iters; t++) {
    PUSH(JacobiSweepSrc, Args, Flags);
    PUSH(JacobiCopySrc, Args, Flags);
  }
  EXPECT_WRITTEN(G.av, G.ra);
  EXPECT_WRITTEN(G.bv, G.rb);
}

void caseJacobi(unsigned Flags) {
  ASSERT_NO_FATAL_FAILURE(jacobiPingPong(100, Flags));
  ASSERT_NO_FATAL_FAILURE(jacobiSweepAndCopy(100, Flags));
}

TEST_P(SplitTest, Jacobi2D100Iterations) {
  eachMode(caseJacobi);
}

// Flattened 2-D indexing (i * m + j, m a run-time value): the write index is not affine in the
// parallel iterator with a constant coefficient, so the predicate alone decides.
const char *Stencil2DFlatSrc =
    "#pragma acc parallel loop present(in, out)\n"
    "for (int i = 1; i < n - 1; i++) {\n"
    "  #pragma acc loop\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    out[i * m + j] = (in[(i - 1) * m + j] + in[(i + 1) * m + j] + in[i * m + j - 1] +\n"
    "                      in[i * m + j + 1] + 4 * in[i * m + j]) / 8;\n"
    "}\n";

void caseStencil2DFlat(unsigned Flags) {
  int n = 41, m = 29, iters = 20;
  std::vector<int> uv(n * m), vv(n * m);
  for (int i = 0; i < n * m; i++)
    uv[i] = vv[i] = (i * 7919) % 100003;
  std::vector<int> ru = uv, rv = vv;
  pingPong(iters, ru, rv, [&](int, const std::vector<int> &in, std::vector<int> &out) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        out[i * m + j] = (in[(i - 1) * m + j] + in[(i + 1) * m + j] + in[i * m + j - 1] +
                          in[i * m + j + 1] + 4 * in[i * m + j]) /
                         8;
  });
  int *u = uv.data(), *v = vv.data();
  COPYIN(uv, vv);
  ASSERT_NO_FATAL_FAILURE(pingPong(iters, u, v, [&](int, int *&in, int *&out) {
    PUSH(Stencil2DFlatSrc,
         {{"int n", &n}, {"int m", &m}, {"const int *in", &in}, {"int *out", &out}}, Flags);
  }));
  EXPECT_WRITTEN(uv, ru);
  EXPECT_WRITTEN(vv, rv);
}

TEST_P(SplitTest, Stencil2DFlatIndex) {
  eachMode(caseStencil2DFlat);
}

// ---- more shapes -------------------------------------------------------------------------------

// a[2*i+1] reads a[2*i] written in the same iteration: with an odd block boundary the owner of
// 2*i+1 must compute a[2*i] too.
const char *PairSrc = "#pragma acc parallel loop present(x, a)\n"
                      "for (int i = 0; i < n; i++) {\n"
                      "  a[2 * i] = x[i] * 3;\n"
                      "  a[2 * i + 1] = a[2 * i] + 7;\n"
                      "}\n";
// Three arrays written at i, n-1-i and 2*i+1: the narrowed range is the hull of three preimages.
const char *MixedAffineSrc = "#pragma acc parallel loop present(x, a, b, c)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  a[i] = x[i] + 1;\n"
                             "  b[n - 1 - i] = a[i] * 2;\n"
                             "  c[2 * i + 1] = b[n - 1 - i] - i;\n"
                             "}\n";
// The write index goes through a local variable; step 3 from a non-zero lower bound; an offset
// taken from a scalar argument.
const char *LocalIndexSrc = "#pragma acc parallel loop present(x, y)\n"
                            "for (int i = lo; i < hi; i += 3) {\n"
                            "  int j = i + off;\n"
                            "  y[j] = x[i] * 5 - j;\n"
                            "}\n";

void caseMoreAffine(unsigned Flags) {
  for (int n : {1001, 1000, 7}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<int> xv(n), pv(2 * n, -1), pref(2 * n);
    for (int i = 0; i < n; i++) {
      xv[i] = (i * 29) % 113 - 56;
      pref[2 * i] = xv[i] * 3;
      pref[2 * i + 1] = pref[2 * i] + 7;
    }
    int *x = xv.data(), *p = pv.data();
    COPYIN(xv, pv);
    PUSH(PairSrc, {{"int n", &n}, {"const int *x", &x}, {"int *a", &p}}, Flags);
    EXPECT_WRITTEN(pv, pref);

    std::vector<int> av(n, -1), bv(n + 3, -2), cv(2 * n + 1, -3);
    std::vector<int> aref = av, bref = bv, cref = cv;
    for (int i = 0; i < n; i++) {
      aref[i] = xv[i] + 1;
      bref[n - 1 - i] = aref[i] * 2;
      cref[2 * i + 1] = bref[n - 1 - i] - i;
    }
    int *a = av.data(), *b = bv.data(), *c = cv.data();
    COPYIN(av, bv, cv);
    PUSH(MixedAffineSrc,
         {{"int n", &n}, {"const int *x", &x}, {"int *a", &a}, {"int *b", &b}, {"int *c", &c}},
         Flags);
    EXPECT_WRITTEN(av, aref);
    EXPECT_WRITTEN(bv, bref);
    EXPECT_WRITTEN(cv, cref);

    int lo = 2, hi = n, off = 5;
    std::vector<int> yv(n + off, 0), yref(n + off, 0);
    for (int i = lo; i < hi; i += 3) {
      int j = i + off;
      yref[j] = xv[i] * 5 - j;
    }
    int *y = yv.data();
    COPYIN(yv);
    PUSH(
        LocalIndexSrc,
        {{"int lo", &lo}, {"int hi", &hi}, {"int off", &off}, {"const int *x", &x}, {"int *y", &y}},
        Flags);
    EXPECT_WRITTEN(yv, yref);
    RELEASE(xv);
  }
}

TEST_P(SplitTest, MoreAffineWrites) {
  eachMode(caseMoreAffine);
}

// A value merged from both arms of a branch (a phi) and a while loop before its second use.
const char *PhiWhileSrc = "#pragma acc parallel loop present(x, y, z)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int t;\n"
                          "  if (x[i] > 0)\n"
                          "    t = x[i] * 2;\n"
                          "  else\n"
                          "    t = -x[i];\n"
                          "  y[i] = t;\n"
                          "  int k = 0, v = x[i];\n"
                          "  while (v != 0 && k < 40) {\n"
                          "    v /= 2;\n"
                          "    k++;\n"
                          "  }\n"
                          "  z[i] = k + t;\n"
                          "}\n";
// The same merged value used after a `continue` (y and z are mapped differently, so a device
// may own z[i] but not y[i] and must still compute t).
const char *PhiContinueSrc = "#pragma acc parallel loop present(x, y, z)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  int t = x[i];\n"
                             "  if (x[i] > 0)\n"
                             "    t = x[i] * 2;\n"
                             "  y[i] = t;\n"
                             "  if (x[i] % 5 == 0)\n"
                             "    continue;\n"
                             "  z[i] = t + 1;\n"
                             "}\n";

int whileSteps(int v) {
  int k = 0;
  while (v != 0 && k < 40) {
    v /= 2;
    k++;
  }
  return k;
}

void runPhiCase(const char *Src, bool Continue, unsigned Flags) {
  int n = 3007;
  std::vector<int> xv(n), yv(n, -1), zm(n + 40, -2);
  for (int i = 0; i < n; i++)
    xv[i] = (i * 7919) % 20001 - 10000;
  std::vector<int> yref = yv, zref = zm;
  for (int i = 0; i < n; i++) {
    if (Continue) {
      int t = xv[i];
      if (xv[i] > 0)
        t = xv[i] * 2;
      yref[i] = t;
      if (xv[i] % 5 == 0)
        continue;
      zref[40 + i] = t + 1;
    } else {
      int t = xv[i] > 0 ? xv[i] * 2 : -xv[i];
      yref[i] = t;
      zref[40 + i] = whileSteps(xv[i]) + t;
    }
  }
  int *x = xv.data(), *y = yv.data(), *z = zm.data() + 40;
  COPYIN(xv, yv, zm);
  PUSH(Src, {{"int n", &n}, {"const int *x", &x}, {"int *y", &y}, {"int *z", &z}}, Flags);
  EXPECT_WRITTEN(yv, yref);
  EXPECT_WRITTEN(zm, zref);
  RELEASE(xv);
}

void casePhiWhile(unsigned Flags) {
  runPhiCase(PhiWhileSrc, false, Flags);
}
void casePhiContinue(unsigned Flags) {
  runPhiCase(PhiContinueSrc, true, Flags);
}

TEST_P(SplitTest, PhiThenWhileLoop) {
  eachMode(casePhiWhile);
}
TEST_P(SplitTest, PhiThenContinue) {
  eachMode(casePhiContinue);
}

// Loop forms: <=, a decreasing loop with step 2, an unsigned iterator with !=, a long iterator,
// and a `continue` before a reduction and a write.
const char *LoopFormSrcs[] = {
    "#pragma acc parallel loop present(a)\n"
    "for (int i = 1; i <= n; i++)\n"
    "  a[i - 1] = i * 3;\n",
    "#pragma acc parallel loop present(a)\n"
    "for (int i = n; i > 0; i -= 2)\n"
    "  a[i - 1] = i * 3;\n",
    "#pragma acc parallel loop present(a)\n"
    "for (unsigned i = 0; i != (unsigned)n; i++)\n"
    "  a[i] = (int)i * 3;\n",
    "#pragma acc parallel loop present(a)\n"
    "for (long i = n - 1; i >= 0; i -= 3)\n"
    "  a[n - 1 - i] = (int)i * 3;\n",
    "#pragma acc parallel loop present(a) reduction(+:s)\n"
    "for (int i = 0; i < n; i++) {\n"
    "  if (i % 3 == 0)\n"
    "    continue;\n"
    "  s += i;\n"
    "  a[i] = i * 3;\n"
    "}\n",
};

void caseLoopForms(unsigned Flags) {
  int n = 1001;
  for (int V = 0; V < 5; V++) {
    SCOPED_TRACE("kernel:\n" + std::string(LoopFormSrcs[V]));
    std::vector<int> av(n, -1), ref(n, -1);
    long long s = 10, rs = 10;
    switch (V) {
    case 0:
      for (int i = 1; i <= n; i++)
        ref[i - 1] = i * 3;
      break;
    case 1:
      for (int i = n; i > 0; i -= 2)
        ref[i - 1] = i * 3;
      break;
    case 2:
      for (int i = 0; i < n; i++)
        ref[i] = i * 3;
      break;
    case 3:
      for (long i = n - 1; i >= 0; i -= 3)
        ref[n - 1 - i] = static_cast<int>(i) * 3;
      break;
    default:
      for (int i = 0; i < n; i++)
        if (i % 3) {
          rs += i;
          ref[i] = i * 3;
        }
      break;
    }
    int *a = av.data();
    COPYIN(av);
    std::vector<jacc_arg> Args = {{"int n", &n}, {"int *a", &a}};
    if (V == 4)
      Args.push_back({"long long s", &s});
    PUSH(LoopFormSrcs[V], Args, Flags);
    EXPECT_WRITTEN(av, ref);
    EXPECT_EQ(s, rs);
  }
}

TEST_P(SplitTest, LoopForms) {
  eachMode(caseLoopForms);
}

// One mapping written through two pointers with different shapes: a row pointer (split by rows)
// writes column 0 of each row, a flat pointer (split by elements) writes column 1. Every element
// is written at most once and nothing is read, so the result is well defined.
const char *MixedViewsSrc = "#pragma acc parallel loop present(A, flat, x)\n"
                            "for (int i = 0; i < r; i++) {\n"
                            "  A[i][0] = x[i];\n"
                            "  flat[4 * i + 1] = -x[i];\n"
                            "}\n";

void caseMixedViews(unsigned Flags) {
  int r = 10;
  std::vector<double> buf(r * 4, -1000.0), xv(r), ref(r * 4, -1000.0);
  for (int i = 0; i < r; i++) {
    xv[i] = 10.0 * (i + 1);
    ref[4 * i] = xv[i];
    ref[4 * i + 1] = -xv[i];
  }
  double *b = buf.data(), *x = xv.data();
  COPYIN(buf, xv);
  PUSH(MixedViewsSrc,
       {{"int r", &r}, {"double (*A)[4]", &b}, {"double *flat", &b}, {"const double *x", &x}},
       Flags);
  EXPECT_WRITTEN(buf, ref);
  RELEASE(xv);
}

TEST_P(SplitTest, RowAndFlatPointersIntoOneMapping) {
  eachMode(caseMixedViews);
}

// Per row: a 2-D array written by an inner vector loop, a compound accumulation into y[i]
// inside an inner sequential loop, and a temporary t[3*i+k] written with k the inner variable
// and read back in the same iteration.
const char *RowMixSrc = "#pragma acc parallel loop present(a, b, y, t, rs)\n"
                        "for (int i = 0; i < r; i++) {\n"
                        "  #pragma acc loop vector\n"
                        "  for (int j = 0; j < c; j++)\n"
                        "    b[i][j] = a[i][j] * 2 + j;\n"
                        "  y[i] = 0;\n"
                        "  for (int j = 0; j < c; j++)\n"
                        "    y[i] += b[i][j] * (j % 3 - 1);\n"
                        "  for (int k = 0; k < 3; k++)\n"
                        "    t[3 * i + k] = y[i] + k;\n"
                        "  rs[i] = t[3 * i] + t[3 * i + 1] + t[3 * i + 2];\n"
                        "}\n";

void caseRowMix(unsigned Flags) {
  int r = 83, c = 29;
  std::vector<int> av(r * c), bv(r * c, 0), yv(r + 9, -1), tv(3 * r, -1), rsv(r, -1);
  for (int i = 0; i < r * c; i++)
    av[i] = (i * 31) % 97 - 48;
  std::vector<int> bref = bv, yref = yv, tref = tv, rsref = rsv;
  for (int i = 0; i < r; i++) {
    for (int j = 0; j < c; j++)
      bref[i * c + j] = av[i * c + j] * 2 + j;
    int *yy = yref.data() + 9;
    yy[i] = 0;
    for (int j = 0; j < c; j++)
      yy[i] += bref[i * c + j] * (j % 3 - 1);
    for (int k = 0; k < 3; k++)
      tref[3 * i + k] = yy[i] + k;
    rsref[i] = tref[3 * i] + tref[3 * i + 1] + tref[3 * i + 2];
  }
  int *a = av.data(), *b = bv.data(), *y = yv.data() + 9, *t = tv.data(), *rs = rsv.data();
  COPYIN(av, bv, yv, tv, rsv);
  PUSH(RowMixSrc,
       {{"int r", &r},
        {"int c", &c},
        {"const int (*a)[c]", &a},
        {"int (*b)[c]", &b},
        {"int *y", &y},
        {"int *t", &t},
        {"int *rs", &rs}},
       Flags);
  EXPECT_WRITTEN(bv, bref);
  EXPECT_WRITTEN(yv, yref);
  EXPECT_WRITTEN(tv, tref);
  EXPECT_WRITTEN(rsv, rsref);
  RELEASE(av);
}

TEST_P(SplitTest, RowWithInnerLoopsAndTemporaries) {
  eachMode(caseRowMix);
}

// Thomas sweeps as NPB's SP writes them: a gang loop over k, `loop vector` over j around a
// recurrence along i (forward, then backward), the loop variables and temporaries the caller's.
// A CPU thread runs j inside i (analysis/Interchange.h); every chain keeps its order, so the
// results are the serial ones exactly.
const char *SweepForwardSrc = "#pragma acc parallel loop gang present(l, r)\n"
                              "for (int k = 0; k < nz; k++) {\n"
                              "  #pragma acc loop vector\n"
                              "  for (j = 0; j < ny; j++)\n"
                              "    for (i = 0; i < nx - 1; i++) {\n"
                              "      i1 = i + 1;\n"
                              "      fac = l[k][i][j] % 7 + 1;\n"
                              "      r[k][i1][j] = (r[k][i1][j] + fac * r[k][i][j]) % 1000003;\n"
                              "    }\n"
                              "}\n";
const char *SweepBackwardSrc =
    "#pragma acc parallel loop gang present(l, r)\n"
    "for (int k = 0; k < nz; k++) {\n"
    "  #pragma acc loop vector\n"
    "  for (j = 0; j < ny; j++)\n"
    "    for (i = nx - 2; i >= 0; i--)\n"
    "      r[k][i][j] = (r[k][i][j] + l[k][i][j] * r[k][i + 1][j]) % 1000003;\n"
    "}\n";

void caseThomasSweeps(unsigned Flags) {
  int nz = 9, nx = 13, ny = 37, i = -1, j = -1, i1 = -1;
  long long fac = -1;
  std::vector<long long> lv(nz * nx * ny), rv(nz * nx * ny), ref;
  for (size_t e = 0; e < lv.size(); e++) {
    lv[e] = (e * 31) % 101;
    rv[e] = (e * 17) % 1009;
  }
  ref = rv;
  auto At = [&](std::vector<long long> &v, int k, int x, int y) -> long long & {
    return v[(static_cast<size_t>(k) * nx + x) * ny + y];
  };
  for (int k = 0; k < nz; k++)
    for (int y = 0; y < ny; y++) {
      for (int x = 0; x < nx - 1; x++)
        At(ref, k, x + 1, y) =
            (At(ref, k, x + 1, y) + (At(lv, k, x, y) % 7 + 1) * At(ref, k, x, y)) % 1000003;
      for (int x = nx - 2; x >= 0; x--)
        At(ref, k, x, y) = (At(ref, k, x, y) + At(lv, k, x, y) * At(ref, k, x + 1, y)) % 1000003;
    }
  long long *l = lv.data(), *r = rv.data();
  COPYIN(lv, rv);
  PUSH(SweepForwardSrc,
       {{"int nz", &nz},
        {"int nx", &nx},
        {"int ny", &ny},
        {"int i", &i},
        {"int j", &j},
        {"int i1", &i1},
        {"long long fac", &fac},
        {"const long long (*l)[nx][ny]", &l},
        {"long long (*r)[nx][ny]", &r}},
       Flags);
  PUSH(SweepBackwardSrc,
       {{"int nz", &nz},
        {"int nx", &nx},
        {"int ny", &ny},
        {"int i", &i},
        {"int j", &j},
        {"const long long (*l)[nx][ny]", &l},
        {"long long (*r)[nx][ny]", &r}},
       Flags);
  EXPECT_WRITTEN(rv, ref);
  RELEASE(lv);
}

TEST_P(SplitTest, ThomasSweeps) {
  eachMode(caseThomasSweeps);
}

// collapse(2) with the outer iterator indexing the second dimension (a transpose: the split is
// along columns, strided), and a 3-D array split along its first dimension.
const char *TransposeSrc = "#pragma acc parallel loop collapse(2) present(a, t)\n"
                           "for (int i = 0; i < r; i++)\n"
                           "  for (int j = 0; j < c; j++)\n"
                           "    t[j][i] = a[i][j] * 3 - i;\n";
const char *ThreeDSrc = "#pragma acc parallel loop collapse(3) present(u)\n"
                        "for (int i = 0; i < nx; i++)\n"
                        "  for (int j = 0; j < ny; j++)\n"
                        "    for (int k = 0; k < nz; k++)\n"
                        "      u[i][j][k] = u[i][j][k] * 2 + i * 10000 + j * 100 + k;\n";

void caseTransposeAnd3D(unsigned Flags) {
  int r = 45, c = 38;
  std::vector<int> av(r * c), tv(c * r, -1), tref(c * r);
  for (int i = 0; i < r * c; i++)
    av[i] = (i * 17) % 1001;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      tref[j * r + i] = av[i * c + j] * 3 - i;
  int *a = av.data(), *t = tv.data();
  COPYIN(av, tv);
  PUSH(TransposeSrc, {{"int r", &r}, {"int c", &c}, {"const int (*a)[c]", &a}, {"int (*t)[r]", &t}},
       Flags);
  EXPECT_WRITTEN(tv, tref);
  RELEASE(av);

  int nx = 11, ny = 7, nz = 9;
  std::vector<long long> uv(nx * ny * nz), uref(nx * ny * nz);
  for (int i = 0; i < nx * ny * nz; i++)
    uv[i] = uref[i] = i % 13;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        long long &e = uref[(i * ny + j) * nz + k];
        e = e * 2 + i * 10000 + j * 100 + k;
      }
  long long *u = uv.data();
  COPYIN(uv);
  PUSH(ThreeDSrc,
       {{"int nx", &nx}, {"int ny", &ny}, {"int nz", &nz}, {"long long (*u)[ny][nz]", &u}}, Flags);
  EXPECT_WRITTEN(uv, uref);
}

TEST_P(SplitTest, TransposeAnd3D) {
  eachMode(caseTransposeAnd3D);
}

// A write at a constant index (only iteration 0 performs it) next to an ordinary one, and the
// kernels-loop construct.
const char *ConstIndexSrc = "#pragma acc kernels loop present(x, s, y)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  if (i == 0)\n"
                            "    s[0] = x[0] + 1000;\n"
                            "  y[i] = x[i] - 1;\n"
                            "}\n";

void caseConstIndex(unsigned Flags) {
  int n = 2003;
  std::vector<int> xv(n), sv(5, -7), yv(n, 0), sref(5, -7), yref(n);
  for (int i = 0; i < n; i++) {
    xv[i] = i * 3 + 2;
    yref[i] = xv[i] - 1;
  }
  sref[0] = xv[0] + 1000;
  int *x = xv.data(), *s = sv.data(), *y = yv.data();
  COPYIN(xv, sv, yv);
  PUSH(ConstIndexSrc, {{"int n", &n}, {"const int *x", &x}, {"int *s", &s}, {"int *y", &y}}, Flags);
  EXPECT_WRITTEN(sv, sref);
  EXPECT_WRITTEN(yv, yref);
  RELEASE(xv);
}

TEST_P(SplitTest, ConstantIndexWriteAndKernelsLoop) {
  eachMode(caseConstIndex);
}

// A write through a local pointer cannot be attributed to an argument: not splittable.
const char *LocalPointerSrc = "#pragma acc parallel loop present(a)\n"
                              "for (int i = 0; i < n; i++) {\n"
                              "  int *row = a + i * m;\n"
                              "  for (int j = 0; j < m; j++)\n"
                              "    row[j] = i - j;\n"
                              "}\n";

TEST_P(SplitTest, LocalPointerWriteFallsBack) {
  int n = 57, m = 31;
  std::vector<int> av(n * m, 0), ref(n * m);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      ref[i * m + j] = i - j;
  int *a = av.data();
  COPYIN(av);
  jacc_arg Args[] = {{"int n", &n}, {"int m", &m}, {"int *a", &a}};
  EXPECT_EQ(jacc_kernel_push(LocalPointerSrc, 3, Args, JACC_FORCE_SPLIT), JACC_ERROR_UNSUPPORTED);
  std::string Msg = jacc_last_error();
  EXPECT_NE(Msg.find("row"), std::string::npos) << Msg;
  PUSH(LocalPointerSrc, std::vector<jacc_arg>(Args, Args + 3), JACC_DEFAULT);
  EXPECT_COPIED_OUT(av, ref);
}

// Reductions over a collapsed nest, and asynchronous split reductions.
const char *ReduceCollapseSrc = "#pragma acc parallel loop collapse(2) present(a, b) "
                                "reduction(+:sum) reduction(max:mx)\n"
                                "for (int i = 0; i < r; i++)\n"
                                "  for (int j = 0; j < c; j++) {\n"
                                "    b[i][j] = a[i][j] + 1;\n"
                                "    sum += a[i][j];\n"
                                "    mx = a[i][j] > mx ? a[i][j] : mx;\n"
                                "  }\n";

void caseReduceCollapse(unsigned Flags) {
  int r = 37, c = 23;
  std::vector<int> av(r * c), bv(r * c, 0), bref(r * c);
  long long rsum = 5;
  int rmx = -99999;
  for (int i = 0; i < r * c; i++) {
    av[i] = (i * 7919) % 1999 - 1000;
    bref[i] = av[i] + 1;
    rsum += av[i];
    rmx = av[i] > rmx ? av[i] : rmx;
  }
  int *a = av.data(), *b = bv.data();
  COPYIN(av, bv);
  std::vector<long long> sums(3, 5);
  std::vector<int> mxs(3, -99999);
  for (int k = 0; k < 3; k++)
    PUSH(ReduceCollapseSrc,
         {{"int r", &r},
          {"int c", &c},
          {"const int (*a)[c]", &a},
          {"int (*b)[c]", &b},
          {"long long sum", &sums[k]},
          {"int mx", &mxs[k]}},
         Flags);
  ASSERT_JACC(jacc_wait());
  EXPECT_WRITTEN(bv, bref);
  RELEASE(av);
  EXPECT_SAME(sums, std::vector<long long>(3, rsum));
  EXPECT_SAME(mxs, std::vector<int>(3, rmx));
}

TEST_P(SplitTest, ReductionsCollapsed) {
  eachMode(caseReduceCollapse);
}
TEST_P(SplitTest, ReductionsCollapsedAsync) {
  eachMode(caseReduceCollapse, JACC_ASYNC);
}

// Asynchronous pushes alternating split and duplicate launches on the same arrays.
TEST_P(SplitTest, Stencil1DAsyncMixedModes) {
  Stencil1DInput S;
  COPYIN(S.uv, S.vv);
  const unsigned Cycle[] = {JACC_FORCE_SPLIT,    JACC_FORCE_SPLIT, JACC_FORCE_DUPLICATE,
                            JACC_DEFAULT,        JACC_FORCE_SPLIT, JACC_FORCE_DUPLICATE,
                            JACC_FORCE_DUPLICATE};
  ASSERT_NO_FATAL_FAILURE(S.pushIterations([&](int T) { return Cycle[T % 7] | JACC_ASYNC; }));
  EXPECT_COPIED_OUT(S.uv, S.ru);
  EXPECT_COPIED_OUT(S.vv, S.rv);
}

// ---- exchange volume and launch counters -------------------------------------------------------

void exchangeBytesSaxpy() {
  int n = 10007;
  float a = 1.5f;
  std::vector<float> xv(n, 1.0f), yv(n, 2.0f);
  float *x = xv.data(), *y = yv.data();
  COPYIN(xv, yv); // y: exactly n floats
  ASSERT_NO_FATAL_FAILURE(splitOnceExchanging(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y),
                                              exchanged((ndevOf() - 1) * n * 4, 0)));
  // Demand: the copyout gathers each device's part from it, nothing between devices.
  uint64_t Before = d2d();
  ASSERT_JACC(jacc_copyout(y, bytesOf(yv)));
  EXPECT_EQ(d2d(), Before);
  RELEASE(xv);
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], 3.5f) << i;
}

TEST_P(SplitTest, ExchangeBytesSaxpy) {
  exchangeBytesSaxpy();
}
TEST_P(SplitEagerTest, ExchangeBytesSaxpy) {
  exchangeBytesSaxpy();
}

const char *RowUpdateSrc = "#pragma acc parallel loop present(a)\n"
                           "for (int i = lo; i < hi; i++) {\n"
                           "  #pragma acc loop vector\n"
                           "  for (int j = 0; j < c; j++)\n"
                           "    a[i][j] = a[i][j] * 2.0 + i;\n"
                           "}\n";

void rowUpdateBytes(int R, int C, int Lo, int Hi, uint64_t NDev) {
  std::vector<double> av(R * C);
  for (int i = 0; i < R * C; i++)
    av[i] = 0.5 * i;
  std::vector<double> ref = av;
  for (int i = Lo; i < Hi; i++)
    for (int j = 0; j < C; j++)
      ref[i * C + j] = ref[i * C + j] * 2.0 + i;
  double *a = av.data();
  COPYIN(av); // exactly R x C doubles
  ASSERT_NO_FATAL_FAILURE(splitOnceExchanging(
      RowUpdateSrc, {{"int lo", &Lo}, {"int hi", &Hi}, {"int c", &C}, {"double (*a)[c]", &a}},
      exchanged((NDev - 1) * (Hi - Lo) * C * sizeof(double), 0)));
  EXPECT_COPIED_OUT(av, ref);
}

const char *ColumnUpdateSrc = "#pragma acc parallel loop present(a)\n"
                              "for (int j = lo; j < hi; j++)\n"
                              "  for (int i = 0; i < r; i++)\n"
                              "    a[i][j] = a[i][j] * 2.0 + j;\n";

void columnUpdateBytes(int R, int C, int Lo, int Hi, uint64_t NDev) {
  std::vector<double> av(R * C);
  for (int i = 0; i < R * C; i++)
    av[i] = 0.25 * i;
  std::vector<double> ref = av;
  for (int j = Lo; j < Hi; j++)
    for (int i = 0; i < R; i++)
      ref[i * C + j] = ref[i * C + j] * 2.0 + j;
  double *a = av.data();
  COPYIN(av); // exactly R x C doubles
  // Eagerly, every row's owned columns within the written columns [Lo, Hi); on demand nothing
  // (the next reader fetches what it lacks).
  ASSERT_NO_FATAL_FAILURE(splitOnceExchanging(
      ColumnUpdateSrc,
      {{"int lo", &Lo}, {"int hi", &Hi}, {"int r", &R}, {"int c", &C}, {"double (*a)[c]", &a}},
      exchanged((NDev - 1) * R * (Hi - Lo) * sizeof(double), 0)));
  EXPECT_WRITTEN(av, ref);
}

/// Runs Update(Lo, Hi) with every one of N rows (or columns) written, [0, N), then with all but
/// the first and the last, [1, N-1): only the written ones are exchanged.
template <typename Fn> void everyThenInterior(int N, const std::string &Units, Fn Update) {
  {
    SCOPED_TRACE("every one of the " + Units + " written");
    ASSERT_NO_FATAL_FAILURE(Update(0, N));
  }
  {
    SCOPED_TRACE(Units + " [1, " + std::to_string(N - 1) + ") written: only those are exchanged");
    ASSERT_NO_FATAL_FAILURE(Update(1, N - 1));
  }
}

TEST_P(SplitTest, ExchangeBytesRowSplit) {
  int R = 97, C = 61;
  everyThenInterior(R, "rows", [&](int Lo, int Hi) { rowUpdateBytes(R, C, Lo, Hi, ndev()); });
}
TEST_P(SplitEagerTest, ExchangeBytesRowSplit) {
  int R = 97, C = 61;
  everyThenInterior(R, "rows", [&](int Lo, int Hi) { rowUpdateBytes(R, C, Lo, Hi, ndev()); });
}

TEST_P(SplitTest, ExchangeBytesColumnSplit) {
  int R = 41, C = 67;
  everyThenInterior(C, "columns", [&](int Lo, int Hi) { columnUpdateBytes(R, C, Lo, Hi, ndev()); });
}
TEST_P(SplitEagerTest, ExchangeBytesColumnSplit) {
  int R = 41, C = 67;
  everyThenInterior(C, "columns", [&](int Lo, int Hi) { columnUpdateBytes(R, C, Lo, Hi, ndev()); });
}

TEST_P(SplitTest, ForceDuplicateRunsDuplicateAndExchangesNothing) {
  int n = 10007;
  float a = 1.5f;
  std::vector<float> xv(n, 1.0f), yv(n, 2.0f);
  float *x = xv.data(), *y = yv.data();
  COPYIN(xv, yv);
  jacc_reset_stats();
  for (int r = 0; r < 3; r++)
    PUSH(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), JACC_FORCE_DUPLICATE);
  jacc_stats S = stats();
  EXPECT_EQ(S.duplicate_launches, 3u);
  EXPECT_EQ(S.split_launches, 0u);
  EXPECT_EQ(S.bytes_device_to_device, 0u);
  for (int r = 0; r < 3; r++)
    PUSH(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), JACC_FORCE_SPLIT);
  S = stats();
  EXPECT_EQ(S.duplicate_launches, 3u);
  EXPECT_EQ(S.split_launches, 3u);
  EXPECT_EQ(S.bytes_device_to_device, exchanged(3 * (ndev() - 1) * n * 4, 0));
  // Demand: a duplicate launch after them first gives every device the parts of y the others
  // computed, once; the next one moves nothing.
  for (int r = 0; r < 2; r++)
    PUSH(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), JACC_FORCE_DUPLICATE);
  EXPECT_EQ(stats().bytes_device_to_device,
            exchanged(3 * (ndev() - 1) * n * 4, (ndev() - 1) * n * 4));
  ASSERT_JACC(jacc_copyout(y, bytesOf(yv)));
  RELEASE(xv);
  for (int i = 0; i < n; i++)
    ASSERT_EQ(yv[i], 14.0f) << i; // 2 + 8 * 1.5, exact
}

// ---- narrowing off: the same cases, predicates only --------------------------------------------

TEST_P(SplitNoNarrowTest, ReverseAndDecreasingLoop) {
  eachMode(caseReverse);
}
TEST_P(SplitNoNarrowTest, InterleaveAndStridedWrites) {
  eachMode(caseInterleave);
}
TEST_P(SplitNoNarrowTest, ChainAcrossThreeArrays) {
  eachMode(caseChain3);
}
TEST_P(SplitNoNarrowTest, Columns2D) {
  eachMode(caseColumns);
}
TEST_P(SplitNoNarrowTest, ReductionsSumAndMax) {
  eachMode(caseReductions);
}
TEST_P(SplitNoNarrowTest, Stencil1D100Iterations) {
  eachMode(caseStencil1D);
}
TEST_P(SplitNoNarrowTest, MoreAffineWrites) {
  eachMode(caseMoreAffine);
}
TEST_P(SplitNoNarrowTest, RowWithInnerLoopsAndTemporaries) {
  eachMode(caseRowMix);
}
TEST_P(SplitNoNarrowTest, LoopForms) {
  eachMode(caseLoopForms);
}
TEST_P(SplitNoNarrowTest, InteriorPointersAndNegativeIndices) {
  eachMode(caseInteriorPointers);
}

// ---- JACC_SPLIT=always / never -----------------------------------------------------------------

TEST_P(SplitAlwaysTest, DefaultFlagsSplitOnSeveralDevices) {
  int n = 4099;
  float a = 2.0f;
  std::vector<float> xv(n), yv(n), ref(n);
  for (int i = 0; i < n; i++) {
    xv[i] = 0.5f * (i % 64);
    yv[i] = static_cast<float>(i % 100);
    ref[i] = a * xv[i] + yv[i]; // exact
  }
  float *x = xv.data(), *y = yv.data();
  COPYIN(xv, yv);
  jacc_reset_stats();
  PUSH(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), JACC_DEFAULT);
  jacc_stats S = stats();
  EXPECT_EQ(S.split_launches, ndev() > 1 ? 1u : 0u);
  EXPECT_EQ(S.duplicate_launches, ndev() > 1 ? 0u : 1u);
  EXPECT_EQ(S.bytes_device_to_device, exchanged((ndev() - 1) * n * 4, 0));
  // A kernel that cannot be split still runs (duplicate).
  std::vector<double> dx(n, 1.25), dy(n, 0.0);
  double *px = dx.data(), *py = dy.data();
  COPYIN(dx, dy);
  PUSH(HelperWritesSrc, {{"int n", &n}, {"const double *x", &px}, {"double *y", &py}},
       JACC_DEFAULT);
  EXPECT_EQ(stats().duplicate_launches, S.duplicate_launches + 1);
  EXPECT_COPIED_OUT(dy, std::vector<double>(n, 2.5));
  RELEASE(dx);
  EXPECT_COPIED_OUT(yv, ref);
  RELEASE(xv);
}

TEST_P(SplitNeverTest, DefaultFlagsDuplicate) {
  int n = 4099;
  float a = 2.0f;
  std::vector<float> xv(n, 0.5f), yv(n, 1.0f);
  float *x = xv.data(), *y = yv.data();
  COPYIN(xv, yv);
  jacc_reset_stats();
  for (int r = 0; r < 5; r++)
    PUSH(jacc_test::SaxpyKernel, saxpyArgs(n, a, x, y), JACC_DEFAULT);
  jacc_stats S = stats();
  EXPECT_EQ(S.split_launches, 0u);
  EXPECT_EQ(S.duplicate_launches, 5u);
  EXPECT_EQ(S.bytes_device_to_device, 0u);
  EXPECT_COPIED_OUT(yv, std::vector<float>(n, 6.0f));
  RELEASE(xv);
}

// host:1 .. host:4 (Fixture.h's JACC_DEVICE_CONFIGS stops at 3).
#define JACC_SPLIT_CONFIGS(Suite)                                                                  \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite,                                                         \
                           ::testing::Values("host:1", "host:2", "host:3", "host:4"),              \
                           [](const ::testing::TestParamInfo<const char *> &I) {                   \
                             std::string N = I.param;                                              \
                             return N.replace(N.find(':'), 1, "");                                 \
                           })

JACC_SPLIT_CONFIGS(SplitTest);
JACC_SPLIT_CONFIGS(SplitNoNarrowTest);
JACC_SPLIT_CONFIGS(SplitAlwaysTest);
JACC_SPLIT_CONFIGS(SplitNeverTest);
JACC_SPLIT_CONFIGS(SplitEagerTest);

} // namespace
