// Tests of CUDA code generation: the __global__ entry and its launch ABI (checked against the PTX
// NVRTC really produces), variable-length arrays flattened, reductions and atomics for every
// operator and type, grid-wide barriers, launch geometry, and what CUDA cannot express.
#include "jit/cuda/CudaCodegen.h"

#include "analysis/Frontend.h"
#include "analysis/Pipeline.h"
#include "jit/cuda/CudaABI.h"
#include "jit/cuda/CudaLaunchABI.h"
#include "jit/cuda/NvrtcCompiler.h"
#include "jit/specialize/Specialization.h"
#include "support/Error.h"
#include "tests/ScopedEnv.h"
#include "tests/jit/cuda/CudaCheck.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::analysis;
using namespace jacc::jit;

namespace {

using Strings = std::vector<std::string>;

KernelInfo analyze(const std::string &Src, const Strings &Decls) {
  return analyzeOrFail(Src, Decls);
}

CudaKernelSource generate(const std::string &Src, const Strings &Decls, bool Split = false) {
  KernelInfo K = analyze(Src, Decls);
  auto S = generateCudaSource(K, Split);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return {};
  }
  return std::move(*S);
}

/// Compile for every architecture: a CUBIN (ELF) whose PTX entry matches the launcher's ABI.
void expectCompiles(const CudaKernelSource &S) {
  if (!expectCudaCompiles(S))
    GTEST_SKIP() << "this build has no NVRTC";
}

std::string errorOf(const std::string &Src, const Strings &Decls, ErrorCode &Code) {
  KernelInfo K = analyze(Src, Decls);
  auto S = generateCudaSource(K, false);
  if (S) {
    ADD_FAILURE() << "expected an error, generated:\n" << S->Source;
    return "";
  }
  std::string Msg;
  Code = takeError(S.takeError(), Msg);
  return Msg;
}

const char *const Saxpy = "#pragma acc parallel loop present(x, y)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n";

//===-- Entry and ABI -----------------------------------------------------------------------===//

// The block size comes from vector_length when constant, or when a specialization folds the
// argument it names; __launch_bounds__ carries it to NVRTC (.maxntid in the PTX).
TEST(CudaCodegenTest, BlockSizeFromAFoldedVectorLength) {
  const char *Src = "#pragma acc parallel loop present(x) vector_length(v)\n"
                    "for (int i = 0; i < n; i++) x[i] += v;\n";
  KernelInfo K = analyze(Src, {"int n", "int v", "float *x"});
  auto Generic = generateCudaSource(K, false);
  ASSERT_TRUE(bool(Generic)) << llvm::toString(Generic.takeError());
  EXPECT_EQ(Generic->BlockSize, 512u) << "not a constant: from the traits (coalesced streaming)";
  int V = 96;
  auto Spec = makeSpecialization(K, {{1, &V}});
  ASSERT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  auto S = generateCudaSource(K, false, &*Spec);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->BlockSize, 96u);
  EXPECT_NE(S->Source.find("__launch_bounds__(96)"), std::string::npos) << S->Source;
  if (nvrtcSupportedArchs().empty())
    GTEST_SKIP() << "built without NVRTC (-Dcuda=disabled): the PTX is not checked";
  auto Img = compileCuda(S->Source, 80);
  ASSERT_TRUE(bool(Img)) << llvm::toString(Img.takeError());
  EXPECT_NE(Img->Ptx.find(".maxntid 96, 1, 1"), std::string::npos) << Img->Ptx;
  EXPECT_FALSE(bool(checkCudaLaunchABI(*S, Img->Ptx)));
}

TEST(CudaCodegenTest, GlobalEntryInParamOrderWithTheTeamLast) {
  CudaKernelSource S = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_NE(S.Source.find("extern \"C\" __global__ void __launch_bounds__(512) __jacc_entry("
                          "float a, int n, float *y, const float *x, jacc_cuda_team __jacc_team) {"),
            std::string::npos)
      << S.Source;
  EXPECT_EQ(S.Entry, "__jacc_entry");
  ASSERT_EQ(S.Params.size(), 5u);
  EXPECT_EQ(S.Params[0].What, "a");
  EXPECT_EQ(S.Params[0].Size, 4u);
  EXPECT_EQ(S.Params[2].Size, 8u);
  EXPECT_EQ(S.Params[4].What, "__jacc_team");
  EXPECT_EQ(S.Params[4].Size, sizeof(jacc_cuda_team));
  // The team's definition is the very text the runtime compiles (CudaABI.h).
  EXPECT_NE(S.Source.find(JACC_CUDA_ABI_TEXT), std::string::npos);
  expectCompiles(S);
}

TEST(CudaCodegenTest, ParamOffsetsFollowAlignment) {
  std::vector<CudaParam> P = {{"c", 1, 1}, {"d", 8, 8}, {"s", 2, 2}, {"t", 48, 8}};
  unsigned Size = 0;
  EXPECT_EQ(cudaParamOffsets(P, Size), (std::vector<unsigned>{0, 8, 16, 24}));
  EXPECT_EQ(Size, 72u);
}

TEST(CudaCodegenTest, EveryScalarTypeAndStructByValueMatchThePtxABI) {
  CudaKernelSource S = generate(
      "struct pt { double x; char tag; int y; };\n"
      "#pragma acc parallel loop\n"
      "for (int i = 0; i < n; i++)\n"
      "  out[i] = b + c + uc + s + us + u + l + ul + ll + f + d + p.x + p.y + p.tag;\n",
      {"double *out", "_Bool b", "char c", "unsigned char uc", "short s", "unsigned short us",
       "unsigned u", "long l", "unsigned long ul", "long long ll", "float f", "double d",
       "struct pt p", "int n"});
  ASSERT_FALSE(S.Params.empty());
  expectCompiles(S);
}

TEST(CudaCodegenTest, AbiCheckCatchesAMismatch) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  CudaKernelSource S = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  auto Img = compileCuda(S.Source, 80);
  ASSERT_TRUE(bool(Img)) << llvm::toString(Img.takeError());
  ASSERT_FALSE(bool(checkCudaLaunchABI(S, Img->Ptx)));
  CudaKernelSource Wrong = S;
  Wrong.Params[1].Size = 8; // n passed as 8 bytes where the kernel reads 4
  Wrong.Params[1].Align = 8;
  llvm::Error E = checkCudaLaunchABI(Wrong, Img->Ptx);
  ASSERT_TRUE(bool(E));
  std::string Msg = llvm::toString(std::move(E));
  EXPECT_NE(Msg.find("parameter 1 ('n')"), std::string::npos) << Msg;
  CudaKernelSource Fewer = S;
  Fewer.Params.pop_back();
  EXPECT_TRUE(bool(checkCudaLaunchABI(Fewer, Img->Ptx)));
  consumeError(checkCudaLaunchABI(Fewer, Img->Ptx));
}

TEST(CudaCodegenTest, LeadingHelperFunctionsBecomeDeviceFunctions) {
  CudaKernelSource S = generate("static float twice(float v) { return 2 * v; }\n"
                                "#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++) x[i] = twice(x[i]);\n",
                                {"float *x", "int n"});
  EXPECT_NE(S.Source.find("#line 1 \"kernel\"\nstatic float twice"), std::string::npos);
  expectCompiles(S);
}

// routine bind per device kind (translate/RoutineBind.cpp): the kernel text renames the routine
// under #ifdef __CUDACC__, which NVRTC defines: the GPU code calls the nvidia binding, whose
// factor is in the PTX, and neither the host's binding nor the routine itself.
TEST(CudaCodegenTest, RoutineBindingsPerDeviceKindCallTheNvidiaOne) {
  CudaKernelSource S =
      generate("#ifdef __CUDACC__ /* routine bind: NVRTC (GPUs) defines it */\n"
               "#define g gpu_g\n"
               "#else\n"
               "#define g host_g\n"
               "#endif\n"
               "#pragma acc routine seq\n"
               "static int host_g(int v) { return v * 104729; }\n"
               "#pragma acc routine seq\n"
               "static int gpu_g(int v) { return v * 7919; }\n"
               "#pragma acc parallel loop\n"
               "for (int i = 0; i < n; i++) x[i] = g(x[i]);\n",
               {"int *x", "int n"});
  expectCompiles(S);
  auto Img = compileCuda(S.Source, 80);
  ASSERT_TRUE(bool(Img)) << llvm::toString(Img.takeError());
  EXPECT_NE(Img->Ptx.find(", 7919;"), std::string::npos) << Img->Ptx;
  EXPECT_EQ(Img->Ptx.find("104729"), std::string::npos) << Img->Ptx;
}

//===-- Iterations ---------------------------------------------------------------------------===//

TEST(CudaCodegenTest, ParallelLoopIsAGridStrideLoopWithABoundsGuard) {
  CudaKernelSource S = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_NE(S.Source.find("__jacc_it = __jacc_db * __jacc_inner + __jacc_t->tid"),
            std::string::npos);
  EXPECT_NE(S.Source.find("__jacc_it < __jacc_de * __jacc_inner; __jacc_it += "
                          "__jacc_t->nthreads"),
            std::string::npos);
  EXPECT_NE(S.Source.find("(long long)blockIdx.x * blockDim.x + threadIdx.x"),
            std::string::npos);
  EXPECT_FALSE(S.GridSync);
}

TEST(CudaCodegenTest, CollapsedAndDecreasingNestsCompile) {
  expectCompiles(generate("#pragma acc parallel loop collapse(3)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  for (int j = n - 1; j >= 0; j -= 2) {\n"
                          "    for (long k = 1; k <= n; k++) {\n"
                          "      a[(i * n + j) * n + k - 1] = i + j + k;\n"
                          "    }\n  }\n}\n",
                          {"double *a", "int n"}));
}

// Neighbouring threads take neighbouring elements of a row: the stencil's inner loop joins the
// nest once its arrays are known not to overlap (a restrict variant); a loop directive asserts
// it for every entry.
TEST(CudaCodegenTest, IndependentInnerLoopsAreSharedAmongTheThreads) {
  const std::string Stencil =
      "#pragma acc parallel loop present(a, b)\n"
      "for (int i = 1; i < n - 1; i++)\n"
      "  for (int j = 1; j < m - 1; j++)\n"
      "    b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);\n";
  const Strings Decls = {"int n", "int m", "const double (*a)[m]", "double (*b)[m]"};
  KernelInfo K = analyze(Stencil, Decls);
  Specialization Restrict;
  Restrict.Pointers.Disjoint = true;
  for (bool Split : {false, true}) {
    auto Generic = generateCudaSource(K, Split);
    ASSERT_TRUE(bool(Generic)) << llvm::toString(Generic.takeError());
    EXPECT_NE(Generic->Source.find("for (int j = 1; j < m - 1; j++)"), std::string::npos)
        << "the pointers may overlap: each thread keeps a row\n"
        << Generic->Source;
    auto Shared = generateCudaSource(K, Split, &Restrict);
    ASSERT_TRUE(bool(Shared)) << llvm::toString(Shared.takeError());
    EXPECT_EQ(Shared->Source.find("for (int j"), std::string::npos) << Shared->Source;
    EXPECT_NE(Shared->Source.find("long long __jacc_inner = 1 * __jacc_n1;"), std::string::npos)
        << Shared->Source;
    EXPECT_NE(Shared->Source.find("int j = (int)(__jacc_lo1 + (__jacc_row % __jacc_n1)"),
              std::string::npos)
        << Shared->Source;
    expectCompiles(*Shared);
  }
  CudaKernelSource Asserted = generate("#pragma acc parallel loop gang present(a, b)\n"
                                       "for (int i = 1; i < n - 1; i++)\n"
                                       "  #pragma acc loop vector\n"
                                       "  for (int j = 1; j < m - 1; j++)\n"
                                       "    b[i][j] = a[i][j - 1] + a[i][j + 1];\n",
                                       Decls);
  EXPECT_EQ(Asserted.Source.find("for (int j"), std::string::npos) << Asserted.Source;
  expectCompiles(Asserted);
}

// The interchange a CPU thread makes of an independent loop around a recurrence is the host's:
// a GPU shares the independent loop among its threads with the nest (its variable and the
// temporaries are the program's, declared outside, as NPB's), each thread running the
// recurrence in order.
TEST(CudaCodegenTest, AnIndependentLoopAroundARecurrenceIsSharedNotInterchanged) {
  CudaKernelSource S = generate(
      "#pragma acc parallel loop gang\n"
      "for (int k = 0; k < nz; k++) {\n"
      "  #pragma acc loop vector\n"
      "  for (j = 0; j < ny; j++)\n"
      "    for (i = 0; i < nx; i++) {\n"
      "      i1 = i + 1;\n"
      "      rhs[k][i1][j] = rhs[k][i1][j] - rhs[k][i][j];\n"
      "    }\n"
      "}\n",
      {"int nz", "int nx", "int ny", "int i", "int j", "int i1", "double (*rhs)[nx + 1][ny]"});
  EXPECT_EQ(S.Source.find("for (j = 0; j < ny; j++)"), std::string::npos) << S.Source;
  EXPECT_NE(S.Source.find("int j = (int)(__jacc_lo1 + (__jacc_row % __jacc_n1)"), std::string::npos)
      << S.Source;
  size_t J = S.Source.find("int j = "), I = S.Source.find("for (i = 0; i < nx; i++)");
  ASSERT_NE(I, std::string::npos) << S.Source;
  EXPECT_LT(J, I) << S.Source;
  expectCompiles(S);
}

TEST(CudaCodegenTest, PrivateInnerLoopsAndSerialRegions) {
  expectCompiles(generate("#pragma acc parallel loop private(t)\n"
                          "for (int i = 0; i < n; i++) {\n"
                          "  double t = 0;\n"
                          "  #pragma acc loop seq\n"
                          "  for (int k = 0; k < 4; k++) t += x[i] * k;\n"
                          "  x[i] = t;\n}\n",
                          {"double *x", "int n"}));
  CudaKernelSource S = generate("#pragma acc serial\n{ for (int i = 1; i < n; i++) "
                                "x[i] += x[i - 1]; }\n",
                                {"double *x", "int n"});
  EXPECT_NE(S.Source.find("if (__jacc_t->tid == 0) {"), std::string::npos);
  EXPECT_FALSE(S.GridSync);
  expectCompiles(S);
}

TEST(CudaCodegenTest, RegionStatementsAreSeparatedByGridBarriers) {
  CudaKernelSource S = generate("#pragma acc parallel\n{\n"
                                "  #pragma acc loop\n"
                                "  for (int i = 0; i < n; i++) a[i] = i;\n"
                                "  a[0] = -1;\n"
                                "  #pragma acc loop\n"
                                "  for (int i = 1; i < n; i++) b[i] = a[i] + a[i - 1];\n}\n",
                                {"double *a", "double *b", "int n"});
  EXPECT_TRUE(S.GridSync);
  size_t N = 0;
  for (size_t P = S.Source.find("__jacc_grid_sync(__jacc_team.barrier);");
       P != std::string::npos; P = S.Source.find("__jacc_grid_sync(__jacc_team.barrier);", P + 1))
    ++N;
  EXPECT_EQ(N, 2u) << S.Source;
  expectCompiles(S);
}

//===-- Launch geometry ---------------------------------------------------------------------===//

TEST(CudaCodegenTest, BlockSizeFromVectorLengthInWholeWarps) {
  CudaKernelSource S = generate("#pragma acc parallel loop vector_length(100) num_gangs(12)\n"
                                "for (int i = 0; i < n; i++) x[i] = 0;\n",
                                {"float *x", "int n"});
  EXPECT_EQ(S.BlockSize, 128u);
  EXPECT_EQ(S.NumGangs, 12u);
  // Not a constant: from the access traits, like no vector_length at all.
  EXPECT_EQ(generate("#pragma acc parallel loop vector_length(v)\n"
                     "for (int i = 0; i < n; i++) x[i] = v;\n",
                     {"float *x", "int n", "int v"})
                .BlockSize,
            512u);
}

// Without a constant vector_length the access traits choose the block size, and
// __launch_bounds__ carries it into the PTX NVRTC produces.
TEST(CudaCodegenTest, BlockSizeFromTheAccessTraits) {
  CudaKernelSource Streaming = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_EQ(Streaming.BlockSize, 512u);
  EXPECT_NE(Streaming.Source.find("__launch_bounds__(512)"), std::string::npos);
  CudaKernelSource Compute = generate("#pragma acc parallel loop\n"
                                      "for (int i = 0; i < n; i++)\n"
                                      "  y[i] = exp(sin(x[i]) * cos(x[i]));\n",
                                      {"double *y", "const double *x", "int n"});
  EXPECT_EQ(Compute.BlockSize, 128u) << "high arithmetic intensity";
  CudaKernelSource Gather = generate("#pragma acc parallel loop\n"
                                     "for (int i = 0; i < n; i++) y[i] = x[idx[i]] * 2;\n",
                                     {"double *y", "const double *x", "const int *idx",
                                      "int n"});
  EXPECT_EQ(Gather.BlockSize, CudaDefaultBlockSize) << "partly coalesced";
  CudaKernelSource Serial = generate("#pragma acc serial\n"
                                     "for (int i = 0; i < n; i++) y[i] = 0;\n",
                                     {"double *y", "int n"});
  EXPECT_EQ(Serial.BlockSize, CudaDefaultBlockSize);
  if (nvrtcSupportedArchs().empty())
    GTEST_SKIP() << "built without NVRTC (-Dcuda=disabled): the PTX is not checked";
  auto Img = compileCuda(Compute.Source, 80);
  ASSERT_TRUE(bool(Img)) << llvm::toString(Img.takeError());
  EXPECT_NE(Img->Ptx.find(".maxntid 128, 1, 1"), std::string::npos) << Img->Ptx;
  EXPECT_FALSE(bool(checkCudaLaunchABI(Compute, Img->Ptx)));
}

// JACC_CUDA_BLOCK_SIZE replaces the traits' choice, not a constant vector_length.
TEST(CudaCodegenTest, BlockSizeFromTheEnvironment) {
  ScopedEnv Block("JACC_CUDA_BLOCK_SIZE", "96");
  CudaKernelSource S = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_EQ(S.BlockSize, 96u);
  EXPECT_NE(S.Source.find("__launch_bounds__(96)"), std::string::npos);
  EXPECT_EQ(generate("#pragma acc parallel loop vector_length(100)\n"
                     "for (int i = 0; i < n; i++) x[i] = 0;\n",
                     {"float *x", "int n"})
                .BlockSize,
            128u);
}

//===-- Variable-length arrays ----------------------------------------------------------------===//

TEST(CudaCodegenTest, VlaPointersAreFlattenedWithStridesComputedAtEntry) {
  CudaKernelSource S = generate("#pragma acc parallel loop collapse(2)\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  for (int j = 0; j < m; j++)\n"
                                "    b[i][j] = a[i][j] + a[j % n][i % m];\n",
                                {"int n", "int m", "const double (*a)[m]", "double (*b)[m]"});
  EXPECT_NE(S.Source.find("const double *a, double *b"), std::string::npos) << S.Source;
  EXPECT_NE(S.Source.find("const long long __jacc_vla_a_s1 = (long long)(m);"),
            std::string::npos);
  EXPECT_NE(S.Source.find("(b + (i) * __jacc_vla_b_s1)[j] = (a + (i) * __jacc_vla_a_s1)[j] + "
                          "(a + (j % n) * __jacc_vla_a_s1)[i % m]"),
            std::string::npos)
      << S.Source;
  expectCompiles(S);
}

TEST(CudaCodegenTest, ThreeDimensionalVlaAndNestedSubscripts) {
  CudaKernelSource S = generate("#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  for (int j = 0; j < m; j++)\n"
                                "    for (int k = 0; k < 4; k++)\n"
                                "      c[i][j][k] = c[idx[i][0] % n][j][k] + 1;\n",
                                {"int n", "int m", "double (*c)[m][4]", "int (*idx)[m]"});
  EXPECT_NE(S.Source.find("const long long __jacc_vla_c_s2 = (long long)(4);"),
            std::string::npos)
      << S.Source;
  EXPECT_NE(S.Source.find("__jacc_vla_c_s1 = (long long)(m) * __jacc_vla_c_s2;"),
            std::string::npos);
  EXPECT_NE(S.Source.find("((c + (i) * __jacc_vla_c_s1) + (j) * __jacc_vla_c_s2)[k]"),
            std::string::npos);
  EXPECT_NE(S.Source.find("((c + ((idx + (i) * __jacc_vla_idx_s1)[0] % n) * __jacc_vla_c_s1)"),
            std::string::npos)
      << S.Source;
  expectCompiles(S);
}

TEST(CudaCodegenTest, SplitEntryOfAVlaArrayUsesRowSizesFromStrides) {
  auto Analysed = runAnalysis("#pragma acc parallel loop\n"
                              "for (int i = 0; i < n; i++)\n"
                              "  for (int j = 0; j < m; j++) b[i][j] = 2 * b[i][j];\n",
                              {"int n", "int m", "double (*b)[m]"});
  ASSERT_TRUE(bool(Analysed)) << llvm::toString(Analysed.takeError());
  KernelInfo &K = *Analysed;
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  auto S = generateCudaSource(K, true);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Entry, "__jacc_entry_split");
  EXPECT_NE(S->Source.find("((long long)sizeof(*b) * __jacc_vla_b_s1)"), std::string::npos)
      << S->Source;
  EXPECT_EQ(S->Source.find("sizeof(b[0])"), std::string::npos);
  // Two bound parameters for b, then the team.
  ASSERT_EQ(S->Params.size(), 6u);
  EXPECT_EQ(S->Params[3].What, "__jacc_mlo_b");
  EXPECT_EQ(S->Params[4].What, "__jacc_mhi_b");
  expectCompiles(*S);
}

TEST(CudaCodegenTest, WhatCudaCannotExpressIsUnsupportedAndNamed) {
  ErrorCode Code = ErrorCode::Internal;
  std::string Msg = errorOf("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) { double (*r)[m] = a + i; r[0][0] = 1; }\n",
                            {"int n", "int m", "double (*a)[m]"}, Code);
  EXPECT_EQ(Code, ErrorCode::Unsupported);
  EXPECT_NE(Msg.find("'r' has a variable-length array type"), std::string::npos) << Msg;

  Msg = errorOf("#pragma acc parallel loop\n"
                "for (int i = 0; i < n; i++) a[i][0] = sizeof(a[0]);\n",
                {"int n", "int m", "double (*a)[m]"}, Code);
  EXPECT_NE(Msg.find("sizeof of a variable-length array"), std::string::npos) << Msg;

  Msg = errorOf("#pragma acc parallel loop\n"
                "for (int i = 0; i < n; i++) x[i] = v;\n",
                {"double *x", "long double v", "int n"}, Code);
  EXPECT_EQ(Code, ErrorCode::Unsupported);
  EXPECT_NE(Msg.find("long double"), std::string::npos) << Msg;

  Msg = errorOf("#include <fenv.h>\n"
                "#pragma acc parallel loop\n"
                "for (int i = 0; i < n; i++) x[i] = 1;\n",
                {"double *x", "int n"}, Code);
  EXPECT_EQ(Code, ErrorCode::Unsupported);
  EXPECT_NE(Msg.find("kernel:1: #include <fenv.h>"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("math.h"), std::string::npos) << Msg;

}

TEST(CudaCodegenTest, LongDoubleIsUnsupportedWithItsWorkaround) {
  // NVHPC refuses long double on GPUs.
  struct Case {
    const char *Src;
    Strings Decls;
    const char *Expected;
  } Cases[] = {
      {"#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = s;\n",
       {"double *x", "long double s", "int n"},
       "argument 'long double s': CUDA devices have no long double; pass a double"},
      {"#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = __real__ z;\n",
       {"double *x", "long double _Complex z", "int n"},
       "argument 'long double _Complex z': CUDA devices have no long double; pass a double"},
      {"#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = __real__ z[i];\n",
       {"double *x", "const long double _Complex *z", "int n"},
       "argument 'const long double _Complex *z': CUDA devices have no long double; pass a "
       "double"},
      {"#pragma acc parallel loop reduction(+:h[0:2])\n"
       "for (int i = 0; i < n; i++) h[i % 2] += x[i];\n",
       {"const double *x", "long double *h", "int n"},
       "reduction(+:h): CUDA devices cannot reduce long double: reduce into a double"},
  };
  for (const Case &C : Cases) {
    ErrorCode Code = ErrorCode::Internal;
    EXPECT_EQ(errorOf(C.Src, C.Decls, Code), C.Expected);
    EXPECT_EQ(Code, ErrorCode::Unsupported) << C.Expected;
  }
}

TEST(CudaCodegenTest, ComplexValuesAreATemplateOfTheirLayout) {
  // Scalars, arrays, a reduction, <complex.h>'s functions and macros, both spellings.
  CudaKernelSource S = generate(
      "#include <complex.h>\n"
      "#pragma acc parallel loop reduction(+:s) reduction(*:p)\n"
      "for (int i = 0; i < n; i++) {\n"
      "  double complex v = z[i] * w + 2.0 * I - x[i] / (z[i] + 1);\n"
      "  _Complex float f = 1.0f + (float)i * _Complex_I;\n"
      "  v += cexp(v) - csqrt(v) + cpow(v, 0.5) + clog(v) / csin(v) + conj(v) * cabs(v);\n"
      "  v -= ccos(v) + ctan(v) + ctanh(v) + casin(v) + cacos(v) + catan(v) + carg(v) * I;\n"
      "  if (v == w || !(v != w)) v = 0;\n"
      "  z[i] = v + csqrtf(f) * cimagf(f);\n"
      "  x[i] = (double)v + cimag(v);\n"
      "  s += v;\n"
      "  p *= f;\n"
      "}\n",
      {"double _Complex *z", "double *x", "double _Complex w", "double complex s",
       "float _Complex p", "int n"});
  EXPECT_EQ(S.Source.find("_Complex "), std::string::npos) << S.Source;
  EXPECT_NE(S.Source.find("__jacc_complex<double> *z"), std::string::npos) << S.Source;
  // The parameters keep C's layout: 16 and 8 bytes, as the host passes them.
  auto Param = [&](const char *Name) {
    for (const CudaParam &P : S.Params)
      if (P.What == Name)
        return std::make_pair(P.Size, P.Align);
    return std::make_pair(0u, 0u);
  };
  EXPECT_EQ(Param("w"), std::make_pair(16u, 8u));
  EXPECT_EQ(Param("p"), std::make_pair(8u, 4u));
  expectCompiles(S);
  // Without <complex.h>: `complex` is an ordinary name, `_Complex` still a type.
  CudaKernelSource Plain =
      generate("#pragma acc parallel loop\n"
               "for (int i = 0; i < n; i++) { int complex = i; z[i] = complex * w; }\n",
               {"_Complex double *z", "double _Complex w", "int n"});
  EXPECT_NE(Plain.Source.find("int complex = i"), std::string::npos) << Plain.Source;
  expectCompiles(Plain);
  // Atomics of every form on both widths.
  CudaKernelSource Atomics =
      generate("#pragma acc parallel loop\n"
               "for (int i = 0; i < n; i++) {\n"
               "  double _Complex v;\n  float _Complex g;\n"
               "#pragma acc atomic update\n  z[0] += w;\n"
               "#pragma acc atomic update\n  f[0] *= w;\n"
               "#pragma acc atomic capture\n  { v = z[1]; z[1] = z[1] * w; }\n"
               "#pragma acc atomic read\n  v = z[2];\n"
               "#pragma acc atomic read\n  g = f[1];\n"
               "#pragma acc atomic write\n  z[3] = v + g;\n"
               "#pragma acc atomic write\n  f[2] = 1.0f;\n"
               "  z[i + 4] = v;\n"
               "}\n",
               {"_Complex double *z", "float _Complex *f", "double _Complex w", "int n"});
  expectCompiles(Atomics);
  // The template's operators leave other operands to C's: enumerations, pointers, structs.
  CudaKernelSource Others = generate(
      "enum shade { dark, light };\n"
      "typedef struct { double x; enum shade s; } cell;\n"
      "#pragma acc parallel loop\n"
      "for (int i = 0; i < n; i++) {\n"
      "  enum shade s = c[i].s;\n"
      "  if (s == light || s + 1 == 2 || &c[i] != c) z[i] = z[i] * c[i].x;\n"
      "  if (z[i] == 0 || 1.0 != z[i]) z[i] = -z[i] / 2;\n"
      "}\n",
      {"cell *c", "double _Complex *z", "int n"});
  expectCompiles(Others);
  // Kernels without complex values do not carry the template.
  CudaKernelSource None = generate(
      "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = i;\n", {"double *x", "int n"});
  EXPECT_EQ(None.Source.find("__jacc_complex"), std::string::npos);
}

//===-- C library ----------------------------------------------------------------------------===//

TEST(CudaCodegenTest, MathFunctionsAndLibraryMacrosMapToCuda) {
  CudaKernelSource S = generate(
      "#include <math.h>\n#include <float.h>\n#include <limits.h>\n#include <stdint.h>\n"
      "#include <stdlib.h>\n#include <stdbool.h>\n#include <string.h>\n#include <stdio.h>\n"
      "#pragma acc parallel loop\n"
      "for (int i = 0; i < n; i++) {\n"
      "  double v = sqrt(fabs(x[i])) + sin(M_PI * x[i]) + exp(-x[i]) + pow(x[i], 2.0) +\n"
      "             fmax(x[i], 0.0) + floor(x[i]) + log1p(fabs(x[i])) + sqrtf(2.0f) + fminf(1.0f, 2.0f);\n"
      "  int64_t k = abs(i) + (INT_MAX > 0) + (isnan(v) ? 1 : 0);\n"
      "  bool big = v > DBL_MAX || v == INFINITY;\n"
      "  x[i] = big ? 0.0 : v + k + FLT_EPSILON;\n"
      "}\n",
      {"double *x", "int n"});
  // Line numbers of the kernel are kept: the blanked includes still count.
  EXPECT_NE(S.Source.find("#line 1 \"kernel\"\n\n\n\n\n\n\n\n\n"), std::string::npos);
  expectCompiles(S);
}

TEST(CudaCodegenTest, AKernelsOwnBoolIsRenamedFromTheCxxKeyword) {
  // C89 code (Rodinia's bfs) declares bool itself; in CUDA C++ bool is a keyword.
  CudaKernelSource S = generate("typedef int bool;\n#define true 1\n"
                                "#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++) {\n"
                                "  bool odd = i % 2;\n"
                                "  _Bool b = odd;\n"
                                "  x[i] = odd == true ? b : 0;\n"
                                "}\n",
                                {"int *x", "int n"});
  EXPECT_NE(S.Source.find("#define bool __jacc_kernel_bool\n"), std::string::npos) << S.Source;
  expectCompiles(S);
}

TEST(CudaCodegenTest, NvrtcErrorsNameKernelLines) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  // rand() is a host C library function: clang accepts it, NVRTC has no device rand.
  CudaKernelSource S = generate("#include <stdlib.h>\n"
                                "#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  x[i] = x[i] + rand();\n",
                                {"double *x", "int n"});
  auto Img = compileCuda(S.Source, 80);
  ASSERT_FALSE(bool(Img));
  std::string Msg;
  EXPECT_EQ(takeError(Img.takeError(), Msg), ErrorCode::Compile);
  EXPECT_NE(Msg.find("kernel:4:"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("rand"), std::string::npos) << Msg;
}

//===-- Reductions and atomics ----------------------------------------------------------------===//

/// A statement folding x[i] into V with reduction operator Op.
std::string reductionStatement(const std::string &Op, const std::string &V) {
  if (Op == "max" || Op == "min")
    return "  " + V + " = x[i] " + (Op == "max" ? ">" : "<") + " " + V + " ? x[i] : " + V + ";\n";
  if (Op == "&&" || Op == "||")
    return "  " + V + " = " + V + " " + Op + " x[i];\n";
  return "  " + V + " " + Op + "= x[i];\n";
}

TEST(CudaCodegenTest, ReductionsOfEveryOperatorAndTypeCompile) {
  const char *Types[] = {"_Bool", "signed char", "unsigned char", "short", "unsigned short",
                         "int", "unsigned", "long", "unsigned long long", "float", "double"};
  struct {
    const char *Op;
    bool IntegerOnly;
  } Ops[] = {{"+", false}, {"*", false}, {"max", false}, {"min", false}, {"&", true},
             {"|", true},  {"^", true},  {"&&", false},  {"||", false}};
  std::string Clauses, Body;
  Strings Decls = {"const int *x", "int n"};
  unsigned V = 0;
  for (const char *T : Types) {
    bool Float = std::string(T) == "float" || std::string(T) == "double";
    for (const auto &O : Ops) {
      if (O.IntegerOnly && Float)
        continue;
      std::string Name = "r" + std::to_string(V++);
      Decls.push_back(std::string(T) + " " + Name);
      Clauses += " reduction(" + std::string(O.Op) + ":" + Name + ")";
      Body += reductionStatement(O.Op, Name);
    }
  }
  CudaKernelSource S = generate("#pragma acc parallel loop" + Clauses + "\n"
                                "for (int i = 0; i < n; i++) {\n" + Body + "}\n",
                                Decls);
  EXPECT_NE(S.Source.find("__jacc_block_reduce<int>"), std::string::npos);
  EXPECT_NE(S.Source.find("__jacc_block_reduce<double>"), std::string::npos);
  EXPECT_NE(S.Source.find("((long long)blockIdx.x * " + std::to_string(V) + " + 0) * 8"),
            std::string::npos)
      << S.Source;
  expectCompiles(S);
}

TEST(CudaCodegenTest, ArrayReductionsOfEveryOperatorCompile) {
  const char *Types[] = {"_Bool", "int", "long", "float", "double"};
  const char *Ops[] = {"+", "*", "max", "min", "&", "|", "^", "&&", "||"};
  std::string Clauses, Body;
  Strings Decls = {"const int *x", "int n", "int j"};
  unsigned V = 0;
  for (const char *T : Types)
    for (std::string Op : Ops) {
      bool Float = std::string(T) == "float" || std::string(T) == "double";
      if (Float && (Op == "&" || Op == "|" || Op == "^"))
        continue;
      std::string Name = "a" + std::to_string(V++), E = Name + "[j + i % 4]";
      Decls.push_back(std::string(T) + " *" + Name);
      Clauses += " reduction(" + Op + ":" + Name + "[j:4])";
      Body += reductionStatement(Op, E);
    }
  CudaKernelSource S = generate("#pragma acc parallel loop" + Clauses + "\n"
                                "for (int i = 0; i < n; i++) {\n" + Body + "}\n",
                                Decls);
  // Five slots each: four elements and the first index.
  EXPECT_NE(S.Source.find("((long long)blockIdx.x * " + std::to_string(5 * V) + " + 5 + "
                          "__jacc_ri) * 8"),
            std::string::npos)
      << S.Source;
  expectCompiles(S);
}

TEST(CudaCodegenTest, AtomicsOfEveryFormAndWidthCompile) {
  CudaKernelSource S = generate(
      "#pragma acc parallel loop\n"
      "for (int i = 0; i < n; i++) {\n"
      "  int v; double w; char c;\n"
      "  #pragma acc atomic update\n  hi[x[i] % 8]++;\n"
      "  #pragma acc atomic\n  hl[x[i] % 8] += 2;\n"
      "  #pragma acc atomic update\n  hd[x[i] % 8] += 0.5;\n"
      "  #pragma acc atomic update\n  hf[x[i] % 8] *= 1.5f;\n"
      "  #pragma acc atomic update\n  hc[x[i] % 8] += 1;\n"
      "  #pragma acc atomic update\n  hs[x[i] % 8] = hs[x[i] % 8] | 4;\n"
      "  #pragma acc atomic read\n  v = hi[0];\n"
      "  #pragma acc atomic write\n  hd[1] = v * 2.0;\n"
      "  #pragma acc atomic capture\n  w = hd[2]++;\n"
      "  #pragma acc atomic capture\n  c = hc[3] += 2;\n"
      "  x[i] = v + (int)w + c;\n"
      "}\n",
      {"int *x", "int *hi", "long long *hl", "double *hd", "float *hf", "char *hc", "short *hs",
       "int n"});
  EXPECT_NE(S.Source.find("__jacc_atomic_add(&(hi[x[i] % 8]), 1)"), std::string::npos)
      << S.Source;
  EXPECT_NE(S.Source.find("__jacc_atomic_rmw(&(hd[x[i] % 8]), [&](auto __jacc_o)"),
            std::string::npos);
  EXPECT_NE(S.Source.find("v = __jacc_atomic_load(&(hi[0]))"), std::string::npos);
  EXPECT_NE(S.Source.find("__jacc_atomic_store(&(hd[1]), (v * 2.0))"), std::string::npos);
  EXPECT_NE(S.Source.find("w = __jacc_atomic_rmw(&(hd[2]), [&](auto __jacc_o) { return "
                          "__jacc_o + 1; }, true)"),
            std::string::npos);
  EXPECT_EQ(S.Source.find("__atomic_"), std::string::npos) << "host builtins leaked";
  expectCompiles(S);
}

TEST(CudaCodegenTest, AtomicsOnVlaElementsAreFlattenedOnce) {
  CudaKernelSource S = generate("#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++) {\n"
                                "  #pragma acc atomic update\n"
                                "  h[i % 2][x[i] % m] += 1;\n}\n",
                                {"int n", "int m", "const int *x", "int (*h)[m]"});
  EXPECT_NE(S.Source.find("__jacc_atomic_add(&((h + (i % 2) * __jacc_vla_h_s1)[x[i] % m]), (1))"),
            std::string::npos)
      << S.Source;
  expectCompiles(S);
}

} // namespace
