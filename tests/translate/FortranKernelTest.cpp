// The Fortran translation (translate/fortran/): what Fortran statements become in a kernel
// (column-major subscripts from their lower bounds, private scalars, atomics, intrinsics), its
// located errors, and every kernel of the Fortran golden file and the Fortran programs of the
// OpenACC corpus through the analysis the runtime makes and, with NVRTC, CUDA code generation.
#ifdef JACC_HAVE_FORTRAN
#include "translate/fortran/FortranTranslate.h"

#include "jit/KernelRoutines.h"
#include "support/TextEdits.h"
#include "tests/jit/cuda/CudaCheck.h"
#include "tests/translate/PushedKernels.h"

#include <gtest/gtest.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <sstream>

using namespace jacc;
using namespace jacc::translate::fortran;

namespace {

/// A scratch directory: the sources written and flang's module files.
class FortranKernelTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-fortran-test", Path));
    Dir = Path.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Source (as file Name) translated: its glue, or the error's text when Ok is false.
  std::string translate(const std::string &Source, bool Ok = true,
                        const std::string &Name = "t.f90") {
    std::string Path = Dir + "/" + Name;
    { std::ofstream(Path) << Source; }
    return translateFile(Path, Ok);
  }
  std::string translateFile(const std::string &Path, bool Ok = true) {
    FortranOptions Options;
    Options.ModuleDir = Dir;
#ifdef JACC_FORTRAN_MODULES
    Options.IncludeDirs.push_back(JACC_FORTRAN_MODULES); // the openacc module
#endif
    auto Out = translateFortran(Path, Options, &Infos);
    if (bool(Out) != Ok) {
      ADD_FAILURE() << (Out ? Out->Glue : llvm::toString(Out.takeError()));
      return "";
    }
    return Out ? Out->Host + Out->Glue : llvm::toString(Out.takeError());
  }
  /// Every kernel of the file at Path (Count of them) analyses as the runtime will analyse it
  /// and, with NVRTC, generates CUDA that compiles.
  void expectKernelsCompile(const std::string &Path, size_t Count) {
    SCOPED_TRACE(Path);
    std::vector<test::PushedKernel> Kernels = test::pushedKernels(translateFile(Path));
    ASSERT_EQ(Kernels.size(), Count);
    for (const test::PushedKernel &K : Kernels) {
      SCOPED_TRACE(K.Source);
      analysis::KernelInfo Info = jit::analyzeOrFail(K.Source, K.Decls);
      if (!Info.Source.empty() && jit::nvrtcAvailable())
        jit::expectKernelCompilesForCuda(Info);
    }
  }
  /// Every kernel Source pushes analyses and compiles for CUDA (expectKernelsCompile).
  void expectKernelsCompileText(const std::string &Source) {
    for (const test::PushedKernel &K : test::pushedKernels(translate(Source))) {
      SCOPED_TRACE(K.Source);
      analysis::KernelInfo Info = jit::analyzeOrFail(K.Source, K.Decls);
      if (!Info.Source.empty() && jit::nvrtcAvailable())
        jit::expectKernelCompilesForCuda(Info);
    }
  }
  /// The one kernel Source pushes.
  /// Statement, assigning the 4 x 4 matrix a in a kernels construct, is the error of an array
  /// assignment that reads its array at other elements.
  void expectReadsOtherElements(const std::string &Statement) {
    std::string Errors = translate("program p\n  real(8) :: a(4, 4)\n  !$acc kernels copy(a)\n  " +
                                       Statement + "\n  !$acc end kernels\nend program\n",
                                   false);
    EXPECT_NE(Errors.find("t.f90:4:3: error: this array assignment reads the array it assigns "
                          "at other elements"),
              std::string::npos)
        << Statement << ": " << Errors;
  }
  std::string kernel(const std::string &Source) {
    auto Kernels = test::pushedKernels(translate(Source));
    EXPECT_EQ(Kernels.size(), 1u);
    return Kernels.empty() ? "" : Kernels[0].Source;
  }
  std::string Dir;
  std::vector<std::string> Infos; ///< -Minfo's lines, of every translation so far
};

TEST_F(FortranKernelTest, ColumnMajorSubscriptsStartAtEachLowerBound) {
  std::string K = kernel(R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(0:n, 2:n), b(:, :)
  !$acc parallel loop collapse(2)
  do j = 2, n
    do i = 0, n
      a(i, j) = b(i + 1, j)
    end do
  end do
end subroutine
)");
  EXPECT_NE(K.find("a[j - 2][i] = b[j - 1][(i + 1) - 1];"), std::string::npos) << K;
  EXPECT_NE(K.find("for (int j = 2; j <= n; j++)"), std::string::npos) << K;
}

TEST_F(FortranKernelTest, AllocatableBoundsArriveAsArgumentsAndRowsAsVariableLengths) {
  std::string Out = translate(R"(subroutine s(n)
  integer :: n, i, j
  real(4), allocatable :: a(:, :)
  allocate(a(-1:n, n))
  !$acc parallel loop
  do j = 1, n
    do i = -1, n
      a(i, j) = sqrt(a(i, j)) + real(i) ** 2
    end do
  end do
end subroutine
)");
  EXPECT_NE(Out.find("{\"float (*a)[jacc_n_a_1]\", (void *)&a}"), std::string::npos) << Out;
  EXPECT_NE(Out.find("a[j - jacc_lb_a_2][i - jacc_lb_a_1] = (sqrtf(a[j - jacc_lb_a_2][i - "
                     "jacc_lb_a_1]) + (((float)i) * ((float)i)));"),
            std::string::npos)
      << Out;
}

TEST_F(FortranKernelTest, ScalarsAssignedInALoopArePrivateAndOutsideItShared) {
  std::string Loop = kernel(R"(subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n), t
  !$acc parallel loop
  do i = 1, n
    t = a(i) * 2
    a(i) = max(t, 1.0d0, a(i))
  end do
end subroutine
)");
  EXPECT_NE(Loop.find("#pragma acc parallel loop private(t)"), std::string::npos) << Loop;
  EXPECT_NE(Loop.find("fmax(fmax(t, (1.)), a[i - 1])"), std::string::npos) << Loop;
  std::string Serial = kernel(R"(subroutine s(n, total)
  integer :: n, total
  !$acc serial
  total = n * 2
  !$acc end serial
end subroutine
)");
  EXPECT_NE(Serial.find("jacc_ref_total[0] = (2 * n);"), std::string::npos) << Serial;
}

TEST_F(FortranKernelTest, AtomicsTakeCsFormsWithLogicalsAsBits) {
  std::string K = kernel(R"(subroutine s(n, a, c, l)
  integer :: n, i, c
  integer :: a(n)
  logical :: l, b(n)
  !$acc parallel loop
  do i = 1, n
    !$acc atomic update
    c = iand(c, a(i))
    !$acc atomic
    l = l .eqv. b(i)
  end do
end subroutine
)");
  EXPECT_NE(K.find("jacc_ref_c[0] = jacc_ref_c[0] & (a[i - 1]);"), std::string::npos) << K;
  EXPECT_NE(K.find("jacc_ref_l[0] = jacc_ref_l[0] ^ ((b[i - 1]) == 0);"), std::string::npos) << K;
}

TEST_F(FortranKernelTest, EqvAndNeqvReductionsAreExclusiveOrsOfLogicals) {
  // r .eqv. x is r ^ !x on 0 and 1: a private copy from ^'s 0 updated by `r = (r == x)` holds
  // the ^ of the !x, which ^ combines with the original value into the .eqv. chain.
  std::string K = kernel(R"(subroutine s(n, b, e, o)
  integer :: n, i
  logical :: b(n), e, o
  !$acc parallel loop reduction(.eqv.:e) reduction(.neqv.:o)
  do i = 1, n
    e = e .eqv. b(i)
    o = o .neqv. b(i)
  end do
end subroutine
)");
  for (const char *Part :
       {"#pragma acc parallel loop reduction(^:e) reduction(^:o)",
        "e = ((e != 0) == (b[i - 1] != 0));", "o = ((o != 0) != (b[i - 1] != 0));"})
    EXPECT_NE(K.find(Part), std::string::npos) << K;
}

TEST_F(FortranKernelTest, DerivedTypesAreCStructsOfTheirComponents) {
  std::string Source = R"(module types
  type entry
    integer :: col
    real(8) :: val
  end type
  type row
    integer :: count
    type(entry) :: e(3)
    real(4) :: w(2, 0:1)
  end type
end module
subroutine s(n, a, total)
  use types
  integer :: n, i
  type(row) :: a(n)
  type(entry) :: total
  !$acc parallel loop
  do i = 1, n
    a(i)%e(2)%val = a(i)%w(1, 0) + total%val
    a(i)%e(1) = a(i)%e(3)
  end do
  !$acc serial
  total%col = n
  !$acc end serial
end subroutine
)";
  std::string Out = translate(Source);
  std::vector<test::PushedKernel> Kernels = test::pushedKernels(Out);
  ASSERT_EQ(Kernels.size(), 2u) << Out;
  const std::string &Loop = Kernels[0].Source;
  // The component's type first, its members in order; arrays column-major.
  size_t Entry = Loop.find("typedef struct {\n  int col;\n  double val;\n} jacc_t_entry_");
  size_t Row = Loop.find("typedef struct {\n  int count;\n  jacc_t_entry_");
  EXPECT_NE(Entry, std::string::npos) << Loop;
  EXPECT_NE(Row, std::string::npos) << Loop;
  EXPECT_LT(Entry, Row) << Loop;
  EXPECT_NE(Loop.find(" e[3];\n  float w[2][2];\n} jacc_t_row_"), std::string::npos) << Loop;
  EXPECT_NE(
      Loop.find("a[i - 1].e[2LL - 1].val = (((double)a[i - 1].w[0LL][1LL - 1]) + total.val);"),
      std::string::npos)
      << Loop;
  EXPECT_NE(Loop.find("a[i - 1].e[1LL - 1] = a[i - 1].e[3LL - 1];"), std::string::npos) << Loop;
  // A component assigned outside the loops: the struct is shared, written through a pointer.
  EXPECT_NE(Kernels[1].Source.find("jacc_ref_total[0].col = n;"), std::string::npos)
      << Kernels[1].Source;
  // The glue defines the structs before the functions that take them, each once (the kernels'
  // texts are string literals).
  size_t Defined = Out.find("\n} jacc_t_row_");
  EXPECT_NE(Defined, std::string::npos) << Out;
  EXPECT_LT(Defined, Out.find("sizeof(jacc_t_row_")) << Out;
  EXPECT_EQ(Out.find("\n} jacc_t_row_", Defined + 1), std::string::npos) << Out;
  for (const test::PushedKernel &K : Kernels) {
    analysis::KernelInfo Info = jit::analyzeOrFail(K.Source, K.Decls);
    if (!Info.Source.empty() && jit::nvrtcAvailable())
      jit::expectKernelCompilesForCuda(Info);
  }

  std::string E = translate(R"(subroutine s(n, m)
  integer :: n, i
  type mesh
    real(8), allocatable :: x(:)
  end type
  type(mesh) :: m(2)
  !$acc parallel loop
  do i = 1, n
    m(1)%x(i) = 0
  end do
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:9:5: error: 'm': type 'mesh' has the component 'x', an allocatable: "
                   "jacc's kernels take derived types whose components are"),
            std::string::npos)
      << E;
}

TEST_F(FortranKernelTest, RoutinesTakeDerivedTypesAsTheirStructs) {
  std::string Source = R"(module shapes
  type point
    real(8) :: x, y
  end type
contains
  real(8) function dist2(p, q)
    !$acc routine seq
    type(point), intent(in) :: p, q
    dist2 = (p%x - q%x) ** 2 + (p%y - q%y) ** 2
  end function
  subroutine shift(p, d)
    !$acc routine seq
    type(point) :: p
    real(8), intent(in) :: d
    p%x = p%x + d
  end subroutine
end module
subroutine s(n, pts, d)
  use shapes
  integer :: n, i
  type(point) :: pts(n)
  real(8) :: d(n)
  !$acc parallel loop
  do i = 1, n
    d(i) = dist2(pts(i), pts(1))
    call shift(pts(i), d(i))
  end do
end subroutine
)";
  std::string K = kernel(Source);
  size_t Struct = K.find("} jacc_t_point_");
  EXPECT_NE(Struct, std::string::npos) << K;
  EXPECT_LT(Struct, K.find("double jacc_routine_shapes_dist2(")) << K;
  EXPECT_NE(K.find("double jacc_routine_shapes_dist2(jacc_t_point_"), std::string::npos) << K;
  EXPECT_NE(K.find("(((p.x - q.x)) * ((p.x - q.x)))"), std::string::npos) << K;
  // The routine assigns a component of p: it takes p by address.
  EXPECT_NE(K.find("(*p).x = ((*p).x + d);"), std::string::npos) << K;
  EXPECT_NE(K.find("jacc_routine_shapes_shift(&pts[i - 1], d[i - 1]);"), std::string::npos) << K;
  expectKernelsCompileText(Source);
}

TEST_F(FortranKernelTest, AComponentOfAVariableOfATypeWithAllocatablesIsPassedAsAVariable) {
  std::string Out = translate(R"(module fields
  type grid
    integer :: n
  end type
  type field
    type(grid) :: g
    real(8), allocatable :: u(:, :)
    real(8), allocatable :: w(:)
  end type
end module
subroutine s(f, k)
  use fields
  type(field) :: f
  integer :: i, j, k
  !$acc parallel loop present(f%u)
  do j = 1, f%g%n
    do i = 1, f%g%n
      f%u(i, j) = f%w(j) * k
    end do
  end do
end subroutine
)");
  std::vector<test::PushedKernel> Kernels = test::pushedKernels(Out);
  ASSERT_EQ(Kernels.size(), 1u) << Out;
  const std::string &K = Kernels[0].Source;
  EXPECT_NE(K.find("for (int j = 1; j <= jacc_c_f_g_n; j++)"), std::string::npos) << K;
  EXPECT_NE(K.find("jacc_c_f_u[j - jacc_lb_jacc_c_f_u_2][i - jacc_lb_jacc_c_f_u_1] = "
                   "(jacc_c_f_w[j - jacc_lb_jacc_c_f_w_1] * ((double)k));"),
            std::string::npos)
      << K;
  // The call passes each path as the host program names it, bounds and shape with it.
  EXPECT_NE(Out.find("f%u, lbound(f%u, kind=8), shape(f%u, kind=8)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("f%w, lbound(f%w, kind=8), shape(f%w, kind=8)"), std::string::npos) << Out;
  EXPECT_NE(Out.find("f%g%n"), std::string::npos) << Out;
  // present(f%u) maps it; f%w, in no clause, is copied implicitly.
  EXPECT_NE(Out.find("jacc_translated_present((void *)jacc_c_f_u, "), std::string::npos) << Out;
  EXPECT_NE(Out.find("jacc_fortran_implicit((void *)jacc_c_f_w, "), std::string::npos) << Out;
  EXPECT_EQ(Out.find("jacc_fortran_implicit((void *)jacc_c_f_u, "), std::string::npos) << Out;
  // -Minfo names the component as the program does.
  EXPECT_TRUE(llvm::any_of(Infos, [](const std::string &Line) {
    return Line.find("writes its part of f%u;") != std::string::npos;
  })) << llvm::join(Infos, "\n");
  analysis::KernelInfo Info = jit::analyzeOrFail(K, Kernels[0].Decls);
  if (!Info.Source.empty() && jit::nvrtcAvailable())
    jit::expectKernelCompilesForCuda(Info);

  std::string E = translate(R"(module fields
  type field
    integer :: n
    real(8), allocatable :: u(:)
  end type
end module
subroutine s(f)
  use fields
  type(field) :: f
  !$acc serial
  f%n = 2
  !$acc end serial
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:11:3: error: the kernel assigns 'f%n', a component of a variable whose "
                   "type has allocatable components: assign a variable of its own"),
            std::string::npos)
      << E;
}

TEST_F(FortranKernelTest, WhatIsNotTranslatedIsAnErrorAtItsLine) {
  std::string E = translate(R"(subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n)
  !$acc parallel loop
  do i = 1, n
    a(2:n) = a(1:n-1)
  end do
  !$acc parallel loop
  do i = 1, n
    call helper(a(i))
  end do
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:6:5: error: this array assignment reads the array it assigns at other "
                   "elements: write the DO loop (with a temporary where the elements overlap)"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("t.f90:10:5: error: 'helper' is called in a kernel but no routine of that name "
                   "is defined in this file or in a module jaccc translated: define it under "
                   "'!$acc routine seq'"),
            std::string::npos)
      << E;
  // flang's own errors keep their place too.
  EXPECT_NE(translate("subroutine s\n  x = \nend subroutine\n", false).find("t.f90:2:"),
            std::string::npos);
}

TEST_F(FortranKernelTest, TheHostProgramKeepsEveryOtherStatementsLine) {
  std::string Source = R"(program p
  integer :: i, a(10)
  !$acc parallel loop
  do i = 1, 10
    a(i) = i
  end do
  print *, a(3)
end program
)";
  FortranOptions Options;
  Options.ModuleDir = Dir;
  std::ofstream(Dir + "/p.f90") << Source;
  auto Out = translateFortran(Dir + "/p.f90", Options);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  llvm::StringRef(Out->Host).split(Lines, '\n');
  ASSERT_GE(Lines.size(), 8u);
  EXPECT_TRUE(Lines[2].trim().startswith("call jacc_f")) << Out->Host;
  EXPECT_EQ(Lines[3], "");
  EXPECT_EQ(Lines[6], "  print *, a(3)");
}

// A private array is a C array of its shape declared where each copy lives: a collapsed nest's
// innermost body, each top-level shared loop of a parallel construct; a firstprivate one starts
// as the original, passed as its own parameter. The kernel receives no private array.
TEST_F(FortranKernelTest, PrivateArraysAreCopiesDeclaredInTheBodiesThatOwnThem) {
  const std::string Source = R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(n, n), t(0:1, 3), w(4)
  !$acc parallel loop collapse(2) firstprivate(t) private(w)
  do j = 1, n
    do i = 1, n
      w(1) = t(0, 1 + mod(i, 3)) + t(1, 3)
      t(1, 1) = w(1) * j
      a(i, j) = t(1, 1)
    end do
  end do
  !$acc parallel private(w(1:4))
  !$acc loop gang
  do j = 1, n
    !$acc loop seq
    do i = 1, 4
      w(i) = i * j
    end do
    a(1, j) = w(1) + w(4)
  end do
  !$acc end parallel
end subroutine
)";
  std::string Out = translate(Source, true, "p.f90");
  std::vector<test::PushedKernel> Kernels = test::pushedKernels(Out);
  ASSERT_EQ(Kernels.size(), 2u) << Out;
  const std::string &Collapsed = Kernels[0].Source;
  EXPECT_NE(Collapsed.find("#pragma acc parallel loop collapse(2)\n"), std::string::npos)
      << Collapsed;
  EXPECT_NE(Collapsed.find("for (int i = 1; i <= n; i++) {\n"
                           "    double t[3][2];\n"
                           "    for (long long jacc_k2 = 0; jacc_k2 < 3; jacc_k2++)\n"
                           "      for (long long jacc_k1 = 0; jacc_k1 < 2; jacc_k1++)\n"
                           "        t[jacc_k2][jacc_k1] = jacc_original_t[jacc_k2][jacc_k1];\n"
                           "    double w[4];\n"),
            std::string::npos)
      << Collapsed;
  EXPECT_NE(Out.find("{\"const double (*jacc_original_t)[2]\", (void *)&t}"), std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("(void *)&w}"), std::string::npos) << Out;
  const std::string &Gangs = Kernels[1].Source;
  EXPECT_NE(
      Gangs.find("  #pragma acc loop gang\n  for (int j = 1; j <= n; j++) {\n    double w[4];"),
      std::string::npos)
      << Gangs;
  expectKernelsCompile(Dir + "/p.f90", 2);
  // A use outside the loops that hold the copies.
  std::string E = translate(R"(subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n), w(4)
  !$acc parallel private(w)
  w(1) = 0
  !$acc loop gang
  do i = 1, n
    w(2) = i
    a(i) = w(2)
  end do
  !$acc end parallel
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:5:3: error: 'w' is private to the loops of the clause that names it and "
                   "used outside them"),
            std::string::npos)
      << E;
}

// An array assignment is a nest of loops over its left side's elements (the first dimension
// innermost), every array of the right side indexed alike; at a construct's top level the
// devices share it. Sections map the loop's counter to l + k * s.
TEST_F(FortranKernelTest, ArrayAssignmentsAreLoopsOverTheLeftSidesElements) {
  std::string Out = translate(R"(subroutine s(n, a, u)
  integer :: n, j
  real(8) :: a(n, 8)
  real(8), allocatable :: u(:, :)
  !$acc kernels
  a = 2 * a + 1
  !$acc end kernels
  !$acc parallel loop
  do j = 1, n
    u(2:n:2, j) = sqrt(u(2:n:2, j)) + a(1:n-1:2, 1)
  end do
end subroutine
)",
                              true, "p.f90");
  std::vector<test::PushedKernel> Kernels = test::pushedKernels(Out);
  ASSERT_EQ(Kernels.size(), 2u) << Out;
  EXPECT_NE(Kernels[0].Source.find("#pragma acc loop independent collapse(2)\n"
                                   "  for (long long jacc_e2 = 0; jacc_e2 < 8; jacc_e2++) {\n"
                                   "    for (long long jacc_e1 = 0; jacc_e1 < jacc_n_a_1; "
                                   "jacc_e1++) {\n"
                                   "      a[jacc_e2][jacc_e1] = (((2.) * a[jacc_e2][jacc_e1]) + "
                                   "(1.));"),
            std::string::npos)
      << Kernels[0].Source;
  EXPECT_NE(Kernels[1].Source.find(
                "for (long long jacc_e1 = 0; jacc_e1 < ((n) - (2LL) + (2LL)) / (2LL); jacc_e1++)"),
            std::string::npos)
      << Kernels[1].Source;
  EXPECT_NE(Kernels[1].Source.find("u[j - jacc_lb_u_2][(2LL) + jacc_e1 * (2LL) - jacc_lb_u_1] = "
                                   "(sqrt(u[j - jacc_lb_u_2][(2LL) + jacc_e1 * (2LL) - "
                                   "jacc_lb_u_1]) + a[1LL - 1][(1LL) + jacc_e1 * (2LL) - 1]);"),
            std::string::npos)
      << Kernels[1].Source;
  expectKernelsCompile(Dir + "/p.f90", 2);
}

// SELECT CASE is an if chain on the selector evaluated once; a BLOCK without declarations is
// its statements in place; one with declarations is an error.
TEST_F(FortranKernelTest, SelectCaseIsAnIfChainAndBlockItsStatements) {
  std::string K = kernel(R"(subroutine s(n, a, k)
  integer :: n, i, k(n)
  real(8) :: a(n)
  !$acc parallel loop
  do i = 1, n
    block
      select case (k(i))
      case (1, 3:)
        a(i) = 1
      case (:-2)
        a(i) = 2
      case default
        a(i) = 3
      end select
    end block
  end do
end subroutine
)");
  EXPECT_NE(K.find("  {\n"
                   "    const long long jacc_case0 = k[i - 1];\n"
                   "    if ((jacc_case0 == (1)) || (jacc_case0 >= (3))) {\n"
                   "      a[i - 1] = (1.);\n"
                   "    } else if ((jacc_case0 <= (-2))) {\n"
                   "      a[i - 1] = (2.);\n"
                   "    } else {\n"
                   "      a[i - 1] = (3.);\n"
                   "    }\n"
                   "  }\n"),
            std::string::npos)
      << K;
  std::string E = translate(R"(subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n)
  !$acc parallel loop
  do i = 1, n
    block
      real(8) :: t
      t = i
      a(i) = t
    end block
  end do
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:6:5: error: a BLOCK construct with declarations is not translated into "
                   "kernels yet"),
            std::string::npos)
      << E;
}

// The openacc module's acc_on_device in a kernel is the kernel language's, a logical 0 or 1.
#ifdef JACC_FORTRAN_MODULES
TEST_F(FortranKernelTest, AccOnDeviceIsTheKernelLanguagesOwn) {
  std::string Out = translate(R"(subroutine s(n, a)
  use openacc
  integer :: n, i
  logical :: a(n)
  !$acc parallel loop
  do i = 1, n
    a(i) = acc_on_device(acc_device_host) .or. acc_on_device(acc_device_nvidia)
  end do
end subroutine
)",
                              true, "p.f90");
  EXPECT_NE(Out.find("(((acc_on_device((int)2) != 0) != 0) || ((acc_on_device((int)4) != 0) != "
                     "0))"),
            std::string::npos)
      << Out;
  expectKernelsCompile(Dir + "/p.f90", 1);
}
#endif

// init, set and shutdown name device types as OpenACC 3.3 writes them (flang 16 reads the names
// as integer expressions and, under implicit none, as undeclared): the runtime routines with
// OpenACC's constants, as in C; a name jacc does not know is an error at it.
TEST_F(FortranKernelTest, DeviceTypesAreNamesAsInC) {
  std::string Out = translate(R"(program p
  implicit none
  !$acc init device_type(host)
  !$acc set device_type(nvidia) device_num(0)
  !$acc shutdown device_type(multicore, *)
end program
)");
  EXPECT_NE(Out.find("acc_init(acc_device_host);"), std::string::npos) << Out;
  EXPECT_NE(Out.find("acc_set_device_type(acc_device_nvidia);\n"
                     "  acc_set_device_num((int)(*jacc_value_0), acc_device_nvidia);"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("acc_shutdown(acc_device_host);\n  acc_shutdown(acc_device_default);"),
            std::string::npos)
      << Out;
  std::string Error = translate(R"(program p
  implicit none
  integer :: x
  x = 1
  !$acc init device_type(fpga)
end program
)",
                                false);
  EXPECT_NE(Error.find("t.f90:5:26: error: unknown device type 'fpga' in clause 'device_type': "
                       "jacc knows host (multicore), nvidia, radeon, default and *"),
            std::string::npos)
      << Error;
  // In a module, flang would write no module file: an error naming the routine to call.
  Error = translate(R"(module m
  implicit none
contains
  subroutine start()
    !$acc init device_type(nvidia)
  end subroutine
end module
)",
                    false);
  EXPECT_NE(Error.find("t.f90:5:28: error: device type 'nvidia' in a module: flang 16 reads it "
                       "as an expression"),
            std::string::npos)
      << Error;
}

// `!$acc end loop` after a loop construct's DO loop (OpenACC 3.3; flang 16 does not parse it):
// flang reads a copy without the line, and what it says still names the file and its lines.
TEST_F(FortranKernelTest, EndLoopClosesALoopConstruct) {
  std::string Out = translate(R"(subroutine s(n, a)
  integer :: n, i
  real :: a(n)
  !$acc parallel
    !$acc loop
    do i = 1, n
      a(i) = 2 * a(i)
    end do
    !$ACC END LOOP
  !$acc end parallel
end subroutine
)");
  EXPECT_NE(Out.find("  call jacc_"), std::string::npos) << Out;
  EXPECT_EQ(test::pushedKernels(Out).size(), 1u) << Out;
  std::string Error = translate(R"(subroutine s(n, a)
  implicit none
  integer :: n, i
  real :: a(n)
  !$acc parallel loop
  do i = 1, n
    a(i) = 2 * a(i)
  end do
  !$acc end loop
  call undefined(a)
  a(1) = undeclared
end subroutine
)",
                                false);
  EXPECT_NE(Error.find(Dir + "/t.f90:11:10: error: No explicit type declared for 'undeclared'"),
            std::string::npos)
      << Error;
  EXPECT_EQ(Error.find(".jacc-modules"), std::string::npos) << Error;
}

// OpenACC 3.3's gang dimensions, which flang 16 does not parse: `gang(dim:d)` reaches the kernel
// as written, `num_gangs` keeps its first value (jacc chooses the grid), and an error on the
// same line keeps its column.
TEST_F(FortranKernelTest, GangDimensionsReachTheKernelAsWritten) {
  std::string K = kernel(R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(n, n)
  !$acc parallel loop num_gangs(4, 4) GANG( dim : 2 ) copy(a)
  do j = 1, n
    !$acc loop gang(dim:1)
    do i = 1, n
      a(i, j) = a(i, j) + i
    end do
  end do
end subroutine
)");
  EXPECT_NE(K.find("#pragma acc parallel loop num_gangs(4) gang(dim:2)\n"), std::string::npos) << K;
  EXPECT_NE(K.find("#pragma acc loop gang(dim:1)\n"), std::string::npos) << K;
  expectKernelsCompile(Dir + "/t.f90", 1);
  std::string Error = translate(R"(subroutine s(n, a)
  implicit none
  integer :: n, i
  real(8) :: a(n)
  !$acc parallel loop gang(dim:1) num_gangs(2, 2)
  do i = 1, n
    a(i) = undeclared
  end do
end subroutine
)",
                                false);
  EXPECT_NE(Error.find(Dir + "/t.f90:7:12: error: No explicit type declared for 'undeclared'"),
            std::string::npos)
      << Error;
}

// A module's declare directive: its variables recorded beside flang's module file, found by a
// file that uses the module (translated later, as a build does), mapped by the first directive
// that passes them and unmapped before DEALLOCATE (in a one-line IF too).
TEST_F(FortranKernelTest, ModuleDeclaresReachTheFilesThatUseTheModule) {
  translate(R"(module fields
  real(8), allocatable :: u(:)
  real(8) :: c(3)
  !$acc declare create(u) copyin(c)
end module fields
)",
            true, "fields.f90");
  std::ifstream Declares(Dir + "/.jacc-modules/fields.declare");
  std::stringstream Text;
  Text << Declares.rdbuf();
  EXPECT_EQ(Text.str(), "c copyin\nu create\n");
  std::string Out = translate(R"(subroutine s(n)
  use fields
  integer :: n, i
  allocate (u(n))
  !$acc parallel loop
  do i = 1, n
    u(i) = c(1) * i
  end do
  if (allocated(u)) deallocate (u)
end subroutine
)",
                              true, "use.f90");
  EXPECT_NE(Out.find("jacc_fortran_declared(u, (size_t)1 * (size_t)jacc_n_u[0] * sizeof(double), "
                     "0, \"use.f90:5\");"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("jacc_fortran_declared(c, (size_t)1 * (size_t)jacc_n_c[0] * sizeof(double), "
                     "1, \"use.f90:5\");"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  if (allocated(u)) then; call jacc_f"), std::string::npos) << Out;
  EXPECT_NE(Out.find("(u, lbound(u, kind=8), shape(u, kind=8)); deallocate(u); end if\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("jacc_delete(u, "), std::string::npos) << Out;
  // The call before DEALLOCATE unmaps only: it does not map the variable first.
  EXPECT_EQ(Out.find("jacc_fortran_declared(u, (size_t)1 * (size_t)jacc_n_u[0] * sizeof(double), "
                     "0, \"use.f90:9\");"),
            std::string::npos)
      << Out;
}

// A procedure's declare maps its data from the first executable statement (its calls before
// that statement's text) until the procedure leaves: before each RETURN (a one-line IF's too)
// and its END; a main program's until its END. The bounds of a section are the entry's.
TEST_F(FortranKernelTest, AProceduresDeclareMapsItsDataUntilItLeaves) {
  std::string Out = translate(R"(subroutine p(a, n, early)
  integer, intent(in) :: n
  real(8) :: a(n), t(n)
  logical :: early
  integer :: i
  !$acc declare copy(a(1:n)) create(t)
  t = 0
  if (early) return
  !$acc parallel loop
  do i = 1, n
    a(i) = a(i) + t(i)
  end do
  if (n > 3) then
    return
  end if
end subroutine
program main
  real(8) :: x(4)
  !$acc declare copyin(x)
  x = 1
  call p(x, 4, .false.)
end program
)");
  const std::string Entry = "call jacc_f", Return = "_6_exit(a, lbound(a, kind=8), "
                                                    "shape(a, kind=8), int(1, kind=8), "
                                                    "int(n, kind=8), t, lbound(t, kind=8), "
                                                    "shape(t, kind=8)); ";
  EXPECT_NE(Out.find("_6_entry(a, lbound(a, kind=8), shape(a, kind=8), int(1, kind=8), "
                     "int(n, kind=8), t, lbound(t, kind=8), shape(t, kind=8)); t = 0\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("  if (early) then; " + Entry), std::string::npos) << Out;
  EXPECT_NE(Out.find(Return + "return; end if\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("\n    " + Entry), std::string::npos) << "the RETURN inside IF" << Out;
  EXPECT_NE(Out.find(Return + "end subroutine\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("_19_entry(x, lbound(x, kind=8), shape(x, kind=8)); x = 1\n"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("_19_exit(x, lbound(x, kind=8), shape(x, kind=8)); end program\n"),
            std::string::npos)
      << Out;
  // The exit restores the bounds the entry evaluated.
  EXPECT_NE(Out.find("jacc_translated_check(jacc_copyout((void *)(a + ((*jacc_value_"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("= &jacc_saved_6["), std::string::npos) << Out;

  std::string E = translate(R"(subroutine q(a)
  real(8) :: a(10)
  !$acc declare link(a)
10 a = 1
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:3:17: error: a procedure's 'declare' is translated with copy, copyin, "
                   "copyout, create and present clauses"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("t.f90:4:1: error: a procedure with 'declare' starts with a labeled statement"),
            std::string::npos)
      << E;
  // A declare after the first executable statement would be unmapped without being mapped.
  E = translate(R"(subroutine r(a)
  real(8) :: a(10)
  !$acc declare copy(a)
  a(1) = 2
  block
    real(8) :: b(4)
    !$acc declare create(b)
    b = 1
  end block
end subroutine
)",
                false);
  EXPECT_NE(E.find("t.f90:7:11: error: a 'declare' after the first executable statement (in a "
                   "BLOCK) is not translated"),
            std::string::npos)
      << E;
}

// A kernel carries the routines it calls as C functions, each after those it calls: a scalar
// argument the routine assigns is taken by address (intent(in), value and scalars it never
// assigns by value); an array by the address of its first element (a contiguous section's,
// an element's), an assumed-shape one with its extents after it; an array of rank 2 gets its
// rows from the arguments that bound it.
TEST_F(FortranKernelTest, RoutinesAreCFunctionsTakingWhatTheyAssignByAddress) {
  std::string K = kernel(R"(module m
  real(8) :: factor
contains
  real(8) function twice(x)
    !$acc routine seq
    real(8), intent(in) :: x
    twice = factor * x
  end function
  subroutine scale(n, col, s, last)
    !$acc routine seq
    integer :: n, k
    real(8) :: col(0:n), s, last
    do k = 0, n
      col(k) = twice(col(k)) * s
    end do
    last = col(n)
  end subroutine
  subroutine head(row, v, m, b)
    !$acc routine seq
    real(8), intent(in) :: row(:)
    real(8), intent(out) :: v
    integer, value :: m
    real(8) :: b(m + 1, 2:3)
    v = row(1) + b(m, 3)
  end subroutine
end module
subroutine s(n, m, a)
  use m
  integer :: n, m, j
  real(8) :: a(0:n, m), f, g
  !$acc parallel loop private(f, g)
  do j = 1, m
    call scale(n, a(:, j), 0.5d0, f)
    call head(a(1:n, j), g, n - 1, a)
    a(0, j) = f + g
  end do
end subroutine
)");
  size_t Twice = K.find("static double jacc_routine_m_twice(double x, double jacc_use_factor) {");
  size_t Scale = K.find("static void jacc_routine_m_scale(int n, double *col, double s, double "
                        "*last, double jacc_use_factor) {");
  EXPECT_NE(Twice, std::string::npos) << K;
  EXPECT_LT(Twice, Scale) << K;
  EXPECT_NE(K.find("  (*last) = col[n];"), std::string::npos) << K;
  // A module variable a routine reads is a parameter after its arguments, given by each call.
  EXPECT_NE(K.find("col[k] = (jacc_routine_m_twice(col[k], jacc_use_factor) * s);"),
            std::string::npos)
      << K;
  EXPECT_NE(K.find("static void jacc_routine_m_head(double *row, long long jacc_rn_row_1, double "
                   "*v, int m, double *b) {\n  (*v) = (row[1LL - 1] + b[m - 1 + (m + 1) * (3LL - "
                   "2)]);"),
            std::string::npos)
      << K;
  EXPECT_NE(K.find("jacc_routine_m_scale(n, &a[j - 1][0], (5.e-1), &f, factor);"),
            std::string::npos)
      << K;
  EXPECT_NE(K.find("jacc_routine_m_head(&a[j - 1][1LL], (long long)((n) - (1LL) + 1), &g, (n - "
                   "1), &a[0][0]);"),
            std::string::npos)
      << K;
  EXPECT_EQ(K.find("#pragma acc routine seq"), 0u) << K;
  expectKernelsCompile(Dir + "/t.f90", 1);
}

TEST_F(FortranKernelTest, WhatARoutineCannotTakeIntoAKernelIsAnErrorAtItsLine) {
  std::string E = translate(R"(module m
  real(8) :: total, unused
contains
  subroutine add(x)
    !$acc routine seq
    real(8) :: x
    total = total + x
    unused = 0
  end subroutine
  recursive subroutine down(k)
    !$acc routine seq
    integer, value :: k
    if (k > 0) call down(k - 1)
  end subroutine
  subroutine plain(x)
    real(8) :: x
    x = 1
  end subroutine
  subroutine bump(x)
    !$acc routine seq
    real(8) :: x
    x = x + 1
  end subroutine
  subroutine fill(v)
    !$acc routine seq
    real(8) :: v(2)
    v(1) = 0
  end subroutine
end module
subroutine s(n, a)
  use m
  integer :: n, i
  real(8) :: a(n)
  !$acc parallel loop
  do i = 1, n
    call add(a(i))
    call down(i)
    call plain(a(i))
    call bump(a(i) * 2)
    call fill(a(1:n:2))
  end do
end subroutine
)",
                            false);
  for (const char *Expected :
       {"t.f90:7:5: error: the routine assigns 'total', a variable of its module or host: pass it "
        "as an argument",
        "t.f90:8:5: error: the routine assigns 'unused', a variable of its module or host: pass "
        "it as an argument",
        "t.f90:13:5: error: 'down' calls itself: recursive routines are not translated",
        "t.f90:38:5: error: 'plain' is called in a kernel: put '!$acc routine seq' in its "
        "definition",
        "t.f90:39:5: error: argument 1 of 'bump' is an expression, and the routine assigns its "
        "dummy argument: pass a variable",
        "t.f90:40:5: error: argument 1 of 'fill' is not a whole array, an element or a "
        "contiguous section"})
    EXPECT_NE(E.find(Expected), std::string::npos) << Expected << "\n" << E;
  // Each once, though 'total' is assigned and read on its line.
  EXPECT_EQ(E.find("'total'"), E.rfind("'total'")) << E;
}

// A module's routines reach the kernels of the files that use it: its translation writes each
// routine's text (with those it calls) beside flang's module file, and a kernel calling one
// carries each definition once; a routine its module's translation could not print is an error
// at the call, quoting why.
TEST_F(FortranKernelTest, ModuleRoutinesReachTheKernelsOfTheFilesThatUseTheModule) {
  translate(R"(module physics
  real(8) :: gain
  real(8) :: table(4)
  real(8), pointer :: shared(:)
contains
  real(8) function damp(x)
    !$acc routine seq
    real(8), intent(in) :: x
    damp = gain * x
  end function
  subroutine relax(n, col)
    !$acc routine seq
    integer, intent(in) :: n
    real(8) :: col(n)
    integer :: k
    do k = 2, n
      col(k) = damp(col(k - 1))
    end do
  end subroutine
  real(8) function lookup(k)
    !$acc routine seq
    integer, intent(in) :: k
    lookup = table(k)
  end function
  real(8) function peek(k)
    !$acc routine seq
    integer, intent(in) :: k
    peek = shared(k)
  end function
end module
)",
            true, "physics.f90");
  std::string K = kernel(R"(subroutine s(n, m, a)
  use physics
  integer :: n, m, j
  real(8) :: a(n, m)
  !$acc parallel loop
  do j = 1, m
    call relax(n, a(:, j))
    a(1, j) = damp(a(n, j))
  end do
end subroutine
)");
  size_t Damp = K.find("static double jacc_routine_physics_damp(double x, double jacc_use_gain)");
  EXPECT_NE(Damp, std::string::npos) << K;
  EXPECT_EQ(Damp, K.rfind("static double jacc_routine_physics_damp(")) << K;
  EXPECT_LT(Damp, K.find("static void jacc_routine_physics_relax(int n, double *col, double "
                         "jacc_use_gain)"))
      << K;
  EXPECT_NE(K.find("jacc_routine_physics_relax(n, &a[j - 1][0], gain);"), std::string::npos) << K;
  EXPECT_NE(K.find("a[j - 1][1LL - 1] = jacc_routine_physics_damp(a[j - 1][n - 1], gain);"),
            std::string::npos)
      << K;
  // -Minfo names the module's routine as written.
  EXPECT_TRUE(llvm::is_contained(Infos, "t.f90:5: not split across devices: a call to 'relax' may "
                                        "write through a pointer; with several devices each runs "
                                        "the whole kernel"))
      << llvm::join(Infos, "\n");
  // An array of the module a routine reads is read in place: its first element, then each
  // dimension's lower bound and extent, as the kernel has them.
  std::string L = kernel(R"(subroutine s(n, a)
  use physics
  integer :: n, i
  real(8) :: a(n)
  !$acc parallel loop
  do i = 1, n
    a(i) = lookup(i)
  end do
end subroutine
)");
  EXPECT_NE(L.find("static double jacc_routine_physics_lookup(int k, const double "
                   "*jacc_use_table, long long jacc_use_table_l1, long long jacc_use_table_n1) "
                   "{\n  double jacc_result;\n  jacc_result = jacc_use_table[k - "
                   "jacc_use_table_l1];"),
            std::string::npos)
      << L;
  EXPECT_NE(L.find("a[i - 1] = jacc_routine_physics_lookup(i, &table[0], (long long)(1), (long "
                   "long)(4));"),
            std::string::npos)
      << L;
  // An array a routine assigns elements of is passed to it without const, and to every routine
  // calling it, across files too (the module's record says so).
  translate(R"(module tally
  real(8), allocatable :: hits(:)
contains
  subroutine hit(k)
    !$acc routine seq
    integer, intent(in) :: k
    hits(k) = hits(k) + 1
  end subroutine
  subroutine hit_twice(k)
    !$acc routine seq
    integer, intent(in) :: k
    call hit(k)
    call hit(k + 1)
  end subroutine
end module
)",
            true, "tally.f90");
  std::string W = kernel(R"(subroutine s(n)
  use tally
  integer :: n, i
  !$acc parallel loop
  do i = 1, n, 2
    call hit_twice(i)
  end do
end subroutine
)");
  EXPECT_NE(W.find("static void jacc_routine_tally_hit(int k, double *jacc_use_hits, long long "
                   "jacc_use_hits_l1, long long jacc_use_hits_n1) {"),
            std::string::npos)
      << W;
  EXPECT_NE(W.find("static void jacc_routine_tally_hit_twice(int k, double *jacc_use_hits, long "
                   "long jacc_use_hits_l1, long long jacc_use_hits_n1) {"),
            std::string::npos)
      << W;
  EXPECT_NE(W.find("jacc_routine_tally_hit_twice(i, &hits[0], (long long)(jacc_lb_hits_1), "
                   "(long long)(jacc_n_hits_1));"),
            std::string::npos)
      << W;
  std::string E = translate(R"(subroutine s(n, a)
  use physics
  integer :: n, i
  real(8) :: a(n)
  !$acc parallel loop
  do i = 1, n
    a(i) = peek(i)
  end do
end subroutine
)",
                            false);
  EXPECT_NE(E.find("t.f90:7:5: error: 'peek' cannot run in a kernel (its module's translation "
                   "said: "),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("'shared' is neither an argument nor a local variable of the routine, nor a "
                   "scalar or non-pointer array"),
            std::string::npos)
      << E;
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

TEST_F(FortranKernelTest, ComplexValuesAreCsComplex) {
  const std::string Program = R"(program p
  complex(8) :: z(10), t
  complex(4) :: c
  real(8) :: r(10)
  integer :: i
  t = 0
  !$acc parallel loop copyin(z) copyout(r) reduction(+:t) private(c)
  do i = 1, 10
    c = cmplx(r(i), 2.5, kind=4)
    r(i) = abs(z(i)) + real(conjg(z(i))) + aimag(z(i) * (1d0, 2d0)) + real(c)
    t = t + exp(z(i)) + dot_product(z(1:2), z(3:4))
  end do
end program
)";
  std::vector<test::PushedKernel> K = test::pushedKernels(translate(Program));
  ASSERT_EQ(K.size(), 1u);
  EXPECT_TRUE(llvm::is_contained(K[0].Decls, "double _Complex *z")) << llvm::join(K[0].Decls, "; ");
  EXPECT_TRUE(llvm::is_contained(K[0].Decls, "double _Complex t")) << llvm::join(K[0].Decls, "; ");
  for (const char *Part : {"#include <complex.h>\n", "cabs(z[i - 1])", "creal(conj(z[i - 1]))",
                           "cimag((z[i - 1] * ((1.) + (2.) * I)))", "crealf(c)", "cexp(z[i - 1])",
                           "jacc_r1 += conj(z[(1LL) + jacc_e1 - 1]) * z[(3LL) + jacc_e1 - 1];"})
    EXPECT_HAS(K[0].Source, Part);
  // Host devices compile it as C, CUDA devices with C's complex types as a C++ template.
  expectKernelsCompileText(Program);
}

// Elemental intrinsics are one C expression each (tests/openacc/fortran_intrinsics.f90 compares
// their values with gfortran's): modulo with the divisor's sign, bit shifts guarded at the width,
// integer powers of an exponent known at run time in 64-bit unsigned products; what has no C
// form stays a located error.
TEST_F(FortranKernelTest, ElementalIntrinsicsAreOneCExpressionEach) {
  const std::string Program = R"(program p
  integer :: m(8), k(8), i
  integer(8) :: b(8)
  real(8) :: x(8)
  real(4) :: y(8)
  !$acc parallel loop copyin(m) copyout(k, b, x, y)
  do i = 1, 8
    k(i) = modulo(m(i), 3) + m(i)**i + ishft(m(i), i - 4) + merge(1, 0, btest(m(i), i)) &
         + popcnt(m(i)) + leadz(int(m(i), 8)) + trailz(m(i))
    b(i) = ibits(int(m(i), 8), i, 3) + shifta(int(m(i), 8), i) + not(int(i, 8))
    x(i) = modulo(1.5d0 * i, -2d0) + aint(2.5d0 * i) + erf(1d0 * i) + log_gamma(1d0 * i)
    y(i) = anint(0.5 * i) + hypot(1.0 * i, 2.0) + atan(1.0, 1.0 * i) + fraction(1.0 * i)
  end do
end program
)";
  std::vector<test::PushedKernel> K = test::pushedKernels(translate(Program));
  ASSERT_EQ(K.size(), 1u);
  for (const char *Part :
       {"(m[i - 1] % 3) != 0 && (((m[i - 1] % 3) < 0) != ((3) < 0)) ? (m[i - 1] % 3) + (3)",
        "((int)(((long long)(i)) < 0 || ((long long)(i)) >= 64 ? (unsigned long long)((m[i - 1]) "
        "== 1 ? 1 : (m[i - 1]) == -1 ? (((long long)(i)) & 1 ? -1 : 1) : 0) : ((((long long)(i)) "
        ">> 0) & 1 ? ((unsigned long long)(m[i - 1])) : 1ULL)",
        "((i - 4)) >= 32 || ((i - 4)) <= -32 ? 0",
        "((unsigned int)(m[i - 1])) >> (-((i - 4)) & 31)",
        "((((unsigned long long)(m[i - 1])) >> (i)) & 1)", "(long long)~(((long long)i))",
        "((int)__builtin_popcountll(((unsigned long long)(unsigned int)(m[i - 1]))))",
        "((int)((((long long)m[i - 1])) == 0 ? 64 : __builtin_clzll(((unsigned long long)(unsigned "
        "long long)(((long long)m[i - 1])))) - 0))",
        "((int)((m[i - 1]) == 0 ? 32 : __builtin_ctzll(((unsigned long long)(unsigned "
        "int)(m[i - 1])))))",
        "fmod(((1.5) * ((double)i)), (-2.)) != 0 && ((fmod(((1.5) * ((double)i)), (-2.)) < 0) != "
        "(((-2.)) < 0))",
        "trunc(", "erf(", "lgamma(", "roundf(", "hypotf(", "atan2f(", "ldexpf("})
    EXPECT_HAS(K[0].Source, Part);
  expectKernelsCompileText(Program);
  std::string E = translate(R"(program p
  integer :: m(8), i
  !$acc parallel loop copy(m)
  do i = 1, 8
    m(i) = ishftc(m(i), 3)
  end do
end program
)",
                            false);
  EXPECT_NE(E.find("t.f90:5:5: error: the intrinsic 'ishftc' is not translated into a kernel yet"),
            std::string::npos)
      << E;
}

// CYCLE and EXIT of a loop further out set its flag and break; each loop in between passes the
// flag on as it ends (tests/openacc/fortran_loop_exits.f90 runs them against gfortran). An index
// the private clause names is the kernel's private variable, not a second one the for declares
// (which left the argument unused, an error at the launch).
TEST_F(FortranKernelTest, NamedCycleAndExitLeaveTheirLoopsByFlags) {
  const std::string Program = R"(program p
  integer :: a(6, 6), r(6), i, j, k
  !$acc parallel loop copyin(a) copyout(r) private(j, k)
  do i = 1, 6
    r(i) = 0
    outer: do j = 1, 6
      middle: do k = 1, 6
        do
          if (a(k, j) > i) cycle outer
          if (a(k, j) < 0) exit outer
          if (a(k, j) == 0) exit middle
          exit
        end do
        r(i) = r(i) + a(k, j)
      end do middle
    end do outer
  end do
end program
)";
  std::vector<test::PushedKernel> K = test::pushedKernels(translate(Program));
  ASSERT_EQ(K.size(), 1u);
  // Each flag a local of its loop's body, fresh in each iteration.
  EXPECT_HAS(K[0].Source, "  for (j = 1; j <= 6; j++) {\n    int jacc_exit_outer = 0;\n    int "
                          "jacc_cycle_outer = 0;\n    for (k = 1; k <= 6; k++) {\n      int "
                          "jacc_exit_middle = 0;\n      for (;;) {\n");
  for (const char *Part :
       {"jacc_cycle_outer = 1;\n          break;", "jacc_exit_middle = 1;\n          break;",
        "      }\n      if (jacc_exit_outer) break;\n      if (jacc_cycle_outer) break;\n      "
        "if (jacc_exit_middle) break;\n",
        "    }\n    if (jacc_exit_outer) break;\n    if (jacc_cycle_outer) continue;\n  }\n"})
    EXPECT_HAS(K[0].Source, Part);
  expectKernelsCompileText(Program);
  std::string E = translate(R"(program p
  integer :: a(6), i
  !$acc parallel loop copy(a)
  do i = 1, 6
    check: if (a(i) > 0) then
      a(i) = 1
      exit check
    end if check
  end do
end program
)",
                            false);
  EXPECT_NE(E.find("t.f90:7:7: error: EXIT of 'check', which is no DO loop inside the compute "
                   "construct, is not translated"),
            std::string::npos)
      << E;
}

TEST_F(FortranKernelTest, ReductionsAlongADimensionAreEachElementsOwn) {
  const std::string Program = R"(program p
  real(8) :: a(10, 4), s(4), r(10), t(4)
  integer :: c(10)
  logical :: m(10, 4)
  !$acc kernels copyin(a, m) copyout(s, r, c, t)
  s(:) = sum(a, dim=1)
  r = maxval(a(:, 2:4), dim=2) + 1
  c(:) = count(m, dim=2)
  t = sum(a * 2, dim=1, mask=a > 0) / sum(sum(a, dim=1))
  !$acc end kernels
end program
)";
  std::string K = kernel(Program);
  // Along the first dimension: its own counter jacc_e0, the other the assignment's.
  EXPECT_HAS(K, "  for (long long jacc_e1 = 0; jacc_e1 < 4; jacc_e1++) {\n"
                "    double jacc_r1 = 0;\n"
                "    for (long long jacc_e0 = 0; jacc_e0 < 10LL; jacc_e0++) {\n"
                "      jacc_r1 += a[jacc_e1][jacc_e0];\n"
                "    }\n"
                "    s[jacc_e1] = jacc_r1;\n");
  // Along the last: the assignment's counter for the first, its own for the last.
  EXPECT_HAS(K, "      { double jacc_v = a[(2LL) + jacc_e0 - 1][jacc_e1]; if (jacc_v > jacc_r2) "
                "jacc_r2 = jacc_v; }\n    }\n    r[jacc_e1] = (jacc_r2 + (1.));");
  EXPECT_HAS(K, "if (m[jacc_e0][jacc_e1]) jacc_r3++;");
  // Inside a whole reduction, each of its elements' own, in its loop.
  EXPECT_HAS(K, "  for (long long jacc_e1 = 0; jacc_e1 < 4LL; jacc_e1++) {\n"
                "    double jacc_r4 = 0;\n"
                "    for (long long jacc_e0 = 0; jacc_e0 < 10LL; jacc_e0++) {\n"
                "      jacc_r4 += a[jacc_e1][jacc_e0];\n"
                "    }\n"
                "    jacc_r5 += jacc_r4;\n");
  EXPECT_HAS(K, "if ((a[jacc_e1][jacc_e0] > (0.))) { jacc_r6 += (a[jacc_e1][jacc_e0] * (2.)); }");
  expectKernelsCompileText(Program);
  // A read of the assigned array through the reduction, at other elements: Fortran would
  // have evaluated it whole first.
  expectReadsOtherElements("a(1, :) = sum(a, dim=1)");
}

TEST_F(FortranKernelTest, MatmulAndTransposeTakeTheAssignmentsCounters) {
  const std::string Program = R"(program p
  real(8) :: a(6, 4), b(4, 5), c(6, 5), x(4), y(6), z(4), t(4, 6), d(4, 4), s
  !$acc kernels copyin(a, b, x, y) copyout(c, z, t, d)
  c(:, :) = matmul(a, b)
  y = matmul(a, x) + 1
  z = matmul(y, a)
  t = transpose(a) * 2
  d = matmul(transpose(a), a)
  !$acc end kernels
  !$acc serial copyin(a, b) copyout(s)
  s = sum(matmul(a, b))
  !$acc end serial
end program
)";
  std::vector<test::PushedKernel> Kernels = test::pushedKernels(translate(Program));
  ASSERT_EQ(Kernels.size(), 2u);
  const std::string &K = Kernels[0].Source;
  EXPECT_HAS(K, "      double jacc_r2 = 0;\n"
                "      for (long long jacc_k1 = 0; jacc_k1 < 4LL; jacc_k1++) {\n"
                "        jacc_r2 += a[jacc_k1][jacc_e1] * b[jacc_e2][jacc_k1];\n"
                "      }\n"
                "      c[jacc_e2][jacc_e1] = jacc_r2;");
  EXPECT_HAS(K, "jacc_r4 += a[jacc_k3][jacc_e1] * x[jacc_k3];");
  EXPECT_HAS(K, "jacc_r6 += y[jacc_k5] * a[jacc_e1][jacc_k5];");
  EXPECT_HAS(K, "t[jacc_e2][jacc_e1] = (a[jacc_e1][jacc_e2] * (2.));");
  EXPECT_HAS(K, "jacc_r8 += a[jacc_e1][jacc_k7] * a[jacc_e2][jacc_k7];");
  // Inside a whole reduction: each of its elements'.
  EXPECT_HAS(Kernels[1].Source, "      double jacc_r2 = 0;\n"
                                "      for (long long jacc_k1 = 0; jacc_k1 < 4LL; jacc_k1++) {\n"
                                "        jacc_r2 += a[jacc_k1][jacc_e1] * b[jacc_e2][jacc_k1];\n"
                                "      }\n"
                                "      jacc_r3 += jacc_r2;");
  expectKernelsCompileText(Program);
  expectReadsOtherElements("a = matmul(a, a)");
}

TEST_F(FortranKernelTest, ComplexPartsAreTheirArraysElements) {
  const std::string Program = R"(program p
  type wave
    complex(4) :: c
  end type
  complex(8) :: z(10), t
  type(wave) :: w(10)
  real(8) :: r(10)
  integer :: i
  !$acc parallel loop copy(z, w) copyout(r) private(t)
  do i = 1, 10
    t%re = i
    t%im = -z(i)%re
    z(i)%im = t%im * 2 + w(i)%c%im
    w(i)%c%re = 0.5
    r(i) = t%re + z(i)%re
  end do
  !$acc kernels copy(z)
  z(:)%re = z(:)%im
  !$acc end kernels
end program
)";
  std::vector<test::PushedKernel> K = test::pushedKernels(translate(Program));
  ASSERT_EQ(K.size(), 2u);
  for (const char *Part :
       {"((double *)&(t))[0] = ((double)i);",
        "((double *)&(t))[1] = (-((double *)&(z[i - 1]))[0]);",
        "((double *)&(z[i - 1]))[1] = ((((double *)&(t))[1] * (2.)) + ((double)((float "
        "*)&(w[i - 1].c))[1]));",
        "((float *)&(w[i - 1].c))[0] = (5.e-1f);"})
    EXPECT_HAS(K[0].Source, Part);
  EXPECT_HAS(K[1].Source, "((double *)&(z[jacc_e1]))[0] = ((double *)&(z[jacc_e1]))[1];");
  expectKernelsCompileText(Program);
}

TEST_F(FortranKernelTest, VectorSubscriptsTakeTheCounterOfTheirPlace) {
  const std::string Program = R"(program p
  real(8) :: a(10, 8), d(4, 8), b(10)
  integer :: idx(10), cols(8), j
  !$acc parallel loop copyin(a, idx, cols) copyout(d, b)
  do j = 1, 2
    d(:, :) = a(1:4, cols)
    b(:) = a(idx, j) + sum(a(idx(2:10:2), j))
  end do
end program
)";
  std::string K = kernel(Program);
  EXPECT_HAS(K, "d[jacc_e2][jacc_e1] = a[cols[jacc_e2] - 1][(1LL) + jacc_e1 - 1];");
  EXPECT_HAS(K, "jacc_r1 += a[j - 1][idx[(2LL) + jacc_e1 * (2LL) - 1] - 1];");
  EXPECT_HAS(K, "b[jacc_e1] = (a[j - 1][idx[jacc_e1] - 1] + jacc_r1);");
  expectKernelsCompileText(Program);
  // On the left side too: a scatter, each element assigned once (Fortran's rule for them).
  const std::string Scatter = R"(program p
  real(8) :: b(10, 2), a(10)
  integer :: idx(10), j
  integer, allocatable :: perm(:)
  allocate(perm(5))
  !$acc parallel loop copyin(idx, a, perm) copyout(b)
  do j = 1, 2
    b(idx, j) = a * j
    b(perm(1:5:2), j) = a(1:3)
  end do
end program
)";
  K = kernel(Scatter);
  EXPECT_HAS(K, "for (long long jacc_e1 = 0; jacc_e1 < 10LL; jacc_e1++) {\n"
                "    b[j - 1][idx[jacc_e1] - 1] = (a[jacc_e1] * ((double)j));");
  EXPECT_HAS(K, "jacc_e1 < ((((5LL - 1LL) + 2LL) / 2LL) > 0LL ? (((5LL - 1LL) + 2LL) / 2LL) : "
                "0LL); jacc_e1++) {\n"
                "    b[j - 1][perm[(1LL) + jacc_e1 * (2LL) - jacc_lb_perm_1] - 1] = "
                "a[(1LL) + jacc_e1 - 1];");
  expectKernelsCompileText(Scatter);
}

TEST_F(FortranKernelTest, ArrayReductionsAreLoopsBeforeTheirStatement) {
  const std::string Program = R"(program p
  real(8) :: a(10, 4), s(4)
  integer :: j, k(4)
  !$acc parallel loop copyin(a) copyout(s, k)
  do j = 1, 4
    s(j) = sum(a(:, j)) + maxval(a(1:9:2, j) * 2)
    if (any(a(:, j) > 1)) k(j) = count(a(:, j) > 0)
  end do
end program
)";
  std::string K = kernel(Program);
  // Each before the statement, in the order flang gives the operands.
  EXPECT_HAS(K, "  double jacc_r1 = -1.7976931348623157e308;\n  for (long long jacc_e1 = 0; ");
  EXPECT_HAS(K, "{ double jacc_v = (a[j - 1][(1LL) + jacc_e1 * (2LL) - 1] * (2.)); if (jacc_v > "
                "jacc_r1) jacc_r1 = jacc_v; }");
  EXPECT_HAS(K, "  double jacc_r2 = 0;\n");
  EXPECT_HAS(K, "    jacc_r2 += a[j - 1][jacc_e1];\n  }\n  s[j - 1] = (jacc_r2 + jacc_r1);\n");
  // An IF statement's condition is computed before it, its action's reductions inside it.
  EXPECT_HAS(K, "if ((a[j - 1][jacc_e1] > (1.))) jacc_r3 = 1;\n  }\n  if (jacc_r3) {\n    int "
                "jacc_r4 = 0;");
  expectKernelsCompileText(Program);

  // Along a middle dimension: the assignment's counters on either side of its own.
  const std::string Middle = R"(program p
  real(8) :: c(10, 4, 2), b(10, 2)
  !$acc kernels copyin(c) copyout(b)
  b(:, :) = sum(c, dim=2)
  !$acc end kernels
end program
)";
  EXPECT_HAS(kernel(Middle), "    for (long long jacc_e0 = 0; jacc_e0 < 4LL; jacc_e0++) {\n"
                             "        jacc_r1 += c[jacc_e2][jacc_e0][jacc_e1];\n");
  expectKernelsCompileText(Middle);
  std::string Errors = translate(R"(program p
  real(8) :: a(10, 4), s(4), b(10, 2), c(10, 4, 2), e(4, 2)
  integer :: j
  !$acc parallel loop copyin(a, c, e) copyout(s, b)
  do j = 1, 4
    b(:, :) = matmul(sum(c, dim=3), e)
    do while (sum(a(:, j)) > s(j))
      s(j) = s(j) + 1
    end do
  end do
end program
)",
                                 false);
  EXPECT_HAS(Errors, "t.f90:6:5: error: 'sum' along a dimension (dim) is translated as the right "
                     "side of an array assignment of the result's rank: write the loop");
  // A mask is an elemental condition on the update; dim along a vector's one dimension is the
  // whole vector's.
  std::string Masked = kernel(R"(program p
  real(8) :: a(10, 4), s(4)
  integer :: j
  !$acc parallel loop copyin(a) copyout(s)
  do j = 1, 4
    s(j) = sum(a(:, j), dim=1, mask=a(:, j) > 0)
  end do
end program
)");
  EXPECT_HAS(Masked, "if ((a[j - 1][jacc_e1] > (0.))) { jacc_r1 += a[j - 1][jacc_e1]; }");
  // minval and maxval start from their type's extreme values: integer(2)'s are a short's.
  std::string Short = kernel(R"(program p
  integer(2) :: h(10, 4), lo(4)
  integer :: j
  !$acc parallel loop copyin(h) copyout(lo)
  do j = 1, 4
    lo(j) = minval(h(:, j))
  end do
end program
)");
  EXPECT_HAS(Short, "short jacc_r1 = 32767;");
  EXPECT_HAS(Errors, "t.f90:7:5: error: an array reduction (sum, maxval, ...) or an expression "
                     "passed by address to a routine of another file in a DO WHILE's condition "
                     "is not translated: compute it into a variable first");
}

TEST_F(FortranKernelTest, PointerArraysPassAsAllocatablesWhileTheyPointAtContiguousMemory) {
  std::string Out = translate(R"(program p
  real(8), pointer :: q(:, :)
  integer :: i
  allocate (q(0:3, 2))
  !$acc parallel loop copy(q)
  do i = 0, 3
    q(i, 2) = q(i, 1)
  end do
end program
)");
  // The host program says whether it is associated and contiguous; the glue checks that first.
  EXPECT_HAS(Out, "call jacc_f");
  EXPECT_HAS(Out, "(q, lbound(q, kind=8), shape(q, kind=8), merge(merge(2, 1, is_contiguous(q)), "
                  "0, associated(q)))");
  EXPECT_HAS(Out, "const long long *jacc_lb_q, const long long *jacc_n_q, const int "
                  "*jacc_state_q) {\n  jacc_fortran_pointer(*jacc_state_q, \"t.f90:5\", \"q\");");
  EXPECT_HAS(Out, "{\"double (*q)[jacc_n_q_1]\", (void *)&q}");
}

TEST_F(FortranKernelTest, DeviceTypeGroupsStayInTheKernelsPragma) {
  // flang 16 checks the clauses of a directive as one list (gang in nvidia's group against seq
  // in the host's, two num_gangs); OpenACC and the kernel's analysis check each group.
  const std::string Program = R"(program p
  real(8) :: y(100)
  integer :: i
  !$acc parallel copy(y) num_gangs(4) device_type(nvidia) num_gangs(8) vector_length(128)
  !$acc loop device_type(nvidia) gang vector device_type(host, multicore) seq
  do i = 1, 100
    y(i) = y(i) + 1
  end do
  !$acc end parallel
  !$acc parallel loop copy(y) device_type(*) num_workers(1)
  do i = 1, 100
    y(i) = y(i) * 2
  end do
end program
)";
  std::vector<test::PushedKernel> K = test::pushedKernels(translate(Program));
  ASSERT_EQ(K.size(), 2u);
  EXPECT_HAS(
      K[0].Source,
      "#pragma acc parallel num_gangs(4) device_type(nvidia) num_gangs(8) vector_length(128)\n");
  EXPECT_HAS(K[0].Source, "#pragma acc loop device_type(nvidia) gang vector device_type(host, "
                          "multicore) seq\n");
  EXPECT_HAS(K[1].Source, "#pragma acc parallel loop device_type(*) num_workers(1)\n");
  expectKernelsCompileText(Program);
}

TEST_F(FortranKernelTest, DeviceptrArraysPassTheirDeviceAddressesUnmapped) {
  const std::string Program = R"(program p
  use iso_c_binding
  real(8), pointer :: a(:), b(:, :)
  real(8) :: w(100)
  integer :: i
  !$acc parallel loop deviceptr(a, b) copyin(w)
  do i = 1, 100
    a(i) = w(i) + b(1, i)
  end do
end program
)";
  std::string Out = translate(Program);
  std::vector<test::PushedKernel> K = test::pushedKernels(Out);
  ASSERT_EQ(K.size(), 1u);
  EXPECT_HAS(K[0].Source, "#pragma acc parallel loop deviceptr(a, b)\n");
  // Nothing maps a or b (w is copied in): the kernel takes the addresses as they are.
  EXPECT_HAS(Out, "jacc_copyin((void *)w");
  EXPECT_EQ(Out.find("jacc_fortran_implicit((void *)a"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("jacc_fortran_implicit((void *)b"), std::string::npos) << Out;
  expectKernelsCompileText(Program);
  std::string Errors = translate(R"(program p
  real(8) :: s
  !$acc parallel deviceptr(s)
  s = 1
  !$acc end parallel
end program
)",
                                 false);
  EXPECT_HAS(Errors, "t.f90:3:18: error: deviceptr names arrays");
}

TEST_F(FortranKernelTest, DataConstructsDeviceptrReachesTheComputeConstructsInside) {
  const std::string Program = R"(program p
  use iso_c_binding
  real(8), pointer :: a(:), b(:)
  real(8) :: w(100)
  integer :: i
  !$acc data deviceptr(a, b)
  !$acc parallel loop copyin(w)
  do i = 1, 100
    a(i) = w(i) * 2
  end do
  !$acc kernels copy(b(1:100))
  b(:) = a(:) + 1
  !$acc end kernels
  !$acc end data
  !$acc parallel loop
  do i = 1, 100
    w(i) = w(i) + 1
  end do
  !$acc parallel loop
  do i = 1, 100
    a(i) = 1
  end do
end program
)";
  std::string Out = translate(Program);
  std::vector<test::PushedKernel> K = test::pushedKernels(Out);
  ASSERT_EQ(K.size(), 4u);
  // The arrays the kernel uses, unless a clause of its own names them (b's copy).
  EXPECT_HAS(K[0].Source, "#pragma acc parallel loop deviceptr(a)\n");
  EXPECT_HAS(K[1].Source, "#pragma acc kernels deviceptr(a)\n");
  EXPECT_EQ(K[2].Source.find("deviceptr"), std::string::npos) << K[2].Source;
  // After the data construct, a is a host array again: copied implicitly.
  EXPECT_EQ(K[3].Source.find("deviceptr"), std::string::npos) << K[3].Source;
  EXPECT_HAS(Out, "jacc_copyin((void *)w");
  size_t AfterData = Out.find("jacc_fortran_implicit((void *)a");
  ASSERT_NE(AfterData, std::string::npos) << Out;
  EXPECT_EQ(Out.find("jacc_fortran_implicit((void *)a", AfterData + 1), std::string::npos) << Out;
  expectKernelsCompileText(Program);
  std::string Errors = translate(R"(program p
  real(8) :: s
  !$acc data deviceptr(s)
  !$acc end data
end program
)",
                                 false);
  EXPECT_HAS(Errors, "t.f90:3:14: error: deviceptr names arrays");
}

TEST_F(FortranKernelTest, AttachOfArrayVariablesNeedsNoCall) {
  // Kernels find an array's device copy by its address: no device descriptor to update.
  std::string Out = translate(R"(program p
  real(8), pointer :: a(:)
  real(8), allocatable :: b(:)
  integer :: i
  allocate(a(10), b(10))
  !$acc enter data copyin(a, b) attach(a)
  !$acc data attach(b)
  !$acc parallel loop attach(a)
  do i = 1, 10
    a(i) = b(i)
  end do
  !$acc end data
  !$acc exit data copyout(a) delete(b) detach(a)
end program
)");
  EXPECT_HAS(Out, "jacc_copyin((void *)a");
  EXPECT_EQ(Out.find("attach"), std::string::npos) << Out;
  std::string Errors = translate(R"(program p
  type t
    real(8), pointer :: p(:)
  end type
  type(t) :: x
  !$acc enter data copyin(x) attach(x%p)
end program
)",
                                 false);
  EXPECT_HAS(Errors, "t.f90:6:37: error: attach and detach of components are not translated yet");
}

TEST_F(FortranKernelTest, AssumedSizeArraysAreMappedBySectionsAndFoundPresent) {
  const std::string Program = R"(subroutine scale(m, n, lda, a, x)
  integer :: m, n, lda, i, j
  real(8) :: a(lda, *), x(*)
  !$acc parallel loop collapse(2) copyin(x(1:n))
  do j = 1, n
    do i = 1, m
      a(i, j) = a(i, j) * x(j)
    end do
  end do
end subroutine
)";
  std::string Out = translate(Program);
  // The last extent is not passed (-1, never read); the rows are lda long.
  EXPECT_HAS(Out, "(x, lbound(x, kind=8), [-1_8], ");
  EXPECT_HAS(Out, "a, lbound(a, kind=8), [size(a, 1, kind=8), -1_8])");
  EXPECT_HAS(Out, "{\"double (*a)[jacc_n_a_1]\", (void *)&a}");
  // x's section is mapped; a, which no clause names, must be present already.
  EXPECT_HAS(Out, "jacc_fortran_assumed_size((void *)a, sizeof(double), \"t.f90:4\", \"a\", "
                  "\"a(:, 1:n)\");");
  EXPECT_EQ(Out.find("jacc_fortran_assumed_size((void *)x"), std::string::npos);
  EXPECT_EQ(Out.find("jacc_fortran_implicit((void *)a"), std::string::npos);
  expectKernelsCompileText(Program);
  std::string Errors = translate(R"(subroutine bad(n, x, s, w)
  integer :: n, i
  real(8) :: x(*), s, w(*)
  !$acc parallel loop copy(x) reduction(+:s) private(w)
  do i = 1, n
    w(1) = x(i)
    s = s + w(1)
  end do
  !$acc update self(x(2:))
end subroutine
)",
                                 false);
  EXPECT_HAS(Errors, "t.f90:4:28: error: 'x' is an assumed-size array, whose extent the directive "
                     "cannot know: name a section with an upper bound, as x(1:n)");
  EXPECT_HAS(Errors, "t.f90:9:21: error: 'x' is an assumed-size array");
  EXPECT_HAS(Errors, "'w' is an assumed-size array, whose extent is unknown: it cannot be "
                     "private or reduced");
}

TEST_F(FortranKernelTest, BoundsKnownOnlyAsTheProgramRunsAreTheKernelsArguments) {
  std::string Out = translate(R"(module m
contains
  real(8) function ends(v)
    !$acc routine seq
    real(8), intent(in) :: v(:)
    ends = v(lbound(v, 1)) + v(size(v))
  end function
end module
program p
  use m
  real(8), allocatable :: a(:, :)
  integer :: i, j
  allocate (a(-2:5, 3:7))
  !$acc parallel loop copy(a)
  do j = lbound(a, 2), ubound(a, 2)
    do i = 1, size(a, 1)
      a(i - 3, j) = size(a) + ends(a(:, j))
    end do
  end do
end program
)");
  EXPECT_HAS(Out,
             "for (int j = ((int)(long long)jacc_lb_a_2); j <= ((int)(((long long)jacc_n_a_2 + "
             "(long long)jacc_lb_a_2) - 1LL)); j++) {");
  EXPECT_HAS(Out, "for (int i = 1; i <= ((int)(long long)jacc_n_a_1); i++) {");
  EXPECT_HAS(Out, "((int)((long long)jacc_n_a_1 * (long long)jacc_n_a_2))");
  EXPECT_HAS(Out, "jacc_result = (v[(long long)1 - 1] + v[(long long)jacc_rn_v_1 - 1]);");
}

/// The routines a translated file registers for the kernels of other files (its glue's
/// `jacc_define_routine("name", "text..."), "site");` calls), into Table; their names.
std::vector<std::string> registerRoutines(const std::string &Glue, jit::KernelRoutines &Table) {
  std::vector<std::string> Names;
  std::istringstream In(Glue);
  std::string Line, Name, Text;
  bool Inside = false;
  while (std::getline(In, Line)) {
    llvm::StringRef L = llvm::StringRef(Line).trim();
    if (L.consume_front("jacc_translated_check(jacc_define_routine(\"")) {
      Name = L.take_until([](char C) { return C == '"'; }).str();
      Text.clear();
      Inside = true;
      continue;
    }
    if (!Inside)
      continue;
    size_t End = L.find("\"), \"");
    EXPECT_TRUE(
        test::literalLine(L.take_front(End == llvm::StringRef::npos ? L.size() : End + 1), Text))
        << Line;
    if (End != llvm::StringRef::npos) {
      EXPECT_FALSE(bool(Table.define(Name, Text)));
      Names.push_back(Name);
      Inside = false;
    }
  }
  return Names;
}

TEST_F(FortranKernelTest, ExternalRoutinesOfOtherFilesAreLinkedByTheirInterfaces) {
  std::string Lib = translate(R"(subroutine scale(x, a, y)
  !$acc routine seq
  real(8), intent(in) :: x, a
  real(8), intent(out) :: y
  y = a * x + half(x)
end subroutine
real(8) function half(x)
  !$acc routine seq
  real(8), intent(in) :: x
  half = x / 2
end function
subroutine count(k, v)
  !$acc routine seq
  integer :: k ! no intent: by address
  real(8), intent(in) :: v(:)
  k = k + size(v)
end subroutine
module tables
  real(8) :: gain
end module
subroutine amplify(x)
  !$acc routine seq
  use tables
  real(8) :: x
  x = gain * x
end subroutine
)",
                              true, "lib.f90");
  jit::KernelRoutines Table;
  std::vector<std::string> Names = registerRoutines(Lib, Table);
  // Each in two forms, for callers with its interface and without one, but count (assumed
  // shape: only with one).
  ASSERT_EQ(Names.size(), 7u) << Lib;
  auto Named = [&](const char *Fortran) {
    for (const std::string &N : Names)
      if (llvm::StringRef(N).startswith(std::string("jacc_external_") + Fortran + "_sig"))
        return N;
    ADD_FAILURE() << Fortran << " is not registered: " << Lib;
    return std::string();
  };
  std::string Scale = Named("scale"), Count = Named("count");
  // Its own file's routines it carries; what the interface cannot pass is registered as the
  // error, which only a kernel calling it reports.
  EXPECT_HAS(Lib, "static void " + Scale + "(double x, double a, double *y) {");
  EXPECT_HAS(Lib, "static void " + Count + "(int *k, double *v, long long jacc_rn_v_1) {");
  EXPECT_HAS(Lib, "#error \\\"");
  EXPECT_HAS(Lib, "which a kernel of another file cannot pass it");

  const std::string ScaleInterface = R"(    subroutine scale(x, a, y)
      !$acc routine seq
      real(8), intent(in) :: x, a
      real(8), intent(out) :: y
    end subroutine
)";
  const std::string CountInterface = R"(    subroutine count(k, v)
      !$acc routine seq
      integer :: k
      real(8), intent(in) :: v(:)
    end subroutine
)";
  auto Interfaces = [](const std::string &Bodies) {
    return "  interface\n" + Bodies + "  end interface\n";
  };
  auto Caller = [&](const std::string &Interface, const std::string &Calls) {
    return "program main\n  implicit none\n" + Interface +
           "  integer :: i, n\n  real(8) :: v(100), w(100)\n  n = 100\n"
           "  !$acc parallel loop copy(v, w, n)\n  do i = 1, 100\n" +
           Calls + "\n  end do\nend program\n";
  };
  std::vector<test::PushedKernel> Pushed = test::pushedKernels(
      translate(Caller(Interfaces(ScaleInterface + CountInterface),
                       "    call scale(v(i), 2d0, w(i))\n    if (i == 1) call count(n, v)")));
  ASSERT_EQ(Pushed.size(), 1u);
  const std::string &K = Pushed[0].Source;
  EXPECT_HAS(K, "#pragma jacc routines(" + Scale + ")\n");
  EXPECT_HAS(K, "#pragma jacc routines(" + Count + ")\n");
  EXPECT_HAS(K, Scale + "(v[i - 1], (2.), &w[i - 1]);");
  EXPECT_HAS(K, Count + "(&jacc_ref_n[0], &v[0], (long long)(100));");
  EXPECT_TRUE(llvm::is_contained(
      Infos, "t.f90:18: calls routines of other files (scale, count): analysed with their "
             "definitions when it first runs (JACC_DEBUG=analysis prints it)"))
      << llvm::join(Infos, "\n");
  // Linked as the runtime links it, the kernel analyses and compiles for CUDA.
  auto Linked = Table.link(K);
  ASSERT_TRUE(Linked && *Linked) << (Linked ? "no line" : llvm::toString(Linked.takeError()));
  EXPECT_HAS(**Linked, "static double jacc_routine_half(double x) {");
  analysis::KernelInfo Info = jit::analyzeOrFail(**Linked, Pushed[0].Decls);
  if (!Info.Source.empty() && jit::nvrtcAvailable())
    jit::expectKernelCompilesForCuda(Info);

  // An interface that passes differently from the definition calls another name, which the
  // runtime reports naming the definition.
  std::string Other = kernel(
      Caller(Interfaces(replaceAll(ScaleInterface, "real(8), intent(in) :: x", "real(8) :: x")),
             "    call scale(v(i), v(1), w(i))"));
  EXPECT_EQ(Other.find(Scale), std::string::npos);
  auto Refused = Table.link(Other);
  ASSERT_FALSE(bool(Refused));
  std::string Why = llvm::toString(Refused.takeError());
  EXPECT_HAS(Why, "defined at lib.f90:1 takes other arguments or returns another type");

  // Without an interface every argument passes by address, the form the definition's file
  // registers too; an expression where the routine may assign its argument is passed in a
  // temporary, as Fortran passes it.
  std::string Implicit =
      kernel(Caller(Interfaces(CountInterface) + R"(  external scale
  !$acc routine(scale) seq
)",
                    "    call count(i + 1, v)\n    call scale(v(i), 2d0, w(i))"));
  EXPECT_HAS(Implicit,
             "  int jacc_a1 = (i + 1);\n  " + Count + "(&jacc_a1, &v[0], (long long)(100));");
  EXPECT_HAS(Implicit, "  double jacc_a2 = (2.);\n  jacc_external_scale_sig");
  auto Linked2 = Table.link(Implicit);
  ASSERT_TRUE(Linked2 && *Linked2) << (Linked2 ? "no line" : llvm::toString(Linked2.takeError()));
  EXPECT_HAS(**Linked2, "(double *x, double *a, double *y) {\n  (*y) = (((*a) * (*x)) + ");
  // A routine using a variable of its module is registered as that error, which a kernel
  // calling it reports when it is compiled.
  std::string Amplify = kernel(
      Caller("  external amplify\n  !$acc routine(amplify) seq\n", "    call amplify(w(i))"));
  auto Linked3 = Table.link(Amplify);
  ASSERT_TRUE(Linked3 && *Linked3) << (Linked3 ? "no line" : llvm::toString(Linked3.takeError()));
  EXPECT_HAS(**Linked3, "#error");
  EXPECT_HAS(**Linked3, "which a kernel of another file cannot pass it");
}

TEST_F(FortranKernelTest, EveryKernelOfTheGoldenFileAndTheCorpusAnalysesAndCompilesForCuda) {
  for (auto [File, Count] :
       {std::pair<const char *, size_t>{"tests/translate/golden/fortran_constructs.f90", 5},
        {"tests/openacc/fortran_heat2d.f90", 3},
        {"tests/openacc/fortran_adi.f90", 4},
        {"tests/openacc/fortran_reductions.f90", 14},
        {"tests/openacc/fortran_arrays.f90", 5},
        {"tests/openacc/fortran_routines.f90", 3},
        {"tests/openacc/fortran_cg_types.f90", 8},
        {"tests/openacc/fortran_field_type.f90", 3},
        {"tests/openacc/fortran_module_arrays.f90", 3},
        {"tests/openacc/fortran_pointers.f90", 4},
        {"tests/openacc/fortran_complex.f90", 4},
        {"tests/openacc/fortran_assumed_size.f90", 3},
        {"tests/openacc/fortran_intrinsics.f90", 1},
        {"tests/openacc/fortran_loop_exits.f90", 1}})
    expectKernelsCompile(std::string(JACC_SOURCE_DIR) + "/" + File, Count);
}

} // namespace
#endif
