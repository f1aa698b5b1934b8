#include "Frontend.h"

#include "Error.h"

#include <gtest/gtest.h>

using namespace jacc;
using namespace jacc::analysis;

namespace {

KernelInfo analyze(const std::string &Src, std::vector<std::string> Decls) {
  auto K = analyzeKernel(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return std::move(*K);
}

std::string errorOf(const std::string &Src, std::vector<std::string> Decls, ErrorCode *Code) {
  auto K = analyzeKernel(Src, Decls);
  if (K) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  std::string Msg;
  ErrorCode C = jacc::takeError(K.takeError(), Msg);
  if (Code)
    *Code = C;
  return Msg;
}

TEST(FrontendTest, SaxpyArgumentsAndNest) {
  KernelInfo K = analyze("#pragma acc parallel loop present(x, y)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  y[i] = a * x[i] + y[i];\n",
                         {"float *y", "const float *x", "float a", "int n"});
  ASSERT_EQ(K.Args.size(), 4u);
  EXPECT_EQ(K.Args[0].Name, "y");
  EXPECT_EQ(K.Args[0].ArgKind, ArgInfo::Kind::Pointer);
  EXPECT_EQ(K.Args[0].PointeeSize, 4u);
  EXPECT_EQ(K.Args[2].ArgKind, ArgInfo::Kind::Scalar);
  EXPECT_EQ(K.Args[2].Scalar, ScalarType::F32);
  EXPECT_EQ(K.Args[3].Scalar, ScalarType::I32);
  // Scalars come first in the entry's parameters.
  EXPECT_EQ(K.Args[2].Param, 0u);
  EXPECT_EQ(K.Args[3].Param, 1u);
  EXPECT_EQ(K.Args[0].Param, 2u);
  ASSERT_EQ(K.Nests.size(), 1u);
  ASSERT_EQ(K.Nests[0].Loops.size(), 1u);
  const CanonicalLoop &L = K.Nests[0].Loops[0];
  EXPECT_EQ(L.Var, "i");
  EXPECT_EQ(L.VarType, "int");
  EXPECT_EQ(L.Lower, "0");
  EXPECT_EQ(L.Upper, "n");
  EXPECT_EQ(L.Step, "1");
  EXPECT_EQ(L.Compare, CanonicalLoop::Cmp::LT);
  EXPECT_FALSE(K.Serial);
}

TEST(FrontendTest, UndeclaredVariableReportsKernelLineAndColumn) {
  ErrorCode C;
  std::string Msg = errorOf("#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++)\n"
                            "  y[i] = q;\n",
                            {"float *y", "int n"}, &C);
  EXPECT_EQ(C, ErrorCode::Compile);
  EXPECT_NE(Msg.find("kernel:3:10: error: use of undeclared identifier 'q'"), std::string::npos)
      << Msg;
}

} // namespace

namespace {
TEST(FrontendTest, ScalarsBeforePointersInUserOrder) {
  KernelInfo K = analyze("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
                         {"int n", "float a", "float *x", "float *y"});
  ASSERT_EQ(K.Args.size(), 4u);
  EXPECT_EQ(K.Args[3].Param, 3u);
}
} // namespace
