// Tests of accumulatesFloats: which parallel nests update a floating-point scalar by a computed
// value of its own (a reduction, a sum over an inner loop) and which do not.
#include "analysis/Accumulations.h"
#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

/// One of the two predicates, and the field the pipeline records it in.
struct Predicate {
  bool (*Of)(const ParallelNest &);
  bool ParallelNest::*Recorded;
};
constexpr Predicate Accumulates{accumulatesFloats, &ParallelNest::AccumulatesFloats};
constexpr Predicate SumsAlong{sumsAlongInnerLoop, &ParallelNest::SumsAlongInnerLoop};

/// P of each parallel nest of the kernel.
std::vector<bool> of(Predicate P, const std::string &Src, const std::vector<std::string> &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  std::vector<bool> R;
  for (const ParallelNest &N : K->Nests) {
    EXPECT_EQ(N.*P.Recorded, P.Of(N)) << "the pipeline records it";
    R.push_back(N.*P.Recorded);
  }
  return R;
}

/// accumulatesFloats of each parallel nest of the kernel.
std::vector<bool> accumulates(const std::string &Src, const std::vector<std::string> &Decls) {
  return of(Accumulates, Src, Decls);
}

TEST(AccumulationsTest, ReductionsAndInnerSumsOfProducts) {
  EXPECT_EQ(accumulates("#pragma acc parallel loop reduction(+:d)\n"
                        "for (int i = 0; i < n; i++) d += a[i] * b[i];\n",
                        {"int n", "const double *a", "const double *b", "double d"}),
            std::vector<bool>{true});
  EXPECT_EQ(accumulates("#pragma acc parallel loop collapse(2)\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  for (int j = 0; j < n; j++) {\n"
                        "    float s = 0;\n"
                        "    for (int k = 0; k < n; k++) s = s + a[i][k] * b[k][j];\n"
                        "    c[i][j] = s;\n"
                        "  }\n",
                        {"int n", "const float (*a)[n]", "const float (*b)[n]",
                         "float (*c)[n]"}),
            std::vector<bool>{true});
}

TEST(AccumulationsTest, NoChainOfComputedUpdates) {
  EXPECT_EQ(accumulates("#pragma acc parallel\n"
                        "{\n"
                        "  #pragma acc loop\n" // a multiply-add that is no chain
                        "  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n"
                        "  #pragma acc loop reduction(+:d)\n" // a plain sum: nothing to fuse
                        "  for (int i = 0; i < n; i++) d += x[i];\n"
                        "  #pragma acc loop reduction(+:m)\n" // integers
                        "  for (int i = 0; i < n; i++) m += idx[i] * 3;\n"
                        "  #pragma acc loop\n" // a local computed once per iteration
                        "  for (int i = 0; i < n; i++) { double t = x[i] * 2; y[i] = t + 1; }\n"
                        "}\n",
                        {"int n", "double a", "const double *x", "double *y", "double d",
                         "const int *idx", "int m"}),
            (std::vector<bool>{false, false, false, false}));
}

TEST(AccumulationsTest, ShortInnerLoopsMakeNoLongChain) {
  // A CSR row (trip count read from an array), a 5-element block, and the same with 16.
  EXPECT_EQ(accumulates("#pragma acc parallel\n"
                        "{\n"
                        "  #pragma acc loop\n"
                        "  for (int i = 0; i < n; i++) {\n"
                        "    double s = 0;\n"
                        "    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += v[k] * x[k];\n"
                        "    y[i] = s;\n"
                        "  }\n"
                        "  #pragma acc loop\n"
                        "  for (int i = 0; i < n; i++) {\n"
                        "    double s = 0;\n"
                        "    for (int k = 0; k < 5; k++) s += v[5 * i + k] * x[k];\n"
                        "    y[i] = s;\n"
                        "  }\n"
                        "  #pragma acc loop\n"
                        "  for (int i = 0; i < n; i++) {\n"
                        "    double s = 0;\n"
                        "    for (int k = 1; k <= 16; k++) s += v[16 * i + k] * x[k];\n"
                        "    y[i] = s;\n"
                        "  }\n"
                        "}\n",
                        {"int n", "const int *rowptr", "const double *v", "const double *x",
                         "double *y"}),
            (std::vector<bool>{false, false, true}));
}

const char *DenseProduct = "#pragma acc parallel loop collapse(2)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  for (int j = 0; j < n; j++) {\n"
                           "    double s = 0;\n"
                           "    for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];\n"
                           "    c[i][j] = s;\n"
                           "  }\n";
const std::vector<std::string> DenseDecls = {"int n", "const double (*a)[n]",
                                             "const double (*b)[n]", "double (*c)[n]"};

TEST(AccumulationsTest, SumsAlongAnInnerLoopButNotAsAReduction) {
  EXPECT_EQ(of(SumsAlong, DenseProduct, DenseDecls), std::vector<bool>{true});
  // The dense matrix-vector product: one parallel loop, the sum over the row inside.
  EXPECT_EQ(of(SumsAlong,
               "#pragma acc parallel loop\n"
               "for (int i = 0; i < n; i++) {\n"
               "  double s = 0;\n"
               "  for (int j = 0; j < n; j++) s += a[i][j] * x[j];\n"
               "  y[i] = s;\n"
               "}\n",
               {"int n", "const double (*a)[n]", "const double *x", "double *y"}),
            std::vector<bool>{true});
  // A reduction's chain is the nest's own loop: nothing inside to jam; a CSR row is short.
  EXPECT_EQ(of(SumsAlong,
               "#pragma acc parallel\n"
               "{\n"
               "  #pragma acc loop reduction(+:d)\n"
               "  for (int i = 0; i < n; i++) d += a[i] * b[i];\n"
               "  #pragma acc loop\n"
               "  for (int i = 0; i < n; i++) {\n"
               "    double s = 0;\n"
               "    for (int k = rp[i]; k < rp[i + 1]; k++) s += a[k] * b[k];\n"
               "    y[i] = s;\n"
               "  }\n"
               "  #pragma acc loop\n" // a long inner loop without a chain
               "  for (int i = 0; i < n; i++)\n"
               "    for (int k = 0; k < n; k++) y[i * n + k] = a[k] * b[i];\n"
               "}\n",
               {"int n", "const double *a", "const double *b", "double d", "const int *rp",
                "double *y"}),
            (std::vector<bool>{false, false, false}));
}

} // namespace
