// Tests of the split entries' code (jit/EntryCodegen.h) run by hand: writes linearized with a
// run-time stride narrow to the rows a device owns a part of, write only the owned elements,
// and run the rows they own whole without their guards.
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

TEST(EntryCodegenTest, LinearizedWritesRunTheRowsADeviceOwnsAPartOf) {
  auto K = jit::compileKernel(FlatCopy, {"int r", "int c", "double *a", "const double *b"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  ASSERT_TRUE((*K)->Info.Split.Plan.Narrowable) << (*K)->Info.Split.Plan.NoNarrowing;
  int r = 7, c = 5, N = 3;
  const int Size = r * c;
  std::vector<double> B(Size);
  for (int E = 0; E < Size; ++E)
    B[E] = 10 * E;
  for (int D = 0; D < N; ++D) {
    SCOPED_TRACE("device " + std::to_string(D));
    std::vector<double> A(Size, -1.0);
    double *AP = A.data(), *BP = B.data();
    jacc_test::SplitEntryRun Run =
        jacc_test::runSplitEntry(**K, {&r, &c, &AP, &BP}, Size * 8LL, D, N, false);
    // The owned elements [35 D / 3, 35 (D + 1) / 3): rows cross the devices' boundaries.
    long long Lb = Size * D / N, Ub = Size * (D + 1) / N - 1;
    long long FirstRow = r, LastRow = 0;
    for (int I = 1; I < r - 1; ++I)
      for (int J = 1; J < c - 1; ++J) {
        long long E = I * c + J;
        bool Owned = E >= Lb && E <= Ub;
        EXPECT_EQ(A[E], Owned ? B[E] + 1 : -1.0) << "element " << E;
        if (Owned)
          FirstRow = std::min<long long>(FirstRow, I), LastRow = std::max<long long>(LastRow, I);
      }
    // The device's iterations [db, de) of i = 1 + k: the rows that write an owned element.
    EXPECT_EQ(Run.SplitInfo[6], FirstRow - 1);
    EXPECT_EQ(Run.SplitInfo[7], LastRow);
  }
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
