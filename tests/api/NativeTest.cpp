// Native implementations per device kind (jacc_kernel_native) on host devices, end to end: the
// part each device's function is given (its iterations under even and uneven policies, a
// collapsed nest, a decreasing loop, narrowing off), results equal to the generated code's, a
// BLAS-like dgemv written as a program would, reductions through the parts' private copies,
// asynchronous pushes, removal, and the errors. The CUDA side (a GPU's stream and device
// pointers, a split mixing native GPUs and generated host code) is CudaMockTest's.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"
#include "tests/api/NativeCalls.h"

#include "jacc/openacc.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using jacc_test::cutsOf;
using jacc_test::eachIteration;
using jacc_test::evenCuts;
using Call = jacc_test::NativeCall;
using Calls = jacc_test::NativeCalls;
using jacc_test::lastError;
using jacc_test::partsAre;

// ---- saxpy: int n, float a, const float *x, float *y --------------------------------------

/// The same loop, decreasing: device d's iterations run from the top of its rows down.
const char *const SaxpyDown = "#pragma acc parallel loop present(x, y)\n"
                              "for (int i = n - 1; i >= 0; i--)\n"
                              "  y[i] = a * x[i] + y[i];\n";

int nativeSaxpy(const jacc_native_part *P, void *User) {
  static_cast<Calls *>(User)->add(P);
  float A = JACC_NATIVE_ARG(P, 1, float);
  const float *X = JACC_NATIVE_ARG(P, 2, const float *);
  float *Y = JACC_NATIVE_ARG(P, 3, float *);
  eachIteration(P, [&](long long I) { Y[I] = A * X[I] + Y[I]; });
  return 0;
}

class NativeTest : public DeviceTest {
protected:
  void TearDown() override {
    // Registrations belong to the process: none may reach the next test.
    for (const char *Src : Registered)
      for (const char *Kind : {"host", "nvidia"})
        EXPECT_JACC(jacc_kernel_native(Src, Kind, nullptr, nullptr));
    DeviceTest::TearDown();
  }
  /// A new runtime, reading the environment again.
  static void restart() {
    ASSERT_JACC(jacc_finalize());
    ASSERT_JACC(jacc_init());
  }
  void registerHost(const char *Src, jacc_native_fn Fn, void *User) {
    ASSERT_JACC(jacc_kernel_native(Src, "host", Fn, User));
    Registered.push_back(Src);
  }
  static bool unified() {
    const char *M = std::getenv("JACC_MEMORY");
    return M && std::string(M) == "unified";
  }
  /// y = a x + y over n floats (x[i] = i, y = 2) with Src, Times times: the result on the host.
  static std::vector<float> saxpy(const char *Src, int N, int Times = 1, unsigned Flags = 0) {
    float A = 3;
    std::vector<float> X(N), Y(N, 2);
    for (int I = 0; I < N; ++I)
      X[I] = float(I);
    float *Xp = X.data(), *Yp = Y.data();
    EXPECT_JACC(jacc_copyin(Xp, N * sizeof(float)));
    EXPECT_JACC(jacc_copyin(Yp, N * sizeof(float)));
    jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &Xp}, {"float *y", &Yp}};
    for (int T = 0; T < Times; ++T)
      EXPECT_JACC(jacc_kernel_push(Src, 4, Args, Flags));
    EXPECT_JACC(jacc_wait());
    EXPECT_JACC(jacc_copyout(Yp, N * sizeof(float)));
    EXPECT_JACC(jacc_delete(Xp, N * sizeof(float)));
    return Y;
  }
  /// Calls of saxpy's implementation by Pushes pushes: each device's iterations [begin, end)
  /// of the loop are [Cuts[d], Cuts[d + 1]), its rows of y.
  static void expectParts(const std::vector<Call> &C, const std::vector<long long> &Cuts,
                          int Pushes = 1) {
    ASSERT_EQ(C.size(), (Cuts.size() - 1) * Pushes) << "one call per device and push";
    for (const Call &P : C) {
      size_t D = P.Part.device;
      SCOPED_TRACE("device " + std::to_string(D));
      ASSERT_LT(D + 1, Cuts.size());
      EXPECT_EQ(P.Kind, "host");
      EXPECT_EQ(P.Part.begin, Cuts[D]);
      EXPECT_EQ(P.Part.end, Cuts[D + 1]);
      EXPECT_EQ(P.Part.step, 1);
      EXPECT_EQ(P.Part.reduce_begin, Cuts[D]);
      EXPECT_EQ(P.Part.reduce_end, Cuts[D + 1]);
      EXPECT_EQ(P.Part.stream, nullptr);
      EXPECT_EQ(P.Part.nargs, 4);
    }
  }
  std::vector<const char *> Registered;
};

TEST_P(NativeTest, EachHostDeviceComputesItsShareAndTheResultIsTheGeneratedCodes) {
  int N = 1000;
  std::vector<float> Generated = saxpy(jacc_test::SaxpyKernel, N, 2);
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  std::vector<float> Native = saxpy(jacc_test::SaxpyKernel, N, 2);
  EXPECT_EQ(Native, Generated);
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Native[I], 2 + 2 * 3.0f * I) << I; // applied twice, once per push
  // Each push called every device once, with its even share of the loop.
  expectParts(C.take(), evenCuts(N, devices()), 2);
}

TEST_P(NativeTest, PointerArgumentsAreEachDevicesCopyAndScalarsTheirValues) {
  jacc::ScopedEnv Threads("JACC_HOST_THREADS", "2");
  ASSERT_NO_FATAL_FAILURE(restart());
  int N = 64;
  float A = 3;
  std::vector<float> X(N, 1), Y(N, 2);
  float *Xp = X.data(), *Yp = Y.data();
  ASSERT_JACC(jacc_copyin(Xp, N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(float)));
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &Xp}, {"float *y", &Yp}};
  ASSERT_JACC(jacc_kernel_push(jacc_test::SaxpyKernel, 4, Args, JACC_DEFAULT));
  std::vector<Call> Parts = C.take();
  ASSERT_EQ(int(Parts.size()), devices());
  for (const Call &P : Parts) {
    SCOPED_TRACE("device " + std::to_string(P.Part.device));
    acc_set_device_num(P.Part.device, acc_device_host);
    EXPECT_EQ(P.Pointers[2], acc_deviceptr(Xp));
    EXPECT_EQ(P.Pointers[3], acc_deviceptr(Yp));
    EXPECT_EQ(P.Pointers[3] == Yp, unified()) << "separate memories: the device's own copy";
    int Nv;
    float Av;
    std::memcpy(&Nv, &P.Pointers[0], sizeof Nv);
    std::memcpy(&Av, &P.Pointers[1], sizeof Av);
    EXPECT_EQ(Nv, N);
    EXPECT_EQ(Av, A);
    EXPECT_EQ(P.Part.compute_units, 2) << "the device's threads";
  }
  acc_set_device_num(0, acc_device_host);
  ASSERT_JACC(jacc_copyout(Yp, N * sizeof(float)));
  ASSERT_JACC(jacc_delete(Xp, N * sizeof(float)));
  EXPECT_EQ(Y[N - 1], 5.0f);
}

TEST_P(NativeTest, UnevenPoliciesGiveEachDeviceItsWeightedShare) {
  int N = 1000;
  std::vector<float> Generated = saxpy(jacc_test::SaxpyKernel, N);
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  std::vector<std::vector<long long>> Weights = {{5}, {1, 3}, {1, 2, 1}};
  const std::vector<long long> &W = Weights[devices() - 1];
  std::string Policy = "weights:[";
  for (size_t I = 0; I < W.size(); ++I)
    Policy += (I ? "," : "") + std::to_string(W[I]);
  ASSERT_JACC(jacc_set_policy((Policy + "]").c_str()));
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  expectParts(C.take(), cutsOf(N, W));
  // range: iteration counts, exact.
  std::vector<std::string> Ranges = {"range:[1000]", "range:[100,900]", "range:[10,700,290]"};
  ASSERT_JACC(jacc_set_policy(Ranges[devices() - 1].c_str()));
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  std::vector<std::vector<long long>> RangeCuts = {{0, 1000}, {0, 100, 1000}, {0, 10, 710, 1000}};
  expectParts(C.take(), RangeCuts[devices() - 1]);
  // any: one idle device runs it all; the others, given nothing, are not called.
  ASSERT_JACC(jacc_set_policy("any"));
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  std::vector<Call> Any = C.take();
  ASSERT_EQ(Any.size(), 1u);
  EXPECT_EQ(Any[0].Part.begin, 0);
  EXPECT_EQ(Any[0].Part.end, N);
  ASSERT_JACC(jacc_set_policy(nullptr));
}

TEST_P(NativeTest, ADecreasingLoopsPartRunsDownwardsOverTheDevicesRows) {
  int N = 999;
  std::vector<float> Generated = saxpy(SaxpyDown, N);
  Calls C;
  registerHost(SaxpyDown, nativeSaxpy, &C);
  EXPECT_EQ(saxpy(SaxpyDown, N), Generated);
  std::vector<Call> Parts = C.take();
  std::vector<long long> Cuts = evenCuts(N, devices());
  ASSERT_EQ(int(Parts.size()), devices());
  for (int D = 0; D < devices(); ++D) {
    SCOPED_TRACE("device " + std::to_string(D));
    // Device d runs its share of the iterations, the first ones from the top, and owns the
    // elements they write.
    EXPECT_EQ(Parts[D].Part.step, -1);
    EXPECT_EQ(Parts[D].Part.begin, N - 1 - Cuts[D]);
    EXPECT_EQ(Parts[D].Part.end, N - 1 - Cuts[D + 1]);
    EXPECT_EQ(Parts[D].Part.reduce_begin, N - 1 - Cuts[D]);
    EXPECT_EQ(Parts[D].Part.reduce_end, N - 1 - Cuts[D + 1]);
  }
}

TEST_P(NativeTest, WithoutNarrowingEveryDeviceComputesTheWholeLoop) {
  jacc::ScopedEnv Narrow("JACC_NARROW", "off");
  ASSERT_NO_FATAL_FAILURE(restart());
  int N = 500;
  std::vector<float> Generated = saxpy(jacc_test::SaxpyKernel, N);
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  std::vector<Call> Parts = C.take();
  ASSERT_EQ(int(Parts.size()), devices());
  std::vector<long long> Cuts = evenCuts(N, devices());
  for (int D = 0; D < devices(); ++D) {
    SCOPED_TRACE("device " + std::to_string(D));
    // One memory: the parts must not overlap, so each device runs its own share only.
    EXPECT_EQ(Parts[D].Part.begin, unified() ? Cuts[D] : 0);
    EXPECT_EQ(Parts[D].Part.end, unified() ? Cuts[D + 1] : N);
    EXPECT_EQ(Parts[D].Part.reduce_begin, Cuts[D]);
    EXPECT_EQ(Parts[D].Part.reduce_end, Cuts[D + 1]);
  }
}

// ---- a 3-point stencil whose loop leaves out the first and last element -------------------

const char *const SmoothAB = "#pragma acc parallel loop present(a, b)\n"
                             "for (int i = 1; i < n - 1; i++)\n"
                             "  b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;\n";
const char *const SmoothBA = "#pragma acc parallel loop present(a, b)\n"
                             "for (int i = 1; i < n - 1; i++)\n"
                             "  a[i] = (b[i - 1] + b[i] + b[i + 1]) / 3;\n";

int nativeSmooth(const jacc_native_part *P, void *User) {
  static_cast<Calls *>(User)->add(P);
  const double *A = JACC_NATIVE_ARG(P, 1, const double *);
  double *B = JACC_NATIVE_ARG(P, 2, double *);
  eachIteration(P, [&](long long I) { B[I] = (A[I - 1] + A[I] + A[I + 1]) / 3; });
  return 0;
}

TEST_P(NativeTest, NativeAndGeneratedStencilsAlternateWithHaloExchanges) {
  // b = smooth(a) natively, a = smooth(b) by the generated code, 12 times: each native part
  // reads the rows its neighbours' generated parts wrote, and the reverse; fetched before each
  // kernel (demand), or exchanged after each (eager: the native parts meet the others).
  int N = 1001;
  std::vector<double> RefA(N), RefB(N, 0);
  for (int I = 0; I < N; ++I)
    RefA[I] = (I * 37) % 101;
  std::vector<double> A0 = RefA;
  for (int T = 0; T < 12; ++T) {
    for (int I = 1; I < N - 1; ++I)
      RefB[I] = (RefA[I - 1] + RefA[I] + RefA[I + 1]) / 3;
    for (int I = 1; I < N - 1; ++I)
      RefA[I] = (RefB[I - 1] + RefB[I] + RefB[I + 1]) / 3;
  }
  Calls C;
  registerHost(SmoothAB, nativeSmooth, &C);
  for (const char *Exchange : {"demand", "eager"}) {
    SCOPED_TRACE(std::string("JACC_EXCHANGE=") + Exchange);
    jacc::ScopedEnv Policy("JACC_EXCHANGE", Exchange);
    ASSERT_NO_FATAL_FAILURE(restart());
    std::vector<double> A = A0, B(N, 0);
    double *Ap = A.data(), *Bp = B.data();
    ASSERT_JACC(jacc_copyin(Ap, N * sizeof(double)));
    ASSERT_JACC(jacc_copyin(Bp, N * sizeof(double)));
    jacc_arg Args[] = {{"int n", &N}, {"double *a", &Ap}, {"double *b", &Bp}};
    for (int T = 0; T < 12; ++T) {
      ASSERT_JACC(jacc_kernel_push(SmoothAB, 3, Args, JACC_DEFAULT));
      ASSERT_JACC(jacc_kernel_push(SmoothBA, 3, Args, JACC_FORCE_SPLIT));
    }
    ASSERT_JACC(jacc_copyout(Ap, N * sizeof(double)));
    ASSERT_JACC(jacc_copyout(Bp, N * sizeof(double)));
    for (int I = 0; I < N; ++I) {
      ASSERT_DOUBLE_EQ(A[I], RefA[I]) << I;
      ASSERT_DOUBLE_EQ(B[I], RefB[I]) << I;
    }
    // Device d computes its share of the loop's iterations [1, n - 1) and owns what they write.
    std::vector<Call> Parts = C.take();
    ASSERT_EQ(int(Parts.size()), 12 * devices());
    for (const Call &P : Parts) {
      int D = P.Part.device;
      EXPECT_EQ(P.Part.begin, 1 + (N - 2LL) * D / devices()) << "device " << D;
      EXPECT_EQ(P.Part.end, 1 + (N - 2LL) * (D + 1) / devices()) << "device " << D;
    }
  }
}

// ---- collapse(2): the outer loop's rows --------------------------------------------------

const char *const FillRows = "#pragma acc parallel loop collapse(2) present(a)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  for (int j = 0; j < 8; j++)\n"
                             "    a[i][j] = i * 1000 + j;\n";

using Row = double[8];

int nativeFillRows(const jacc_native_part *P, void *User) {
  static_cast<Calls *>(User)->add(P);
  Row *A = JACC_NATIVE_ARG(P, 1, Row *);
  eachIteration(P, [&](long long I) {
    for (int J = 0; J < 8; ++J)
      A[I][J] = double(I * 1000 + J);
  });
  return 0;
}

TEST_P(NativeTest, ACollapsedNestsPartIsRowsOfItsOuterLoop) {
  int N = 301;
  std::vector<double> A(N * 8, -1);
  double(*Ap)[8] = reinterpret_cast<double(*)[8]>(A.data());
  Calls C;
  registerHost(FillRows, nativeFillRows, &C);
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  jacc_arg Args[] = {{"int n", &N}, {"double (*a)[8]", &Ap}};
  ASSERT_JACC(jacc_kernel_push(FillRows, 2, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < 8; ++J)
      ASSERT_EQ(A[I * 8 + J], I * 1000 + J) << I << "," << J;
  EXPECT_TRUE(partsAre(C.take(), evenCuts(N, devices())));
}

// ---- a BLAS-like dgemv, written as a program's wrapper would be ----------------------------

const char *const Dgemv = jacc_test::DgemvKernel;

/// y[rows] = alpha A[rows] x + beta y[rows], row-major, m columns: a "library" routine.
void dgemvRows(long long First, long long Rows, int M, double Alpha, const double *A,
               const double *X, double Beta, double *Y) {
  for (long long I = First; I < First + Rows; ++I) {
    double S = 0;
    for (int J = 0; J < M; ++J)
      S += A[I * M + J] * X[J];
    Y[I] = Alpha * S + Beta * Y[I];
  }
}

int nativeDgemv(const jacc_native_part *P, void *User) {
  static_cast<Calls *>(User)->add(P);
  if (P->step != 1)
    return 1;
  dgemvRows(P->begin, P->end - P->begin, JACC_NATIVE_ARG(P, 1, int),
            JACC_NATIVE_ARG(P, 2, double), JACC_NATIVE_ARG(P, 3, const double *),
            JACC_NATIVE_ARG(P, 4, const double *), JACC_NATIVE_ARG(P, 5, double),
            JACC_NATIVE_ARG(P, 6, double *));
  return 0;
}

TEST_P(NativeTest, ABlasLikeDgemvWrapperComputesEachDevicesRows) {
  int N = 257, M = 33;
  double Alpha = 2, Beta = -1;
  std::vector<double> A(size_t(N) * M), X(M), Y(N), Ref(N);
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < M; ++J)
      A[size_t(I) * M + J] = (I + 3 * J) % 7 - 3;
  for (int J = 0; J < M; ++J)
    X[J] = J % 5;
  for (int I = 0; I < N; ++I)
    Ref[I] = Y[I] = I % 11;
  dgemvRows(0, N, M, Alpha, A.data(), X.data(), Beta, Ref.data());
  Calls C;
  registerHost(Dgemv, nativeDgemv, &C);
  double *Ap = A.data(), *Xp = X.data(), *Yp = Y.data();
  ASSERT_JACC(jacc_copyin(Ap, A.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(Xp, M * sizeof(double)));
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(double)));
  jacc_arg Args[] = {{"int n", &N},           {"int m", &M},           {"double alpha", &Alpha},
                     {"const double *a", &Ap}, {"const double *x", &Xp}, {"double beta", &Beta},
                     {"double *y", &Yp}};
  ASSERT_JACC(jacc_kernel_push(Dgemv, 7, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(Yp, N * sizeof(double)));
  ASSERT_JACC(jacc_delete(Xp, M * sizeof(double)));
  ASSERT_JACC(jacc_delete(Ap, A.size() * sizeof(double)));
  EXPECT_EQ(Y, Ref); // small whole numbers: exact
  EXPECT_TRUE(partsAre(C.take(), evenCuts(N, devices())));
}

// ---- reductions: each part leaves its result in its private copy ---------------------------

const char *const DotAndMax = "#pragma acc parallel loop present(x, y) reduction(+:s) "
                              "reduction(max:m)\n"
                              "for (int i = 0; i < n; i++) {\n"
                              "  s += x[i] * y[i];\n"
                              "  m = x[i] > m ? x[i] : m;\n"
                              "}\n";

int nativeDotAndMax(const jacc_native_part *P, void *User) {
  static_cast<Calls *>(User)->add(P);
  const double *X = JACC_NATIVE_ARG(P, 1, const double *);
  const double *Y = JACC_NATIVE_ARG(P, 2, const double *);
  double &S = JACC_NATIVE_ARG(P, 3, double);
  double &M = JACC_NATIVE_ARG(P, 4, double);
  // The private copies start at the identities: 0 for +, -infinity for max.
  if (S != 0 || !(std::isinf(M) && M < 0))
    return 7;
  for (long long I = P->reduce_begin; I != P->reduce_end; I += P->step) {
    S += X[I] * Y[I];
    M = X[I] > M ? X[I] : M;
  }
  return 0;
}

TEST_P(NativeTest, ReductionPartsAreCombinedOnceWithTheInitialValues) {
  int N = 1000;
  std::vector<double> X(N), Y(N);
  double Dot = 0;
  for (int I = 0; I < N; ++I) {
    X[I] = I % 13 - 6;
    Y[I] = I % 3;
    Dot += X[I] * Y[I];
  }
  Calls C;
  registerHost(DotAndMax, nativeDotAndMax, &C);
  double *Xp = X.data(), *Yp = Y.data(), S = 5, M = -100;
  ASSERT_JACC(jacc_copyin(Xp, N * sizeof(double)));
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(double)));
  jacc_arg Args[] = {{"int n", &N}, {"const double *x", &Xp}, {"const double *y", &Yp},
                     {"double s", &S}, {"double m", &M}};
  ASSERT_JACC(jacc_kernel_push(DotAndMax, 5, Args, JACC_DEFAULT));
  EXPECT_EQ(S, 5 + Dot);
  EXPECT_EQ(M, 6);
  // The generated code agrees.
  double GS = 5, GM = -100;
  jacc_arg GArgs[] = {{"int n", &N}, {"const double *x", &Xp}, {"const double *y", &Yp},
                      {"double s", &GS}, {"double m", &GM}};
  ASSERT_JACC(jacc_kernel_native(DotAndMax, "host", nullptr, nullptr));
  ASSERT_JACC(jacc_kernel_push(DotAndMax, 5, GArgs, JACC_DEFAULT));
  EXPECT_EQ(GS, S);
  EXPECT_EQ(GM, M);
  ASSERT_JACC(jacc_delete(Xp, N * sizeof(double)));
  ASSERT_JACC(jacc_delete(Yp, N * sizeof(double)));
  EXPECT_TRUE(partsAre(C.take(), evenCuts(N, devices()), /*Reduce=*/true));
}

// ---- queues, threads, removal --------------------------------------------------------------

TEST_P(NativeTest, AsyncPartsRunInOrderOnTheDevicesQueues) {
  int N = 3000;
  std::vector<float> Generated = saxpy(jacc_test::SaxpyKernel, N, 6);
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  // Six async pushes, each queued behind the previous on every device.
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N, 6, JACC_ASYNC), Generated);
  std::vector<Call> Async = C.take();
  ASSERT_EQ(int(Async.size()), 6 * devices());
  for (const Call &P : Async)
    EXPECT_NE(P.Thread, std::this_thread::get_id()) << "device " << P.Part.device
                                                     << ": its queue's thread runs async parts";
  // A synchronous push runs device 0's part on the calling thread.
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N, 6), Generated);
  for (const Call &P : C.take()) {
    if (P.Part.device == 0) {
      EXPECT_EQ(P.Thread, std::this_thread::get_id());
    }
  }
}

TEST_P(NativeTest, ARemovedImplementationIsNoLongerCalledAndRegistrationsOutliveFinalize) {
  int N = 200;
  std::vector<float> Generated = saxpy(jacc_test::SaxpyKernel, N);
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  ASSERT_NO_FATAL_FAILURE(restart());
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  EXPECT_EQ(int(C.take().size()), devices()) << "kept across jacc_finalize";
  ASSERT_JACC(jacc_kernel_native(jacc_test::SaxpyKernel, "multicore", nullptr, nullptr));
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  EXPECT_TRUE(C.take().empty());
  // An implementation for another kind only: host devices run the generated code.
  ASSERT_JACC(jacc_kernel_native(jacc_test::SaxpyKernel, "nvidia", nativeSaxpy, &C));
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, N), Generated);
  EXPECT_TRUE(C.take().empty());
}

// ---- errors --------------------------------------------------------------------------------

int failing(const jacc_native_part *P, void *) { return 40 + P->device; }

TEST_P(NativeTest, BadRegistrationsFailAndChangeNothing) {
  Calls C;
  registerHost(jacc_test::SaxpyKernel, nativeSaxpy, &C);
  EXPECT_EQ(jacc_kernel_native(nullptr, "host", failing, nullptr), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("the source is NULL"), std::string::npos) << lastError();
  EXPECT_EQ(jacc_kernel_native(jacc_test::SaxpyKernel, "cuda", failing, nullptr),
            JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("unknown device kind 'cuda'"), std::string::npos) << lastError();
  EXPECT_NE(lastError().find("\"nvidia\""), std::string::npos) << lastError();
  EXPECT_EQ(jacc_kernel_native(jacc_test::SaxpyKernel, nullptr, failing, nullptr),
            JACC_ERROR_INVALID_ARGUMENT);
  // The registration before them stands.
  EXPECT_EQ(saxpy(jacc_test::SaxpyKernel, 100)[99], 2 + 3 * 99.0f);
  EXPECT_EQ(int(C.take().size()), devices());
}

/// A push of Src (int n, float *y over 100 floats of 1) with Flags that must fail with Status,
/// naming Why, with y's copy untouched; the same push then runs without the implementation.
void expectRefused(const char *Src, unsigned Flags, jacc_status Status, const std::string &Why) {
  int N = 100;
  std::vector<float> Y(N, 1);
  float *Yp = Y.data();
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(float)));
  jacc_arg Args[] = {{"int n", &N}, {"float *y", &Yp}};
  ASSERT_JACC(jacc_kernel_native(Src, "host", failing, nullptr));
  EXPECT_EQ(jacc_kernel_push(Src, 2, Args, Flags), Status);
  EXPECT_NE(lastError().find("has a native implementation for host devices"), std::string::npos)
      << lastError();
  EXPECT_NE(lastError().find(Why), std::string::npos) << lastError();
  EXPECT_NE(lastError().find("jacc_kernel_native with a NULL function"), std::string::npos)
      << lastError();
  ASSERT_JACC(jacc_kernel_native(Src, "host", nullptr, nullptr));
  ASSERT_JACC(jacc_update_self(Yp, N * sizeof(float)));
  EXPECT_EQ(Y[7], 1.0f) << "nothing ran";
  ASSERT_JACC(jacc_kernel_push(Src, 2, Args, Flags & ~unsigned(JACC_FORCE_DUPLICATE)));
  ASSERT_JACC(jacc_copyout(Yp, N * sizeof(float)));
  EXPECT_NE(Y[7], 1.0f);
}

TEST_P(NativeTest, KernelsWithoutAShareableLoopAreRefusedNamingWhy) {
  // Two loops: no single loop to share.
  expectRefused("#pragma acc parallel present(y)\n"
                "{\n"
                "  #pragma acc loop\n"
                "  for (int i = 0; i < n; i++) y[i] = i;\n"
                "  #pragma acc loop\n"
                "  for (int i = 0; i < n; i++) y[i] += 1;\n"
                "}\n",
                JACC_DEFAULT, JACC_ERROR_UNSUPPORTED, "cannot be split");
  // A bound read from memory: the share cannot be computed from scalars.
  expectRefused("#pragma acc parallel loop present(y)\n"
                "for (int i = 0; i < (int)y[0] + n - 1; i++) y[i] = 2 * i + 3;\n",
                JACC_DEFAULT, JACC_ERROR_UNSUPPORTED, "read a pointer or struct argument");
  // Every device asked to run everything.
  expectRefused("#pragma acc parallel loop present(y)\nfor (int i = 0; i < n; i++) y[i] = 4;\n",
                JACC_FORCE_DUPLICATE, JACC_ERROR_INVALID_ARGUMENT, "JACC_FORCE_DUPLICATE");
}

TEST_P(NativeTest, AFailingImplementationFailsThePushNamingItsDeviceAndResult) {
  const char *Src = "#pragma acc parallel loop present(y)\nfor (int i = 0; i < n; i++) y[i] = 9;\n";
  int N = 100;
  std::vector<float> Y(N, 1);
  float *Yp = Y.data();
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(float)));
  jacc_arg Args[] = {{"int n", &N}, {"float *y", &Yp}};
  ASSERT_JACC(jacc_kernel_native(Src, "host", failing, nullptr));
  Registered.push_back(Src);
  EXPECT_EQ(jacc_kernel_push(Src, 2, Args, JACC_DEFAULT), JACC_ERROR_DEVICE);
  EXPECT_NE(lastError().find("the host native implementation of kernel"), std::string::npos)
      << lastError();
  EXPECT_NE(lastError().find("returned 40 on host:0"), std::string::npos) << lastError();
  // Asynchronously: the wait reports it.
  EXPECT_JACC(jacc_kernel_push(Src, 2, Args, JACC_ASYNC));
  EXPECT_EQ(jacc_wait(), JACC_ERROR_DEVICE);
  EXPECT_NE(lastError().find("returned 4"), std::string::npos) << lastError();
  // The runtime goes on.
  ASSERT_JACC(jacc_kernel_native(Src, "host", nullptr, nullptr));
  ASSERT_JACC(jacc_kernel_push(Src, 2, Args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(Yp, N * sizeof(float)));
  EXPECT_EQ(Y[N - 1], 9.0f);
}

JACC_DEVICE_CONFIGS(NativeTest);

} // namespace
