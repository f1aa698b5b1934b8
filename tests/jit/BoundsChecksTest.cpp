// Tests of JACC_CHECK=bounds code generation: off, the entry is exactly the unchecked one; on,
// every site is wrapped (inside split guards, around flattened VLA subscripts, inside the parts of
// atomics), each iteration can stop, and the result compiles for the host and for CUDA.
#include "jit/BoundsChecks.h"

#include "jit/CompiledKernel.h"
#include "jit/cache/KernelStore.h"
#include "jit/host/HostCodegen.h"
#include "jit/EntryCodegen.h"
#include "jit/host/CallInterface.h"
#include "jit/host/HostABI.h"
#include "jit/host/HostCompiler.h"
#include "jit/host/HostJIT.h"
#include "tests/jit/cuda/CudaCheck.h"

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace jacc;
using namespace jacc::jit;

using Strings = std::vector<std::string>;

const char *const Stencil = "#pragma acc parallel loop present(x, y)\n"
                            "for (int i = 1; i < n - 1; i++)\n"
                            "  y[i] = x[i - 1] + x[i] + x[i + 1];\n";
const Strings StencilDecls = {"int n", "float *y", "const float *x"};

void expectHostCompiles(const std::string &Code) {
  auto Obj = compileHostObjectInProcess(Code);
  if (!Obj)
    ADD_FAILURE() << llvm::toString(Obj.takeError()) << "\n--- generated source:\n" << Code;
}

/// K checked: host (plain and split entries) and CUDA code compile; the host source returned.
std::string checkedHostSource(analysis::KernelInfo K) {
  K.CheckBounds = true;
  expectKernelCompilesForCuda(K);
  if (K.Split.Enabled)
    expectHostCompiles(generateHostSource(K, /*Split=*/true));
  std::string C = generateHostSource(K);
  expectHostCompiles(C);
  return C;
}

TEST(BoundsChecksTest, OffTheEntryIsTheUncheckedOne) {
  analysis::KernelInfo K = analyzeOrFail(Stencil, StencilDecls);
  ASSERT_EQ(K.BoundsSites.size(), 4u);
  std::string Off = generateHostSource(K);
  analysis::KernelInfo NoSites = K;
  NoSites.BoundsSites.clear();
  EXPECT_EQ(Off, generateHostSource(NoSites));
  EXPECT_EQ(Off.find("__jacc_bcheck"), std::string::npos);
  EXPECT_EQ(Off.find("bounds)"), std::string::npos);
  auto Cuda = generateCudaSource(K, false);
  ASSERT_TRUE(bool(Cuda));
  EXPECT_EQ(Cuda->Source.find("__jacc_bcheck"), std::string::npos);
}

TEST(BoundsChecksTest, EverySiteIsWrappedAndIterationsStop) {
  std::string C = checkedHostSource(analyzeOrFail(Stencil, StencilDecls));
  // One call per site, with its parameter, line, column and write bit.
  EXPECT_EQ(count(C, "))__jacc_bcheck(__jacc_t, __jacc_bp"), 4u) << C;
  EXPECT_NE(C.find("= &(y[i]); (__typeof__(__jacc_bp0))__jacc_bcheck(__jacc_t, __jacc_bp0, y, "
                   "sizeof *__jacc_bp0, 1, 3, 3, 3); }))"),
            std::string::npos)
      << C;
  EXPECT_NE(C.find("x, sizeof *__jacc_bp1, 2, 3, 10, 2); }))"), std::string::npos) << C;
  EXPECT_EQ(count(C, "if (*(volatile long long *)__jacc_t->bounds) break;"), 1u) << C;
}

TEST(BoundsChecksTest, CudaWrapsEverySiteInItsTemplateCheck) {
  analysis::KernelInfo K = analyzeOrFail(Stencil, StencilDecls);
  K.CheckBounds = true;
  auto S = generateCudaSource(K, false);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_NE(S->Source.find("(*__jacc_bcheck(__jacc_t, &(y[i]), (const void *)y, 1, 3, 3, 3))"),
            std::string::npos)
      << S->Source;
  EXPECT_EQ(count(S->Source, "(*__jacc_bcheck(__jacc_t, &("), 4u);
  EXPECT_NE(S->Source.find("__jacc_team.reduction, __jacc_team.bounds};"), std::string::npos);
}

TEST(BoundsChecksTest, NestedSplitGuardedAtomicAndVlaAccessesCompile) {
  // a[idx[i]]: nested checks; s[i] inside a split guard; the atomic's x and its index checked.
  std::string C = checkedHostSource(
      analyzeOrFail("#pragma acc parallel loop present(a, idx, s, h)\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  s[i] = a[idx[i]] * 2;\n"
                    "  s[i]++;\n"
                    "  #pragma acc atomic update\n"
                    "  h[idx[i] % 4] += 1;\n"
                    "}\n",
                    {"int n", "double *s", "const double *a", "const int *idx", "int *h"}));
  EXPECT_EQ(count(C, "))__jacc_bcheck(__jacc_t, __jacc_bp"), 6u) << C;
  checkedHostSource(analyzeOrFail("#pragma acc parallel loop collapse(2) present(a)\n"
                                  "for (int i = 0; i < n; i++)\n"
                                  "  for (int j = 0; j < m; j++) a[i][j] = a[i][j] + 1;\n",
                                  {"int n", "int m", "double (*a)[m]"}));
}

TEST(BoundsChecksTest, AtomicsOfEveryFormCheckTheirPartsWithTheirReadOrWrite) {
  analysis::KernelInfo K =
      analyzeOrFail("#pragma acc parallel loop present(h, idx, v)\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  #pragma acc atomic update\n"
                    "  h[idx[i]] += 1;\n"
                    "  #pragma acc atomic read\n"
                    "  v[i] = h[idx[i]];\n"
                    "  #pragma acc atomic write\n"
                    "  h[idx[i]] = v[i];\n"
                    "  #pragma acc atomic capture\n"
                    "  v[i] = h[idx[i]]++;\n"
                    "  #pragma acc atomic capture\n"
                    "  { v[i] = h[idx[i]]; h[idx[i]] = v[i] * 2; }\n"
                    "  #pragma acc atomic update\n"
                    "  f[idx[i]] *= 0.5f;\n"
                    "}\n",
                    {"int n", "int *h", "const int *idx", "int *v", "float *f"});
  std::string C = checkedHostSource(K);
  // x (h at column 3, or 10 after `v[i] = `) is written, except by the read; idx[i] is read.
  auto Check = [&](const std::string &Where) { return C.find(Where) != std::string::npos; };
  EXPECT_TRUE(Check(", h, sizeof *__jacc_bp0, 1, 4, 3, 3); }))")) << C;
  EXPECT_TRUE(Check(", idx, sizeof *__jacc_bp1, 2, 4, 5, 2); }))")) << C;
  EXPECT_TRUE(Check(", h, sizeof *__jacc_bp3, 1, 6, 10, 2); }))")) << C;
  EXPECT_TRUE(Check(", h, sizeof *__jacc_bp5, 1, 8, 3, 3); }))")) << C;
  EXPECT_TRUE(Check(", h, sizeof *__jacc_bp9, 1, 10, 10, 3); }))")) << C;
  // The structured capture writes the second statement's x; v[i] and the operand are checked.
  EXPECT_TRUE(Check(", h, sizeof *__jacc_bp14, 1, 12, 23, 3); }))")) << C;
  EXPECT_TRUE(Check(", v, sizeof *__jacc_bp11, 3, 12, 5, 3); }))")) << C;
  EXPECT_TRUE(Check(", f, sizeof *__jacc_bp17, 4, 14, 3, 3); }))")) << C;
  // Not the structured capture's first h[idx[i]]: no part the text spells.
  EXPECT_TRUE(Check("__jacc_bp11 = ")) << C;
  EXPECT_FALSE(Check("__jacc_bp12 = ")) << C;
  EXPECT_FALSE(Check("__jacc_bp13 = ")) << C;
  // A checked x of a flat variable-length array pointer on CUDA: the check around the flattened
  // subscript.
  analysis::KernelInfo Vla = analyzeOrFail("#pragma acc parallel loop present(a)\n"
                                           "for (int i = 0; i < n; i++) {\n"
                                           "  #pragma acc atomic update\n"
                                           "  a[i % 2][i % m] += 1.0;\n"
                                           "}\n",
                                           {"int n", "int m", "double (*a)[m]"});
  Vla.CheckBounds = true;
  auto S = generateCudaSource(Vla, false);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_NE(S->Source.find("__jacc_atomic_rmw(&((*__jacc_bcheck(__jacc_t, &((a + (i % 2) * "
                           "__jacc_vla_a_s1)[i % m]), (const void *)a, 2, 4, 3, 5))), "),
            std::string::npos)
      << S->Source;
  checkedHostSource(Vla);
}

TEST(BoundsChecksTest, StatementsStartingWithAnAccessKeepTheirThreadZeroWrapperOutside) {
  std::string C = checkedHostSource(analyzeOrFail("#pragma acc serial present(y)\n"
                                                  "y[n] = 1;\n",
                                                  {"int n", "int *y"}));
  EXPECT_NE(C.find("if (__jacc_t->tid == 0) {\n#line 2 \"kernel\"\n(*({"), std::string::npos)
      << C;
  // On CUDA the thread-0 wrapper, the check, then the flattened row subscript.
  checkedHostSource(analyzeOrFail("#pragma acc parallel present(a)\n"
                                  "{\n"
                                  "  a[0][0] = 1;\n"
                                  "  #pragma acc loop\n"
                                  "  for (int i = 0; i < n; i++) a[i][1] = 2;\n"
                                  "}\n",
                                  {"int n", "int m", "double (*a)[m]"}));
}

void noBarrier(void *) {}

/// The bounds block after K's split entry (host source Code) ran as device Device of Devices,
/// one thread, every iteration (not narrowed: only the guards keep the writes in the owned
/// ranges), with the arguments' Values; each pointer and split array is mapped over Bytes bytes
/// from the pointer.
std::vector<long long> runSplitDevice(const analysis::KernelInfo &K, const std::string &Code,
                                      const std::map<std::string, void *> &Values,
                                      long long Bytes, int Device, int Devices) {
  auto Obj = compileHostObjectInProcess(Code, K.Source);
  auto Fns = Obj ? loadHostObject(Obj->Bytes, std::vector<std::string>{SplitEntryName})
                 : Obj.takeError();
  auto Call = CallInterface::create(K, /*Split=*/true);
  if (!Fns || !Call) {
    ADD_FAILURE() << llvm::toString(Fns ? Call.takeError() : Fns.takeError()) << "\n" << Code;
    return {};
  }
  size_t Arrays = K.Split.Plan.Arrays.size();
  std::vector<void *> Params(K.Args.size() + 2 * Arrays + 1, nullptr);
  for (const analysis::ArgInfo &A : K.Args)
    Params[A.Param] = Values.at(A.Name);
  long long Lo = 0, Hi = Bytes;
  for (size_t I = 0; I < Arrays; ++I) {
    Params[K.Args.size() + 2 * I] = &Lo;
    Params[K.Args.size() + 2 * I + 1] = &Hi;
  }
  std::vector<long long> Bounds(boundsScratchWord(K.Args.size()) + 8, 0);
  for (size_t P = 0; P < K.Args.size(); ++P)
    Bounds[JACC_BOUNDS_RECORD_WORDS + 2 * P + 1] = Bytes;
  std::vector<long long> Info(JACC_SPLIT_INFO_WORDS * (Arrays + 1), 0);
  long long Reduction[8] = {};
  jacc_host_team Team{};
  Team.nthreads = 1;
  Team.barrier = noBarrier;
  Team.reduction = Reduction;
  Team.share_begin = Device;
  Team.share_end = Device + 1;
  Team.share_scale = Devices;
  Team.split_info = Info.data();
  Team.bounds = Bounds.data();
  const jacc_host_team *TeamPtr = &Team;
  Params.back() = &TeamPtr;
  (*Call)->call(Fns->Symbols.front(), Params.data());
  return Bounds;
}

const char *const Fill = "#pragma acc parallel loop present(y)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  y[i] = 2 * i;\n";

TEST(BoundsChecksTest, SplitEntriesCheckGuardedWritesAgainstTheOwnedRange) {
  analysis::KernelInfo K = analyzeOrFail(Fill, {"int n", "int *y"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  K.CheckBounds = true;
  std::string Split = generateHostSource(K, /*Split=*/true);
  EXPECT_NE(Split.find("__jacc_bowned(__jacc_t, __jacc_bp0, y, sizeof *__jacc_bp0, "
                       "__jacc_bownlo_y, __jacc_bownhi_y, __jacc_bownpitch_y, "
                       "__jacc_ownlb_y, __jacc_ownub_y, 1, 3, "
                       "3, 259); }))"),
            std::string::npos)
      << Split;
  // Only split entries: every device owns everything in the other.
  EXPECT_EQ(generateHostSource(K).find("))__jacc_bowned("), std::string::npos);
  auto Cuda = generateCudaSource(K, /*Split=*/true);
  ASSERT_TRUE(bool(Cuda)) << llvm::toString(Cuda.takeError());
  EXPECT_NE(Cuda->Source.find("(*__jacc_bowned(__jacc_t, &(y[i]), (const void *)y, "
                              "__jacc_bownlo_y, __jacc_bownhi_y, __jacc_bownpitch_y, "
                              "__jacc_ownlb_y, __jacc_ownub_y, "
                              "1, 3, 3, 259))"),
            std::string::npos)
      << Cuda->Source;
  expectCudaCompiles(*Cuda);
}

TEST(BoundsChecksTest, AWriteTheGuardsLetOutOfTheOwnedRangeIsRecorded) {
  analysis::KernelInfo K = analyzeOrFail(Fill, {"int n", "int *y"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  K.CheckBounds = true;
  int N = 1000;
  std::vector<int> Y(N, -1);
  int *Yp = Y.data();
  std::map<std::string, void *> Values = {{"n", &N}, {"y", &Yp}};
  // Guarded: device 1 of 2 writes its half, nothing recorded.
  std::vector<long long> B = runSplitDevice(K, generateHostSource(K, true), Values, 4 * N, 1, 2);
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(B[0], 0);
  EXPECT_EQ(Y[499], -1);
  EXPECT_EQ(Y[500], 1000);
  EXPECT_EQ(Y[999], 1998);
  // Without its guard, device 1's first iteration writes y[0]: the check stops it there.
  K.Split.Guards.clear();
  Y.assign(N, -1);
  B = runSplitDevice(K, generateHostSource(K, true), Values, 4 * N, 1, 2);
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(B[0], 2);
  EXPECT_EQ(std::vector<long long>(B.begin() + 1, B.begin() + 9),
            (std::vector<long long>{3, 3, 1, 1 | 2 | JACC_BOUNDS_OWNED, 0, 4, 500, 999}));
  EXPECT_EQ(Y[0], -1); // redirected to the scratch bytes
  // A write outside its mapping is reported as that first (the one device owns all of y).
  analysis::KernelInfo Past = analyzeOrFail("#pragma acc parallel loop present(y)\n"
                                            "for (int i = 0; i < n; i++)\n"
                                            "  y[i + 1] = i;\n",
                                            {"int n", "int *y"});
  Past.CheckBounds = true;
  Past.Split.Guards.clear();
  B = runSplitDevice(Past, generateHostSource(Past, true), Values, 4 * N, 0, 1);
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(std::vector<long long>(B.begin(), B.begin() + 9),
            (std::vector<long long>{2, 3, 3, 1, 1 | 2, 4 * N, 4, 0, 0}));
  EXPECT_EQ(Y[999], 998);
}

TEST(BoundsChecksTest, ColumnSplitsCheckTheColumnAndNeededWritesAreNotChecked) {
  // a[i][j] split along j (the parallel loop's): device 1 of 2 owns columns [m / 2, m).
  analysis::KernelInfo K = analyzeOrFail("#pragma acc parallel loop present(a)\n"
                                         "for (int j = 0; j < m; j++)\n"
                                         "  for (int i = 0; i < n; i++) a[i][j] = i + j;\n",
                                         {"int n", "int m", "double (*a)[m]"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  ASSERT_EQ(K.Split.Plan.Arrays.at(0).Dim, 1u);
  K.CheckBounds = true;
  checkedHostSource(K); // host and CUDA, both entries
  int N = 4, M = 10;
  std::vector<double> A(N * M, -1);
  double *Ap = A.data();
  std::map<std::string, void *> Values = {{"n", &N}, {"m", &M}, {"a", &Ap}};
  std::vector<long long> B =
      runSplitDevice(K, generateHostSource(K, true), Values, 8 * N * M, 1, 2);
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(B[0], 0);
  EXPECT_EQ(A[M + 4], -1);
  EXPECT_EQ(A[M + 5], 6);
  K.Split.Guards.clear();
  A.assign(N * M, -1);
  B = runSplitDevice(K, generateHostSource(K, true), Values, 8 * N * M, 1, 2);
  ASSERT_FALSE(B.empty());
  EXPECT_EQ(B[0], 2);
  EXPECT_EQ(B[4], 1 | 2 << 1 | JACC_BOUNDS_OWNED | 1 * JACC_BOUNDS_OWNED * 2);
  EXPECT_EQ(B[5], 0); // a[0][0]
  // Along an inner dimension the record holds the dimension's range (BoundsReport: a subscript
  // past its row is what the widened guards let through).
  EXPECT_EQ(B[7], 0);
  EXPECT_EQ(B[8], M - 1);

  // y[i + 1] is also written where z[i] needs it (its guard: own(y, i + 1) || own(z, i)): a
  // device may write it outside its owned range, so only z[i]'s write is checked.
  analysis::KernelInfo Needed = analyzeOrFail("#pragma acc parallel loop present(y, z)\n"
                                              "for (int i = 0; i < n; i++) {\n"
                                              "  y[i + 1] = i;\n"
                                              "  z[i] = y[i + 1] * 2;\n"
                                              "}\n",
                                              {"int n", "int *y", "int *z"});
  ASSERT_TRUE(Needed.Split.Enabled) << Needed.Split.Fallback;
  Needed.CheckBounds = true;
  std::string Split = generateHostSource(Needed, true);
  EXPECT_EQ(count(Split, "__jacc_bowned(__jacc_t, __jacc_bp"), 1u) << Split;
  EXPECT_NE(Split.find("__jacc_bownpitch_z, __jacc_ownlb_z, __jacc_ownub_z, 2, 4, 3, 259)"),
            std::string::npos)
      << Split;
  checkedHostSource(Needed);
}

TEST(BoundsChecksTest, TheDiskCacheKeyDependsOnTheMode) {
  EXPECT_NE(diskCacheKey(Stencil, StencilDecls, 0),
            diskCacheKey(Stencil, StencilDecls, CodeCheckBounds));
  EXPECT_EQ(diskCacheKey(Stencil, StencilDecls, 0), diskCacheKey(Stencil, StencilDecls, 0));
}

} // namespace
