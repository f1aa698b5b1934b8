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

const char *Copy = "#pragma acc parallel loop present(x, y)\n"
                   "for (int i = 0; i < n; i++) y[i] = x[i];\n";

TEST(RestrictArgsTest, KernelsOfPlainPointers) {
  EXPECT_TRUE(restrictable(Copy, {"int n", "const double *x", "double *y"}));
  EXPECT_TRUE(restrictable("#pragma acc parallel loop collapse(2)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  for (int j = 0; j < n; j++) b[i][j] = a[i][j] + p->w;\n",
                           {"int n", "const double (*a)[n]", "double (*b)[n]",
                            "const struct { double w; } *p"}));
}

TEST(RestrictArgsTest, KernelsThatReachMemoryNoArgumentNames) {
  // One pointer: nothing to tell it apart from.
  EXPECT_FALSE(restrictable("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) y[i] *= 2;\n",
                            {"int n", "double *y"}));
  // Rows reached through a pointer array, a struct argument holding a pointer, a pointer to
  // pointers inside a struct.
  EXPECT_FALSE(restrictable("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) y[i] = r[i][0];\n",
                            {"int n", "double **r", "double *y"}));
  EXPECT_FALSE(restrictable("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) y[i] = s.p[i] + x[i];\n",
                            {"int n", "struct { double *p; } s", "const double *x",
                             "double *y"}));
  EXPECT_FALSE(restrictable("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) y[i] = s->p[i];\n",
                            {"int n", "const struct { double *p; } *s", "double *y"}));
  // deviceptr memory is not in the present table.
  EXPECT_FALSE(restrictable("#pragma acc parallel loop deviceptr(x)\n"
                            "for (int i = 0; i < n; i++) y[i] = x[i];\n",
                            {"int n", "const double *x", "double *y"}));
}

} // namespace
