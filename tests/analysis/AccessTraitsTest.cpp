// Tests of the access traits: how each global access varies across the threads of a warp (unit,
// uniform, strided, scattered, through local index variables and loop steps), and the kernel's
// coalescing, arithmetic intensity and sharing levels on the kernels the GPU model cares about.
#include "analysis/AccessTraits.h"
#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

AccessTraits traits(const std::string &Src, const std::vector<std::string> &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return K->Traits;
}

/// Accesses by pattern: unit, uniform, strided, scattered.
std::vector<unsigned> patterns(const AccessTraits &T) {
  return {T.Unit, T.Uniform, T.Strided, T.Scattered};
}

TEST(AccessTraitsTest, AxpyStreamsCoalescedWithLowIntensity) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n",
                          {"int n", "double a", "const double *x", "double *y"});
  EXPECT_TRUE(T.Known);
  EXPECT_EQ(T.Accesses, 3u) << "x[i], y[i] read, y[i] written";
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{3, 0, 0, 0}));
  EXPECT_EQ(T.Flops, 2u);
  EXPECT_EQ(T.Coalesce, Coalescing::Full);
  EXPECT_EQ(T.Intensity, Level::Low);
  EXPECT_EQ(T.Sharing, Level::Low);
  EXPECT_EQ(describeTraits(T), "coalescing full (3 of 3 accesses unit-stride or uniform), "
                               "intensity low (0.7 flops/access), sharing low (0 of 2 reads)");
}

TEST(AccessTraitsTest, StencilNeighboursAreShared) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 1; i < n - 1; i++)\n"
                          "  b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];\n",
                          {"int n", "const double *a", "double *b"});
  EXPECT_EQ(T.Reads, 3u);
  EXPECT_EQ(T.SharedReads, 3u);
  EXPECT_EQ(T.Sharing, Level::High);
  EXPECT_EQ(T.Coalesce, Coalescing::Full);
  EXPECT_EQ(T.Intensity, Level::Medium) << "5 flops for 4 accesses";
}

TEST(AccessTraitsTest, RepeatedReadsCountOnce) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = x[i] * x[i];\n",
                          {"int n", "const double *x", "double *y"});
  EXPECT_EQ(T.Reads, 1u);
  EXPECT_EQ(T.SharedReads, 0u) << "the same element is not a neighbour";
}

TEST(AccessTraitsTest, FlattenedIndexInTheCollapsedLoopIsUnitStride) {
  AccessTraits T = traits("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    a[i * m + j] = 2 * b[i * m + j];\n",
                          {"int n", "int m", "double *a", "const double *b"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{2, 0, 0, 0}));
  EXPECT_EQ(T.Coalesce, Coalescing::Full);
}

TEST(AccessTraitsTest, RowPerThreadIsScattered) {
  // Only i is parallel: neighbouring threads are a row (m elements) apart.
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    a[i * m + j] = 2 * b[i][j];\n",
                          {"int n", "int m", "double *a", "const double (*b)[64]"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{0, 0, 0, 2}));
  EXPECT_EQ(T.Coalesce, Coalescing::Scatter);
}

TEST(AccessTraitsTest, TransposeWritesScattered) {
  AccessTraits T = traits("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < 64; i++)\n"
                          "  for (int j = 0; j < 64; j++)\n"
                          "    b[j][i] = a[i][j];\n",
                          {"const double (*a)[64]", "double (*b)[64]"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{1, 0, 0, 1}));
  EXPECT_EQ(T.Coalesce, Coalescing::Scatter) << "half the accesses";
}

TEST(AccessTraitsTest, GatherIsPartlyCoalesced) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = x[idx[i]];\n",
                          {"int n", "const double *x", "const int *idx", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{2, 0, 0, 1})) << "idx[i], y[i]; x[idx[i]]";
  EXPECT_EQ(T.Coalesce, Coalescing::Partial);
}

TEST(AccessTraitsTest, MatrixProductSharesTheRowOfA) {
  AccessTraits T = traits("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < n; j++) {\n"
                          "    double s = 0;\n"
                          "    for (int k = 0; k < n; k++)\n"
                          "      s += a[i][k] * b[k][j];\n"
                          "    c[i][j] = s;\n"
                          "  }\n",
                          {"int n", "const double (*a)[256]", "const double (*b)[256]",
                           "double (*c)[256]"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{2, 1, 0, 0})) << "a[i][k] uniform across j";
  EXPECT_EQ(T.SharedReads, 1u);
  EXPECT_EQ(T.Sharing, Level::High);
  EXPECT_EQ(T.Coalesce, Coalescing::Full);
}

TEST(AccessTraitsTest, TranscendentalMathIsHighIntensity) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double d = (log(s[i] / k[i]) + 0.5 * v * v) / (v * sqrt(t));\n"
                          "  c[i] = s[i] * exp(-d * d) - k[i] * exp(-r * t);\n"
                          "}\n",
                          {"int n", "double v", "double t", "double r", "const double *s",
                           "const double *k", "double *c"});
  EXPECT_EQ(T.Accesses, 3u);
  EXPECT_GE(T.Flops, 4 * 8u) << "log, sqrt and two exp count 8 each";
  EXPECT_EQ(T.Intensity, Level::High);
}

TEST(AccessTraitsTest, LocalIndexVariablesCarryTheirStride) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int k = i;\n"
                          "  int e = 2 * k + 1;\n"
                          "  y[k] = x[e] + w[j];\n"
                          "}\n",
                          {"int n", "int j", "const double *x", "const double *w", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{1, 1, 1, 0})) << "y[k] unit, w[j] uniform, "
                                                                 "x[e] stride 2";
  EXPECT_EQ(T.Coalesce, Coalescing::Partial);
}

TEST(AccessTraitsTest, SequentialInnerLoopVariableIsUniform) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double s = 0;\n"
                          "  for (int k = 0; k < 8; k++)\n"
                          "    s += w[k] * x[i + k];\n"
                          "  y[i] = s;\n"
                          "}\n",
                          {"int n", "const double *w", "const double *x", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{2, 1, 0, 0})) << "w[k] uniform, x[i + k] unit";
  EXPECT_EQ(T.SharedReads, 1u);
}

TEST(AccessTraitsTest, LiteralLoopStepScalesTheStride) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i += 2)\n"
                          "  y[i] = 0;\n",
                          {"int n", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{0, 0, 1, 0}));
  T = traits("#pragma acc parallel loop\n"
             "for (int i = 0; i < n; i += 16)\n"
             "  y[i] = 0;\n",
             {"int n", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{0, 0, 0, 1}));
}

TEST(AccessTraitsTest, ShiftsAndNegativeCoefficientsScaleTheStride) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i << 1] = x[n - 1 - i] + x[(n - i) << 4];\n",
                          {"int n", "const double *x", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{1, 0, 1, 1}))
      << "x[n - 1 - i] unit (backwards), y[i << 1] stride 2, x[(n - i) << 4] stride 16";
}

TEST(AccessTraitsTest, CsrRowsAreScattered) {
  AccessTraits T = traits("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double s = 0;\n"
                          "  for (int j = row[i]; j < row[i + 1]; j++)\n"
                          "    s += val[j] * x[col[j]];\n"
                          "  y[i] = s;\n"
                          "}\n",
                          {"int n", "const int *row", "const int *col", "const double *val",
                           "const double *x", "double *y"});
  EXPECT_EQ(patterns(T), (std::vector<unsigned>{3, 0, 0, 3}))
      << "row[i], row[i + 1], y[i]; val[j], col[j], x[col[j]]";
  EXPECT_EQ(T.Coalesce, Coalescing::Scatter);
  EXPECT_EQ(T.SharedReads, 2u) << "row[i] and row[i + 1] are neighbours";
}

TEST(AccessTraitsTest, EveryNestCounts) {
  AccessTraits T = traits("#pragma acc parallel\n"
                          "{\n"
                          "  #pragma acc loop\n"
                          "  for (int i = 0; i < n; i++) y[i] = x[i];\n"
                          "  #pragma acc loop\n"
                          "  for (int i = 0; i < n; i++) z[i] = y[idx[i]];\n"
                          "}\n",
                          {"int n", "const int *idx", "const double *x", "double *y",
                           "double *z"});
  EXPECT_EQ(T.Accesses, 5u);
  EXPECT_EQ(T.Scattered, 1u);
}

/// Whether each parallel nest's innermost loop would only gather, once vectorised.
/// One flag of each nest of a kernel.
std::vector<bool> nestFlags(const std::string &Src, const std::vector<std::string> &Decls,
                            bool ParallelNest::*Flag) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  std::vector<bool> R;
  for (const ParallelNest &N : K->Nests)
    R.push_back(N.*Flag);
  return R;
}

std::vector<bool> onlyGathers(const std::string &Src, const std::vector<std::string> &Decls) {
  return nestFlags(Src, Decls, &ParallelNest::OnlyGathers);
}

std::vector<bool> indexedThroughMemory(const std::string &Src,
                                       const std::vector<std::string> &Decls) {
  return nestFlags(Src, Decls, &ParallelNest::IndexedThroughMemory);
}

TEST(AccessTraitsTest, InnermostLoopsThatOnlyGather) {
  // A 5x5 block per cell: every access is 5 or 25 elements from the next cell's.
  EXPECT_EQ(onlyGathers("#pragma acc parallel loop\n"
                        "for (int c = 0; c < cells; c++)\n"
                        "  for (int r = 0; r < 5; r++) {\n"
                        "    double s = 0.0;\n"
                        "    for (int k = 0; k < 5; k++) s += A[c][r][k] * x[c][k];\n"
                        "    y[c][r] = s;\n"
                        "  }\n",
                        {"int cells", "const double (*A)[5][5]", "const double (*x)[5]",
                         "double (*y)[5]"}),
            std::vector<bool>{true});
  // Flattened by hand: 7 * c is a constant stride of 7 elements.
  EXPECT_EQ(onlyGathers("#pragma acc parallel loop\n"
                        "for (int c = 0; c < n; c++) y[7 * c] = 2 * x[7 * c + 1];\n",
                        {"int n", "const double *x", "double *y"}),
            std::vector<bool>{true});
  // Down a column: the innermost collapsed loop walks rows.
  EXPECT_EQ(onlyGathers("#pragma acc parallel loop collapse(2)\n"
                        "for (int j = 0; j < m; j++)\n"
                        "  for (int i = 0; i < n; i++) b[i][j] = 2 * a[i][j];\n",
                        {"int n", "int m", "const double (*a)[m]", "double (*b)[m]"}),
            std::vector<bool>{true});
}

TEST(AccessTraitsTest, InnermostLoopsWithAUnitOrSmallStrideDoNotOnlyGather) {
  // Mat-mat: b[k][j] and c[i][j] are unit-stride in j, a[i][k] is uniform.
  EXPECT_EQ(onlyGathers("#pragma acc parallel loop collapse(2)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  for (int j = 0; j < n; j++) {\n"
                        "    double s = 0.0;\n"
                        "    for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];\n"
                        "    c[i][j] = s;\n"
                        "  }\n",
                        {"int n", "const double (*a)[n]", "const double (*b)[n]",
                         "double (*c)[n]"}),
            std::vector<bool>{false});
  // A transpose reads a row (unit) and writes a column: half of it vectorises.
  EXPECT_EQ(onlyGathers("#pragma acc parallel loop collapse(2)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  for (int j = 0; j < n; j++) b[j][i] = a[i][j];\n",
                        {"int n", "const double (*a)[n]", "double (*b)[n]"}),
            std::vector<bool>{false});
  // A gather through an index array read in unit stride; interleaved pairs (stride 2, which
  // the vectoriser shuffles); no global access at all.
  EXPECT_EQ(onlyGathers("#pragma acc parallel\n"
                        "{\n"
                        "  #pragma acc loop\n"
                        "  for (int i = 0; i < n; i++) z[i] = x[idx[i]];\n"
                        "  #pragma acc loop\n"
                        "  for (int i = 0; i < n; i++) y[2 * i] = x[2 * i + 1];\n"
                        "  #pragma acc loop\n"
                        "  for (int i = 0; i < n; i++) { double t = i; t = t * t; }\n"
                        "}\n",
                        {"int n", "const int *idx", "const double *x", "double *y",
                         "double *z"}),
            (std::vector<bool>{false, false, false}));
}

// NPB LU's hyperplanes: the cell's indices read from index arrays, then the grid reached through
// them; a gather through an index array; against a stencil, a local array indexed by a loaded
// value (the thread's own) and a value loaded but not used as an index.
TEST(AccessTraitsTest, NestsIndexedThroughMemory) {
  EXPECT_EQ(indexedThroughMemory("#pragma acc parallel\n"
                                 "{\n"
                                 "  #pragma acc loop\n"
                                 "  for (int n = 0; n < np; n++) {\n"
                                 "    int j = jx[n], i = ix[n];\n"
                                 "    int k = l - i - j;\n"
                                 "    tv[n] = u[k][j][i] * 2;\n"
                                 "  }\n"
                                 "  #pragma acc loop\n"
                                 "  for (int n = 0; n < np; n++) tv[n] = u[0][0][ix[n]];\n"
                                 "}\n",
                                 {"int np", "int l", "const int *jx", "const int *ix",
                                  "const double (*u)[8][8]", "double *tv"}),
            (std::vector<bool>{true, true}));
  EXPECT_EQ(
      indexedThroughMemory("#pragma acc parallel\n"
                           "{\n"
                           "  #pragma acc loop\n"
                           "  for (int n = 1; n < np - 1; n++) tv[n] = tv[n - 1] + tv[n + 1];\n"
                           "  #pragma acc loop\n"
                           "  for (int n = 0; n < np; n++) {\n"
                           "    double h[4] = {0, 0, 0, 0};\n"
                           "    h[ix[n] & 3] = 1;\n"
                           "    double t = tv[n];\n"
                           "    tv[n] = t + h[0];\n"
                           "  }\n"
                           "}\n",
                           {"int np", "const int *ix", "double *tv"}),
      (std::vector<bool>{false, false}));
}

TEST(AccessTraitsTest, SerialKernelsAreUnknown) {
  AccessTraits T = traits("#pragma acc serial\n"
                          "for (int i = 0; i < n; i++) y[i] = 0;\n",
                          {"int n", "double *y"});
  EXPECT_FALSE(T.Known);
  EXPECT_EQ(describeTraits(T), "no parallel loop");
}

} // namespace
