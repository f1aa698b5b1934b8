// Tests of the read probe (jit/ReadProbe.h): a host split entry run with read_info set reports
// what each device's iterations read and returns before running any of them.
#include "jit/ReadProbe.h"
#include "analysis/ReadExtents.h"
#include "jit/CompiledKernel.h"
#include "jit/host/HostABI.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace jacc;

const char *Stencil = "#pragma acc parallel loop\n"
                      "for (int i = 2; i < n - 3; i++)\n"
                      "  out[i] = in[i - 2] + in[i + 3] + z[idx[i]];\n";
const std::vector<std::string> StencilDecls = {"int n", "double *out", "const double *in",
                                               "const double *z", "const int *idx"};

void noBarrier(void *) {}

/// Probe device D of N of K, whose arguments' values are ByPosition (in the user's order) and
/// whose one split array is mapped as [0, MappedBytes) from its pointer: the read_info words.
std::vector<long long> probeWith(const jit::CompiledKernel &K,
                                 const std::vector<const void *> &ByPosition,
                                 long long MappedBytes, int D, int N) {
  std::vector<long long> SplitInfo(JACC_SPLIT_INFO_WORDS * K.Info.Split.Plan.Arrays.size(), 0);
  std::vector<long long> ReadInfo(jit::readInfoWords(K.Info), -7);
  jacc_host_team T{};
  T.nthreads = 1;
  T.barrier = noBarrier;
  T.share_begin = D;
  T.share_end = D + 1;
  T.share_scale = N;
  T.narrow = 1;
  T.split_info = SplitInfo.data();
  T.read_info = ReadInfo.data();
  const jacc_host_team *TP = &T;
  // Parameters by ArgInfo::Param, then the mapping of the one split array, then the team.
  std::vector<void *> Values(K.Info.Args.size());
  for (const analysis::ArgInfo &A : K.Info.Args)
    Values[A.Param] = const_cast<void *>(ByPosition[A.Position]);
  long long MLo = 0, MHi = MappedBytes;
  Values.push_back(&MLo);
  Values.push_back(&MHi);
  Values.push_back(&TP);
  auto Split = K.splitCode();
  EXPECT_TRUE(bool(Split)) << llvm::toString(Split.takeError());
  (*Split)->Call->call((*Split)->Entry, Values.data());
  return ReadInfo;
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
  // Device 0 of 2 owns out[0, 50): it runs i in [2, 50) and reads in[0, 53).
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
      EXPECT_EQ(W0[Ranges + 1], 53);
      EXPECT_EQ(W1[Ranges], 48); // i in [50, 97)
      EXPECT_EQ(W1[Ranges + 1], 100);
    } else if (R.Name == "idx") {
      EXPECT_EQ(W0[At], 4);
      EXPECT_EQ(W0[Ranges], 2);
      EXPECT_EQ(W0[Ranges + 1], 50);
      EXPECT_EQ(W1[Ranges], 50);
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
  // Device 0 owns y[0, 50): iterations k = 25..48 (i = 49 down to 3); its reduction share is
  // the first half of the iterations, [0, 24). Device 1 owns y[50, 100): k = 0..24.
  EXPECT_EQ(Loop(0), (std::vector<long long>{99, -2, 49, 25, 49, 0, 24}));
  EXPECT_EQ(Loop(1), (std::vector<long long>{99, -2, 49, 0, 25, 24, 49}));
  for (double V : Y)
    EXPECT_EQ(V, -1.0) << "a probe runs no iteration";
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
