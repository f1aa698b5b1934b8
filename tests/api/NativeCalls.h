// What native implementations (jacc_kernel_native) were given, recorded by the tests' functions
// (NativeTest and NativeBlasTest on host devices, CudaMockTest on the fake GPUs), the shares they
// expect, and a kernel more than one of them implements.
#ifndef JACC_TESTS_API_NATIVECALLS_H
#define JACC_TESTS_API_NATIVECALLS_H

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace jacc_test {

/// What one call of a native implementation was given.
struct NativeCall {
  jacc_native_part Part;
  std::string Kind;
  std::vector<void *> Pointers; ///< each argument's value read as a pointer, by position
  std::thread::id Thread;
};

/// The calls of a native implementation, which devices make concurrently.
class NativeCalls {
public:
  void add(const jacc_native_part *P) {
    NativeCall C{*P, P->kind, {}, std::this_thread::get_id()};
    for (int I = 0; I < P->nargs; ++I) {
      void *V = nullptr;
      std::memcpy(&V, P->args[I], sizeof V);
      C.Pointers.push_back(V);
    }
    std::lock_guard<std::mutex> L(M);
    All.push_back(std::move(C));
  }
  /// The calls so far, by device (in call order for one device), forgotten.
  std::vector<NativeCall> take() {
    std::lock_guard<std::mutex> L(M);
    std::vector<NativeCall> Out = std::move(All);
    All.clear();
    std::stable_sort(Out.begin(), Out.end(), [](const NativeCall &A, const NativeCall &B) {
      return A.Part.device < B.Part.device;
    });
    return Out;
  }

private:
  std::mutex M;
  std::vector<NativeCall> All;
};

/// Calls Body with every iteration of a part: begin, begin + step, ... before end.
template <typename F> void eachIteration(const jacc_native_part *P, F Body) {
  for (long long I = P->begin; I != P->end; I += P->step)
    Body(I);
}

/// Element boundaries of N elements shared by Weights (the runtime's whole-number scale).
inline std::vector<long long> cutsOf(long long N, const std::vector<long long> &Weights) {
  long long Sum = 0, Prefix = 0;
  for (long long W : Weights)
    Sum += W;
  std::vector<long long> Cuts = {0};
  for (long long W : Weights)
    Cuts.push_back(N * (Prefix += W) / Sum);
  return Cuts;
}

/// The even split of N elements over Devices devices.
inline std::vector<long long> evenCuts(long long N, int Devices) {
  return cutsOf(N, std::vector<long long>(Devices, 1));
}

/// One call per device, by device, each computing the iterations [Cuts[d], Cuts[d + 1]) (and,
/// Reduce, reducing over them).
inline ::testing::AssertionResult partsAre(const std::vector<NativeCall> &C,
                                           const std::vector<long long> &Cuts,
                                           bool Reduce = false) {
  if (C.size() + 1 != Cuts.size())
    return ::testing::AssertionFailure() << C.size() << " calls for " << Cuts.size() - 1
                                         << " devices";
  for (size_t D = 0; D < C.size(); ++D) {
    const jacc_native_part &P = C[D].Part;
    long long B = Reduce ? P.reduce_begin : P.begin, E = Reduce ? P.reduce_end : P.end;
    if (P.device != int(D) || B != Cuts[D] || E != Cuts[D + 1])
      return ::testing::AssertionFailure()
             << "call " << D << ": device " << P.device << " got [" << B << ", " << E
             << "), want device " << D << " [" << Cuts[D] << ", " << Cuts[D + 1] << ")";
  }
  return ::testing::AssertionSuccess();
}

/// y = alpha A x + beta y over n rows of m columns (int n, int m, double alpha,
/// const double *a, const double *x, double beta, double *y): a BLAS routine's kernel.
inline const char *const DgemvKernel = "#pragma acc parallel loop present(a, x, y)\n"
                                       "for (int i = 0; i < n; i++) {\n"
                                       "  double s = 0;\n"
                                       "  for (int j = 0; j < m; j++)\n"
                                       "    s += a[i * m + j] * x[j];\n"
                                       "  y[i] = alpha * s + beta * y[i];\n"
                                       "}\n";

} // namespace jacc_test

#endif
