// Tests of restrictDecl (where `restrict` goes in an argument's declaration) and
// restrictableKernel (which kernels may have every pointer declared restrict).
#include "analysis/RestrictArgs.h"
#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

/// restrictDecl of a pointer argument declared as Decl, named Name.
std::string restrictOf(const std::string &Decl, const std::string &Name) {
  ArgInfo A;
  A.ArgKind = ArgInfo::Kind::Pointer;
  A.Decl = Decl;
  A.Name = Name;
  return restrictDecl(A);
}

TEST(RestrictArgsTest, TheQualifierQualifiesThePointerDeclared) {
  EXPECT_EQ(restrictOf("double *x", "x"), "double *restrict x");
  EXPECT_EQ(restrictOf("const float*x", "x"), "const float*restrict x");
  EXPECT_EQ(restrictOf("const double (*a)[n]", "a"), "const double (*restrict a)[n]");
  EXPECT_EQ(restrictOf("double (*b)[b_n][4]", "b"), "double (*restrict b)[b_n][4]");
  EXPECT_EQ(restrictOf("double *const p", "p"), "double *const restrict p");
  EXPECT_EQ(restrictOf("double *restrict p", "p"), "double *restrict p");
  // The name is found as a word, not inside the type's names.
  EXPECT_EQ(restrictOf("struct xs *x", "x"), "struct xs *restrict x");
}

TEST(RestrictArgsTest, DeclarationsThatCannotTakeItAreLeftAlone) {
  EXPECT_EQ(restrictOf("double x[]", "x"), "");   // an array parameter
  EXPECT_EQ(restrictOf("vec_t x", "x"), "");      // a typedef'd pointer
  EXPECT_EQ(restrictOf("double *y", "x"), "");    // the name is not there
  ArgInfo Scalar;
  Scalar.Decl = "int n";
  Scalar.Name = "n";
  EXPECT_EQ(restrictDecl(Scalar), "");
}

/// restrictableKernel of a kernel over the given arguments.
bool restrictable(const std::string &Src, const std::vector<std::string> &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return false;
  }
  EXPECT_EQ(K->MayRestrict, restrictableKernel(*K)) << "the pipeline records it";
  return K->MayRestrict;
}

/// A dense matrix-vector product (a nest restrict lets the host code jam) over the arrays
/// declared by Decls, which name a, x and y.
const char *MatVec = "#pragma acc parallel loop\n"
                     "for (int i = 0; i < n; i++) {\n"
                     "  double s = 0;\n"
                     "  for (int j = 0; j < n; j++) s += a[i * n + j] * x[j] * p->w;\n"
                     "  y[i] = s;\n"
                     "}\n";

TEST(RestrictArgsTest, KernelsOfPlainPointersWhoseNestsJam) {
  EXPECT_TRUE(restrictable(MatVec, {"int n", "const double *a", "const double *x", "double *y",
                                    "const struct { double w; } *p"}));
  // A copy or a stencil gains nothing from it (and LLVM 16 made stencils slower with it).
  EXPECT_FALSE(restrictable("#pragma acc parallel loop present(x, y)\n"
                            "for (int i = 0; i < n; i++) y[i] = x[i];\n",
                            {"int n", "const double *x", "double *y"}));
  // Nor a nest whose reduction's partial sums the jam would reorder.
  EXPECT_FALSE(restrictable("#pragma acc parallel loop reduction(+:d)\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  double s = 0;\n"
                            "  for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];\n"
                            "  d += s;\n"
                            "}\n",
                            {"int n", "const double *a", "const double *x", "double d"}));
}

// A nest that reaches its arrays through indices read from memory (NPB LU's hyperplanes): LLVM
// keeps it scalar, and reloads every value after each store unless the pointers are restrict.
TEST(RestrictArgsTest, KernelsIndexedThroughMemory) {
  EXPECT_TRUE(
      restrictable("#pragma acc parallel loop\n"
                   "for (int n = 0; n < np; n++) {\n"
                   "  int i = ix[n];\n"
                   "  tv[n] = u[i] - 2 * u[i + 1];\n"
                   "  tw[n] = u[i] * tv[n];\n"
                   "}\n",
                   {"int np", "const int *ix", "const double *u", "double *tv", "double *tw"}));
}

TEST(RestrictArgsTest, KernelsThatReachMemoryNoArgumentNames) {
  // One pointer: nothing to tell it apart from.
  EXPECT_FALSE(restrictable("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  double s = 0;\n"
                            "  for (int j = 0; j < n; j++) s += y[j] * y[j];\n"
                            "  y[i] = s;\n"
                            "}\n",
                            {"int n", "double *y"}));
  // Rows reached through a pointer array (a), a struct argument holding a pointer (p), a
  // pointer to pointers inside a struct (p), deviceptr memory the present table does not know.
  const std::vector<std::string> Plain = {"int n", "const double *a", "const double *x",
                                          "double *y"};
  auto With = [&](std::vector<std::string> Decls, const char *Decl) {
    Decls.push_back(Decl);
    return Decls;
  };
  EXPECT_FALSE(restrictable("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) {\n"
                            "  double s = 0;\n"
                            "  for (int j = 0; j < n; j++) s += a[i][j] * x[j];\n"
                            "  y[i] = s;\n"
                            "}\n",
                            {"int n", "double **a", "const double *x", "double *y"}));
  EXPECT_FALSE(restrictable(MatVec, With(Plain, "struct { double w; double *q; } *p")));
  EXPECT_FALSE(restrictable(MatVec, With(Plain, "const struct { double **q; double w; } *p")));
  EXPECT_TRUE(restrictable(MatVec, With(Plain, "const struct { double w; } *p")));
  EXPECT_FALSE(restrictable(std::string("#pragma acc parallel loop deviceptr(x)\n") +
                                (MatVec + std::string(MatVec).find('\n') + 1),
                            With(Plain, "const struct { double w; } *p")));
}

} // namespace
