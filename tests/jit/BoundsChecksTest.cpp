// Tests of JACC_CHECK=bounds code generation: off, the entry is exactly the unchecked one; on,
// every site is wrapped (inside split guards, around flattened VLA subscripts, never inside an
// atomic), each iteration can stop, and the result compiles for the host and for CUDA.
#include "jit/BoundsChecks.h"

#include "jit/CompiledKernel.h"
#include "jit/cache/KernelStore.h"
#include "jit/host/HostCodegen.h"
#include "jit/host/HostCompiler.h"
#include "tests/jit/cuda/CudaCheck.h"

#include <gtest/gtest.h>

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
  // a[idx[i]]: nested checks; s[i] inside a split guard; the atomic's own text unchecked.
  std::string C = checkedHostSource(
      analyzeOrFail("#pragma acc parallel loop present(a, idx, s, h)\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  s[i] = a[idx[i]] * 2;\n"
                    "  s[i]++;\n"
                    "  #pragma acc atomic update\n"
                    "  h[idx[i] % 4] += 1;\n"
                    "}\n",
                    {"int n", "double *s", "const double *a", "const int *idx", "int *h"}));
  EXPECT_EQ(count(C, "))__jacc_bcheck(__jacc_t, __jacc_bp"), 4u) << C;
  checkedHostSource(analyzeOrFail("#pragma acc parallel loop collapse(2) present(a)\n"
                                  "for (int i = 0; i < n; i++)\n"
                                  "  for (int j = 0; j < m; j++) a[i][j] = a[i][j] + 1;\n",
                                  {"int n", "int m", "double (*a)[m]"}));
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

TEST(BoundsChecksTest, TheDiskCacheKeyDependsOnTheMode) {
  EXPECT_NE(diskCacheKey(Stencil, StencilDecls, 0),
            diskCacheKey(Stencil, StencilDecls, CodeCheckBounds));
  EXPECT_EQ(diskCacheKey(Stencil, StencilDecls, 0), diskCacheKey(Stencil, StencilDecls, 0));
}

} // namespace
