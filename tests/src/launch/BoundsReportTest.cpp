// Tests of the bounds block's violation record as the push's error: an access outside its
// mapping, and a write outside the device's owned range in a split launch (a jacc bug, said so).
#include "src/launch/BoundsReport.h"

#include "jit/host/HostABI.h"

#include <gtest/gtest.h>

namespace {

using namespace jacc;

/// A kernel of int n (parameter 0) and int *y (parameter 1).
analysis::KernelInfo kernelOfY() {
  analysis::KernelInfo K;
  K.Args.resize(2);
  K.Args[0].Name = "n";
  K.Args[0].Param = 0;
  K.Args[1].Name = "y";
  K.Args[1].Param = 1;
  K.Args[1].ArgKind = analysis::ArgInfo::Kind::Pointer;
  K.Args[1].PointeeSize = 4;
  return K;
}

/// The block after a violation of y at element Index: How, [Lb, Ub] and y's mapping [0, 1024).
std::vector<long long> blockWith(long long How, long long Index, long long Lb = 0,
                                 long long Ub = 0) {
  analysis::KernelInfo K = kernelOfY();
  std::vector<long long> B = boundsBlock(K, {0, 0, 0, 4096});
  long long Record[] = {2, 4, 7, 1, How, Index * 4, 4, Lb, Ub};
  std::copy(std::begin(Record), std::end(Record), B.begin());
  return B;
}

std::string message(llvm::Error E) {
  std::string M;
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &I) { M = I.message(); });
  return M;
}

TEST(BoundsReportTest, NoRecordIsNoError) {
  analysis::KernelInfo K = kernelOfY();
  EXPECT_FALSE(bool(boundsViolation(K, boundsBlock(K, {0, 0, 0, 4096}), 0)));
}

TEST(BoundsReportTest, AnAccessOutsideItsMapping) {
  analysis::KernelInfo K = kernelOfY();
  EXPECT_EQ(message(boundsViolation(K, blockWith(1 | 1 << 1, 1030), 2)),
            "kernel:4:7: write y[1030] outside its mapping [0, 1024) on device 2");
  EXPECT_EQ(message(boundsViolation(K, blockWith(1 << 1, -1), 0)),
            "kernel:4:7: read y[-1] outside its mapping [0, 1024) on device 0");
}

TEST(BoundsReportTest, AKernelJacccWroteIsReportedAtTheUsersFileAndLine) {
  // The record's line is the one clang numbered through the site's #line (KernelSource).
  analysis::KernelInfo K = kernelOfY();
  K.Source = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) y[i + 1] = 0;\n"
             "// jacc-site: src/heat.c:2\n";
  EXPECT_EQ(message(boundsViolation(K, blockWith(1 | 1 << 1, 1030), 0)),
            "src/heat.c:4:7: write y[1030] outside its mapping [0, 1024) on device 0");
}

TEST(BoundsReportTest, AWriteOutsideTheOwnedRangeIsAJaccBug) {
  analysis::KernelInfo K = kernelOfY();
  const char *Bug = " in a split launch: the split predicates failed to filter it; this is a "
                    "jacc bug, please report it (JACC_SPLIT=never avoids it)";
  EXPECT_EQ(message(boundsViolation(K, blockWith(1 | 1 << 1 | JACC_BOUNDS_OWNED, 600, 512, 1023),
                                    1)),
            std::string("kernel:4:7: write y[600] outside device 1's owned range [512, 1024) of "
                        "y") + Bug);
}

TEST(BoundsReportTest, AColumnSplitWritePastItsRowNamesTheDimension) {
  // A column split of a[i][j]: the widened guards of the first and last devices let a subscript
  // past the row through; the record holds the dimension's range.
  analysis::KernelInfo K = kernelOfY();
  long long Column = 1 | 2 << 1 | JACC_BOUNDS_OWNED | 1 * JACC_BOUNDS_OWNED * 2;
  EXPECT_EQ(message(boundsViolation(K, blockWith(Column, 40, 0, 9), 1)),
            "kernel:4:7: write element 40 of y on device 1: its subscript of dimension 1 of y is "
            "outside [0, 10); on one device it would land in a neighbouring row, a launch split "
            "along that dimension cannot write it (keep the subscript in its dimension, or "
            "JACC_SPLIT=never runs the kernel on one device)");
}

} // namespace
