// Routines of other files linked into kernels: the text replaces the kernel's
// `#pragma jacc routines(...)` line, each declaration once, transitively; a missing or
// ambiguous routine is an error naming the kernel's site.
#include "jit/KernelRoutines.h"

#include "analysis/KernelSource.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc;
using namespace jacc::jit;

namespace {

const std::string End = analysis::RoutineItemEnd;

/// The linked text, or the error's message prefixed by "error: ".
std::string linked(const KernelRoutines &T, const std::string &Kernel) {
  auto L = T.link(Kernel);
  if (!L) {
    std::string Msg;
    takeError(L.takeError(), Msg);
    return "error: " + Msg;
  }
  return *L ? **L : "(unchanged)";
}

TEST(KernelRoutines, AKernelWithoutTheLineIsUnchanged) {
  KernelRoutines T;
  EXPECT_EQ(linked(T, "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) y[i] = 0;\n"),
            "(unchanged)");
}

TEST(KernelRoutines, TheLineBecomesTheDefinitionsWithEachDeclarationOnce) {
  KernelRoutines T;
  std::string Point = "typedef struct { double x, y; } point;\n";
  ASSERT_FALSE(llvm::errorToBool(
      T.define("norm1", Point + End + "static double norm1(point p) { return p.x + p.y; }\n" + End +
                            "// jacc-site: geo.c:3\n")));
  ASSERT_FALSE(llvm::errorToBool(T.define(
      "dot", Point + End +
                 "static double dot(point a, point b) { return a.x * b.x + a.y * b.y; }\n" + End)));
  std::string Kernel = Point + "#pragma jacc routines(norm1, dot)\n#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) y[i] = norm1(p[i]) + dot(p[i], p[i]);\n"
                               "// jacc-site: main.c:9\n";
  std::string Out = linked(T, Kernel);
  EXPECT_EQ(Out, Point + "static double norm1(point p) { return p.x + p.y; }\n"
                         "static double dot(point a, point b) { return a.x * b.x + a.y * b.y; }\n"
                         "#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++) y[i] = norm1(p[i]) + dot(p[i], p[i]);\n"
                         "// jacc-site: main.c:9\n");
}

TEST(KernelRoutines, ARoutineCallingRoutinesOfOtherFilesBringsThemToo) {
  KernelRoutines T;
  ASSERT_FALSE(llvm::errorToBool(T.define("inner", "static int inner(int v) { return v + 1; }\n")));
  ASSERT_FALSE(llvm::errorToBool(
      T.define("outer", "#pragma jacc routines(inner)\n" + End +
                            "static int outer(int v) { return 2 * inner(v); }\n" + End)));
  std::string Out = linked(T, "#pragma jacc routines(outer)\nK\n");
  EXPECT_EQ(Out, "static int inner(int v) { return v + 1; }\n"
                 "static int outer(int v) { return 2 * inner(v); }\nK\n");
}

TEST(KernelRoutines, AnUnknownRoutineNamesItAndTheKernelsSite) {
  KernelRoutines T;
  std::string Out = linked(T, "#pragma jacc routines(nowhere)\nK\n// jacc-site: main.c:12\n");
  EXPECT_NE(Out.find("error: the kernel at main.c:12 calls 'nowhere', which is declared but "
                     "defined in no file"),
            std::string::npos)
      << Out;
}

TEST(KernelRoutines, TwoDifferentTextsOfANameFailOnlyTheKernelsCallingIt) {
  KernelRoutines T;
  ASSERT_FALSE(
      llvm::errorToBool(T.define("f", "static int f(int v) { return v; }\n// jacc-site: a.c:1\n")));
  ASSERT_FALSE(
      llvm::errorToBool(T.define("f", "static int f(int v) { return v; }\n// jacc-site: a.c:1\n")))
      << "the same text again (a header's routine in two files) is no change";
  ASSERT_FALSE(llvm::errorToBool(
      T.define("f", "static int f(int v) { return -v; }\n// jacc-site: b.c:7\n")));
  std::string Out = linked(T, "#pragma jacc routines(f)\nK\n");
  EXPECT_NE(Out.find("'f', which is defined at a.c:1 and, differently, at b.c:7"),
            std::string::npos)
      << Out;
  EXPECT_EQ(linked(T, "K\n"), "(unchanged)");
}

TEST(KernelRoutines, ANameThatIsNoIdentifierIsRefused) {
  KernelRoutines T;
  llvm::Error E = T.define("a b", "x");
  std::string Msg;
  EXPECT_EQ(takeError(std::move(E), Msg), ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("'a b' is not a C identifier"), std::string::npos) << Msg;
}

} // namespace
