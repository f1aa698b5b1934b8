// End to end: how a push runs when the choice is the runtime's. Kernels of an alternating-
// direction sweep (a recurrence along rows, then along columns: NPB BT's and SP's solvers in
// two dimensions) split each along its own axis, so each step moves the part of the array that
// changes owner, exactly; with every kernel on one device (JACC_SPLIT=one) nothing moves between
// devices after the first launch; a transpose (NPB FT's 3-D FFT) moves exactly the blocks that
// change owner; and left to the runtime the program gives the serial results whichever way it
// is run, over as many steps as it takes to time both. On host:1 .. host:4.
#include "tests/ScopedEnv.h"
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"
#include "tests/api/SolverStep.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace {

using jacc_test::stats;

/// The sweep along each row (parallel over rows, a recurrence along the columns).
const char *RowSweepSrc = "#pragma acc parallel loop present(a)\n"
                          "for (int j = 0; j < r; j++)\n"
                          "  for (int i = 1; i < c; i++)\n"
                          "    a[j][i] = 0.5 * (a[j][i] + a[j][i - 1]);\n";
/// The sweep along each column (parallel over columns, a recurrence down the rows).
const char *ColumnSweepSrc = "#pragma acc parallel loop present(a)\n"
                             "for (int i = 0; i < c; i++)\n"
                             "  for (int j = 1; j < r; j++)\n"
                             "    a[j][i] = 0.5 * (a[j][i] + a[j - 1][i]);\n";

constexpr int R = 48, C = 48; // divisible by 1 .. 4 devices: equal shares of rows and columns

/// RowSweepSrc and ColumnSweepSrc, serially on A (R x C).
void rowSweepOnHost(std::vector<double> &A) {
  for (int J = 0; J < R; ++J)
    for (int I = 1; I < C; ++I)
      A[J * C + I] = 0.5 * (A[J * C + I] + A[J * C + I - 1]);
}
void columnSweepOnHost(std::vector<double> &A) {
  for (int I = 0; I < C; ++I)
    for (int J = 1; J < R; ++J)
      A[J * C + I] = 0.5 * (A[J * C + I] + A[(J - 1) * C + I]);
}

/// The serial sweeps of Steps steps on A.
void sweepsOnHost(std::vector<double> &A, int Steps) {
  for (int S = 0; S < Steps; ++S) {
    rowSweepOnHost(A);
    columnSweepOnHost(A);
  }
}

std::vector<double> initial() {
  std::vector<double> A(R * C);
  for (int I = 0; I < R * C; ++I)
    A[I] = (I * 7 % 23) / 8.0;
  return A;
}

class LaunchModeTest : public DeviceTest {
protected:
  uint64_t ndev() const { return static_cast<uint64_t>(devices()); }
  /// Restart the runtime with JACC_SPLIT=Split (kept until the test ends).
  void restartWith(const char *Split) {
    ASSERT_JACC(jacc_finalize());
    Env.emplace("JACC_SPLIT", Split);
    ASSERT_JACC(jacc_init());
    jacc_reset_stats();
  }
  /// Steps steps of the two sweeps on A, mapped; PerStep receives each step's bytes moved
  /// between devices.
  void sweeps(std::vector<double> &A, int Steps, std::vector<uint64_t> *PerStep = nullptr) {
    int r = R, c = C;
    double(*a)[C] = reinterpret_cast<double(*)[C]>(A.data());
    ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
    jacc_reset_stats();
    jacc_arg Args[] = {{"int r", &r}, {"int c", &c}, {"double (*a)[c]", &a}};
    for (int S = 0; S < Steps; ++S) {
      uint64_t Before = stats().bytes_device_to_device;
      ASSERT_JACC(jacc_kernel_push(RowSweepSrc, 3, Args, JACC_DEFAULT));
      ASSERT_JACC(jacc_kernel_push(ColumnSweepSrc, 3, Args, JACC_DEFAULT));
      if (PerStep)
        PerStep->push_back(stats().bytes_device_to_device - Before);
    }
    ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  }

private:
  std::optional<jacc::ScopedEnv> Env;
};

TEST_P(LaunchModeTest, SplitSweepsMoveThePartThatChangesOwnerEachWay) {
  ASSERT_NO_FATAL_FAILURE(restartWith("always"));
  std::vector<double> A = initial(), Ref = A;
  std::vector<uint64_t> PerStep;
  ASSERT_NO_FATAL_FAILURE(sweeps(A, 4, &PerStep));
  sweepsOnHost(Ref, 4);
  EXPECT_EQ(A, Ref);
  // Each device holds its rows after the row sweep and its columns after the column sweep:
  // before each sweep it fetches its share of the array from the others' shares.
  uint64_t Turn = R * C * sizeof(double) * (ndev() - 1) / ndev();
  ASSERT_EQ(PerStep.size(), 4u);
  EXPECT_EQ(PerStep[0], Turn) << "the copies were all current before the first row sweep";
  for (int S = 1; S < 4; ++S)
    EXPECT_EQ(PerStep[S], 2 * Turn) << "step " << S;
  EXPECT_EQ(stats().split_launches, ndev() > 1 ? 8u : 0u);
}

TEST_P(LaunchModeTest, OnOneDeviceNothingMovesBetweenDevices) {
  ASSERT_NO_FATAL_FAILURE(restartWith("one"));
  std::vector<double> A = initial(), Ref = A;
  std::vector<uint64_t> PerStep;
  ASSERT_NO_FATAL_FAILURE(sweeps(A, 4, &PerStep));
  sweepsOnHost(Ref, 4);
  EXPECT_EQ(A, Ref);
  EXPECT_EQ(PerStep, std::vector<uint64_t>(4, 0));
  EXPECT_EQ(stats().split_launches, 0u);
  EXPECT_EQ(stats().duplicate_launches, 8u);
  // The copy-out reads the one device's copy: the array once.
  EXPECT_EQ(stats().bytes_device_to_host, R * C * sizeof(double));
}

TEST_P(LaunchModeTest, OnOneDeviceTheOthersFetchWhatItWroteWhenTheyNeedIt) {
  // One device runs the sweeps; then the runtime splits a forced kernel: each other device
  // fetches its share of what the first one wrote, and nothing else.
  ASSERT_NO_FATAL_FAILURE(restartWith("one"));
  std::vector<double> A = initial(), Ref = A;
  int r = R, c = C;
  double(*a)[C] = reinterpret_cast<double(*)[C]>(A.data());
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  jacc_arg Args[] = {{"int r", &r}, {"int c", &c}, {"double (*a)[c]", &a}};
  ASSERT_JACC(jacc_kernel_push(ColumnSweepSrc, 3, Args, JACC_DEFAULT));
  jacc_reset_stats();
  ASSERT_JACC(jacc_kernel_push(RowSweepSrc, 3, Args, JACC_FORCE_SPLIT));
  EXPECT_EQ(stats().bytes_device_to_device, R * C * sizeof(double) * (ndev() - 1) / ndev());
  ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  columnSweepOnHost(Ref);
  rowSweepOnHost(Ref);
  EXPECT_EQ(A, Ref);
}

/// A step of a transform by transposes: a pointwise update of a's rows, t = a transposed (each
/// device writes its rows of t, so it reads a column block of a across every device's rows), and
/// a back from t row by row.
const char *ScaleRowsSrc = "#pragma acc parallel loop present(a)\n"
                           "for (int j = 0; j < r; j++)\n"
                           "  for (int i = 0; i < r; i++)\n"
                           "    a[j][i] = 0.5 * a[j][i] + j;\n";
const char *TransposeSrc = "#pragma acc parallel loop present(a, t)\n"
                           "for (int i = 0; i < r; i++)\n"
                           "  for (int j = 0; j < r; j++)\n"
                           "    t[i][j] = a[j][i];\n";
const char *CopyBackSrc = "#pragma acc parallel loop present(a, t)\n"
                          "for (int j = 0; j < r; j++)\n"
                          "  for (int i = 0; i < r; i++)\n"
                          "    a[j][i] = t[j][i];\n";

TEST_P(LaunchModeTest, TransposesMoveTheBlocksThatChangeOwner) {
  ASSERT_NO_FATAL_FAILURE(restartWith("always"));
  constexpr int N = R; // square
  std::vector<double> A = initial(), T(N * N, 0.0), Ref = A;
  int r = N;
  double(*a)[N] = reinterpret_cast<double(*)[N]>(A.data());
  double(*t)[N] = reinterpret_cast<double(*)[N]>(T.data());
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  ASSERT_JACC(jacc_create(T.data(), T.size() * sizeof(double)));
  jacc_arg Args[] = {{"int r", &r}, {"double (*a)[r]", &a}, {"double (*t)[r]", &t}};
  // Device d owns rows [dN/D, (d+1)N/D) of a and of t. The transpose's rows of t need a's
  // column block of the same range from every other device's rows: (N - N/D) x N/D elements per
  // device. The copy back reads t as its own rows were written: nothing moves.
  uint64_t Block = uint64_t(N - N / ndev()) * (N / ndev()) * sizeof(double) * ndev();
  for (int S = 0; S < 3; ++S) {
    uint64_t Before = stats().bytes_device_to_device;
    ASSERT_JACC(jacc_kernel_push(ScaleRowsSrc, 2, Args, JACC_DEFAULT));
    EXPECT_EQ(stats().bytes_device_to_device - Before, 0u) << "step " << S << ": own rows";
    ASSERT_JACC(jacc_kernel_push(TransposeSrc, 3, Args, JACC_DEFAULT));
    EXPECT_EQ(stats().bytes_device_to_device - Before, Block) << "step " << S << ": transpose";
    ASSERT_JACC(jacc_kernel_push(CopyBackSrc, 3, Args, JACC_DEFAULT));
    EXPECT_EQ(stats().bytes_device_to_device - Before, Block) << "step " << S << ": copy back";
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < N; ++I)
        Ref[J * N + I] = 0.5 * Ref[J * N + I] + J;
    std::vector<double> Transposed(N * N);
    for (int J = 0; J < N; ++J)
      for (int I = 0; I < N; ++I)
        Transposed[I * N + J] = Ref[J * N + I];
    Ref = Transposed;
  }
  ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(T.data(), T.size() * sizeof(double)));
  EXPECT_EQ(A, Ref);
  EXPECT_EQ(stats().split_launches, ndev() > 1 ? 9u : 0u);
}

/// Steps of a solver step (SolverStep.h), every kernel split: the bytes moved per step.
std::vector<uint64_t> solverSteps(int Steps, std::vector<double> &A) {
  constexpr int N = R;
  std::vector<double> L(N * N, 0.0), Ref = A;
  int r = N;
  double(*a)[N] = reinterpret_cast<double(*)[N]>(A.data());
  double(*l)[N] = reinterpret_cast<double(*)[N]>(L.data());
  EXPECT_EQ(jacc_copyin(A.data(), A.size() * sizeof(double)), JACC_SUCCESS);
  EXPECT_EQ(jacc_create(L.data(), L.size() * sizeof(double)), JACC_SUCCESS);
  jacc_arg Args[] = {{"int r", &r}, {"double (*a)[r]", &a}, {"double (*l)[r]", &l}};
  std::vector<uint64_t> Moved;
  for (int S = 0; S < Steps; ++S) {
    uint64_t Before = stats().bytes_device_to_device;
    EXPECT_EQ(jacc_kernel_push(jacc_solver_step::BuildAlongRowsSrc, 3, Args, JACC_DEFAULT),
              JACC_SUCCESS);
    EXPECT_EQ(jacc_kernel_push(jacc_solver_step::SweepDownColumnsSrc, 3, Args, JACC_DEFAULT),
              JACC_SUCCESS);
    Moved.push_back(stats().bytes_device_to_device - Before);
    jacc_solver_step::stepOnHost(Ref, N);
  }
  EXPECT_EQ(jacc_copyout(A.data(), A.size() * sizeof(double)), JACC_SUCCESS);
  EXPECT_EQ(jacc_delete(L.data(), L.size() * sizeof(double)), JACC_SUCCESS);
  jacc_solver_step::expectNear(A, Ref);
  return Moved;
}

TEST_P(LaunchModeTest, ABuilderComesToSplitAlongTheAxisItsSweepSplits) {
  // The builder splits its rows at first, so the sweep, split by columns, fetches the column
  // blocks of l that change owner; once the sweep split a and l by columns, the builder runs its
  // twin (its two loops swapped: split by columns too) and nothing moves any more.
  ASSERT_NO_FATAL_FAILURE(restartWith("always"));
  constexpr int N = R;
  std::vector<double> A = initial();
  std::vector<uint64_t> Moved = solverSteps(4, A);
  // Step 0: the sweep fetches l's blocks off its columns' owners, (N - N/D) x N/D elements per
  // device (a is current everywhere). From step 1 on, the builder splits by columns as the sweep
  // does: nothing moves.
  uint64_t Block = uint64_t(N - N / ndev()) * (N / ndev()) * sizeof(double) * ndev();
  EXPECT_EQ(Moved, (std::vector<uint64_t>{Block, 0, 0, 0})) << "bytes moved per step";
}

TEST_P(LaunchModeTest, WithoutTwinsTheBuilderKeepsItsAxis) {
  // JACC_TWINS=off: the builder splits its rows at every step, and every step moves blocks.
  jacc::ScopedEnv Off("JACC_TWINS", "off");
  ASSERT_NO_FATAL_FAILURE(restartWith("always"));
  std::vector<double> A = initial();
  std::vector<uint64_t> Moved = solverSteps(4, A);
  for (size_t S = 1; S < Moved.size(); ++S)
    EXPECT_EQ(Moved[S], ndev() > 1 ? Moved[1] : 0u) << "step " << S;
  if (ndev() > 1) {
    EXPECT_GT(Moved[1], 0u) << "the builder's rows against the sweep's columns";
  }
}

TEST_P(LaunchModeTest, TheRuntimesChoiceGivesTheSerialResults) {
  // Enough steps to time the program spread and on one device, and to run the rest the
  // cheaper way (which one depends on this machine's timing: the results must not).
  std::vector<double> A = initial(), Ref = A;
  ASSERT_NO_FATAL_FAILURE(sweeps(A, 150));
  sweepsOnHost(Ref, 150);
  EXPECT_EQ(A, Ref);
}

INSTANTIATE_TEST_SUITE_P(Devices, LaunchModeTest,
                         ::testing::Values("host:1", "host:2", "host:3", "host:4"),
                         deviceConfigName);

} // namespace
