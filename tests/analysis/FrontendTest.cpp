// Tests of the kernel frontend: the arguments and their types, the construct's statements and
// their execution modes, reductions, data clauses, directives and diagnostics (the loop nests:
// LoopNestTest.cpp).
#include "analysis/Frontend.h"

#include "support/Error.h"
#include "tests/analysis/FrontendCheck.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

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

// A struct argument lists where its pointers lie: members, a nested struct's, an array's
// elements; a union's members (which overlap other data) and a struct without pointers none.
TEST(FrontendTest, StructArgumentsListTheirPointerOffsets) {
  KernelInfo K = analyze("typedef struct { int k; double *p; } In;\n"
                         "typedef struct { double *a; int n; In in; float *rows[2];\n"
                         "  union { int *u; long l; } un; short s; } S;\n"
                         "typedef struct { int n; double x; } Plain;\n"
                         "#pragma acc parallel loop\n"
                         "for (int i = 0; i < s.n; i++) s.a[i] = q.x;\n",
                         {"S s", "Plain q"});
  ASSERT_EQ(K.Args.size(), 2u);
  EXPECT_EQ(K.Args[0].ArgKind, ArgInfo::Kind::Aggregate);
  EXPECT_EQ(K.Args[0].PointerOffsets, (std::vector<uint64_t>{0, 24, 32, 40}));
  EXPECT_TRUE(K.Args[1].PointerOffsets.empty());
}
} // namespace

//===----------------------------------------------------------------------------------------===//
// Regions, reductions, clauses, arguments and diagnostics.
//===----------------------------------------------------------------------------------------===//

namespace {

//===-- The construct's statement -----------------------------------------------------------===//

TEST(FrontendTest, CombinedConstructNeedsAForLoop) {
  EXPECT_FAILURE("#pragma acc parallel loop\n"
                 "while (n > 0) x[--n] = 0;\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:2:1: '#pragma acc parallel loop' must be followed by a for loop");
}

TEST(FrontendTest, ReturnInRegion) {
  EXPECT_FAILURE("#pragma acc parallel\n"
                 "{\n"
                 "  if (n < 0) return;\n"
                 "#pragma acc loop\n"
                 "  for (int i = 0; i < n; i++) x[i] = 0;\n"
                 "}\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3:14: a compute construct cannot be left with return or goto");
  EXPECT_FAILURE("#pragma acc parallel loop\n"
                 "for (int i = 0; i < n; i++) {\n"
                 "  if (x[i]) return;\n"
                 "  x[i] = 1;\n"
                 "}\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3:13: a compute construct cannot be left with return or goto");
}

//===-- Regions: execution modes ------------------------------------------------------------===//

TEST(FrontendTest, KernelsRegionStatementModes) {
  std::string Src = "#pragma acc kernels\n"
                    "{\n"
                    "  int h = n / 2;\n"
                    "  x[0] = h;\n"
                    "#pragma acc loop\n"
                    "  for (int i = 1; i < n; i++) x[i] = i;\n"
                    "  s = h + 1;\n"
                    "#pragma acc loop seq\n"
                    "  for (int i = 0; i < n; i++) x[i] += s;\n"
                    "#pragma acc loop independent\n"
                    "  for (int i = 0; i < h; i++) y[i] = x[i];\n"
                    "  {\n"
                    "    int t = h;\n"
                    "    t++;\n"
                    "  }\n"
                    "}\n";
  KernelInfo K = analyze(Src, {"double *x", "double *y", "int n", "int s"});
  EXPECT_FALSE(K.Serial);
  EXPECT_TRUE(K.BodyIsCompound);
  EXPECT_EQ(K.Construct.Kind, DirectiveKind::Kernels);
  EXPECT_EQ(K.BodyBegin, Src.find("{"));
  EXPECT_EQ(K.BodyEnd, Src.size() - 1);
  ASSERT_EQ(K.Stmts.size(), 7u);
  using M = RegionStmt::Mode;
  const std::pair<M, const char *> Expected[] = {
      {M::Redundant, "int h = n / 2;"},
      {M::Master, "x[0] = h;"},
      {M::Shared, "for (int i = 1; i < n; i++) x[i] = i;"},
      {M::Redundant, "s = h + 1;"},
      {M::Master, "for (int i = 0; i < n; i++) x[i] += s;"},
      {M::Shared, "for (int i = 0; i < h; i++) y[i] = x[i];"},
      {M::Redundant, "{\n    int t = h;\n    t++;\n  }"},
  };
  for (size_t I = 0; I < 7; ++I) {
    EXPECT_EQ(K.Stmts[I].ExecMode, Expected[I].first) << "statement " << I;
    EXPECT_EQ(textOf(K, K.Stmts[I].Begin, K.Stmts[I].End), Expected[I].second);
  }
  EXPECT_EQ(K.Stmts[2].Nest, 0);
  EXPECT_EQ(K.Stmts[5].Nest, 1);
  EXPECT_EQ(K.Stmts[0].Nest, -1);
  EXPECT_EQ(K.Stmts[1].Nest, -1);
  EXPECT_EQ(K.Stmts[4].Nest, -1);
  ASSERT_EQ(K.Nests.size(), 2u);
  EXPECT_EQ(K.Nests[0].Loops[0].Lower, "1");
  EXPECT_EQ(K.Nests[1].Loops[0].Upper, "h");
}

TEST(FrontendTest, RegionWithoutBracesIsOneStatement) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "x[0] = n;\n",
                         {"int *x", "int n"});
  EXPECT_FALSE(K.BodyIsCompound);
  ASSERT_EQ(K.Stmts.size(), 1u);
  EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Master);
  EXPECT_EQ(textOf(K, K.Stmts[0].Begin, K.Stmts[0].End), "x[0] = n;");
}

TEST(FrontendTest, StatementWritingMemoryAndRegionScalarsFallsBackToSerial) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "{\n"
                         "  s = x[0] = 1;\n"
                         "#pragma acc loop\n"
                         "  for (int i = 0; i < n; i++) x[i] = s;\n"
                         "}\n",
                         {"int *x", "int n", "int s"});
  EXPECT_TRUE(K.Serial);
  EXPECT_EQ(K.SerialReason, "the statement at kernel:3 outside the parallel loops writes both "
                            "memory and region variables");
  EXPECT_TRUE(K.Nests.empty());
  ASSERT_EQ(K.Stmts.size(), 1u);
  EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Master);
  EXPECT_EQ(K.Stmts[0].Begin, K.BodyBegin);
  EXPECT_EQ(K.Stmts[0].End, K.BodyEnd);
  EXPECT_EQ(K.Stmts[0].Nest, -1);
}

TEST(FrontendTest, DeclarationWritingMemoryFallsBackToSerial) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "{\n"
                         "\n"
                         "  int v = (x[0] = 2);\n"
                         "#pragma acc loop\n"
                         "  for (int i = 0; i < n; i++) x[i] = v;\n"
                         "}\n",
                         {"int *x", "int n"});
  EXPECT_TRUE(K.Serial);
  EXPECT_EQ(K.SerialReason, "the statement at kernel:4 outside the parallel loops writes both "
                            "memory and region variables");
}

TEST(FrontendTest, SerialConstruct) {
  std::string Src = "#pragma acc serial\n"
                    "{\n"
                    "  for (int i = 0; i < n; i++) x[i] = i;\n"
                    "}\n";
  KernelInfo K = analyze(Src, {"int *x", "int n"});
  EXPECT_TRUE(K.Serial);
  EXPECT_EQ(K.SerialReason, "");
  EXPECT_EQ(K.Construct.Kind, DirectiveKind::Serial);
  EXPECT_TRUE(K.Nests.empty());
  ASSERT_EQ(K.Stmts.size(), 1u);
  EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Master);
  EXPECT_EQ(K.Stmts[0].Begin, K.BodyBegin);
  EXPECT_EQ(K.Stmts[0].End, K.BodyEnd);
  EXPECT_EQ(textOf(K, K.BodyBegin, K.BodyEnd), Src.substr(19, Src.size() - 20));
}

TEST(FrontendTest, SerialLoopConstruct) {
  KernelInfo K = analyze("#pragma acc serial loop\n"
                         "for (int i = 0; i < n; i++) x[i] = i;\n",
                         {"int *x", "int n"});
  EXPECT_TRUE(K.Serial);
  EXPECT_EQ(K.Construct.Kind, DirectiveKind::SerialLoop);
  EXPECT_TRUE(K.Nests.empty());
  ASSERT_EQ(K.Stmts.size(), 1u);
  EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Master);
}

TEST(FrontendTest, ParallelLoopSeqOrAutoRunsSerially) {
  for (const char *Clause : {"seq", "auto"}) {
    KernelInfo K = analyze(std::string("#pragma acc parallel loop ") + Clause +
                               "\nfor (int i = 0; i < n; i++) x[i] = i;\n",
                           {"int *x", "int n"});
    EXPECT_TRUE(K.Serial) << Clause;
    EXPECT_EQ(K.SerialReason, "the loop is marked seq or auto") << Clause;
    EXPECT_TRUE(K.Nests.empty()) << Clause;
    ASSERT_EQ(K.Stmts.size(), 1u);
    EXPECT_EQ(K.Stmts[0].ExecMode, RegionStmt::Mode::Master);
  }
}

TEST(FrontendTest, ConstructMustBeFollowedByOneStatement) {
  EXPECT_FAILURE("#pragma acc parallel loop\n"
                 "for (int i = 0; i < n; i++) x[i] = 0;\n"
                 "x[0] = 1;\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3:1: the compute construct must be followed by exactly one statement; "
                 "put the statements in a { } block");
}

TEST(FrontendTest, AnUnbalancedBraceCannotCloseTheKernelEarly) {
  // The wrapper's own '}' would close the function the tail opens.
  EXPECT_FAILURE("#pragma acc parallel loop\n"
                 "for (int i = 0; i < n; i++) x[i] = 0; }\n"
                 "void evil(void) {",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3: text after the compute construct (an unbalanced '}' ends the kernel "
                 "early): a kernel is one compute construct and its statement");
}

TEST(FrontendTest, LoopDirectiveMustBeFollowedByAForLoop) {
  EXPECT_FAILURE("#pragma acc parallel\n"
                 "{\n"
                 "#pragma acc loop\n"
                 "  x[0] = n;\n"
                 "}\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3: '#pragma acc loop' must be followed by a for loop");
}

TEST(FrontendTest, DirectivesAroundTheConstruct) {
  EXPECT_FAILURE("#pragma acc data copy(x)\n"
                 "#pragma acc parallel loop\n"
                 "for (int i = 0; i < n; i++) x[i] = 0;\n",
                 Strings({"int *x", "int n"}), ErrorCode::Unsupported,
                 "kernel:1: '#pragma acc data copy(x)' before the compute construct: only "
                 "'routine' may appear there");
  EXPECT_FAILURE("#pragma acc parallel\n"
                 "{\n"
                 "#pragma acc update host(x[0:n])\n"
                 "  x[0] = n;\n"
                 "}\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3: '#pragma acc update host(x[0:n])' is not allowed inside a compute "
                 "construct");
  // A routine before the construct is fine.
  KernelInfo K = analyze("#pragma acc routine seq\n"
                         "static int twice(int v) { return 2 * v; }\n"
                         "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) x[i] = twice(i);\n",
                         {"int *x", "int n"});
  EXPECT_EQ(K.ConstructLine, 3u);
  EXPECT_EQ(K.ConstructOffset, K.Source.find("#pragma acc parallel"));
  EXPECT_EQ(K.Nests.size(), 1u);
}

TEST(FrontendTest, AsyncAndWaitClauses) {
  KernelInfo K = analyze("#pragma acc parallel loop async(1) wait\n"
                         "for (int i = 0; i < n; i++) x[i] = 0;\n",
                         {"int *x", "int n"});
  EXPECT_TRUE(K.Async);
  EXPECT_TRUE(K.Wait);
  K = analyze("#pragma acc parallel loop async\n"
              "for (int i = 0; i < n; i++) x[i] = 0;\n",
              {"int *x", "int n"});
  EXPECT_TRUE(K.Async);
  EXPECT_FALSE(K.Wait);
  K = analyze("#pragma acc parallel loop\n"
              "for (int i = 0; i < n; i++) x[i] = 0;\n",
              {"int *x", "int n"});
  EXPECT_FALSE(K.Async);
  EXPECT_FALSE(K.Wait);
}

//===-- Reductions --------------------------------------------------------------------------===//

void expectReduction(const ReductionVar &R, const char *Name, ReductionOp Op, ScalarType T,
                     unsigned Arg, unsigned Slot) {
  EXPECT_EQ(R.Name, Name);
  EXPECT_EQ(R.Op, Op) << Name;
  EXPECT_EQ(R.Type, T) << Name;
  EXPECT_EQ(R.Arg, Arg) << Name;
  EXPECT_EQ(R.Slot, Slot) << Name;
}

TEST(FrontendTest, ReductionsOfTheConstruct) {
  KernelInfo K = analyze("#pragma acc parallel loop reduction(+:s) reduction(max:m)\n"
                         "for (int i = 0; i < n; i++) { s += x[i]; if (x[i] > m) m = x[i]; }\n",
                         {"const double *x", "int n", "double s", "float m"});
  ASSERT_EQ(K.Reductions.size(), 2u);
  expectReduction(K.Reductions[0], "s", ReductionOp::Add, ScalarType::F64, 2, 0);
  expectReduction(K.Reductions[1], "m", ReductionOp::Max, ScalarType::F32, 3, 1);
}

TEST(FrontendTest, ReductionListAndEveryOperator) {
  KernelInfo K = analyze("#pragma acc parallel loop reduction(+:a, b) reduction(*:c) "
                         "reduction(min:d) reduction(&:e) reduction(|:f) reduction(^:g) "
                         "reduction(&&:h) reduction(||:k)\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  a += i; b += 1; c *= 2; d = i < d ? i : d;\n"
                         "  e &= i; f |= i; g ^= i; h = h && i; k = k || i;\n"
                         "}\n",
                         {"int n", "long a", "short b", "double c", "int d", "unsigned e",
                          "unsigned char f", "long long g", "int h", "_Bool k"});
  ASSERT_EQ(K.Reductions.size(), 9u);
  expectReduction(K.Reductions[0], "a", ReductionOp::Add, ScalarType::I64, 1, 0);
  expectReduction(K.Reductions[1], "b", ReductionOp::Add, ScalarType::I16, 2, 1);
  expectReduction(K.Reductions[2], "c", ReductionOp::Mul, ScalarType::F64, 3, 2);
  expectReduction(K.Reductions[3], "d", ReductionOp::Min, ScalarType::I32, 4, 3);
  expectReduction(K.Reductions[4], "e", ReductionOp::BitAnd, ScalarType::U32, 5, 4);
  expectReduction(K.Reductions[5], "f", ReductionOp::BitOr, ScalarType::U8, 6, 5);
  expectReduction(K.Reductions[6], "g", ReductionOp::BitXor, ScalarType::I64, 7, 6);
  expectReduction(K.Reductions[7], "h", ReductionOp::LogAnd, ScalarType::I32, 8, 7);
  expectReduction(K.Reductions[8], "k", ReductionOp::LogOr, ScalarType::Bool, 9, 8);
}

TEST(FrontendTest, ReductionsOfConstructAndLoopsShareSlots) {
  KernelInfo K = analyze("#pragma acc parallel reduction(+:s)\n"
                         "{\n"
                         "#pragma acc loop reduction(+:s)\n"
                         "  for (int i = 0; i < n; i++) s += x[i];\n"
                         "#pragma acc loop reduction(*:p) reduction(|:f)\n"
                         "  for (int i = 0; i < n; i++) { p *= x[i]; f |= i; }\n"
                         "#pragma acc loop reduction(+:s)\n"
                         "  for (int i = 0; i < n; i++) s += 1;\n"
                         "}\n",
                         {"const double *x", "int n", "double s", "double p", "unsigned f"});
  ASSERT_EQ(K.Reductions.size(), 3u);
  expectReduction(K.Reductions[0], "s", ReductionOp::Add, ScalarType::F64, 2, 0);
  expectReduction(K.Reductions[1], "p", ReductionOp::Mul, ScalarType::F64, 3, 1);
  expectReduction(K.Reductions[2], "f", ReductionOp::BitOr, ScalarType::U32, 4, 2);
  EXPECT_EQ(K.Nests.size(), 3u);
}

TEST(FrontendTest, ReductionOnlyOnALoop) {
  KernelInfo K = analyze("#pragma acc parallel\n"
                         "{\n"
                         "#pragma acc loop reduction(max:m)\n"
                         "  for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;\n"
                         "}\n",
                         {"const int *x", "int n", "int m"});
  ASSERT_EQ(K.Reductions.size(), 1u);
  expectReduction(K.Reductions[0], "m", ReductionOp::Max, ScalarType::I32, 2, 0);
}

TEST(FrontendTest, ReductionOnALoopInASerialRegion) {
  // As in a parallel region, a loop's reduction variable gets its result back (OpenACC treats a
  // scalar reduced on a loop of a compute construct as copy).
  KernelInfo K = analyze("#pragma acc serial\n"
                         "{\n"
                         "#pragma acc loop reduction(+:s)\n"
                         "  for (int i = 0; i < n; i++) s += x[i];\n"
                         "}\n",
                         {"const int *x", "int n", "int s"});
  ASSERT_EQ(K.Reductions.size(), 1u);
  expectReduction(K.Reductions[0], "s", ReductionOp::Add, ScalarType::I32, 2, 0);
}

TEST(FrontendTest, ReductionOnASeqLoopInARegion) {
  KernelInfo K = analyze("#pragma acc kernels\n"
                         "{\n"
                         "#pragma acc loop seq reduction(max:m)\n"
                         "  for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;\n"
                         "}\n",
                         {"const int *x", "int n", "int m"});
  ASSERT_EQ(K.Reductions.size(), 1u);
  expectReduction(K.Reductions[0], "m", ReductionOp::Max, ScalarType::I32, 2, 0);
}

TEST(FrontendTest, ReductionVariableMustBeAScalarArgument) {
  auto Msg = [](const char *Name) {
    return std::string("kernel:1: reduction variable '") + Name +
           "' must be a scalar argument of the kernel (its result is written back through the "
           "arg's value pointer)";
  };
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:t)\n"
                 "for (int i = 0; i < n; i++) x[i] = 0;\n",
                 Strings({"int *x", "int n"}), ErrorCode::Unsupported, Msg("t"));
  EXPECT_FAILURE("struct P { int v; };\n"
                 "#pragma acc parallel loop reduction(+:p)\n"
                 "for (int i = 0; i < n; i++) x[i] = p.v;\n",
                 Strings({"int *x", "int n", "struct P p"}), ErrorCode::Unsupported,
                 "kernel:2: reduction variable 'p' must be a scalar argument of the kernel (its "
                 "result is written back through the arg's value pointer)");
}

TEST(FrontendTest, ArrayReductions) {
  KernelInfo K = analyze("#pragma acc parallel loop reduction(+:s, c[2:3]) reduction(max:e[j])\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  s += i; c[2 + i % 3] += x[i]; e[j] = x[i] > e[j] ? x[i] : e[j];\n"
                         "#pragma acc loop reduction(+:t[0:2], t)\n"
                         "  for (int k = 0; k < 2; k++) t[k] += 1;\n"
                         "}\n",
                         {"const float *x", "int n", "int j", "long s", "float *c",
                          "unsigned char *e", "int *t"});
  ASSERT_EQ(K.Reductions.size(), 3u); // the inner loop's run in one thread: nothing to combine
  expectReduction(K.Reductions[0], "s", ReductionOp::Add, ScalarType::I64, 3, 0);
  expectReduction(K.Reductions[1], "c", ReductionOp::Add, ScalarType::F32, 4, 1);
  EXPECT_EQ(K.Reductions[1].Count, 3u);
  EXPECT_EQ(K.Reductions[1].Lower, "2");
  expectReduction(K.Reductions[2], "e", ReductionOp::Max, ScalarType::U8, 5, 5);
  EXPECT_EQ(K.Reductions[2].Count, 1u);
  EXPECT_EQ(K.Reductions[2].Lower, "j");
  EXPECT_EQ(K.Reductions[0].slots(), 1u);
  EXPECT_EQ(K.Reductions[1].slots(), 4u); // the elements, then the first index
  EXPECT_EQ(K.reductionSlots(), 7u);
  EXPECT_EQ(K.arrayReductionOf(4), &K.Reductions[1]);
  EXPECT_EQ(K.arrayReductionOf(3), nullptr);
}

TEST(FrontendTest, ArrayReductionErrors) {
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:x)\n"
                 "for (int i = 0; i < n; i++) x[i % 4] += 1;\n",
                 Strings({"int *x", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:1: reduction(+:x): 'x' is a pointer: name the elements it reduces, a "
                 "section x[lower:length] or an element x[i]");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:x[0:n])\n"
                 "for (int i = 0; i < n; i++) x[i % 4] += 1;\n",
                 Strings({"int *x", "int n"}), ErrorCode::Unsupported,
                 "kernel:1: reduction(+:x[0:n]): the length of a reduced section must be an "
                 "integer literal (each thread keeps a private array of that size), not 'n'");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:x[0:2000])\n"
                 "for (int i = 0; i < n; i++) x[i % 4] += 1;\n",
                 Strings({"int *x", "int n"}), ErrorCode::Unsupported,
                 "kernel:1: reduction(+:x[0:2000]): a reduced section has 1 to 1024 elements "
                 "(each thread keeps a private copy), not 2000");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:x[0][1])\n"
                 "for (int i = 0; i < n; i++) x[0][1] += 1;\n",
                 Strings({"int (*x)[2]", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:1: reduction item 'x[0][1]': one subscript only (the elements must be "
                 "contiguous); write a variable, an element a[i] or a section a[lower:length]");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:x[0:1])\n"
                 "for (int i = 0; i < n; i++) x[0][1] += 1;\n",
                 Strings({"int (*x)[2]", "int n"}), ErrorCode::Unsupported,
                 "kernel:1: reduction(+:x[0:1]): an array reduction needs a pointer argument to "
                 "a C scalar type ('int (*x)[2]' is not one)");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(|:f[0:2])\n"
                 "for (int i = 0; i < n; i++) f[0] += 1;\n",
                 Strings({"float *f", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:1: reduction(|:f[0:2]) needs an integer variable");
  EXPECT_FAILURE("#pragma acc parallel reduction(+:f[0:2])\n"
                 "{\n"
                 "#pragma acc loop reduction(+:f[1:2])\n"
                 "  for (int i = 0; i < n; i++) f[1] += 1;\n"
                 "}\n",
                 Strings({"float *f", "int n"}), ErrorCode::InvalidArgument,
                 "kernel:3: reduction(+:f[1:2]): 'f' is reduced as two different sets of "
                 "elements");
}

TEST(FrontendTest, BitwiseReductionOnFloatingType) {
  EXPECT_FAILURE("#pragma acc parallel loop reduction(&:f)\n"
                 "for (int i = 0; i < n; i++) x[i] = f;\n",
                 Strings({"float *x", "int n", "float f"}), ErrorCode::InvalidArgument,
                 "kernel:1: reduction(&:f) needs an integer variable");
  EXPECT_FAILURE("#pragma acc parallel\n"
                 "{\n"
                 "#pragma acc loop reduction(^:d)\n"
                 "  for (int i = 0; i < n; i++) x[i] = d;\n"
                 "}\n",
                 Strings({"double *x", "int n", "double d"}), ErrorCode::InvalidArgument,
                 "kernel:3: reduction(^:d) needs an integer variable");
}

TEST(FrontendTest, ConflictingReductionOperators) {
  EXPECT_FAILURE("#pragma acc parallel reduction(+:s)\n"
                 "{\n"
                 "#pragma acc loop reduction(*:s)\n"
                 "  for (int i = 0; i < n; i++) s *= x[i];\n"
                 "}\n",
                 Strings({"const int *x", "int n", "int s"}), ErrorCode::InvalidArgument,
                 "kernel:3: 's' is reduced with two different operators");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:s) reduction(max:s)\n"
                 "for (int i = 0; i < n; i++) s += x[i];\n",
                 Strings({"const int *x", "int n", "int s"}), ErrorCode::InvalidArgument,
                 "kernel:1: 's' is reduced with two different operators");
}

TEST(FrontendTest, WideAndComplexReductionsTakeSlotsForTheirSize) {
  KernelInfo K = analyze("#pragma acc parallel loop reduction(+:l, f) reduction(*:d) "
                         "reduction(+:w, c[0:3])\n"
                         "for (int i = 0; i < n; i++) { l += i; f += i; d *= i; w += i; "
                         "c[i % 3] += i; }\n",
                         {"int n", "long double l", "float _Complex f", "double _Complex d",
                          "long double _Complex w", "long double *c"});
  ASSERT_EQ(K.Reductions.size(), 5u);
  const ScalarType Types[] = {ScalarType::F80, ScalarType::C32, ScalarType::C64,
                              ScalarType::C80, ScalarType::F80};
  const unsigned Slots[] = {0, 2, 3, 5, 9}, Words[] = {2, 1, 2, 4, 2};
  for (size_t I = 0; I < 5; ++I) {
    EXPECT_EQ(K.Reductions[I].Type, Types[I]) << I;
    EXPECT_EQ(K.Reductions[I].Slot, Slots[I]) << I;
    EXPECT_EQ(K.Reductions[I].words(), Words[I]) << I;
  }
  EXPECT_EQ(K.Reductions[4].slots(), 3u * 2 + 1); // 3 elements, then the first index
  EXPECT_EQ(K.reductionSlots(), 16u);
}

TEST(FrontendTest, ComplexReductionsAddOrMultiply) {
  for (const char *Op : {"max", "min", "&&", "||"})
    EXPECT_FAILURE("#pragma acc parallel loop reduction(" + std::string(Op) +
                       ":z)\nfor (int i = 0; i < n; i++) z += i;\n",
                   Strings({"int n", "double _Complex z"}), ErrorCode::InvalidArgument,
                   "kernel:1: reduction(" + std::string(Op) +
                       ":z): a complex variable ('double _Complex z') is reduced with + or * "
                       "only (OpenACC 3.3 2.5.15); reduce its real and imaginary parts as two "
                       "variables for other operators");
  EXPECT_FAILURE("#pragma acc parallel loop reduction(+:z)\n"
                 "for (int i = 0; i < n; i++) z += i;\n",
                 Strings({"int n", "_Complex int z"}), ErrorCode::Unsupported,
                 "argument 2 ('_Complex int z'): complex integers (a GNU extension) cannot be "
                 "passed to a kernel: pass the real and imaginary parts as two integers");
}

TEST(FrontendTest, EveryScalarTypeMapping) {
  struct Case {
    const char *Decl;
    ScalarType Type;
    uint64_t Size, Align;
  } Cases[] = {
      {"_Bool b", ScalarType::Bool, 1, 1},
      {"char c", ScalarType::I8, 1, 1},
      {"signed char sc", ScalarType::I8, 1, 1},
      {"unsigned char uc", ScalarType::U8, 1, 1},
      {"short s", ScalarType::I16, 2, 2},
      {"unsigned short us", ScalarType::U16, 2, 2},
      {"int i", ScalarType::I32, 4, 4},
      {"unsigned u", ScalarType::U32, 4, 4},
      {"long l", ScalarType::I64, 8, 8},
      {"unsigned long ul", ScalarType::U64, 8, 8},
      {"long long ll", ScalarType::I64, 8, 8},
      {"unsigned long long ull", ScalarType::U64, 8, 8},
      {"float f", ScalarType::F32, 4, 4},
      {"double d", ScalarType::F64, 8, 8},
      {"long double ld", ScalarType::F80, 16, 16},
      {"float _Complex fc", ScalarType::C32, 8, 4},
      {"double _Complex dc", ScalarType::C64, 16, 8},
      {"long double _Complex lc", ScalarType::C80, 32, 16},
      {"enum E e", ScalarType::U32, 4, 4},  // no negative enumerator: unsigned int
      {"enum N en", ScalarType::I32, 4, 4}, // a negative enumerator: int
      {"my_size z", ScalarType::U64, 8, 8}, // a typedef
      {"const int ci", ScalarType::I32, 4, 4},
  };
  Strings Decls = {"double *out"};
  std::string Sum;
  for (const Case &C : Cases) {
    Decls.push_back(C.Decl);
    llvm::StringRef Name = llvm::StringRef(C.Decl).rsplit(' ').second;
    Sum += (Sum.empty() ? "" : " + ") + Name.str();
  }
  KernelInfo K = analyze("enum E { E0, E1 };\n"
                         "enum N { NNeg = -1, NPos = 1 };\n"
                         "typedef unsigned long my_size;\n"
                         "#pragma acc serial\n"
                         "out[0] = " +
                             Sum + ";\n",
                         Decls);
  ASSERT_EQ(K.Args.size(), Decls.size());
  EXPECT_EQ(K.Args[0].ArgKind, ArgInfo::Kind::Pointer);
  EXPECT_EQ(K.Args[0].Param, Decls.size() - 1);
  for (size_t I = 0; I < std::size(Cases); ++I) {
    const ArgInfo &A = K.Args[I + 1];
    EXPECT_EQ(A.ArgKind, ArgInfo::Kind::Scalar) << Cases[I].Decl;
    EXPECT_EQ(A.Scalar, Cases[I].Type) << Cases[I].Decl << " is " << scalarTypeName(A.Scalar);
    EXPECT_EQ(A.Size, Cases[I].Size) << Cases[I].Decl;
    EXPECT_EQ(A.Align, Cases[I].Align) << Cases[I].Decl;
    EXPECT_EQ(A.Param, I) << Cases[I].Decl;
    EXPECT_EQ(A.Position, I + 1) << Cases[I].Decl;
    EXPECT_EQ(A.Decl, Cases[I].Decl);
    EXPECT_EQ(A.Name, llvm::StringRef(Cases[I].Decl).rsplit(' ').second.str());
  }
}

TEST(FrontendTest, ScalarTypeNames) {
  EXPECT_STREQ(scalarTypeName(ScalarType::Bool), "_Bool");
  EXPECT_STREQ(scalarTypeName(ScalarType::I8), "signed char");
  EXPECT_STREQ(scalarTypeName(ScalarType::U32), "unsigned int");
  EXPECT_STREQ(scalarTypeName(ScalarType::I64), "long long");
  EXPECT_STREQ(scalarTypeName(ScalarType::F80), "long double");
  EXPECT_TRUE(isIntegral(ScalarType::Bool));
  EXPECT_TRUE(isIntegral(ScalarType::U64));
  EXPECT_FALSE(isIntegral(ScalarType::F32));
  EXPECT_FALSE(isIntegral(ScalarType::F64));
  EXPECT_FALSE(isIntegral(ScalarType::F80));
  EXPECT_STREQ(scalarTypeName(ScalarType::C32), "float _Complex");
  EXPECT_STREQ(scalarTypeName(ScalarType::C64), "double _Complex");
  EXPECT_STREQ(scalarTypeName(ScalarType::C80), "long double _Complex");
  EXPECT_FALSE(isIntegral(ScalarType::C64));
  EXPECT_TRUE(isComplex(ScalarType::C32));
  EXPECT_FALSE(isComplex(ScalarType::F80));
  EXPECT_EQ(reductionWords(ScalarType::I32), 1u);
  EXPECT_EQ(reductionWords(ScalarType::C32), 1u);
  EXPECT_EQ(reductionWords(ScalarType::F80), 2u);
  EXPECT_EQ(reductionWords(ScalarType::C64), 2u);
  EXPECT_EQ(reductionWords(ScalarType::C80), 4u);
}

TEST(FrontendTest, UnsupportedScalarTypes) {
  Failure F = failureOf("#pragma acc serial\n"
                        "x[0] = q;\n",
                        {"double *x", "__int128 q"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Unsupported)) << F.Message;
  EXPECT_EQ(F.Message.rfind("argument 2 ('__int128 q'): type '", 0), 0u) << F.Message;
  EXPECT_NE(F.Message.find("' cannot be passed to a kernel"), std::string::npos) << F.Message;
}

TEST(FrontendTest, VariableLengthArrayPointer) {
  KernelInfo K = analyze("#pragma acc parallel loop collapse(2)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  for (int j = 0; j < m; j++)\n"
                         "    a[i][j] = i * j;\n",
                         {"double (*a)[m]", "int n", "int m"});
  ASSERT_EQ(K.Args.size(), 3u);
  EXPECT_EQ(K.Args[0].Name, "a");
  EXPECT_EQ(K.Args[0].ArgKind, ArgInfo::Kind::Pointer);
  EXPECT_EQ(K.Args[0].Size, 8u);
  EXPECT_EQ(K.Args[0].PointeeSize, 1u); // a row of m doubles: not known statically
  // The scalars come first so that the array bound may use m.
  EXPECT_EQ(K.Args[1].Param, 0u);
  EXPECT_EQ(K.Args[2].Param, 1u);
  EXPECT_EQ(K.Args[0].Param, 2u);
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].Loops.size(), 2u);
}

TEST(FrontendTest, ArgumentUsedOnlyInAnArrayBoundIsUsed) {
  KernelInfo K = analyze("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) a[i][0] = 1;\n",
                         {"double (*a)[m]", "int n", "int m"});
  EXPECT_EQ(K.Args.size(), 3u);
}

TEST(FrontendTest, EmptyArgumentDeclaration) {
  // KernelSource.h: an empty declaration is an InvalidArgument error, not a parse error.
  Failure F = failureOf("#pragma acc parallel loop\n"
                        "for (int i = 0; i < n; i++) x[i] = 0;\n",
                        {"int *x", "int n", ""});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::InvalidArgument)) << F.Message;
}

TEST(FrontendTest, WindowsLineEnds) {
  KernelInfo K = analyze("#pragma acc parallel loop \\\r\n"
                         "  present(x)\r\n"
                         "for (int i = 0; i < n; i++)\r\n"
                         "  x[i] = 0;\r\n",
                         {"int *x", "int n"});
  EXPECT_EQ(K.ConstructLine, 1u);
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].Loops[0].Line, 3u);
  EXPECT_EQ(K.Construct.Kind, DirectiveKind::ParallelLoop);
  EXPECT_TRUE(K.Construct.has(ClauseKind::Present));
}

//===-- Diagnostics -------------------------------------------------------------------------===//

TEST(FrontendTest, SyntaxErrorNamesKernelLineAndColumn) {
  Failure F = failureOf("#pragma acc parallel loop\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  x[i] = 1 +;\n",
                        {"int *x", "int n"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Compile));
  EXPECT_EQ(F.Message.rfind("kernel:3:13: error: expected expression", 0), 0u) << F.Message;
}

TEST(FrontendTest, SyntaxErrorInLeadingDeclarations) {
  Failure F = failureOf("int ok;\n"
                        "int bad = ;\n"
                        "#pragma acc parallel loop\n"
                        "for (int i = 0; i < n; i++) x[i] = ok;\n",
                        {"int *x", "int n"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Compile));
  EXPECT_EQ(F.Message.rfind("kernel:2:11: error: expected expression", 0), 0u) << F.Message;
}

TEST(FrontendTest, SyntaxErrorInAnArgument) {
  Failure F = failureOf("#pragma acc parallel loop\n"
                        "for (int i = 0; i < n; i++) x[i] = 0;\n",
                        {"int *x", "flot n"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Compile));
  EXPECT_EQ(F.Message.rfind("arg 2:1:1: error: unknown type name 'flot'", 0), 0u) << F.Message;
}

TEST(FrontendTest, ErrorLinesAfterASystemInclude) {
  KernelInfo K = analyze("#include <math.h>\n"
                         "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) x[i] = sqrt(x[i]);\n",
                         {"double *x", "int n"});
  EXPECT_EQ(K.ConstructLine, 2u);
  ASSERT_EQ(K.Nests.size(), 1u);
  EXPECT_EQ(K.Nests[0].Loops[0].Line, 3u);
  Failure F = failureOf("#include <math.h>\n"
                        "\n"
                        "#pragma acc parallel loop\n"
                        "for (int i = 0; i < n; i++)\n"
                        "  x[i] = sqrt(x[i]) +;\n",
                        {"double *x", "int n"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Compile));
  EXPECT_EQ(F.Message.rfind("kernel:5:22: error: expected expression", 0), 0u) << F.Message;
}

TEST(FrontendTest, UndeclaredIdentifierHint) {
  Failure F = failureOf("#pragma acc parallel loop\n"
                        "for (int i = 0; i < n; i++) x[i] = k;\n",
                        {"int *x", "int n"});
  EXPECT_EQ(static_cast<int>(F.Code), static_cast<int>(ErrorCode::Compile));
  EXPECT_NE(F.Message.find("kernel:2:36: error: use of undeclared identifier 'k'"),
            std::string::npos)
      << F.Message;
  EXPECT_NE(F.Message.find("(every variable the kernel uses and does not declare must be passed "
                           "in args)"),
            std::string::npos)
      << F.Message;
}

TEST(FrontendTest, NoComputeConstruct) {
  EXPECT_FAILURE("x[0] = 1;\n", Strings({"int *x"}), ErrorCode::InvalidArgument,
                 "the kernel source has no compute construct: it must contain '#pragma acc "
                 "parallel', 'kernels' or 'serial' followed by one statement");
}

} // namespace
