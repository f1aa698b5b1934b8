// Tests of the element accesses JACC_CHECK=bounds checks: which subscripts are sites, whether
// each is a write, where it is, and what is left out.
#include "analysis/BoundsSites.h"

#include "tests/analysis/FrontendCheck.h"

#include <gtest/gtest.h>

namespace {

using namespace jacc::analysis;
using jacc::analysis::test::analyze;

/// "y[i] w 3:3" for each site of the kernel, in source order.
std::vector<std::string> sites(const std::string &Src, std::vector<std::string> Decls) {
  KernelInfo K = analyze(Src, std::move(Decls));
  std::vector<std::string> S;
  for (const BoundsSite &B : K.BoundsSites)
    S.push_back(K.Source.substr(B.Begin, B.End - B.Begin) + (B.Write ? " w " : " r ") +
                std::to_string(B.Line) + ":" + std::to_string(B.Col) + " " + K.Args[B.Arg].Name +
                "/" + std::to_string(B.Subscripts));
  return S;
}

using Strings = std::vector<std::string>;

TEST(BoundsSitesTest, ReadsAndWritesOfPointerArguments) {
  EXPECT_EQ(sites("#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++)\n"
                  "  y[i] = a * x[i] + y[i];\n",
                  {"float *y", "const float *x", "float a", "int n"}),
            (Strings{"y[i] w 3:3 y/1", "x[i] r 3:14 x/1", "y[i] r 3:21 y/1"}));
}

TEST(BoundsSitesTest, CompoundAssignmentsAndIncrementsWrite) {
  EXPECT_EQ(sites("#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++) { y[i] += 1; (y[i])++; --y[i]; }\n",
                  {"int *y", "int n"}),
            (Strings{"y[i] w 2:31 y/1", "y[i] w 2:43 y/1", "y[i] w 2:54 y/1"}));
}

TEST(BoundsSitesTest, NestedSubscriptsAreTwoSites) {
  EXPECT_EQ(sites("#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++) y[idx[i]] = 0;\n",
                  {"int *y", "const int *idx", "int n"}),
            (Strings{"y[idx[i]] w 2:29 y/1", "idx[i] r 2:31 idx/1"}));
}

TEST(BoundsSitesTest, RowsOfAPointerToArraysAreOneSite) {
  EXPECT_EQ(sites("#pragma acc parallel loop collapse(2)\n"
                  "for (int i = 0; i < n; i++)\n"
                  "  for (int j = 0; j < m; j++) a[i][j] = 1;\n",
                  {"int n", "int m", "double (*a)[m]"}),
            (Strings{"a[i][j] w 3:31 a/2"}));
}

TEST(BoundsSitesTest, RowsLoadedFromAPointerArrayAreNotTheArgumentsElements) {
  // a[i] is an element of a; a[i][j] is in another mapping (an attached row).
  EXPECT_EQ(sites("#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++) s[i] = a[i][0];\n",
                  {"int n", "double *s", "double **a"}),
            (Strings{"s[i] w 2:29 s/1", "a[i] r 2:36 a/1"}));
}

TEST(BoundsSitesTest, AddressesLocalsAndMacrosAreNotSites) {
  EXPECT_EQ(sites("#define AT(p, i) p[i]\n"
                  "#pragma acc parallel loop\n"
                  "for (int i = 0; i < n; i++) {\n"
                  "  int t[2] = {0, 1};\n"
                  "  const int *e = &y[n];\n"
                  "  AT(y, i) = t[1] + (int)(e - y);\n"
                  "}\n",
                  {"int *y", "int n"}),
            Strings{});
}

} // namespace
