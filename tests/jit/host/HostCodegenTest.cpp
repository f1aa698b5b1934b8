// Tests of host code generation: the entry signature, the team ABI, reduction identities and
// write-back, the guards and barriers of region statements, and that what is generated compiles.
#include "jit/host/HostCodegen.h"

#include "analysis/Frontend.h"
#include "jit/host/HostABI.h"
#include "jit/host/HostCompiler.h"
#include "jit/host/HostJIT.h"
#include "support/Error.h"
#include "tests/jit/cuda/CudaCheck.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
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

/// The generated source of a kernel, which must analyse. Every kernel of these tests must also
/// compile for CUDA (the GPU backend generates from the same analysis).
std::string generate(const std::string &Src, const Strings &Decls) {
  KernelInfo K = analyze(Src, Decls);
  if (K.Args.size() != Decls.size())
    return "";
  expectKernelCompilesForCuda(K);
  return generateHostSource(K);
}

/// The plain entry (every device computes everything) of generated code: from its signature to
/// the next entry, if any.
std::string plainEntry(const std::string &C) {
  size_t Begin = C.find("void __jacc_entry(");
  if (Begin == std::string::npos) {
    ADD_FAILURE() << "no plain entry in:\n" << C;
    return "";
  }
  size_t End = C.find("void __jacc_entry_", Begin);
  return C.substr(Begin, End == std::string::npos ? std::string::npos : End - Begin);
}

/// Compile generated code; report clang's diagnostics on failure.
void expectCompiles(const std::string &Code) {
  auto Obj = compileHostObjectInProcess(Code);
  if (!Obj) {
    std::string Msg;
    takeError(Obj.takeError(), Msg);
    ADD_FAILURE() << Msg << "\n--- generated source:\n" << Code;
    return;
  }
  EXPECT_GT(Obj->Bytes.size(), 64u);
}

const char *const Saxpy = "#pragma acc parallel loop present(x, y)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n";

//===-- Entry and ABI -----------------------------------------------------------------------===//

TEST(HostCodegenTest, EntrySignatureInParamOrder) {
  std::string C = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  EXPECT_NE(C.find("void __jacc_entry(float a, int n, float *y, const float *x, "
                   "const jacc_host_team *__jacc_t) {\n"),
            std::string::npos)
      << C;
  EXPECT_EQ(count(C, "void __jacc_entry("), 1u);
  EXPECT_STREQ(EntryName, "__jacc_entry");
}

TEST(HostCodegenTest, EntryWithoutArgs) {
  std::string C = generate("#pragma acc serial\n{ }\n", {});
  EXPECT_NE(C.find("void __jacc_entry(const jacc_host_team *__jacc_t) {\n"), std::string::npos)
      << C;
  expectCompiles(C);
}

TEST(HostCodegenTest, TeamDefinitionComesFirst) {
  std::string C = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  // The very text of HostABI.h's definition, before anything else: generated code and the
  // runtime agree on the layout of jacc_host_team.
  const std::string ABI = JACC_HOST_ABI_TEXT;
  EXPECT_EQ(C.rfind(ABI, 0), 0u) << C.substr(0, 300);
  EXPECT_EQ(ABI.rfind("typedef struct jacc_host_team {", 0), 0u) << ABI;
  for (const char *Field : {"long tid;", "long nthreads;", "void (*barrier)(void *team);",
                            "void *team;", "void *reduction;"})
    EXPECT_NE(ABI.find(Field), std::string::npos) << Field;
  EXPECT_LT(ABI.size(), C.find("void __jacc_entry("));
}

TEST(HostCodegenTest, LeadingDeclarationsPrecedeTheEntry) {
  std::string C = generate("static float twice(float v) { return 2 * v; }\n"
                           "#pragma acc parallel loop\n"
                           "for (int i = 0; i < n; i++) x[i] = twice(x[i]);\n",
                           {"float *x", "int n"});
  size_t Decl = C.find("#line 1 \"kernel\"\nstatic float twice(float v) { return 2 * v; }\n");
  ASSERT_NE(Decl, std::string::npos) << C;
  EXPECT_LT(Decl, C.find("void __jacc_entry("));
  expectCompiles(C);
}

TEST(HostCodegenTest, LineDirectivesMapTheBodyToKernelLines) {
  std::string C = generate("#pragma acc parallel loop\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  x[i] = 0;\n",
                           {"int *x", "int n"});
  // The construct's statement starts on kernel line 2; the loop body on line 3, column 3.
  EXPECT_NE(C.find("\n#line 2 \"kernel\"\n"), std::string::npos) << C;
  EXPECT_NE(C.find("\n#line 3 \"kernel\"\n  x[i] = 0;"), std::string::npos) << C;
}

//===-- Parallel nests ----------------------------------------------------------------------===//

TEST(HostCodegenTest, ParallelLoopSharesIterations) {
  std::string C = generate(Saxpy, {"float *y", "const float *x", "float a", "int n"});
  std::string E = plainEntry(C);
  EXPECT_NE(E.find("long long __jacc_lo0 = (long long)(0), __jacc_hi0 = (long long)(n), "
                   "__jacc_st0 = (long long)(1);"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("long long __jacc_n0 = __jacc_hi0 > __jacc_lo0 ? (__jacc_hi0 - __jacc_lo0 + "
                   "__jacc_st0 - 1) / __jacc_st0 : 0;"),
            std::string::npos)
      << E;
  EXPECT_EQ(count(E, "__jacc_share(__jacc_t, "), 1u) << E;
  // An int iterator counts in int from its first value (a truncation per element would keep
  // LLVM from vectorising), runs being cut so that the steps stay within int.
  EXPECT_NE(E.find("const int __jacc_v0 = (int)(__jacc_lo0 + __jacc_c0 * __jacc_st0);\n"
                   "const int __jacc_vs = (int)__jacc_st0;\n"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("for (int __jacc_q = 0; __jacc_q < __jacc_len; ++__jacc_q) {\n"
                   "const long long __jacc_outer = (__jacc_c0 + __jacc_q);\n"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("int i = __jacc_v0 + __jacc_q * __jacc_vs;"), std::string::npos) << E;
  EXPECT_NE(E.find("if (__jacc_c1 - __jacc_c0 > 2147483647LL / __jacc_st0)"), std::string::npos);
  // No thread-0 guard and no barrier: one statement, the loop.
  EXPECT_EQ(count(E, "tid == 0"), 0u) << E;
  EXPECT_EQ(count(E, "__jacc_t->barrier(__jacc_t->team);"), 0u);
  // The original loop header is gone; the body stays.
  EXPECT_EQ(count(E, "for (int i = 0; i < n; i++)"), 0u);
  EXPECT_EQ(count(E, "y[i] = a * x[i] + y[i];"), 1u);
  expectCompiles(C);
}

TEST(HostCodegenTest, DecreasingLoop) {
  std::string C = generate("#pragma acc parallel loop\n"
                           "for (long i = n - 1; i >= 0; i -= 2) x[i] = 0;\n",
                           {"int *x", "long n"});
  EXPECT_NE(C.find("__jacc_st0 = (long long)(2);"), std::string::npos) << C;
  EXPECT_NE(C.find("long i = (long)(__jacc_lo0 - (__jacc_k) * __jacc_st0);"), std::string::npos)
      << C;
  expectCompiles(C);
  std::string I = generate("#pragma acc parallel loop\n"
                           "for (int i = n - 1; i >= 0; i -= 3) x[i] = 0;\n",
                           {"int *x", "int n"});
  EXPECT_NE(I.find("const int __jacc_v0 = (int)(__jacc_lo0 - __jacc_c0 * __jacc_st0);\n"
                   "const int __jacc_vs = -(int)__jacc_st0;\n"),
            std::string::npos)
      << I;
  expectCompiles(I);
}

TEST(HostCodegenTest, CollapsedNestsCompile) {
  std::string C2 = generate("#pragma acc parallel loop collapse(2)\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  for (int j = 0; j < m; j++)\n"
                            "    a[i][j] = i + j;\n",
                            {"double (*a)[m]", "int n", "int m"});
  EXPECT_NE(C2.find("long long __jacc_inner = 1 * __jacc_n1;"), std::string::npos) << C2;
  expectCompiles(C2);
  std::string C3 = generate("#pragma acc parallel loop collapse(3)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  for (int j = 0; j < n; j++) {\n"
                            "    for (int k = 0; k < n; k++) {\n"
                            "      a[(i * n + j) * n + k] = 1;\n"
                            "    }\n"
                            "  }\n"
                            "}\n",
                            {"float *a", "int n"});
  EXPECT_NE(C3.find("long long __jacc_inner = 1 * __jacc_n1 * __jacc_n2;"), std::string::npos)
      << C3;
  expectCompiles(C3);
}

// A thread keeps whole rows of an independent inner loop (a GPU shares them): LLVM vectorises
// the row.
TEST(HostCodegenTest, IndependentInnerLoopsStayWholeRows) {
  std::string C = generate("#pragma acc parallel loop gang\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  #pragma acc loop vector\n"
                           "  for (int j = 0; j < m; j++)\n"
                           "    a[i][j] = i + j;\n",
                           {"double (*a)[m]", "int n", "int m"});
  EXPECT_NE(C.find("for (int j = 0; j < m; j++)"), std::string::npos) << C;
  EXPECT_EQ(C.find("__jacc_n1"), std::string::npos) << C;
  expectCompiles(C);
}

/// A Thomas sweep as NPB's SP writes it: `loop vector` over j around a recurrence along i, on
/// arrays whose last dimension is j; the loop variables and temporaries declared outside.
const char *ThomasSweep = "#pragma acc parallel loop gang\n"
                          "for (int k = 0; k < nz; k++) {\n"
                          "  #pragma acc loop vector\n"
                          "  for (j = 0; j < ny; j++) {\n"
                          "    for (i = 0; i < nx; i++) {\n"
                          "      i1 = i + 1;\n"
                          "      fac = 1.0 / lhs[k][i][j];\n"
                          "      rhs[k][i1][j] = rhs[k][i1][j] - fac * rhs[k][i][j];\n"
                          "    }\n"
                          "  }\n"
                          "}\n";
const Strings ThomasDecls = {"const double (*lhs)[nx + 1][ny]",
                             "double (*rhs)[nx + 1][ny]",
                             "int i",
                             "int j",
                             "int nz",
                             "int nx",
                             "int ny",
                             "int i1",
                             "double fac"};

// A thread runs the independent loop inside the recurrence (ParallelNest::Interchanges), in the
// plain entry and the split one: the loop LLVM vectorises is then the contiguous one.
TEST(HostCodegenTest, AnIndependentLoopAroundARecurrenceRunsInsideIt) {
  KernelInfo K = analyze(ThomasSweep, ThomasDecls);
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  for (bool Split : {false, true}) {
    std::string C = generateHostSource(K, Split);
    size_t I = C.find("for (i = 0; i < nx; i++)"), J = C.find("for (j = 0; j < ny; j++)");
    ASSERT_NE(I, std::string::npos) << C;
    ASSERT_NE(J, std::string::npos) << C;
    EXPECT_LT(I, J) << C;
    expectCompiles(C);
  }
}

TEST(HostCodegenTest, InnermostLoopThatOnlyGathersStaysScalar) {
  // A 5x5 block per cell: vectorised over cells, every access is a 5- or 25-strided gather.
  const std::string Hint = "#pragma clang loop vectorize(disable)\n";
  std::string Block = generate("#pragma acc parallel loop present(A, x, y)\n"
                               "for (int c = 0; c < cells; c++)\n"
                               "  for (int r = 0; r < 5; r++) {\n"
                               "    double s = 0.0;\n"
                               "    for (int k = 0; k < 5; k++) s += A[c][r][k] * x[c][k];\n"
                               "    y[c][r] = s;\n"
                               "  }\n",
                               {"int cells", "const double (*A)[5][5]", "const double (*x)[5]",
                                "double (*y)[5]"});
  EXPECT_EQ(count(Block, Hint), 1u) << Block;
  EXPECT_EQ(count(Block, "contract(off)"), 0u) << "5-element sums are no long chain";
  EXPECT_NE(Block.find(Hint + "for (int __jacc_q = 0;"), std::string::npos) << Block;
  expectCompiles(Block);
  // The same with a long iterator, and down the columns of a collapsed nest.
  std::string Long = generate("#pragma acc parallel loop\n"
                              "for (long c = 0; c < n; c++) y[c][1] = 2 * x[c][0];\n",
                              {"long n", "const double (*x)[5]", "double (*y)[5]"});
  EXPECT_NE(Long.find(Hint + "for (long long __jacc_k = __jacc_c0;"), std::string::npos) << Long;
  expectCompiles(Long);
  std::string Column = generate("#pragma acc parallel loop collapse(2)\n"
                                "for (int j = 0; j < m; j++)\n"
                                "  for (int i = 0; i < n; i++) b[i][j] = 2 * a[i][j];\n",
                                {"int n", "int m", "const double (*a)[m]", "double (*b)[m]"});
  EXPECT_NE(Column.find(Hint + "for (int __jacc_q = 0;"), std::string::npos) << Column;
  expectCompiles(Column);
  // Loops with a unit-stride access keep the vectoriser's choice.
  EXPECT_EQ(count(generate(Saxpy, {"int n", "float a", "const float *x", "float *y"}), Hint), 0u);
  std::string MatMul = generate("#pragma acc parallel loop collapse(2)\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  for (int j = 0; j < n; j++) {\n"
                                "    double s = 0.0;\n"
                                "    for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];\n"
                                "    c[i][j] = s;\n"
                                "  }\n",
                                {"int n", "const double (*a)[n]", "const double (*b)[n]",
                                 "double (*c)[n]"});
  EXPECT_EQ(count(MatMul, Hint), 0u) << MatMul;
}

TEST(HostCodegenTest, FloatAccumulationsAreNotFused) {
  // The pragma opens the innermost loop's body, before its first statement.
  const std::string Unfused = "; ++__jacc_q) {\n#pragma clang fp contract(off)\n";
  std::string Dot = generate("#pragma acc parallel loop present(a, b) reduction(+:d)\n"
                             "for (int i = 0; i < n; i++) d += a[i] * b[i];\n",
                             {"int n", "const double *a", "const double *b", "double d"});
  EXPECT_EQ(count(Dot, "#pragma clang fp contract(off)"), 1u) << Dot;
  EXPECT_NE(Dot.find(Unfused), std::string::npos) << Dot;
  expectCompiles(Dot);
  std::string MatMul = generate("#pragma acc parallel loop collapse(2)\n"
                                "for (int i = 0; i < n; i++)\n"
                                "  for (int j = 0; j < n; j++) {\n"
                                "    double s = 0.0;\n"
                                "    for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];\n"
                                "    c[i][j] = s;\n"
                                "  }\n",
                                {"int n", "const double (*a)[n]", "const double (*b)[n]",
                                 "double (*c)[n]"});
  EXPECT_NE(MatMul.find(Unfused), std::string::npos) << MatMul;
  expectCompiles(MatMul);
  std::string Long = generate("#pragma acc parallel loop reduction(+:d)\n"
                              "for (long i = 0; i < n; i++) d += a[i] * a[i];\n",
                              {"long n", "const double *a", "double d"});
  EXPECT_NE(Long.find("++__jacc_k) {\n#pragma clang fp contract(off)\n"), std::string::npos)
      << Long;
  expectCompiles(Long);
  // A multiply-add that carries no chain keeps its FMA.
  EXPECT_EQ(count(generate(Saxpy, {"int n", "float a", "const float *x", "float *y"}),
                  "contract(off)"),
            0u);
}

TEST(HostCodegenTest, PrivateVariablesAreDeclaredPerIteration) {
  std::string C = generate("#pragma acc parallel loop private(t)\n"
                           "for (int i = 0; i < n; i++) { t = x[i]; x[i] = t * t; }\n",
                           {"double *x", "int n", "double t"});
  EXPECT_NE(C.find("int i = __jacc_v0 + __jacc_q * __jacc_vs;\ndouble t;\n"),
            std::string::npos)
      << C;
  expectCompiles(C);
}

//===-- Region statements -------------------------------------------------------------------===//

TEST(HostCodegenTest, SerialKernelRunsOnThreadZero) {
  std::string C = generate("#pragma acc serial\n"
                           "{\n"
                           "  for (int i = 0; i < n; i++) x[i] = i;\n"
                           "}\n",
                           {"int *x", "int n"});
  std::string E = plainEntry(C);
  EXPECT_EQ(count(E, "if (__jacc_t->tid == 0) {"), 1u) << E;
  EXPECT_EQ(count(E, "__jacc_share(__jacc_t, "), 0u);
  EXPECT_EQ(count(E, "__jacc_t->barrier("), 0u);
  // The guard encloses the whole body: the loop stays as written, after it.
  size_t Guard = E.find("if (__jacc_t->tid == 0) {");
  EXPECT_LT(Guard, E.find("for (int i = 0; i < n; i++) x[i] = i;"));
  EXPECT_NE(E.find("for (int i = 0; i < n; i++) x[i] = i;"), std::string::npos);
  expectCompiles(C);
}

TEST(HostCodegenTest, RegionStatementsGuardsAndBarriers) {
  std::string C = generate("#pragma acc parallel\n"
                           "{\n"
                           "  int h = n / 2;\n"
                           "  x[0] = h;\n"
                           "#pragma acc loop\n"
                           "  for (int i = 1; i < n; i++) x[i] = i + h;\n"
                           "  x[0] += 1;\n"
                           "}\n",
                           {"int *x", "int n"});
  // Master statements on thread 0; a barrier after every statement but the last.
  std::string E = plainEntry(C);
  EXPECT_EQ(count(E, "if (__jacc_t->tid == 0) {"), 2u) << E;
  EXPECT_EQ(count(E, "__jacc_t->barrier(__jacc_t->team);"), 2u) << E;
  // The redundant declaration is not guarded: every thread needs h.
  size_t Decl = E.find("int h = n / 2;");
  ASSERT_NE(Decl, std::string::npos);
  EXPECT_LT(Decl, E.find("if (__jacc_t->tid == 0) {"));
  // The last statement is guarded, with no barrier after it.
  size_t LastGuard = E.rfind("if (__jacc_t->tid == 0) {");
  EXPECT_LT(E.rfind("__jacc_t->barrier(__jacc_t->team);"), LastGuard);
  EXPECT_LT(LastGuard, E.find("x[0] += 1;"));
  expectCompiles(C);
}

TEST(HostCodegenTest, KernelsRegionWithCollapsedBracedNestCompiles) {
  std::string C = generate("#pragma acc kernels\n"
                           "{\n"
                           "#pragma acc loop collapse(2)\n"
                           "  for (int i = 0; i < n; i++) {\n"
                           "    for (int j = 0; j < n; j++) {\n"
                           "      a[i * n + j] = 0;\n"
                           "    }\n"
                           "  }\n"
                           "  a[0] = 1;\n"
                           "}\n",
                           {"float *a", "int n"});
  expectCompiles(C);
}

//===-- Arguments ---------------------------------------------------------------------------===//

TEST(HostCodegenTest, AggregatesArePassedByAddressAndCopied) {
  std::string C = generate("struct P { double x, y; };\n"
                           "#pragma acc parallel loop\n"
                           "for (int i = 0; i < n; i++) a[i] = p.x * i + p.y;\n",
                           {"double *a", "int n", "struct P p"});
  EXPECT_NE(C.find("void __jacc_entry(int n, const void *__jacc_agg1, double *a, "
                   "const jacc_host_team *__jacc_t) {\n"
                   "struct P p; __builtin_memcpy(&p, __jacc_agg1, sizeof p);\n"),
            std::string::npos)
      << C;
  expectCompiles(C);
}

//===-- Reductions --------------------------------------------------------------------------===//

TEST(HostCodegenTest, ReductionsStartAtTheIdentityAndAreStoredInTheirSlots) {
  std::string C = generate("#pragma acc parallel loop reduction(+:s) reduction(max:m)\n"
                           "for (int i = 0; i < n; i++) { s += x[i]; m = x[i] > m ? x[i] : m; }\n",
                           {"const int *x", "int n", "double s", "int m"});
  std::string E = plainEntry(C);
  EXPECT_NE(E.find("const jacc_host_team *__jacc_t) {\ns = 0;\nm = (-2147483647-1);\n"),
            std::string::npos)
      << E;
  size_t StoreS =
      E.find("__builtin_memcpy((char *)__jacc_t->reduction + 8 * (0), &s, sizeof s);");
  size_t StoreM =
      E.find("__builtin_memcpy((char *)__jacc_t->reduction + 8 * (1), &m, sizeof m);");
  ASSERT_NE(StoreS, std::string::npos) << E;
  ASSERT_NE(StoreM, std::string::npos) << E;
  // After the loop.
  EXPECT_GT(StoreS, E.find("__jacc_share(__jacc_t, "));
  EXPECT_GT(StoreS, E.find("s += x[i];"));
  expectCompiles(C);
}

TEST(HostCodegenTest, ArrayReductionsUseAPrivateCopyStoredElementBySlot) {
  std::string C = generate("#pragma acc parallel loop reduction(+:s) reduction(min:h[j:3])\n"
                           "for (int i = 0; i < n; i++) { s += i; h[j + i % 3] -= x[i]; }\n",
                           {"const float *x", "int n", "int j", "float *h", "int s"});
  std::string E = plainEntry(C);
  // The pointer argument is not used: its name goes to the private copy, element j first.
  EXPECT_NE(E.find("void *__jacc_rarg_"), std::string::npos) << E;
  EXPECT_NE(E.find("float __jacc_rbuf_h[3];\n"
                   "for (int __jacc_ri = 0; __jacc_ri < 3; ++__jacc_ri) __jacc_rbuf_h[__jacc_ri] = "
                   "(__builtin_inf());\n"
                   "const long long __jacc_rlo_h = (long long)(j);\n"
                   "float *volatile __jacc_rptr_h = __jacc_rbuf_h;\n"
                   "float *const h = __jacc_rptr_h - __jacc_rlo_h;\n"),
            std::string::npos)
      << E;
  // s takes slot 0, h's elements slots 1 to 3 and its first index slot 4.
  size_t StoreH = E.find("for (int __jacc_ri = 0; __jacc_ri < 3; ++__jacc_ri) {\n"
                         "__builtin_memcpy((char *)__jacc_t->reduction + 8 * (1 + __jacc_ri), "
                         "&__jacc_rbuf_h[__jacc_ri], sizeof __jacc_rbuf_h[__jacc_ri]);\n}\n"
                         "__builtin_memcpy((char *)__jacc_t->reduction + 8 * (4), &__jacc_rlo_h, "
                         "sizeof __jacc_rlo_h);");
  ASSERT_NE(StoreH, std::string::npos) << E;
  EXPECT_GT(StoreH, E.find("h[j + i % 3] -= x[i];"));
  expectCompiles(C);
}

struct IdentityCase {
  ReductionOp Op;
  ScalarType Type;
  const char *Literal;
};

TEST(HostCodegenTest, ReductionIdentityLiterals) {
  using O = ReductionOp;
  using T = ScalarType;
  const T All[] = {T::Bool, T::I8,  T::U8,  T::I16, T::U16, T::I32,
                   T::U32,  T::I64, T::U64, T::F32, T::F64, T::F80};
  for (T Ty : All) {
    EXPECT_EQ(reductionIdentity(O::Add, Ty), "0") << scalarTypeName(Ty);
    EXPECT_EQ(reductionIdentity(O::Mul, Ty), "1") << scalarTypeName(Ty);
    EXPECT_EQ(reductionIdentity(O::LogAnd, Ty), "1") << scalarTypeName(Ty);
    EXPECT_EQ(reductionIdentity(O::LogOr, Ty), "0") << scalarTypeName(Ty);
    if (isIntegral(Ty)) {
      EXPECT_EQ(reductionIdentity(O::BitAnd, Ty), "(~0ULL)") << scalarTypeName(Ty);
      EXPECT_EQ(reductionIdentity(O::BitOr, Ty), "0") << scalarTypeName(Ty);
      EXPECT_EQ(reductionIdentity(O::BitXor, Ty), "0") << scalarTypeName(Ty);
    }
  }
  const IdentityCase MaxMin[] = {
      {O::Max, T::Bool, "0"},
      {O::Min, T::Bool, "1"},
      {O::Max, T::I8, "(-127-1)"},
      {O::Min, T::I8, "127"},
      {O::Max, T::U8, "0"},
      {O::Min, T::U8, "255"},
      {O::Max, T::I16, "(-32767-1)"},
      {O::Min, T::I16, "32767"},
      {O::Max, T::U16, "0"},
      {O::Min, T::U16, "65535"},
      {O::Max, T::I32, "(-2147483647-1)"},
      {O::Min, T::I32, "2147483647"},
      {O::Max, T::U32, "0U"},
      {O::Min, T::U32, "4294967295U"},
      {O::Max, T::I64, "(-9223372036854775807LL-1)"},
      {O::Min, T::I64, "9223372036854775807LL"},
      {O::Max, T::U64, "0ULL"},
      {O::Min, T::U64, "18446744073709551615ULL"},
      {O::Max, T::F32, "(-__builtin_inf())"},
      {O::Min, T::F32, "(__builtin_inf())"},
      {O::Max, T::F64, "(-__builtin_inf())"},
      {O::Min, T::F64, "(__builtin_inf())"},
      {O::Max, T::F80, "(-__builtin_inf())"},
      {O::Min, T::F80, "(__builtin_inf())"},
  };
  for (const IdentityCase &C : MaxMin)
    EXPECT_EQ(reductionIdentity(C.Op, C.Type), C.Literal)
        << reductionOpName(C.Op) << " " << scalarTypeName(C.Type);
}

/// The identity value of Op for T, as C++ computes it.
template <typename T> T expectedIdentity(ReductionOp Op) {
  constexpr bool Float = !std::numeric_limits<T>::is_integer;
  switch (Op) {
  case ReductionOp::Add:
  case ReductionOp::BitOr:
  case ReductionOp::BitXor:
  case ReductionOp::LogOr:
    return T(0);
  case ReductionOp::Mul:
  case ReductionOp::LogAnd:
    return T(1);
  case ReductionOp::BitAnd:
    return static_cast<T>(~0ULL);
  case ReductionOp::Max:
    if constexpr (Float)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  case ReductionOp::Min:
    if constexpr (Float)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  }
  return T(0);
}

TEST(HostCodegenTest, ReductionIdentitiesHaveTheRightValuesInC) {
  // Assign every literal to a variable of its C type in compiled code, then compare the stored
  // bytes with the identity computed here: a literal of the wrong type or range shows.
  const ReductionOp Ops[] = {ReductionOp::Add,    ReductionOp::Mul,    ReductionOp::Max,
                             ReductionOp::Min,    ReductionOp::BitAnd, ReductionOp::BitOr,
                             ReductionOp::BitXor, ReductionOp::LogAnd, ReductionOp::LogOr};
  const ScalarType Types[] = {ScalarType::Bool, ScalarType::I8,  ScalarType::U8,  ScalarType::I16,
                              ScalarType::U16,  ScalarType::I32, ScalarType::U32, ScalarType::I64,
                              ScalarType::U64,  ScalarType::F32, ScalarType::F64, ScalarType::F80,
                              ScalarType::C32,  ScalarType::C64, ScalarType::C80};
  struct Slot {
    ReductionOp Op;
    ScalarType Type;
  };
  std::vector<Slot> Slots;
  std::string Code = "void __jacc_ids(unsigned char *out) {\n";
  for (ScalarType T : Types)
    for (ReductionOp Op : Ops) {
      bool Bitwise =
          Op == ReductionOp::BitAnd || Op == ReductionOp::BitOr || Op == ReductionOp::BitXor;
      if ((Bitwise && !isIntegral(T)) ||
          (isComplex(T) && Op != ReductionOp::Add && Op != ReductionOp::Mul))
        continue;
      Code += "  { " + std::string(scalarTypeName(T)) + " v = " + reductionIdentity(Op, T) +
              "; __builtin_memcpy(out + " + std::to_string(32 * Slots.size()) +
              ", &v, sizeof v); }\n";
      Slots.push_back({Op, T});
    }
  Code += "}\n";
  auto Obj = compileHostObjectInProcess(Code);
  ASSERT_TRUE(static_cast<bool>(Obj)) << llvm::toString(Obj.takeError()) << "\n" << Code;
  auto Fns = loadHostObject(Obj->Bytes, std::vector<std::string>{"__jacc_ids"});
  ASSERT_TRUE(static_cast<bool>(Fns)) << llvm::toString(Fns.takeError());
  ASSERT_EQ(Fns->Symbols.size(), 1u);
  std::vector<unsigned char> Out(32 * Slots.size(), 0);
  reinterpret_cast<void (*)(unsigned char *)>(Fns->Symbols.front())(Out.data());

  auto Check = [&](size_t I, auto Expected) {
    decltype(Expected) Got;
    std::memcpy(&Got, &Out[32 * I], sizeof Got);
    EXPECT_EQ(Got, Expected) << reductionOpName(Slots[I].Op) << " " << scalarTypeName(Slots[I].Type)
                             << ": '" << reductionIdentity(Slots[I].Op, Slots[I].Type) << "'";
  };
  for (size_t I = 0; I < Slots.size(); ++I) {
    ReductionOp Op = Slots[I].Op;
    switch (Slots[I].Type) {
    case ScalarType::Bool:
      Check(I, expectedIdentity<bool>(Op));
      break;
    case ScalarType::I8:
      Check(I, expectedIdentity<int8_t>(Op));
      break;
    case ScalarType::U8:
      Check(I, expectedIdentity<uint8_t>(Op));
      break;
    case ScalarType::I16:
      Check(I, expectedIdentity<int16_t>(Op));
      break;
    case ScalarType::U16:
      Check(I, expectedIdentity<uint16_t>(Op));
      break;
    case ScalarType::I32:
      Check(I, expectedIdentity<int32_t>(Op));
      break;
    case ScalarType::U32:
      Check(I, expectedIdentity<uint32_t>(Op));
      break;
    case ScalarType::I64:
      Check(I, expectedIdentity<int64_t>(Op));
      break;
    case ScalarType::U64:
      Check(I, expectedIdentity<uint64_t>(Op));
      break;
    case ScalarType::F32:
      Check(I, expectedIdentity<float>(Op));
      break;
    case ScalarType::F64:
      Check(I, expectedIdentity<double>(Op));
      break;
    case ScalarType::F80: {
      // Only the 10 value bytes of an x87 long double are defined.
      long double Got = 0;
      std::memcpy(&Got, &Out[32 * I], 10);
      EXPECT_EQ(Got, expectedIdentity<long double>(Op)) << reductionOpName(Op) << " long double";
      break;
    }
    case ScalarType::C32:
      Check(I, std::complex<float>(expectedIdentity<float>(Op)));
      break;
    case ScalarType::C64:
      Check(I, std::complex<double>(expectedIdentity<double>(Op)));
      break;
    case ScalarType::C80: {
      long double Re = 0, Im = 0;
      std::memcpy(&Re, &Out[32 * I], 10);
      std::memcpy(&Im, &Out[32 * I + 16], 10);
      EXPECT_EQ(Re, expectedIdentity<long double>(Op)) << reductionOpName(Op) << " complex";
      EXPECT_EQ(Im, 0.0L) << reductionOpName(Op) << " long double _Complex";
      break;
    }
    }
  }
}

TEST(HostCodegenTest, ReductionsOfEveryTypeCompile) {
  const char *Types[] = {"_Bool",          "char",      "unsigned char", "short",
                         "unsigned short", "int",       "unsigned",      "long",
                         "unsigned long",  "long long", "float",         "double"};
  for (const char *T : Types) {
    bool Integral = std::string(T) != "float" && std::string(T) != "double";
    std::string Ops = "reduction(+:a) reduction(*:b) reduction(max:c) reduction(min:d) "
                      "reduction(&&:e) reduction(||:f)";
    std::string Body = "a += x[i]; b *= x[i]; c = x[i] > c ? x[i] : c; d = x[i] < d ? x[i] : d; "
                       "e = e && x[i]; f = f || x[i];";
    Strings Decls = {"const int *x", "int n"};
    for (const char *V : {"a", "b", "c", "d", "e", "f"})
      Decls.push_back(std::string(T) + " " + V);
    if (Integral) {
      Ops += " reduction(&:g) reduction(|:h) reduction(^:k)";
      Body += " g &= x[i]; h |= x[i]; k ^= x[i];";
      for (const char *V : {"g", "h", "k"})
        Decls.push_back(std::string(T) + " " + V);
    }
    std::string C = generate("#pragma acc parallel loop " + Ops +
                                 "\nfor (int i = 0; i < n; i++) { " + Body + " }\n",
                             Decls);
    SCOPED_TRACE(T);
    ASSERT_FALSE(C.empty());
    EXPECT_EQ(count(plainEntry(C), "__builtin_memcpy((char *)__jacc_t->reduction + "),
              Integral ? 9u : 6u);
    expectCompiles(C);
  }
}

} // namespace
