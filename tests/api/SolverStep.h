// A solver step as NPB BT's x_solve writes it, shared by the tests of split twins on host
// devices (LaunchModeTest) and on the fake GPUs (CudaMockTest): a left-hand side l built in
// parallel over the rows (the sweep's axis: the gang loop, an independent loop over the columns
// inside, which its split twin makes the gang loop), then a recurrence down the rows of a, in
// parallel over the columns, that reads it.
#ifndef JACC_TESTS_API_SOLVERSTEP_H
#define JACC_TESTS_API_SOLVERSTEP_H

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace jacc_solver_step {

inline const char *BuildAlongRowsSrc = "#pragma acc parallel loop gang present(a, l)\n"
                                       "for (int j = 0; j < r; j++) {\n"
                                       "  #pragma acc loop worker\n"
                                       "  for (int i = 0; i < r; i++)\n"
                                       "    l[j][i] = 0.25 + 0.5 * a[j][i];\n"
                                       "}\n";
inline const char *SweepDownColumnsSrc = "#pragma acc parallel loop gang present(a, l)\n"
                                         "for (int i = 0; i < r; i++)\n"
                                         "  for (int j = 1; j < r; j++)\n"
                                         "    a[j][i] = a[j][i] - l[j][i] * a[j - 1][i];\n";

/// The two kernels' step, serially, on A (N x N).
inline void stepOnHost(std::vector<double> &A, int N) {
  std::vector<double> L(N * N);
  for (int K = 0; K < N * N; ++K)
    L[K] = 0.25 + 0.5 * A[K];
  for (int I = 0; I < N; ++I)
    for (int J = 1; J < N; ++J)
      A[J * N + I] = A[J * N + I] - L[J * N + I] * A[(J - 1) * N + I];
}

/// A as Ref, but for roundings: the kernels may contract a multiply and a subtraction.
inline void expectNear(const std::vector<double> &A, const std::vector<double> &Ref) {
  ASSERT_EQ(A.size(), Ref.size());
  for (size_t K = 0; K < A.size(); ++K)
    ASSERT_NEAR(A[K], Ref[K], 1e-12 * (1 + std::abs(Ref[K]))) << "element " << K;
}

} // namespace jacc_solver_step

#endif
