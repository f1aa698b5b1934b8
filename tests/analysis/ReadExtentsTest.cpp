// Tests of the read extents: what the iterations [lo, hi) of a split nest read of each pointer
// argument along the split dimension, per access pattern (stencils, reversed and strided indices,
// column splits, indirect reads, reads through inner loops), and when it is the whole mapping.
#include "analysis/Pipeline.h"
#include "analysis/ReadExtents.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

/// The kernel's read extents, described ("b along dimension 0: [lo - 1, hi + 1)").
std::vector<std::string> extents(const std::string &Src, const std::vector<std::string> &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  EXPECT_TRUE(K->Split.Enabled) << K->Split.Fallback;
  std::vector<std::string> R;
  for (const ReadExtent &E : K->Split.Reads)
    R.push_back(describeReadExtent(E));
  return R;
}

using Lines = std::vector<std::string>;

/// A kernel whose read extents are known, and what they are.
struct Case {
  const char *Pattern;
  std::string Source;
  std::vector<std::string> Decls;
  Lines Expected;
};

const std::vector<std::string> Vectors = {"int n", "double *out", "const double *in"};
const std::vector<std::string> Matrices = {"int n", "int m", "double (*a)[64]",
                                           "const double (*b)[64]"};

TEST(ReadExtentsTest, AffineReadsGiveRanges) {
  const std::vector<Case> Cases = {
      {"5-point stencil: one halo row each side",
       "#pragma acc parallel loop collapse(2)\n"
       "for (int i = 1; i < n - 1; i++)\n"
       "  for (int j = 1; j < m - 1; j++)\n"
       "    a[i][j] = 0.25 * (b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1]);\n",
       Matrices, {"b along dimension 0: [lo - 1, hi + 1)"}},
      {"offsets of several rows",
       "#pragma acc parallel loop\n"
       "for (int i = 2; i < n - 3; i++)\n"
       "  out[i] = in[i - 2] + in[i + 3] + in[i];\n",
       Vectors, {"in along dimension 0: [lo - 2, hi + 3)"}},
      {"column split: the parallel iterator indexes the second dimension",
       "#pragma acc parallel loop\n"
       "for (int i = 1; i < m - 1; i++)\n"
       "  for (int j = 0; j < n; j++)\n"
       "    a[j][i] = b[j][i - 1] + b[j][i + 1];\n",
       Matrices, {"b along dimension 1: [lo - 1, hi + 1)"}},
      {"reversed: i in [lo, hi) reads n-1-i in [n - hi, n - lo)",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  out[i] = in[n - 1 - i];\n",
       Vectors, {"in along dimension 0: [-hi + (1LL * (n)), -lo + (1LL * (n)))"}},
      {"strided: 2*i and 2*i+1 merge into [2 lo, 2 hi)",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  out[i] = in[2 * i] + in[2 * i + 1];\n",
       Vectors, {"in along dimension 0: [2 * lo, 2 * hi)"}},
      {"shapes that differ (i, i + m) stay two ranges, united at run time",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  out[i] = in[i] + in[i + m];\n",
       {"int n", "int m", "double *out", "const double *in"},
       {"in along dimension 0: [lo, hi) u [lo + (1LL * (m)), hi + (1LL * (m)))"}},
      {"elements every iteration reads",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  out[i] = in[i] * scale[0] + scale[k + 1];\n",
       {"int n", "int k", "double *out", "const double *in", "const double *scale"},
       {"in along dimension 0: [lo, hi)",
        "scale along dimension 0: [0, 1) u [1 + (1LL * (k)), 2 + (1LL * (k)))"}},
      {"an array read and written",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  a[i] = 2 * a[i] + a[i + 1];\n",
       {"int n", "double *a"}, {"a (read and written) along dimension 0: [lo, hi + 1)"}},
      {"an inner parallel loop indexing the other dimension",
       "#pragma acc parallel loop collapse(2)\n"
       "for (int i = 0; i < n; i++)\n"
       "  for (int j = 0; j < n; j++)\n"
       "    a[i][j] = b[j][i];\n",
       {"int n", "double (*a)[64]", "const double (*b)[64]"}, {"b along dimension 1: [lo, hi)"}},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Pattern);
    EXPECT_EQ(extents(C.Source, C.Decls), C.Expected);
  }
}

TEST(ReadExtentsTest, IndirectReadsNeedTheWholeMapping) {
  // A CSR sparse matrix-vector product: the row pointers are read affinely, the rest through k,
  // which the region computes, or through colidx[k], which is data-dependent.
  Lines E = extents("#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  double s = 0;\n"
                    "  for (int k = rowptr[i]; k < rowptr[i + 1]; k++)\n"
                    "    s += val[k] * x[colidx[k]];\n"
                    "  y[i] = s;\n"
                    "}\n",
                    {"int n", "const int *rowptr", "const int *colidx", "const double *val",
                     "const double *x", "double *y"});
  ASSERT_EQ(E.size(), 4u);
  EXPECT_EQ(E[0], "rowptr along dimension 0: [lo, hi + 1)");
  EXPECT_NE(E[1].find("val: whole mapping ('val[k]' at line 5: the index reads 'k'"),
            std::string::npos)
      << E[1];
  EXPECT_NE(E[2].find("x: whole mapping ('x[colidx[k]]' at line 5: the index is data-dependent)"),
            std::string::npos)
      << E[2];
  EXPECT_NE(E[3].find("colidx: whole mapping ('colidx[k]' at line 5"), std::string::npos)
      << E[3];
}

TEST(ReadExtentsTest, NonAffineIndexNeedsTheWholeMapping) {
  Lines E = extents("#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  for (int j = 0; j < m; j++)\n"
                    "    a[i * m + j] = b[i * m + j];\n",
                    {"int n", "int m", "double *a", "const double *b"});
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0], "b: whole mapping ('b[i * m + j]' at line 4: the index is not affine)");
}

TEST(ReadExtentsTest, InnerLoopReadsNeedTheWholeMapping) {
  // The inner loop's bounds (i - 1 .. i + 1) are affine in i, but the pass does not analyse
  // loop bounds yet: the conservative answer.
  Lines E = extents("#pragma acc parallel loop\n"
                    "for (int i = 1; i < n - 1; i++) {\n"
                    "  double s = 0;\n"
                    "  for (int k = i - 1; k <= i + 1; k++)\n"
                    "    s += in[k];\n"
                    "  out[i] = s;\n"
                    "}\n",
                    {"int n", "double *out", "const double *in"});
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0], "in: whole mapping ('in[k]' at line 5: the index reads 'k', which the region "
                  "computes (an inner loop's bounds are not analysed))");
}

TEST(ReadExtentsTest, BoundsDescribeThemselves) {
  ExtentBound B;
  EXPECT_EQ(describeBound(B), "0");
  B.LoCoef = 1;
  B.Const = -1;
  EXPECT_EQ(describeBound(B), "lo - 1");
  B = {};
  B.HiCoef = -3;
  B.Offset = "2LL * (n)";
  EXPECT_EQ(describeBound(B), "-3 * hi + (2LL * (n))");
}

} // namespace
