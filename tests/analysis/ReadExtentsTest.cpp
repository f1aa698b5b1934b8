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

/// Each case's read extents are the expected ones.
void expectExtents(const std::vector<Case> &Cases) {
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Pattern);
    EXPECT_EQ(extents(C.Source, C.Decls), C.Expected);
  }
}

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
  expectExtents(Cases);
}

TEST(ReadExtentsTest, ReadsWithinAFixedWidthOfAnotherDimensionHaveAWindow) {
  const std::vector<Case> Cases = {
      {"a boundary plane k: planes [k, k + 3) of every m block",
       "#pragma acc parallel loop\n"
       "for (int j = 1; j < n - 1; j++)\n"
       "  for (int m = 0; m < 2; m++)\n"
       "    a[m][k][j] = b[m][k][j] - b[m][k + 2][j];\n",
       {"int n", "int k", "double (*a)[8][64]", "const double (*b)[8][64]"},
       {"b along dimension 2: [lo, hi), within dimension 0: [0, 2), within dimension 1: "
        "[(1LL * (k)), 3 + (1LL * (k)))"}},
      {"planes of different shapes (1 and m): no fixed width, no window",
       "#pragma acc parallel loop\n"
       "for (int j = 0; j < n; j++)\n"
       "  a[0][j] = b[1][j] + b[m][j];\n",
       {"int n", "int m", "double (*a)[64]", "const double (*b)[64]"},
       {"b along dimension 1: [lo, hi)"}},
      {"an inner loop whose bound is a variable: no fixed width",
       "#pragma acc parallel loop\n"
       "for (int j = 0; j < n; j++)\n"
       "  for (int i = 1; i < m; i++)\n"
       "    a[j][i] = b[j][i - 1];\n",
       Matrices,
       {"b along dimension 0: [lo, hi)"}},
      {"a fixed-width inner loop",
       "#pragma acc parallel loop\n"
       "for (int j = 0; j < n; j++)\n"
       "  for (int i = 2; i < 6; i++)\n"
       "    a[j][i] = b[j][i - 1] + b[j][i + 1];\n",
       {"int n", "double (*a)[64]", "const double (*b)[64]"},
       {"b along dimension 0: [lo, hi), within dimension 1: [1, 7)"}},
  };
  expectExtents(Cases);
}

TEST(ReadExtentsTest, WritesOfABoundaryPlaneHaveAWindow) {
  auto K = runAnalysis("#pragma acc parallel loop\n"
                       "for (int j = 1; j < n - 1; j++)\n"
                       "  for (int m = 0; m < 2; m++)\n"
                       "    a[m][k][j] = a[m][k][j] + 1;\n",
                       {"int n", "int k", "double (*a)[8][64]"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  ASSERT_EQ(K->Split.Plan.Arrays.size(), 1u);
  const SplitArray &A = K->Split.Plan.Arrays.front();
  EXPECT_EQ(A.Dim, 2u);
  ASSERT_EQ(A.Windows.size(), 2u);
  EXPECT_EQ(A.Windows[0].Dim, 0u);
  EXPECT_EQ(A.Windows[1].Dim, 1u);
  ASSERT_EQ(A.Windows[1].Ranges.size(), 1u);
  EXPECT_EQ(describeBound(A.Windows[1].Ranges[0].Begin), "(1LL * (k))");
  EXPECT_EQ(describeBound(A.Windows[1].Ranges[0].End), "1 + (1LL * (k))");
}

TEST(ReadExtentsTest, IndirectReadsNeedTheWholeMapping) {
  // A CSR sparse matrix-vector product: the row pointers are read affinely, the rest through k,
  // whose loop bounds are data-dependent, or through colidx[k], which is data-dependent.
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
  EXPECT_NE(E[1].find("val: whole mapping ('val[k]' at line 5: the inner loop over 'k' at line "
                      "4 has a bound 'rowptr[i]' that is data-dependent)"),
            std::string::npos)
      << E[1];
  EXPECT_NE(E[2].find("x: whole mapping ('x[colidx[k]]' at line 5: the index is data-dependent)"),
            std::string::npos)
      << E[2];
  EXPECT_NE(E[3].find("colidx: whole mapping ('colidx[k]' at line 5"), std::string::npos)
      << E[3];
}

TEST(ReadExtentsTest, AnElementsAddressGivenToARoutineNeedsTheWholeMapping) {
  // The routine reads its neighbours through the address (`&b[0]`, `&b[i]`): not one element.
  const char *Routine = "#pragma acc routine seq\n"
                        "static double avg(const double *u, int i) {\n"
                        "  return 0.5 * (u[i - 1] + u[i + 1]);\n"
                        "}\n";
  for (const char *Arg : {"&b[0], i", "&b[i], 0", "&(b[i - 1]), 1"}) {
    SCOPED_TRACE(Arg);
    Lines E = extents(std::string(Routine) +
                          "#pragma acc parallel loop\n"
                          "for (int i = 1; i < n - 1; i++)\n"
                          "  a[i] = avg(" +
                          Arg + ");\n",
                      {"int n", "double *a", "const double *b"});
    ASSERT_EQ(E.size(), 1u);
    EXPECT_EQ(E[0].rfind("b: whole mapping (", 0), 0u) << E[0];
  }
}

TEST(ReadExtentsTest, LinearizedIndicesGiveRangesOverTheirScale) {
  const std::vector<std::string> Flat = {"int n", "int m", "double *a", "const double *b"};
  const std::vector<std::string> Rows = {"int n", "double *a", "const double *b"};
  const std::vector<Case> Cases = {
      {"a row of m per i: [lo m, hi m)",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  for (int j = 0; j < m; j++)\n"
       "    a[i * m + j] = b[i * m + j];\n",
       Flat,
       {"b along dimension 0: [lo * (m), hi * (m))"}},
      {"5-point stencil on rows of n: the rows above and below, and the row's own band",
       "#pragma acc parallel loop\n"
       "for (int i = 1; i < n - 1; i++)\n"
       "  for (int j = 1; j < n - 1; j++)\n"
       "    a[i * n + j] = b[(i - 1) * n + j] + b[(i + 1) * n + j] + b[i * n + j - 1] +\n"
       "                   b[i * n + j + 1];\n",
       Rows,
       {"b along dimension 0: [lo * (n) + 1 + (-1LL * (n)), hi * (n) - 1 + (-1LL * (n))) u "
        "[lo * (n) + 1 + (1LL * (n)), hi * (n) - 1 + (1LL * (n))) u [lo * (n), hi * (n))"}},
      {"three dimensions (NPB's I3D): a scale of two strides, an inner loop's of one",
       "#pragma acc parallel loop\n"
       "for (int k = 0; k < l; k++)\n"
       "  for (int j = 1; j < m - 1; j++)\n"
       "    for (int i = 0; i < n; i++)\n"
       "      a[(k * m + j) * n + i] = b[(k * m + j - 1) * n + i];\n",
       {"int l", "int m", "int n", "double *a", "const double *b"},
       {"b along dimension 0: [lo * (m) * (n) + (-1LL * (n) + ((1LL * (n)) >= 0 ? (1LL * (n)) * "
        "(1LL) : (1LL * (n)) * (-2LL + 1LL * (m)))), hi * (m) * (n) + (-1LL * (m) * (n) + "
        "((1LL * (n)) >= 0 ? (1LL * (n)) * (-2LL + 1LL * (m)) : (1LL * (n)) * (1LL))))"}},
      {"a scale that is a sum: rows of m + 2",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++)\n"
       "  a[i] = b[i * (m + 2) + 1];\n",
       Flat,
       {"b along dimension 0: [lo * (2LL + 1LL * (m)) + 1, hi * (2LL + 1LL * (m)) + "
        "(-1LL * (m)))"}},
  };
  expectExtents(Cases);
}

TEST(ReadExtentsTest, IndicesThatAreNoPolynomialNeedTheWholeMapping) {
  Lines Div = extents("#pragma acc parallel loop\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  a[i] = b[i / m];\n",
                      {"int n", "int m", "double *a", "const double *b"});
  ASSERT_EQ(Div.size(), 1u);
  EXPECT_EQ(Div[0], "b: whole mapping ('b[i / m]' at line 3: the index is not a polynomial)");
  Lines Square = extents("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  a[i] = b[i * i];\n",
                         {"int n", "double *a", "const double *b"});
  ASSERT_EQ(Square.size(), 1u);
  EXPECT_EQ(Square[0],
            "b: whole mapping ('b[i * i]' at line 3: the index multiplies loop variables)");
}

TEST(ReadExtentsTest, InnerLoopReadsSpanTheLoopsValues) {
  // An inner sequential loop whose bounds are affine in i and region invariants: its reads span
  // the hull of its values over the device's i.
  const std::vector<Case> Cases = {
      {"a window around i: k in [i - 1, i + 1]",
       "#pragma acc parallel loop\n"
       "for (int i = 1; i < n - 1; i++) {\n"
       "  double s = 0;\n"
       "  for (int k = i - 1; k <= i + 1; k++)\n"
       "    s += in[k];\n"
       "  out[i] = s;\n"
       "}\n",
       Vectors,
       {"in along dimension 0: [lo - 1, hi + 1)"}},
      {"a fixed window added to i: k in [0, 3)",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n - 2; i++) {\n"
       "  double s = 0;\n"
       "  for (int k = 0; k < 3; k++)\n"
       "    s += in[i + k];\n"
       "  out[i] = s;\n"
       "}\n",
       Vectors,
       {"in along dimension 0: [lo, hi + 2)"}},
      {"reversed: k from i + 2 down to i, and read negated",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n - 2; i++) {\n"
       "  double s = 0;\n"
       "  for (int k = i + 2; k >= i; k--)\n"
       "    s += in[k] - in[2 * n - k];\n"
       "  out[i] = s;\n"
       "}\n",
       Vectors,
       {"in along dimension 0: [lo, hi + 2) u [-hi - 1 + (2LL * (n)), -lo + 1 + (2LL * (n)))"}},
      {"a window of invariant width: k in (i - w, i + w)",
       "#pragma acc parallel loop\n"
       "for (int i = 0; i < n; i++) {\n"
       "  double s = 0;\n"
       "  int k;\n"
       "  for (k = i - w + 1; k < i + w; k += 1)\n"
       "    s += in[k];\n"
       "  out[i] = s;\n"
       "}\n",
       {"int n", "int w", "double *out", "const double *in"},
       {"in along dimension 0: [lo + 1 + (-1LL * (w)), hi - 1 + (1LL * (w)))"}},
      {"the row of a column split read through an inner loop over rows",
       "#pragma acc parallel loop\n"
       "for (int i = 1; i < m - 1; i++)\n"
       "  for (int j = 0; j < n; j++) {\n"
       "    double s = 0;\n"
       "    for (int k = i - 1; k <= i + 1; k++)\n"
       "      s += b[j][k];\n"
       "    a[j][i] = s;\n"
       "  }\n",
       Matrices,
       {"b along dimension 1: [lo - 1, hi + 1)"}},
  };
  expectExtents(Cases);
}

TEST(ReadExtentsTest, InnerLoopsTheAnalysisCannotBoundNeedTheWholeMapping) {
  // A bound read from an array (the probe could not evaluate it before the data is current).
  Lines E = extents("#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  double s = 0;\n"
                    "  for (int k = 0; k < len[i]; k++)\n"
                    "    s += in[i + k];\n"
                    "  out[i] = s;\n"
                    "}\n",
                    {"int n", "const int *len", "double *out", "const double *in"});
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E[0], "len along dimension 0: [lo, hi)");
  EXPECT_EQ(E[1], "in: whole mapping ('in[i + k]' at line 5: the inner loop over 'k' at line 4 "
                  "has a bound 'len[i]' that is data-dependent)");
  // The body assigns the variable: its values are not the loop's range.
  E = extents("#pragma acc parallel loop\n"
              "for (int i = 1; i < n - 1; i++) {\n"
              "  double s = 0;\n"
              "  for (int k = i - 1; k <= i + 1; k++) {\n"
              "    s += in[k];\n"
              "    k += s > 0;\n"
              "  }\n"
              "  out[i] = s;\n"
              "}\n",
              Vectors);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0], "in: whole mapping ('in[k]' at line 5: the index reads 'k', which the region "
                  "computes)");
  // Read after the loop: k holds its exit value.
  E = extents("#pragma acc parallel loop\n"
              "for (int i = 1; i < n - 1; i++) {\n"
              "  int k;\n"
              "  for (k = i; k < n && in[k] > 0; k++)\n"
              "    ;\n"
              "  out[i] = in[k - 1];\n"
              "}\n",
              Vectors);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_NE(E[0].find("in: whole mapping"), std::string::npos) << E[0];
  // A step other than one skips values, but the hull still holds them; it is not recognised.
  E = extents("#pragma acc parallel loop\n"
              "for (int i = 0; i < n / 2; i++) {\n"
              "  double s = 0;\n"
              "  for (int k = 2 * i; k < 2 * i + 2; k += 2)\n"
              "    s += in[k];\n"
              "  out[i] = s;\n"
              "}\n",
              Vectors);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_NE(E[0].find("in: whole mapping"), std::string::npos) << E[0];
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
