// Tests of the host's atomic operations: each form of `#pragma acc atomic` (update by ++, --, an
// integer addition or any operator on either side, read, write, capture of the old or new value)
// printed as GNU C with the __atomic builtins, by hand-made descriptions and through the frontend.
#include "jit/host/HostAtomics.h"

#include "analysis/Frontend.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc::analysis;
using namespace jacc::jit;

namespace {

/// A kernel whose source is Src, for its atomics' spans.
KernelInfo kernelOf(const std::string &Src) {
  KernelInfo K;
  K.Source = Src;
  return K;
}

/// The span of the first Part in K.Source at or after From.
SourceSpan at(const KernelInfo &K, const std::string &Part, size_t From = 0) {
  size_t B = K.Source.find(Part, From);
  EXPECT_NE(B, std::string::npos) << Part;
  return {static_cast<unsigned>(B), static_cast<unsigned>(B + Part.size())};
}

/// A's text with its parts as written.
std::string hostText(const AtomicOp &A, const KernelInfo &K) {
  return hostAtomicText(A, K, jacc::TextEdits());
}

/// The compare-and-swap loop on X computing New, valued Result.
std::string cas(const std::string &X, const std::string &New, const std::string &Result) {
  return "({ __typeof__(" + X + ") *__jacc_p = &(" + X + "); __typeof__(" + X +
         ") __jacc_o, __jacc_n; __atomic_load(__jacc_p, &__jacc_o, __ATOMIC_RELAXED); do { "
         "__jacc_n = " +
         New +
         "; } while (!__atomic_compare_exchange(__jacc_p, &__jacc_o, "
         "&__jacc_n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); " +
         Result + "; })";
}

AtomicOp update(const KernelInfo &K, const std::string &X, AtomicOp::Change How, bool IntegerAdd) {
  AtomicOp A;
  A.Kind = AtomicOp::Form::Update;
  A.X = at(K, X);
  A.How = How;
  A.IntegerAdd = IntegerAdd;
  return A;
}

TEST(HostAtomicsTest, IntegerIncrementAndDecrementAreFetchAdds) {
  KernelInfo K = kernelOf("h[k % 8]++;");
  EXPECT_EQ(hostText(update(K, "h[k % 8]", AtomicOp::Change::Increment, true), K),
            "({ __atomic_fetch_add(&(h[k % 8]), 1, __ATOMIC_RELAXED); 0; })");
  EXPECT_EQ(hostText(update(K, "h[k % 8]", AtomicOp::Change::Decrement, true), K),
            "({ __atomic_fetch_add(&(h[k % 8]), -1, __ATOMIC_RELAXED); 0; })");
}

TEST(HostAtomicsTest, FloatingIncrementAndDecrementAreCompareAndSwap) {
  KernelInfo K = kernelOf("--d[0];");
  EXPECT_EQ(hostText(update(K, "d[0]", AtomicOp::Change::Decrement, false), K),
            cas("d[0]", "__jacc_o - 1", "0"));
  EXPECT_EQ(hostText(update(K, "d[0]", AtomicOp::Change::Increment, false), K),
            cas("d[0]", "__jacc_o + 1", "0"));
}

TEST(HostAtomicsTest, IntegerAddAndSubtractAddTheOperand) {
  KernelInfo K = kernelOf("h[i] -= n * 2;");
  AtomicOp A = update(K, "h[i]", AtomicOp::Change::Operator, true);
  A.Op = "-";
  A.Operand = at(K, "n * 2");
  EXPECT_EQ(hostText(A, K), "({ __atomic_fetch_add(&(h[i]), -(n * 2), __ATOMIC_RELAXED); 0; })");
  A.Op = "+";
  EXPECT_EQ(hostText(A, K), "({ __atomic_fetch_add(&(h[i]), (n * 2), __ATOMIC_RELAXED); 0; })");
}

TEST(HostAtomicsTest, OtherOperatorsOnEitherSide) {
  KernelInfo K = kernelOf("x[0] = 2.0 / x[0];");
  AtomicOp A = update(K, "x[0]", AtomicOp::Change::Operator, false);
  A.Op = "/";
  A.Operand = at(K, "2.0");
  A.OldOnLeft = false;
  EXPECT_EQ(hostText(A, K), cas("x[0]", "(2.0) / __jacc_o", "0"));
  A.OldOnLeft = true;
  EXPECT_EQ(hostText(A, K), cas("x[0]", "__jacc_o / (2.0)", "0"));
}

TEST(HostAtomicsTest, ReadAndWrite) {
  KernelInfo K = kernelOf("v = a[j];");
  AtomicOp R;
  R.Kind = AtomicOp::Form::Read;
  R.V = at(K, "v");
  R.X = at(K, "a[j]");
  EXPECT_EQ(hostText(R, K), "v = ({ __typeof__(a[j]) __jacc_v; __atomic_load(&(a[j]), "
                            "&__jacc_v, __ATOMIC_RELAXED); __jacc_v; })");
  KernelInfo L = kernelOf("a[j] = v * 2;");
  AtomicOp W;
  W.Kind = AtomicOp::Form::Write;
  W.X = at(L, "a[j]");
  W.Operand = at(L, "v * 2");
  EXPECT_EQ(hostText(W, L), "({ __typeof__(a[j]) __jacc_v = (v * 2); __atomic_store("
                            "&(a[j]), &__jacc_v, __ATOMIC_RELAXED); 0; })");
}

TEST(HostAtomicsTest, CaptureTheOldOrTheNewValue) {
  KernelInfo K = kernelOf("v = c[1]++;");
  AtomicOp A = update(K, "c[1]", AtomicOp::Change::Increment, true);
  A.Kind = AtomicOp::Form::Capture;
  A.V = at(K, "v");
  A.Post = true;
  EXPECT_EQ(hostText(A, K), "v = " + cas("c[1]", "__jacc_o + 1", "__jacc_o"));
  A.Post = false;
  EXPECT_EQ(hostText(A, K), "v = " + cas("c[1]", "__jacc_o + 1", "__jacc_n"));
  KernelInfo L = kernelOf("w = c[1] = c[1] << s;");
  AtomicOp B = update(L, "c[1]", AtomicOp::Change::Operator, false);
  B.Kind = AtomicOp::Form::Capture;
  B.V = at(L, "w");
  B.Op = "<<";
  B.Operand = at(L, "s");
  EXPECT_EQ(hostText(B, L), "w = " + cas("c[1]", "__jacc_o << (s)", "__jacc_n"));
}

TEST(HostAtomicsTest, CaptureWithWriteIsAnExchange) {
  KernelInfo K = kernelOf("{ v = h[i]; h[i] = n - i; }");
  AtomicOp A;
  A.Kind = AtomicOp::Form::Capture;
  A.How = AtomicOp::Change::Replace;
  A.V = at(K, "v");
  A.X = at(K, "h[i]");
  A.Operand = at(K, "n - i");
  A.Post = true;
  EXPECT_EQ(hostText(A, K), "v = ({ __typeof__(h[i]) __jacc_n = (n - i), __jacc_o; "
                            "__atomic_exchange(&(h[i]), &__jacc_n, &__jacc_o, "
                            "__ATOMIC_RELAXED); __jacc_o; })");
}

TEST(HostAtomicsTest, StructuredCapturesPrintAsOneCapture) {
  auto K = analyzeKernel("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  int v;\n"
                         "  #pragma acc atomic capture\n"
                         "  { v = h[i % 8]; h[i % 8] -= 3; }\n"
                         "  #pragma acc atomic capture\n"
                         "  { d[0] = 2.0 * d[0]; c[i] = d[0]; }\n"
                         "  c[i] += v;\n"
                         "}\n",
                         {"int n", "int *h", "double *d", "double *c"});
  ASSERT_TRUE(static_cast<bool>(K)) << llvm::toString(K.takeError());
  ASSERT_EQ(K->Atomics.size(), 2u);
  EXPECT_EQ(hostText(K->Atomics[0], *K), "v = " + cas("h[i % 8]", "__jacc_o - (3)", "__jacc_o"));
  EXPECT_EQ(hostText(K->Atomics[1], *K), "c[i] = " + cas("d[0]", "(2.0) * __jacc_o", "__jacc_n"));
}

TEST(HostAtomicsTest, TheFrontendsDescriptionsPrintAsWritten) {
  auto K = analyzeKernel("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  int v;\n"
                         "  #pragma acc atomic\n"
                         "  h[i % 8] += 2;\n"
                         "  #pragma acc atomic update\n"
                         "  d[i % 4] = 1.5 * d[i % 4];\n"
                         "  #pragma acc atomic capture\n"
                         "  v = --h[0];\n"
                         "  #pragma acc atomic read\n"
                         "  v = h[1];\n"
                         "  #pragma acc atomic write\n"
                         "  d[2] = v + 1.0;\n"
                         "}\n",
                         {"int n", "int *h", "double *d"});
  ASSERT_TRUE(static_cast<bool>(K)) << llvm::toString(K.takeError());
  ASSERT_EQ(K->Atomics.size(), 5u);
  std::vector<std::string> Texts;
  for (const AtomicOp &A : K->Atomics)
    Texts.push_back(hostText(A, *K));
  EXPECT_EQ(Texts[0], "({ __atomic_fetch_add(&(h[i % 8]), (2), __ATOMIC_RELAXED); 0; })");
  EXPECT_EQ(Texts[1], cas("d[i % 4]", "(1.5) * __jacc_o", "0"));
  EXPECT_EQ(Texts[2], "v = " + cas("h[0]", "__jacc_o - 1", "__jacc_n"));
  EXPECT_EQ(Texts[3], "v = ({ __typeof__(h[1]) __jacc_v; __atomic_load(&(h[1]), &__jacc_v, "
                      "__ATOMIC_RELAXED); __jacc_v; })");
  EXPECT_EQ(Texts[4], "({ __typeof__(d[2]) __jacc_v = (v + 1.0); __atomic_store(&(d[2]), "
                      "&__jacc_v, __ATOMIC_RELAXED); 0; })");
}

} // namespace
