// Tests of CUDA's atomic operations: each form of `#pragma acc atomic` printed with jacc's CUDA
// helpers, the entry's edits applied inside each part (and only there), by hand-made
// descriptions and through the frontend.
#include "jit/cuda/CudaAtomics.h"

#include "analysis/Frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;
using namespace jacc::jit;

namespace {

/// A kernel whose source is Src, with the CUDA source edits Edits.
KernelInfo kernelOf(const std::string &Src, std::vector<SourceEdit> Edits = {}) {
  KernelInfo K;
  K.Source = Src;
  K.FlatVla.Edits = std::move(Edits);
  return K;
}

/// A's text with the kernel's flattened subscripts inside its parts (what the entry passes).
std::string cudaText(const AtomicOp &A, const KernelInfo &K) {
  jacc::TextEdits Parts;
  for (const SourceEdit &E : K.FlatVla.Edits)
    Parts.replace(E.Begin, E.End, E.Text);
  return cudaAtomicText(A, K, Parts);
}

/// The span of the first Part in Src.
SourceSpan at(const std::string &Src, const std::string &Part) {
  size_t B = Src.find(Part);
  EXPECT_NE(B, std::string::npos) << Part;
  return {static_cast<unsigned>(B), static_cast<unsigned>(B + Part.size())};
}

/// An update of X (Op and Operand for Change::Operator) in the kernel source Src.
AtomicOp update(const std::string &Src, const std::string &X, AtomicOp::Change How, bool IntegerAdd,
                const std::string &Op = "", const std::string &Operand = "") {
  AtomicOp A;
  A.X = at(Src, X);
  A.How = How;
  A.IntegerAdd = IntegerAdd;
  A.Op = Op;
  if (!Operand.empty())
    A.Operand = at(Src, Operand);
  return A;
}

TEST(CudaAtomicsTest, IntegerAdditionsAreAtomicAdds) {
  std::string Src = "h[k]++; h[j] -= n + 1;";
  KernelInfo K = kernelOf(Src);
  EXPECT_EQ(cudaText(update(Src, "h[k]", AtomicOp::Change::Increment, true), K),
            "__jacc_atomic_add(&(h[k]), 1)");
  EXPECT_EQ(cudaText(update(Src, "h[k]", AtomicOp::Change::Decrement, true), K),
            "__jacc_atomic_add(&(h[k]), -1)");
  EXPECT_EQ(cudaText(update(Src, "h[j]", AtomicOp::Change::Operator, true, "-", "n + 1"), K),
            "__jacc_atomic_add(&(h[j]), -(n + 1))");
  EXPECT_EQ(cudaText(update(Src, "h[j]", AtomicOp::Change::Operator, true, "+", "n + 1"), K),
            "__jacc_atomic_add(&(h[j]), (n + 1))");
}

TEST(CudaAtomicsTest, OtherUpdatesAreReadModifyWrites) {
  std::string Src = "d[0]++; d[1] = 0.5 * d[1];";
  KernelInfo K = kernelOf(Src);
  EXPECT_EQ(cudaText(update(Src, "d[0]", AtomicOp::Change::Increment, false), K),
            "__jacc_atomic_rmw(&(d[0]), [&](auto __jacc_o) { return __jacc_o + 1; }, false)");
  EXPECT_EQ(cudaText(update(Src, "d[0]", AtomicOp::Change::Decrement, false), K),
            "__jacc_atomic_rmw(&(d[0]), [&](auto __jacc_o) { return __jacc_o - 1; }, false)");
  AtomicOp A = update(Src, "d[1]", AtomicOp::Change::Operator, false, "*", "0.5");
  A.OldOnLeft = false;
  EXPECT_EQ(cudaText(A, K),
            "__jacc_atomic_rmw(&(d[1]), [&](auto __jacc_o) { return (0.5) * __jacc_o; }, false)");
  A.OldOnLeft = true;
  EXPECT_EQ(cudaText(A, K),
            "__jacc_atomic_rmw(&(d[1]), [&](auto __jacc_o) { return __jacc_o * (0.5); }, false)");
}

TEST(CudaAtomicsTest, ReadWriteAndCapture) {
  std::string Src = "v = a[j]; a[j] = v * 2; w = c[1]--;";
  KernelInfo K = kernelOf(Src);
  AtomicOp R;
  R.Kind = AtomicOp::Form::Read;
  R.V = at(Src, "v");
  R.X = at(Src, "a[j]");
  EXPECT_EQ(cudaText(R, K), "v = __jacc_atomic_load(&(a[j]))");
  AtomicOp W;
  W.Kind = AtomicOp::Form::Write;
  W.X = at(Src, "a[j]");
  W.Operand = at(Src, "v * 2");
  EXPECT_EQ(cudaText(W, K), "__jacc_atomic_store(&(a[j]), (v * 2))");
  AtomicOp C = update(Src, "c[1]", AtomicOp::Change::Decrement, true);
  C.Kind = AtomicOp::Form::Capture;
  C.V = at(Src, "w");
  C.Post = true;
  EXPECT_EQ(cudaText(C, K),
            "w = __jacc_atomic_rmw(&(c[1]), [&](auto __jacc_o) { return __jacc_o - 1; }, true)");
  C.Post = false;
  EXPECT_EQ(cudaText(C, K),
            "w = __jacc_atomic_rmw(&(c[1]), [&](auto __jacc_o) { return __jacc_o - 1; }, false)");
}

TEST(CudaAtomicsTest, CaptureWithWriteReturnsTheOperand) {
  std::string Src = "{ v = h[i]; h[i] = n - i; }";
  KernelInfo K = kernelOf(Src);
  AtomicOp A = update(Src, "h[i]", AtomicOp::Change::Replace, false, "", "n - i");
  A.Kind = AtomicOp::Form::Capture;
  A.V = at(Src, "v");
  A.Post = true;
  EXPECT_EQ(cudaText(A, K),
            "v = __jacc_atomic_rmw(&(h[i]), [&](auto __jacc_o) { return (n - i); }, true)");
}

TEST(CudaAtomicsTest, EditsApplyInsideEachPartOnly) {
  //                 0123456789012345678901234
  std::string Src = "b[i][j] += b[0][1]; q[i][0]";
  // Flatten b[i] (x) and b[0] (the operand); an edit of q, outside the atomic, stays out.
  KernelInfo K = kernelOf(Src, {{0, 0, "("},
                                {1, 2, " + ("},
                                {3, 4, ") * s)"},
                                {11, 11, "("},
                                {12, 13, " + ("},
                                {14, 15, ") * s)"},
                                {20, 21, "Q"}});
  EXPECT_EQ(cudaText(update(Src, "b[i][j]", AtomicOp::Change::Operator, false, "+", "b[0][1]"), K),
            "__jacc_atomic_rmw(&((b + (i) * s)[j]), [&](auto __jacc_o) { return __jacc_o + "
            "((b + (0) * s)[1]); }, false)");
}

TEST(CudaAtomicsTest, TheFrontendsDescriptionsPrintWithTheirEdits) {
  auto K = analyzeKernel("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  double v;\n"
                         "  #pragma acc atomic\n"
                         "  h[i % 2][x[i] % m]++;\n"
                         "  #pragma acc atomic capture\n"
                         "  v = h[1][0] *= h[0][1];\n"
                         "  #pragma acc atomic write\n"
                         "  h[0][0] = v;\n"
                         "}\n",
                         {"int n", "int m", "double (*h)[m]", "const int *x"});
  ASSERT_TRUE(static_cast<bool>(K)) << llvm::toString(K.takeError());
  ASSERT_EQ(K->Atomics.size(), 3u);
  EXPECT_EQ(cudaText(K->Atomics[0], *K),
            "__jacc_atomic_rmw(&((h + (i % 2) * __jacc_vla_h_s1)[x[i] % m]), [&](auto __jacc_o) "
            "{ return __jacc_o + 1; }, false)");
  EXPECT_EQ(cudaText(K->Atomics[1], *K),
            "v = __jacc_atomic_rmw(&((h + (1) * __jacc_vla_h_s1)[0]), [&](auto __jacc_o) { return "
            "__jacc_o * ((h + (0) * __jacc_vla_h_s1)[1]); }, false)");
  EXPECT_EQ(cudaText(K->Atomics[2], *K),
            "__jacc_atomic_store(&((h + (0) * __jacc_vla_h_s1)[0]), (v))");
}

} // namespace
