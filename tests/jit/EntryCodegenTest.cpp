// Tests of the split entries' code (jit/EntryCodegen.h) run by hand: writes linearized with a
// run-time stride own the rows of the device's iterations, write only the owned elements, and
// run the rows they own whole without their guards.
#include "jit/EntryCodegen.h"
#include "jit/host/HostCodegen.h"
#include "tests/jit/SplitEntryRun.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace jacc;

const char *const FlatCopy = "#pragma acc parallel loop\n"
                             "for (int i = 1; i < r - 1; i++)\n"
                             "  for (int j = 1; j < c - 1; j++)\n"
                             "    a[i * c + j] = b[i * c + j] + 1;\n";

/// Run FlatCopy's split entry as each of N devices, the loop running Rows ascending or
/// descending, a[] mapped as the whole r x c array: each device owns the rows of its share of
/// the iterations, from the first element its first iteration writes (the boundaries follow
/// the iterations, not the mapping, which the writes leave the first and last row of).
void checkRowsOwnedByIterations(const char *Src, bool Ascending) {
  auto K = jit::compileKernel(Src, {"int r", "int c", "double *a", "const double *b"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  ASSERT_TRUE((*K)->Info.Split.Plan.Narrowable) << (*K)->Info.Split.Plan.NoNarrowing;
  int r = 7, c = 5, N = 3;
  const int Size = r * c, Iterations = r - 2;
  std::vector<double> B(Size);
  for (int E = 0; E < Size; ++E)
    B[E] = 10 * E;
  for (int D = 0; D < N; ++D) {
    SCOPED_TRACE("device " + std::to_string(D));
    std::vector<double> A(Size, -1.0);
    double *AP = A.data(), *BP = B.data();
    jacc_test::SplitEntryRun Run =
        jacc_test::runSplitEntry(**K, {&r, &c, &AP, &BP}, Size * 8LL, D, N, false);
    long long K0 = Iterations * D / N, K1 = Iterations * (D + 1) / N;
    // Iteration k writes row 1 + k (ascending) or r - 2 - k (descending).
    auto RowOf = [&](long long It) { return Ascending ? 1 + It : r - 2 - It; };
    for (int I = 1; I < r - 1; ++I)
      for (int J = 1; J < c - 1; ++J) {
        long long E = I * c + J;
        bool Mine = false;
        for (long long It = K0; It < K1; ++It)
          Mine |= RowOf(It) == I;
        EXPECT_EQ(A[E], Mine ? B[E] + 1 : -1.0) << "element " << E;
      }
    EXPECT_EQ(Run.SplitInfo[6], K0);
    EXPECT_EQ(Run.SplitInfo[7], K1);
    // The owned range: from the first element of the lowest row to before the next device's.
    long long Low = Ascending ? RowOf(K0) * c + 1 : RowOf(K1) * c + c - 2 + 1;
    long long High = Ascending ? RowOf(K1) * c + 1 - 1 : RowOf(K0) * c + c - 2;
    bool First = D == 0, Last = D == N - 1;
    EXPECT_EQ(Run.SplitInfo[0], (Ascending ? First : Last) ? 0 : Low);
    EXPECT_EQ(Run.SplitInfo[1], (Ascending ? Last : First) ? Size - 1 : High);
  }
}

TEST(EntryCodegenTest, LinearizedWritesOwnTheRowsOfTheDevicesIterations) {
  checkRowsOwnedByIterations(FlatCopy, true);
  checkRowsOwnedByIterations("#pragma acc parallel loop\n"
                             "for (int i = r - 2; i >= 1; i--)\n"
                             "  for (int j = 1; j < c - 1; j++)\n"
                             "    a[i * c + j] = b[i * c + j] + 1;\n",
                             false);
}

TEST(EntryCodegenTest, RowsOwnedWholeRunWithoutGuards) {
  auto K = jit::compileKernel(FlatCopy, {"int r", "int c", "double *a", "const double *b"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  std::string Split = jit::generateHostSource((*K)->Info, true);
  // The body twice: unguarded for the iterations whose writes the device owns whole, guarded
  // for the others.
  size_t Whole = Split.find("if (a__whole) {");
  ASSERT_NE(Whole, std::string::npos) << Split;
  size_t Else = Split.find("} else {", Whole);
  ASSERT_NE(Else, std::string::npos) << Split;
  EXPECT_NE(Split.find("a[i * c + j] = b[i * c + j] + 1;", Whole), std::string::npos);
  EXPECT_LT(Split.find("a[i * c + j] = b[i * c + j] + 1;", Whole), Else);
  EXPECT_NE(Split.find("a__lb <= (long long)(i * c + j)", Else), std::string::npos);
  // A reduction counts the device's share of the iterations: its body keeps its guards.
  auto R = jit::compileKernel("#pragma acc parallel loop reduction(+:s)\n"
                              "for (int i = 1; i < r - 1; i++)\n"
                              "  for (int j = 1; j < c - 1; j++) {\n"
                              "    a[i * c + j] = b[i * c + j] + 1;\n"
                              "    s += b[i * c + j];\n"
                              "  }\n",
                              {"int r", "int c", "double *a", "const double *b", "double s"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(jit::generateHostSource((*R)->Info, true).find("if (a__whole)"), std::string::npos);
}

} // namespace
