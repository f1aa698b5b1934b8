// Tests of the read probe (jit/ReadProbe.h): a host split entry run with read_info set reports
// what each device's iterations read and returns before running any of them.
#include "jit/ReadProbe.h"
#include "analysis/ReadExtents.h"
#include "jit/CompiledKernel.h"
#include "jit/host/HostABI.h"
#include "tests/jit/SplitEntryRun.h"

#include <gtest/gtest.h>
#include <llvm/ADT/STLExtras.h>

#include <vector>

namespace {

using namespace jacc;

const char *Stencil = "#pragma acc parallel loop\n"
                      "for (int i = 2; i < n - 3; i++)\n"
                      "  out[i] = in[i - 2] + in[i + 3] + z[idx[i]];\n";
const std::vector<std::string> StencilDecls = {"int n", "double *out", "const double *in",
                                               "const double *z", "const int *idx"};

/// Probe device D of N of K, whose arguments' values are ByPosition (in the user's order) and
/// whose one split array is mapped as [0, MappedBytes) from its pointer: the read_info words.
std::vector<long long> probeWith(const jit::CompiledKernel &K,
                                 const std::vector<const void *> &ByPosition,
                                 long long MappedBytes, int D, int N) {
  return jacc_test::runSplitEntry(K, ByPosition, MappedBytes, D, N, true).ReadInfo;
}

/// Probe device D of N of the stencil over arrays of n doubles: the read_info words.
std::vector<long long> probe(const jit::CompiledKernel &K, int D, int N, int n) {
  std::vector<double> Out(n, -1.0), In(n, 1.0), Z(n, 2.0);
  std::vector<int> Idx(n, 0);
  double *OutP = Out.data(), *InP = In.data(), *ZP = Z.data();
  int *IdxP = Idx.data();
  std::vector<long long> W =
      probeWith(K, {&n, &OutP, &InP, &ZP, &IdxP}, n * static_cast<long long>(sizeof(double)), D, N);
  for (double V : Out)
    EXPECT_EQ(V, -1.0) << "a probe runs no iteration";
  return W;
}

TEST(ReadProbeTest, ReportsEachDevicesReadExtents) {
  auto K = jit::compileKernel(Stencil, StencilDecls);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_TRUE(I.Split.Enabled) << I.Split.Fallback;
  ASSERT_TRUE(I.Split.ProbeExact);
  // in: one range [lo - 2, hi + 3); idx: [lo, hi); z: whole (data-dependent).
  ASSERT_EQ(I.Split.Reads.size(), 3u);
  EXPECT_EQ(jit::readInfoWords(I),
            JACC_READ_INFO_WORDS(1, 0) * 2 + JACC_READ_INFO_WORDS(0, 0) + JACC_LOOP_INFO_WORDS);
  EXPECT_EQ(jit::loopInfoOffset(I), JACC_READ_INFO_WORDS(1, 0) * 2 + JACC_READ_INFO_WORDS(0, 0));
  // Device 0 of 2 runs the first half of the 95 iterations, i in [2, 49), and owns what they
  // write: it reads in[0, 52).
  std::vector<long long> W0 = probe(**K, 0, 2, 100);
  std::vector<long long> W1 = probe(**K, 1, 2, 100);
  unsigned At = 0;
  for (const analysis::ReadExtent &R : I.Split.Reads) {
    SCOPED_TRACE(R.Name);
    const unsigned Ranges = At + JACC_READ_INFO_RANGES;
    if (R.Name == "in") {
      EXPECT_EQ(W0[At], 8);
      EXPECT_EQ(W0[At + 1], 0);
      EXPECT_EQ(W0[Ranges], 0);
      EXPECT_EQ(W0[Ranges + 1], 52);
      EXPECT_EQ(W1[Ranges], 47); // i in [49, 97)
      EXPECT_EQ(W1[Ranges + 1], 100);
    } else if (R.Name == "idx") {
      EXPECT_EQ(W0[At], 4);
      EXPECT_EQ(W0[Ranges], 2);
      EXPECT_EQ(W0[Ranges + 1], 49);
      EXPECT_EQ(W1[Ranges], 49);
      EXPECT_EQ(W1[Ranges + 1], 97);
    } else {
      EXPECT_TRUE(R.Whole) << R.WholeWhy;
      EXPECT_EQ(W0[At], 0);
    }
    At += jit::extentWords(R);
  }
}

// A boundary plane: the reads stay within planes [k, k + 3) of u (and its two m blocks) while
// the split cuts j; the probe reports each window's unit, pitch and indices.
TEST(ReadProbeTest, ReportsTheWindowsOfABoundaryPlane) {
  auto K = jit::compileKernel("#pragma acc parallel loop\n"
                              "for (int j = 0; j < 8; j++)\n"
                              "  for (int m = 0; m < 2; m++)\n"
                              "    r[m][k][j] = u[m][k][j] + u[m][k + 2][j];\n",
                              {"int k", "double (*r)[6][8]", "const double (*u)[6][8]"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_TRUE(I.Split.Enabled) << I.Split.Fallback;
  ASSERT_EQ(I.Split.Reads.size(), 1u);
  const analysis::ReadExtent &U = I.Split.Reads.front();
  EXPECT_EQ(analysis::describeReadExtent(U), "u along dimension 2: [lo, hi), within dimension 0: "
                                             "[0, 2), within dimension 1: [(1LL * (k)), 3 + (1LL "
                                             "* (k)))");
  EXPECT_EQ(jit::extentWords(U), JACC_READ_INFO_WORDS(1, 2));
  int k = 3;
  std::vector<double> R(2 * 6 * 8, 0.0), Uv(2 * 6 * 8, 1.0);
  double *RP = R.data(), *UP = Uv.data();
  std::vector<long long> W = probeWith(**K, {&k, &RP, &UP}, R.size() * 8LL, 1, 2);
  // One j, a plane of j; device 1 of 2 runs j in [4, 8); the m blocks [0, 2) (pitch 0: the
  // outermost dimension); the planes [3, 6) of each m block.
  EXPECT_EQ(std::vector<long long>(W.begin(), W.begin() + JACC_READ_INFO_WORDS(1, 2)),
            (std::vector<long long>{8, 64, 4, 8, 384, 0, 0, 2, 64, 384, 3, 6}));
}

TEST(ReadProbeTest, ReportsThePartitionedLoopAndEachDevicesIterations) {
  // A decreasing loop of step 2: i = 99, 97, ..., 3 (49 iterations) writing y[i].
  auto K = jit::compileKernel("#pragma acc parallel loop\n"
                              "for (int i = n - 1; i >= 3; i -= 2)\n"
                              "  y[i] = 2 * x[i];\n",
                              {"int n", "double *y", "const double *x"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  ASSERT_TRUE((*K)->Info.Split.Enabled) << (*K)->Info.Split.Fallback;
  int n = 100;
  std::vector<double> Y(n, -1.0), X(n, 1.0);
  double *YP = Y.data(), *XP = X.data();
  unsigned At = jit::loopInfoOffset((*K)->Info);
  auto Loop = [&](int D) {
    std::vector<long long> W = probeWith(**K, {&n, &YP, &XP}, n * 8LL, D, 2);
    return std::vector<long long>(W.begin() + At, W.begin() + At + JACC_LOOP_INFO_WORDS);
  };
  // Device 0 runs the first half of the iterations, k = 0..23 (i = 99 down to 53), and owns
  // the elements down to the one they write last; its reduction share is the same [0, 24).
  // Device 1: k = 24..48 (i = 51 down to 3).
  EXPECT_EQ(Loop(0), (std::vector<long long>{99, -2, 49, 0, 24, 0, 24}));
  EXPECT_EQ(Loop(1), (std::vector<long long>{99, -2, 49, 24, 49, 24, 49}));
  for (double V : Y)
    EXPECT_EQ(V, -1.0) << "a probe runs no iteration";
}

TEST(ReadProbeTest, LinearizedReadsAreRowsOfTheirStride) {
  auto K = jit::compileKernel(
      "#pragma acc parallel loop\n"
      "for (int i = 1; i < r - 1; i++)\n"
      "  for (int j = 1; j < c - 1; j++)\n"
      "    anew[i * c + j] = a[(i - 1) * c + j] + a[(i + 1) * c + j] + a[i * c + j - 1] +\n"
      "                      a[i * c + j + 1];\n",
      {"int r", "int c", "double *anew", "const double *a"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_TRUE(I.Split.Enabled && I.Split.Plan.Narrowable) << I.Split.Fallback;
  ASSERT_TRUE(I.Split.ProbeExact);
  ASSERT_EQ(I.Split.Reads.size(), 1u);
  ASSERT_EQ(I.Split.Reads[0].Ranges.size(), 3u);
  int r = 8, c = 6;
  std::vector<double> New(r * c, -1.0), A(r * c, 1.0);
  double *NewP = New.data(), *AP = A.data();
  auto Ranges = [&](int D) {
    std::vector<long long> W = probeWith(**K, {&r, &c, &NewP, &AP}, r * c * 8LL, D, 2);
    std::vector<std::pair<long long, long long>> R;
    for (unsigned X = 0; X < 3; ++X)
      R.push_back({W[JACC_READ_INFO_RANGES + 2 * X], W[JACC_READ_INFO_RANGES + 2 * X + 1]});
    llvm::sort(R);
    EXPECT_EQ(W[0], 8) << "a unit of one element";
    return R;
  };
  // Device 0 owns anew[0, 24): rows 1 to 3 write into it (row 3's elements 19 to 22). Their
  // reads: the rows above but their first element [1, 17), the rows below but their last
  // [13, 29), their own rows [6, 24). Device 1: rows 4 to 6 ([24, 48)).
  using Pairs = std::vector<std::pair<long long, long long>>;
  EXPECT_EQ(Ranges(0), (Pairs{{1, 17}, {6, 24}, {13, 29}}));
  EXPECT_EQ(Ranges(1), (Pairs{{19, 35}, {24, 42}, {31, 47}}));
  for (double V : New)
    EXPECT_EQ(V, -1.0) << "a probe runs no iteration";
  // Bounds over a stride hold where it is positive: elsewhere the whole mapping (a unit of 0).
  int Zero = 0;
  std::vector<long long> W = probeWith(**K, {&r, &Zero, &NewP, &AP}, r * c * 8LL, 0, 2);
  EXPECT_EQ(W[0], 0);
}

TEST(ReadProbeTest, BoundsThatReadAnArrayMakeTheProbeInexact) {
  // The loop bound comes from memory the device copy may not hold current yet.
  auto K = jit::compileKernel("#pragma acc parallel loop\n"
                              "for (int i = 0; i < len[0]; i++)\n"
                              "  y[i] = 2 * x[i];\n",
                              {"const int *len", "double *y", "const double *x"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_FALSE((*K)->Info.Split.ProbeExact);
  auto Plain = jit::compileKernel("#pragma acc parallel loop\n"
                                  "for (int i = 0; i < lenx; i++)\n"
                                  "  y[i] = 2 * x[i];\n",
                                  {"int lenx", "double *y", "const double *x"});
  ASSERT_TRUE(bool(Plain)) << llvm::toString(Plain.takeError());
  EXPECT_TRUE((*Plain)->Info.Split.ProbeExact) << "'lenx' is not 'x'";
  // A bound computed before the loop from an array.
  auto Local = jit::compileKernel("#pragma acc parallel\n"
                                  "{\n"
                                  "  int m = len[0];\n"
                                  "  #pragma acc loop\n"
                                  "  for (int i = 0; i < m; i++)\n"
                                  "    y[i] = 2 * x[i];\n"
                                  "}\n",
                                  {"const int *len", "double *y", "const double *x"});
  ASSERT_TRUE(bool(Local)) << llvm::toString(Local.takeError());
  if ((*Local)->Info.Split.Enabled) {
    EXPECT_FALSE((*Local)->Info.Split.ProbeExact);
  }
}

} // namespace
