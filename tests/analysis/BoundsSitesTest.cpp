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

TEST(BoundsSitesTest, SubscriptChainsOfOneArgument) {
  struct Case {
    const char *Why, *Body;
    Strings Decls, Want;
  };
  const Case Cases[] = {
      {"nested subscripts are two sites", "y[idx[i]] = 0;\n",
       {"int *y", "const int *idx", "int n"}, {"y[idx[i]] w 2:29 y/1", "idx[i] r 2:31 idx/1"}},
      {"the rows of a pointer to arrays are one site", "a[i][1] = 1;\n",
       {"int n", "int m", "double (*a)[m]"}, {"a[i][1] w 2:29 a/2"}},
      // a[i][0] of a pointer array lies in another mapping (an attached row).
      {"a row loaded from a pointer array is not the argument's", "s[i] = a[i][0];\n",
       {"int n", "double *s", "double **a"}, {"s[i] w 2:29 s/1", "a[i] r 2:36 a/1"}},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(sites(std::string("#pragma acc parallel loop\n"
                                "for (int i = 0; i < n; i++) ") +
                        C.Body,
                    C.Decls),
              C.Want)
        << C.Why;
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
