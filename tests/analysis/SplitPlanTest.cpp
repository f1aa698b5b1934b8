// Tests of the split plan: the dimension each written array is split along, whether the nest can
// be narrowed (and the affine writes that allow it), the pointer arguments the region reads,
// reductions, and why a nest cannot be split.
#include "analysis/SplitPlan.h"
#include "analysis/Pipeline.h"
#include "analysis/ReadExtents.h"
#include "tests/analysis/PipelineCheck.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace jacc::analysis;
using jacc::analysis::test::analyzed;

namespace {

using Writes = std::vector<std::pair<long long, std::string>>; // (Coef, Offset)

Writes writes(const SplitArray &A) {
  Writes R;
  for (const AffineWrite &W : A.Writes)
    R.push_back({W.Coef, W.Offset});
  return R;
}

std::vector<std::string> arrayNames(const SplitPlan &P) {
  std::vector<std::string> R;
  for (const SplitArray &A : P.Arrays)
    R.push_back(A.Name);
  return R;
}

// ---- split dimension -------------------------------------------------------------------------

TEST(SplitPlanTest, SplitByRows) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    a[i][j] = b[i][j] + 1;\n",
                          {"int n", "int m", "double (*a)[64]", "const double (*b)[64]"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable);
  ASSERT_EQ(P.Arrays.size(), 1u);
  const SplitArray &A = P.Arrays[0];
  EXPECT_EQ(A.Name, "a");
  EXPECT_EQ(A.Arg, 2u);
  EXPECT_EQ(A.Rank, 2u);
  EXPECT_EQ(A.Dim, 0u);
  EXPECT_TRUE(A.Affine);
  EXPECT_EQ(writes(A), (Writes{{1, "0"}}));
  EXPECT_TRUE(P.Narrowable) << P.NoNarrowing;
  EXPECT_EQ(P.NoNarrowing, "");
  EXPECT_FALSE(P.HasShareTerms);
}

TEST(SplitPlanTest, SplitByColumns) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int j = 0; j < m; j++)\n"
                          "  for (int i = 0; i < n; i++)\n"
                          "    a[i][j] = 2 * a[i][j];\n",
                          {"int n", "int m", "double (*a)[64]"});
  const SplitPlan &P = K.Split.Plan;
  ASSERT_EQ(P.Arrays.size(), 1u);
  EXPECT_EQ(P.Arrays[0].Dim, 1u);
  EXPECT_EQ(P.Arrays[0].Rank, 2u);
  EXPECT_EQ(writes(P.Arrays[0]), (Writes{{1, "0"}}));
  EXPECT_TRUE(P.Narrowable) << P.NoNarrowing;
  EXPECT_EQ(P.ReadArgs, std::set<unsigned>{2});
}

TEST(SplitPlanTest, SplitWithCollapse) {
  KernelInfo K = analyzed("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++) {\n"
                          "    a[i][j] = 1;\n"
                          "    b[j][i] = 2;\n"
                          "  }\n",
                          {"int n", "int m", "double (*a)[64]", "double (*b)[64]"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_EQ(K.Split.IR.ParallelVars, (std::vector<std::string>{"i", "j"}));
  EXPECT_EQ(arrayNames(P), (std::vector<std::string>{"a", "b"}));
  // The outermost iterator decides: rows of a, columns of b.
  EXPECT_EQ(P.find("a")->Dim, 0u);
  EXPECT_EQ(P.find("b")->Dim, 1u);
  EXPECT_EQ(P.find("a")->Arg, 2u);
  EXPECT_EQ(P.find("b")->Arg, 3u);
  EXPECT_TRUE(P.Narrowable) << P.NoNarrowing;
  EXPECT_EQ(writes(*P.find("b")), (Writes{{1, "0"}}));
  EXPECT_EQ(P.find("c"), nullptr);
}

TEST(SplitPlanTest, InnerIteratorsCountLessThanTheOutermost) {
  // Collapsed j indexes dimension 0 twice, i indexes dimension 1 once: i still wins.
  KernelInfo K = analyzed("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++) {\n"
                          "    a[j][i] = 1;\n"
                          "    a[j][0] = 2;\n"
                          "    a[j][1] = 3;\n"
                          "  }\n",
                          {"int n", "int m", "double (*a)[64]"});
  const SplitPlan &P = K.Split.Plan;
  ASSERT_EQ(P.Arrays.size(), 1u);
  EXPECT_EQ(P.Arrays[0].Dim, 1u);
  // a[j][0] and a[j][1] are not affine in i along that dimension.
  EXPECT_FALSE(P.Arrays[0].Affine);
  EXPECT_FALSE(P.Narrowable);
  EXPECT_EQ(P.NoNarrowing, "the write 'a[...]' at line 5 is not affine in the parallel iterator");
  EXPECT_EQ(writes(P.Arrays[0]), (Writes{{1, "0"}}));
}

// ---- narrowing -------------------------------------------------------------------------------

TEST(SplitPlanTest, ReadingAnotherWrittenElementWithoutNarrowingRunsDuplicated) {
  // A recurrence along each row: rows cross the devices' element ranges, and a device would
  // read its stale copy of the element before its range.
  const char *Recurrence = "#pragma acc parallel loop\n"
                           "for (int x = 0; x < 10; x++)\n"
                           "  for (int y = 1; y < n; y++)\n"
                           "    c[x * n + y] = c[x * n + y - 1] + a[x * n + y];\n";
  KernelInfo K = analyzed(Recurrence, {"int n", "const double *a", "double *c"});
  EXPECT_FALSE(K.Split.Plan.Splittable);
  EXPECT_EQ(K.Split.Plan.Fallback,
            "'c[x * n + y - 1]' at line 4 reads an element a previous iteration wrote as "
            "'c[x * n + y]', which another device may own");
  // Reading the element written, or only other arrays, still splits.
  KernelInfo Same = analyzed("#pragma acc parallel loop\n"
                             "for (int x = 0; x < 10; x++)\n"
                             "  for (int y = 0; y < n; y++)\n"
                             "    c[x * n + y] = c[x * n + y] + a[x * n + y];\n",
                             {"int n", "const double *a", "double *c"});
  EXPECT_TRUE(Same.Split.Plan.Splittable) << Same.Split.Plan.Fallback;
}

TEST(SplitPlanTest, AffineWritesNarrow) {
  KernelInfo K = analyzed(
      "#pragma acc parallel loop\n"
      "for (int i = 0; i < n; i++) {\n"
      "  a[2 * i] = x[i];\n"
      "  a[2 * i + 1] = -x[i];\n"
      "  b[n - 1 - i] = x[i];\n"
      "  c[i + off] = x[i];\n"
      "  d[3 * (i + off) - 2] = x[i];\n"
      "}\n",
      {"int n", "int off", "const double *x", "double *a", "double *b", "double *c", "double *d"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable);
  EXPECT_TRUE(P.Narrowable) << P.NoNarrowing;
  EXPECT_EQ(P.NoNarrowing, "");
  EXPECT_EQ(arrayNames(P), (std::vector<std::string>{"a", "b", "c", "d"}));
  for (const SplitArray &A : P.Arrays) {
    EXPECT_TRUE(A.Affine) << A.Name;
    EXPECT_EQ(A.Dim, 0u) << A.Name;
    EXPECT_EQ(A.Rank, 1u) << A.Name;
  }
  EXPECT_EQ(writes(*P.find("a")), (Writes{{2, "0"}, {2, "1"}}));
  EXPECT_EQ(writes(*P.find("b")), (Writes{{-1, "-1 + 1LL * (n)"}}));
  EXPECT_EQ(writes(*P.find("c")), (Writes{{1, "0 + 1LL * (off)"}}));
  EXPECT_EQ(writes(*P.find("d")), (Writes{{3, "-2 + 3LL * (off)"}}));
  EXPECT_EQ(P.ReadArgs, std::set<unsigned>{2});
}

TEST(SplitPlanTest, IndirectWritesDoNotNarrow) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  b[i] = 1;\n"
                          "  a[idx[i]] = 2;\n"
                          "}\n",
                          {"int n", "double *a", "double *b", "const int *idx"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable);
  EXPECT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_FALSE(P.Narrowable);
  EXPECT_EQ(P.NoNarrowing, "the write 'a[...]' at line 4 is not affine in the parallel iterator");
  ASSERT_NE(P.find("a"), nullptr);
  EXPECT_FALSE(P.find("a")->Affine);
  EXPECT_TRUE(P.find("a")->Writes.empty());
  EXPECT_EQ(P.find("a")->Dim, 0u);
  EXPECT_TRUE(P.find("b")->Affine);
  EXPECT_EQ(writes(*P.find("b")), (Writes{{1, "0"}}));
  EXPECT_EQ(P.ReadArgs, std::set<unsigned>{3});
}

TEST(SplitPlanTest, AtomicUpdatesDoNotNarrow) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  #pragma acc atomic update\n"
                          "  h[in[i]] += 1;\n"
                          "}\n",
                          {"int n", "const int *in", "int *h"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable);
  EXPECT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  EXPECT_FALSE(P.Narrowable);
  EXPECT_EQ(P.NoNarrowing, "an atomic update of 'h'");
  ASSERT_EQ(P.Arrays.size(), 1u);
  EXPECT_FALSE(P.Arrays[0].Affine);
  // The update reads its element and the index reads in[i].
  EXPECT_EQ(P.ReadArgs, (std::set<unsigned>{1, 2}));

  // Even at an affine index.
  KernelInfo A = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  #pragma acc atomic update\n"
                          "  h[i] += 1;\n"
                          "}\n",
                          {"int n", "int *h"});
  EXPECT_FALSE(A.Split.Plan.Narrowable);
  EXPECT_EQ(A.Split.Plan.NoNarrowing, "an atomic update of 'h'");
}

TEST(SplitPlanTest, LinearizedWritesNarrowOverTheirScale) {
  // Rows of n (the inner loop spans [1, n - 2] of each), a 3-D grid of rows of n and planes of
  // m * n, and a sequential loop under a constant coefficient.
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 1; i < n - 1; i++) {\n"
                          "  for (int j = 1; j < n - 1; j++)\n"
                          "    a[i * n + j] = 1;\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    for (int k = 0; k < n; k++)\n"
                          "      b[(i * m + j) * n + k] = 2;\n"
                          "  for (int k = 0; k < 4; k++)\n"
                          "    c[4 * i + k + 1] = 3;\n"
                          "}\n",
                          {"int n", "int m", "double *a", "double *b", "double *c"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable) << P.Fallback;
  EXPECT_TRUE(P.Narrowable) << P.NoNarrowing;
  auto Write = [&](const char *Name) {
    const SplitArray *A = P.find(Name);
    EXPECT_TRUE(A && A->Affine && A->Writes.size() == 1) << Name;
    return A && !A->Writes.empty() ? A->Writes.front() : AffineWrite{};
  };
  AffineWrite A = Write("a"), B = Write("b"), C = Write("c");
  EXPECT_EQ(std::tie(A.Coef, A.Scale, A.Offset, A.Least, A.Greatest),
            std::make_tuple(1LL, std::string("(n)"), std::string("0"), std::string("(1LL)"),
                            std::string("(-2LL + 1LL * (n))")));
  EXPECT_EQ(std::tie(B.Coef, B.Scale, B.Offset),
            std::make_tuple(1LL, std::string("(m) * (n)"), std::string("0")));
  EXPECT_EQ(B.Least,
            "(((1LL * (n)) >= 0 ? (1LL * (n)) * (0LL) : (1LL * (n)) * (-1LL + 1LL * (m))))");
  EXPECT_EQ(B.Greatest, "(-1LL + 1LL * (n) + ((1LL * (n)) >= 0 ? (1LL * (n)) * (-1LL + 1LL * "
                        "(m)) : (1LL * (n)) * (0LL)))");
  EXPECT_EQ(std::tie(C.Coef, C.Scale, C.Offset, C.Least, C.Greatest),
            std::make_tuple(4LL, std::string(""), std::string("1"), std::string(""),
                            std::string("(3LL)")));
}

TEST(SplitPlanTest, WritesIndexedByAnInnerLoopOnlyDoNotNarrow) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  for (int k = 0; k < m; k++)\n"
                          "    a[k] = i;\n"
                          "}\n",
                          {"int n", "int m", "double *a"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable);
  EXPECT_FALSE(P.Narrowable);
  EXPECT_EQ(P.NoNarrowing, "the write 'a[...]' at line 4 is not affine in the parallel iterator");
  ASSERT_EQ(P.Arrays.size(), 1u);
  EXPECT_EQ(P.Arrays[0].Dim, 0u);
  EXPECT_FALSE(P.Arrays[0].Affine);
}

TEST(SplitPlanTest, OffsetsMustBeInvariantAndNotParallel) {
  // o is defined in the region: the offset is not the same for every iteration.
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  int o = i % 3;\n"
                          "  a[i + o] = 1;\n"
                          "}\n",
                          {"int n", "double *a"});
  EXPECT_FALSE(K.Split.Plan.Narrowable);
  EXPECT_EQ(K.Split.Plan.NoNarrowing,
            "the write 'a[...]' at line 4 is not affine in the parallel iterator");
  // j is an iterator of the collapsed nest whose step is not one.
  KernelInfo C = analyzed("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < 4; j += 2)\n"
                          "    a[4 * i + j] = 1;\n",
                          {"int n", "double *a"});
  EXPECT_FALSE(C.Split.Plan.Narrowable);
  EXPECT_EQ(C.Split.Plan.NoNarrowing,
            "the write 'a[...]' at line 4 is not affine in the parallel iterator");
}

TEST(SplitPlanTest, LoopsCollapsedIntoTheSplitOneSpanTheirBounds) {
  // Each iteration of i runs j over [0, m - 1] (collapse): a[i * m + j] spans that row.
  KernelInfo K = analyzed("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    a[i * m + j] = b[i * m + j] + b[4 * i + j];\n",
                          {"int n", "int m", "double *a", "const double *b"});
  const SplitPlan &P = K.Split.Plan;
  ASSERT_TRUE(P.Narrowable) << P.NoNarrowing;
  ASSERT_EQ(P.Arrays.size(), 1u);
  const AffineWrite &W = P.Arrays[0].Writes.at(0);
  EXPECT_EQ(
      std::tie(W.Coef, W.Scale, W.Least, W.Greatest),
      std::make_tuple(1LL, std::string("(m)"), std::string(""), std::string("(-1LL + 1LL * (m))")));
  ASSERT_EQ(K.Split.Reads.size(), 1u);
  EXPECT_EQ(describeReadExtent(K.Split.Reads[0]),
            "b along dimension 0: [lo * (m), hi * (m)) u [4 * lo, 4 * hi - 4 + (1LL * (m)))");
}

// ---- reads, reductions, fallbacks ------------------------------------------------------------

TEST(SplitPlanTest, ReadArgs) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  a[i] = b[idx[i]] + c[i];\n"
                          "  d[i] += 1;\n"
                          "  if (e[i] > 0) f[i] = 0;\n"
                          "}\n",
                          {"int n", "double *a", "const double *b", "const double *c", "double *d",
                           "const double *e", "double *f", "const int *idx"});
  const SplitPlan &P = K.Split.Plan;
  // b, c (values), idx (an index), d (its own update), e (a condition); not a nor f.
  EXPECT_EQ(P.ReadArgs, (std::set<unsigned>{2, 3, 4, 5, 7}));
  EXPECT_EQ(P.ReadAfterWrite, (std::set<unsigned>{4, 5})) << "d and e, after a[i]";
  EXPECT_EQ(arrayNames(P), (std::vector<std::string>{"a", "d", "f"}));
}

// Reads that may follow a write of the iteration: another pointer into a written array must
// see that write, so the runtime keeps such an array unsplit; reads before every write (a
// statement's own right side) see the values from before the kernel.
TEST(SplitPlanTest, ReadsAfterAWriteOfTheIteration) {
  // (ReadArgs' kernel: d and e are read after a[i] is written.) In a sequential loop that writes,
  // every read may follow the write of an earlier trip.
  KernelInfo L = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double s = p[i];\n"
                          "  for (int j = 0; j < m; j++)\n"
                          "    r[i * m + j] = v[i * m + j] - s;\n"
                          "}\n",
                          {"int n", "int m", "const double *p", "double *r", "const double *v"});
  EXPECT_EQ(L.Split.Plan.ReadAfterWrite, (std::set<unsigned>{4})) << "v, not p";
  // v is read only where its statement writes r: if they are one array, it reads r's element
  // before the store (NPB MG's resid(u, r, r)).
  EXPECT_EQ(L.Split.Plan.ReadsOwnElement, (std::map<unsigned, std::set<unsigned>>{{4, {3}}}));
  KernelInfo Shifted = analyzed("#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  for (int j = 1; j < m; j++)\n"
                                "    r[i * m + j] = v[i * m + j - 1];\n",
                                {"int n", "int m", "double *r", "const double *v"});
  EXPECT_TRUE(Shifted.Split.Plan.ReadsOwnElement.empty()) << "the element an earlier trip wrote";
  // One statement: its reads come before its store.
  KernelInfo O = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  r[i] = v[i] - 2 * u[i];\n",
                          {"int n", "double *r", "const double *v", "const double *u"});
  EXPECT_TRUE(O.Split.Plan.ReadAfterWrite.empty());
}

TEST(SplitPlanTest, ReductionsHaveShareTerms) {
  KernelInfo K = analyzed("#pragma acc parallel loop reduction(+:s)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  s += a[i] * a[i];\n",
                          {"int n", "const double *a", "double s"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_TRUE(P.Splittable);
  EXPECT_TRUE(P.HasShareTerms);
  EXPECT_TRUE(P.Arrays.empty());
  EXPECT_TRUE(P.Narrowable);
  EXPECT_EQ(P.ReadArgs, std::set<unsigned>{1});
  EXPECT_TRUE(K.Split.Enabled) << K.Split.Fallback;

  KernelInfo N = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double s = 0;\n"
                          "  s += a[i];\n"
                          "  b[i] = s;\n"
                          "}\n",
                          {"int n", "const double *a", "double *b"});
  EXPECT_FALSE(N.Split.Plan.HasShareTerms);
}

TEST(SplitPlanTest, ArrayReductionsRunDuplicated) {
  KernelInfo K = analyzed("#pragma acc parallel loop reduction(+:h[j:4])\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  h[j + i % 4] += a[i];\n",
                          {"int n", "int j", "const double *a", "double *h"});
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_EQ(K.Split.Fallback,
            "an array reduction (h[j:4]): every device computes the whole kernel");
}

TEST(SplitPlanTest, KernelsReadingOrWritingRowsOfPointersAreNotSplittable) {
  // Where a row lands is not known (it may even be another argument's array): duplicate mode.
  KernelInfo K = analyzed("#pragma acc parallel loop collapse(2)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  for (int j = 0; j < n; j++)\n"
                          "    c[i][j] = 2 * c[i][j];\n",
                          {"int n", "double **c"});
  EXPECT_FALSE(K.Split.Plan.Splittable);
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_EQ(K.Split.Fallback,
            "a read through a pointer read from 'c' (its rows may be anywhere) (line 4)");
}

TEST(SplitPlanTest, UnattributableWritesAreNotSplittable) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double *p = a + i;\n"
                          "  *p = 1;\n"
                          "  b[i] = 2;\n"
                          "}\n",
                          {"int n", "double *a", "double *b"});
  const SplitPlan &P = K.Split.Plan;
  EXPECT_FALSE(P.Splittable);
  EXPECT_EQ(P.Fallback, "a write through the local pointer 'p' (line 4)");
  EXPECT_FALSE(P.Narrowable);
  EXPECT_EQ(P.NoNarrowing, "the nest is not split");
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_EQ(K.Split.Fallback, P.Fallback);
  EXPECT_TRUE(K.Split.Rewritten.empty());

  KernelInfo C = analyzed("static void set(double *p, int i) { p[i] = 1; }\n"
                          "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) set(a, i);\n",
                          {"int n", "double *a"});
  EXPECT_FALSE(C.Split.Plan.Splittable);
  EXPECT_EQ(C.Split.Plan.Fallback, "a call to 'set' may write through a pointer");
  EXPECT_EQ(C.Split.Fallback, C.Split.Plan.Fallback);
}

// Not reachable from C kernels the frontend accepts (accesses through pointers to pointers are
// not attributed to the argument): a hand-built region writing one argument with one and with two
// subscripts.
TEST(SplitPlanTest, DifferentNumbersOfSubscriptsAreNotSplittable) {
  RegionIR IR;
  IR.Entry = IR.addBlock();
  IR.Exit = IR.addBlock();
  IR.addEdge(IR.Entry, IR.Exit);
  IR.ParallelVars = {"i"};
  IndexExpr I;
  I.Text = "i";
  I.Affine = true;
  I.Coeffs = {{"i", 1}};
  I.Vars = {"i"};
  IRStmt W;
  W.K = IRStmt::Kind::ArrayWrite;
  W.Write.Name = "a";
  W.Write.Arg = 1;
  W.Write.Index = {I, I};
  IR.addStmt(W, IR.Entry);
  W.Write.Index = {I};
  IR.addStmt(W, IR.Entry);
  SplitPlan P = planSplit(IR);
  EXPECT_FALSE(P.Splittable);
  EXPECT_EQ(P.Fallback, "'a' is written with different numbers of subscripts");
  EXPECT_FALSE(P.Narrowable);
  ASSERT_EQ(P.Arrays.size(), 1u);
  EXPECT_EQ(P.Arrays[0].Rank, 2u);
  EXPECT_EQ(P.Arrays[0].Arg, 1u);
}

TEST(SplitPlanTest, NoWrittenArrayNoReductionIsNotSplit) {
  KernelInfo K = analyzed("#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t[2];\n"
                          "  t[0] = a[i];\n"
                          "}\n",
                          {"int n", "const double *a"});
  EXPECT_TRUE(K.Split.Plan.Splittable);
  EXPECT_TRUE(K.Split.Plan.Arrays.empty()); // a local array is not split
  EXPECT_FALSE(K.Split.Enabled);
  EXPECT_EQ(K.Split.Fallback, "the kernel writes no array argument and has no reduction");
}

} // namespace
